// raypick geometry: the descriptor of a shape type, and what is derived from it for any type.
//
// Each shape type lives in one header of its own (Sphere.h, Aabb.h, Obb.h, Capsule.h): its value
// type, is_valid(), validate(), bounds() and a specialisation of ShapeTraits, next to its ray test
// (RaySphere.h, ...). Shape.h lists the types once (ShapeTypes); scene files, the BVH's leaves,
// the demo's editor and renderer, the fuzzers and the benchmarks iterate over that list and read
// each type's facts from its ShapeTraits. What a type must provide:
//
//   template <> struct ShapeTraits<Disk> {
//       static constexpr const char* name = "disk";   // in files, messages and the CLI
//       static constexpr const char* label = "Disk";  // in the demo's menus and panels
//       template <typename T> static constexpr auto fields() {  // in file order
//           return std::make_tuple(Field{"center", &Disk<T>::center, FieldRole::Point}, ...);
//       }
//       template <typename T> static Disk<T> example(const Vec3<T>& at);  // a shape to add at `at`
//       static constexpr double leaf_cost = 1.0;   // a BVH leaf vector's test cost, sphere = 1
//       static constexpr bool cached_validity = false;  // see lane_count()
//   };
//   plus the free functions is_valid(), validate(), bounds() and cast() of Ray.h's contract
//   (pick() and detail::passage() are optional: first_surface() of cast() stands in for them).
//
// A type without a batch kernel (BatchKernels.inl) is tested by its scalar cast() in the BVH's
// leaves; nothing else needs to know.
#pragma once

#include <array>
#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>
#include <variant>

#include <raypick/geometry/Math.h>

namespace raypick {

/// What a field of a shape means: how files, the editor, handles and moves treat it.
enum class FieldRole {
    Point,     ///< a position (Vec3): moves with the shape; the editor drags it as a handle
    Length,    ///< a scalar >= 0 (a radius)
    Extent,    ///< three lengths >= 0 (half extents), a Vec3
    Direction, ///< a direction or axis (Vec3): turns with the shape, does not move with it
    Rotation,  ///< a proper rotation (Mat3 whose columns are the shape's axes)
};

/// One field of a shape value type S: its name (the key in files, InputError::field), where it is
/// in S, and its role.
template <typename S, typename M> struct Field {
    using Value = M;
    const char* name;
    M S::*member;
    FieldRole role;
};
template <typename S, typename M> Field(const char*, M S::*, FieldRole) -> Field<S, M>;

/// The descriptor of shape type S (see the top of this file); specialised in S's own header.
template <template <typename> class S> struct ShapeTraits;

/// Whether S is a shape type (has a ShapeTraits).
template <template <typename> class S, typename = void> struct IsShapeType : std::false_type {};
template <template <typename> class S>
struct IsShapeType<S, std::void_t<decltype(ShapeTraits<S>::name)>> : std::true_type {};

/// A shape type as a value, to pass to the visitors of a type list: ShapeTag<S>::type<T> is S<T>.
template <template <typename> class S> struct ShapeTag {
    template <typename T> using type = S<T>;
    using Traits = ShapeTraits<S>;
};

/// The descriptor of a shape value type: TraitsOf<Sphere<float>> is ShapeTraits<Sphere>.
template <typename V> struct TraitsOfValue;
template <template <typename> class S, typename T> struct TraitsOfValue<S<T>> {
    using type = ShapeTraits<S>;
    using scalar = T;
};
template <typename V> using TraitsOf = typename TraitsOfValue<V>::type;

/// A list of shape types, in index order (the index of a type is its place in the list).
template <template <typename> class... S> struct ShapeList {
    static constexpr int size = int(sizeof...(S));
    template <typename T> using Variant = std::variant<S<T>...>;

    /// fn(ShapeTag<S>{}) for each type, in order.
    template <typename Fn> static constexpr void for_each(Fn&& fn) { (fn(ShapeTag<S>{}), ...); }
};

namespace detail {
template <int I, template <typename> class... S> struct ShapeAt;
template <template <typename> class First, template <typename> class... Rest>
struct ShapeAt<0, First, Rest...> {
    using Tag = ShapeTag<First>;
};
template <int I, template <typename> class First, template <typename> class... Rest>
struct ShapeAt<I, First, Rest...> : ShapeAt<I - 1, Rest...> {};

template <template <typename> class X, template <typename> class... S> constexpr int index_of() {
    int i = 0, found = -1;
    ((std::is_same_v<ShapeTag<X>, ShapeTag<S>> ? (found = i, ++i) : ++i), ...);
    return found;
}
}  // namespace detail

/// The type at `index` of a list: ShapeAt<List, 2>::Tag.
template <typename List, int I> struct ShapeAt;
template <template <typename> class... S, int I> struct ShapeAt<ShapeList<S...>, I> : detail::ShapeAt<I, S...> {};

namespace detail {
/// fn(ShapeTag of the type at index `type` of List), looked for from index I on: a switch per
/// block of eight types (a jump table: the cost does not grow with the list; a chain of
/// comparisons would take one more per type), the last type for anything out of range.
template <int I, typename List, typename Fn> [[gnu::always_inline]] inline decltype(auto) visit_block(int type, Fn& fn) {
    constexpr int N = List::size;
#define RAYPICK_VISIT_CASE(k)                                                                \
    case k:                                                                                  \
        if constexpr (I + k < N - 1) return fn(typename raypick::ShapeAt<List, I + k>::Tag{}); \
        break;
    switch (type - I) {
        RAYPICK_VISIT_CASE(0)
        RAYPICK_VISIT_CASE(1)
        RAYPICK_VISIT_CASE(2)
        RAYPICK_VISIT_CASE(3)
        RAYPICK_VISIT_CASE(4)
        RAYPICK_VISIT_CASE(5)
        RAYPICK_VISIT_CASE(6)
        RAYPICK_VISIT_CASE(7)
        default: break;
    }
#undef RAYPICK_VISIT_CASE
    if constexpr (I + 8 < N - 1) return visit_block<I + 8, List>(type, fn);
    else return fn(typename raypick::ShapeAt<List, N - 1>::Tag{});
}
}  // namespace detail

/// fn(ShapeTag<S>{}) for the type S at index `type` of the list (type in [0, size); the last type
/// for anything else).
template <typename List> struct ShapeVisit;
template <template <typename> class... S> struct ShapeVisit<ShapeList<S...>> {
    template <typename Fn> [[gnu::always_inline]] static decltype(auto) visit(int type, Fn&& fn) {
        return detail::visit_block<0, ShapeList<S...>>(type, fn);
    }
    template <template <typename> class X> static constexpr int index = detail::index_of<X, S...>();
};

// ---- fields --------------------------------------------------------------------------------------

/// fn(field, value) for each field of `shape`, in ShapeTraits<S>::fields() order; value is a
/// reference into `shape` (const where `shape` is).
template <template <typename> class S, typename T, typename Fn>
void for_each_field(S<T>& shape, Fn&& fn) {
    std::apply([&](const auto&... f) { (fn(f, shape.*(f.member)), ...); }, ShapeTraits<S>::template fields<T>());
}
template <template <typename> class S, typename T, typename Fn>
void for_each_field(const S<T>& shape, Fn&& fn) {
    std::apply([&](const auto&... f) { (fn(f, shape.*(f.member)), ...); }, ShapeTraits<S>::template fields<T>());
}

/// Scalars in a field's value: 1 (T), 3 (Vec3) or 9 (Mat3).
template <typename M> struct ScalarsOf {
    static constexpr int value = 1;
};
template <typename T> struct ScalarsOf<Vec3<T>> {
    static constexpr int value = 3;
};
template <typename T> struct ScalarsOf<Mat3<T>> {
    static constexpr int value = 9;
};

/// Scalar k of a field's value (a Mat3 column-major: m[k / 3][k % 3]).
template <typename T> T& scalar_at(T& v, int) { return v; }
template <typename T> const T& scalar_at(const T& v, int) { return v; }
template <typename T> T& scalar_at(Vec3<T>& v, int k) { return v[k]; }
template <typename T> const T& scalar_at(const Vec3<T>& v, int k) { return v[k]; }
template <typename T> T& scalar_at(Mat3<T>& m, int k) { return m[k / 3][k % 3]; }
template <typename T> const T& scalar_at(const Mat3<T>& m, int k) { return m[k / 3][k % 3]; }

/// Exact equality of every field (value equality: -0 == +0, NaN never equal).
template <template <typename> class S, typename T, std::enable_if_t<IsShapeType<S>::value, int> = 0>
bool same_fields(const S<T>& a, const S<T>& b) {
    bool eq = true;
    std::apply([&](const auto&... f) { ((eq = eq && a.*(f.member) == b.*(f.member)), ...); },
               ShapeTraits<S>::template fields<T>());
    return eq;
}

namespace detail {
template <typename U, template <typename> class S, typename T, std::size_t... I>
S<U> convert_fields(const S<T>& s, std::index_sequence<I...>) {
    S<U> out;
    const auto from = ShapeTraits<S>::template fields<T>();
    const auto to = ShapeTraits<S>::template fields<U>();
    ((out.*(std::get<I>(to).member) = std::decay_t<decltype(out.*(std::get<I>(to).member))>(s.*(std::get<I>(from).member))), ...);
    return out;
}
}  // namespace detail

/// The shape in another precision, field by field.
template <typename U, template <typename> class S, typename T, std::enable_if_t<IsShapeType<S>::value, int> = 0>
S<U> convert(const S<T>& s) {
    constexpr std::size_t n = std::tuple_size_v<decltype(ShapeTraits<S>::template fields<T>())>;
    return detail::convert_fields<U>(s, std::make_index_sequence<n>{});
}

// ---- the BVH's leaf lanes --------------------------------------------------------------------------
// A leaf stores each shape as its fields' scalars in fields() order, one lane each (SoA: scalar k
// of the shape in lane `i` at f[k * stride + i]); a type with cached_validity adds one lane holding
// is_valid() as 1 or 0, which its batch kernel reads instead of checking the shape on every cast.

/// Lanes (scalars) a shape of value type V (Sphere<float>, ...) takes in a leaf.
template <typename V> constexpr int lane_count() {
    using T = typename TraitsOfValue<V>::scalar;
    return std::apply([](const auto&... f) { return (0 + ... + ScalarsOf<typename std::decay_t<decltype(f)>::Value>::value); },
                      TraitsOf<V>::template fields<T>()) +
           (TraitsOf<V>::cached_validity ? 1 : 0);
}

namespace detail {
/// Scalars before field I of value type V's fields.
template <typename V, std::size_t I> constexpr std::size_t lanes_before() {
    using T = typename TraitsOfValue<V>::scalar;
    constexpr auto sizes = std::apply(
        [](const auto&... f) {
            return std::array<std::size_t, sizeof...(f)>{
                std::size_t(ScalarsOf<typename std::decay_t<decltype(f)>::Value>::value)...};
        },
        TraitsOf<V>::template fields<T>());
    std::size_t n = 0;
    for (std::size_t i = 0; i != I; ++i) n += sizes[i];
    return n;
}
template <typename V, typename T, std::size_t... I>
inline void store_fields(const V& s, T* f, std::size_t stride, std::index_sequence<I...>) {
    constexpr auto fields = TraitsOf<V>::template fields<T>();
    const auto store = [&](std::size_t at, const auto& v) {
        for (int j = 0; j < ScalarsOf<std::decay_t<decltype(v)>>::value; ++j) f[(at + std::size_t(j)) * stride] = scalar_at(v, j);
    };
    (store(lanes_before<V, I>(), s.*(std::get<I>(fields).member)), ...);
}
template <typename V, typename T, std::size_t... I>
inline void load_fields(V& s, const T* f, std::size_t stride, std::index_sequence<I...>) {
    constexpr auto fields = TraitsOf<V>::template fields<T>();
    const auto load = [&](std::size_t at, auto& v) {
        for (int j = 0; j < ScalarsOf<std::decay_t<decltype(v)>>::value; ++j) scalar_at(v, j) = f[(at + std::size_t(j)) * stride];
    };
    (load(lanes_before<V, I>(), s.*(std::get<I>(fields).member)), ...);
}
template <typename V> constexpr std::size_t field_count() {
    return std::tuple_size_v<decltype(TraitsOf<V>::template fields<typename TraitsOfValue<V>::scalar>())>;
}
}  // namespace detail

/// Writes `s` as lanes: f[k * stride] = scalar k.
template <template <typename> class S, typename T> void store_lanes(const S<T>& s, T* f, std::size_t stride) {
    detail::store_fields(s, f, stride, std::make_index_sequence<detail::field_count<S<T>>()>{});
    if constexpr (ShapeTraits<S>::cached_validity) f[std::size_t(lane_count<S<T>>() - 1) * stride] = is_valid(s) ? T(1) : T(0);
}

/// The shape of value type V stored by store_lanes() at f with `stride`.
template <typename V, typename T> V load_lanes(const T* f, std::size_t stride) {
    V s;
    detail::load_fields(s, f, stride, std::make_index_sequence<detail::field_count<V>()>{});
    return s;
}

}  // namespace raypick
