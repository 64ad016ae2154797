// raypick geometry: the list of shape types, and a shape of any of them as a value
// (std::variant), for scenes and tools. The per-type casts stay the hot path; this is dispatch for
// code that holds mixed shapes. A shape type's facts live in its own header (ShapeTraits.h says
// what a type provides); ShapeTypes below is the one place that lists the types.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <type_traits>
#include <variant>

#include <raypick/geometry/RayAabb.h>
#include <raypick/geometry/RayCapsule.h>
#include <raypick/geometry/RayHit.h>
#include <raypick/geometry/RayObb.h>
#include <raypick/geometry/RaySphere.h>
#include <raypick/geometry/RayTriangle.h>
#include <raypick/geometry/ShapeTraits.h>
#include <raypick/geometry/Validate.h>

// A program can add shape types of its own without editing raypick: define, for every translation
// unit of the program (raypick's libraries included), RAYPICK_EXTRA_SHAPES_HEADER as a header that
// defines them (as Sphere.h and RaySphere.h do) and RAYPICK_EXTRA_SHAPE_TYPES as ", Disk, Cone".
#ifdef RAYPICK_EXTRA_SHAPES_HEADER
#include RAYPICK_EXTRA_SHAPES_HEADER
#endif
#ifndef RAYPICK_EXTRA_SHAPE_TYPES
#define RAYPICK_EXTRA_SHAPE_TYPES
#endif

namespace raypick {

/// The shape types, in index order. Adding a type: its header here, its name in this list.
using ShapeTypes = ShapeList<Sphere, Aabb, Obb, Capsule, Triangle RAYPICK_EXTRA_SHAPE_TYPES>;

inline constexpr int kShapeTypeCount = ShapeTypes::size;

/// A shape type's index in ShapeTypes. The built-in types have names here for convenience; any
/// type's index is shape_type<S>.
enum class ShapeType : std::uint8_t { Sphere = 0, Aabb = 1, Obb = 2, Capsule = 3, Triangle = 4 };

template <template <typename> class S> inline constexpr ShapeType shape_type =
    ShapeType(ShapeVisit<ShapeTypes>::index<S>);
static_assert(shape_type<Sphere> == ShapeType::Sphere && shape_type<Aabb> == ShapeType::Aabb &&
                  shape_type<Obb> == ShapeType::Obb && shape_type<Capsule> == ShapeType::Capsule &&
                  shape_type<Triangle> == ShapeType::Triangle,
              "ShapeType's names follow ShapeTypes' order");

/// fn(ShapeTag<S>{}) for the type S with index t.
template <typename Fn> [[gnu::always_inline]] inline decltype(auto) visit_shape_type(ShapeType t, Fn&& fn) {
    return ShapeVisit<ShapeTypes>::visit(int(t), std::forward<Fn>(fn));
}
/// fn(ShapeTag<S>{}) for every shape type, in index order.
template <typename Fn> void for_each_shape_type(Fn&& fn) { ShapeTypes::for_each(std::forward<Fn>(fn)); }

/// Lower-case name used in files and messages: "sphere", "aabb", "obb", "capsule", "triangle" (ShapeTraits::name).
inline const char* shape_type_name(ShapeType t) {
    if (int(t) >= kShapeTypeCount) return "unknown";
    return visit_shape_type(t, [](auto tag) { return decltype(tag)::Traits::name; });
}
/// Name shown in the demo: "Sphere", "AABB", "OBB", "Capsule", "Triangle" (ShapeTraits::label).
inline const char* shape_type_label(ShapeType t) {
    if (int(t) >= kShapeTypeCount) return "unknown";
    return visit_shape_type(t, [](auto tag) { return decltype(tag)::Traits::label; });
}
/// The type whose shape_type_name() is `name`, if any.
inline std::optional<ShapeType> shape_type_named(std::string_view name) {
    for (int t = 0; t < kShapeTypeCount; ++t)
        if (name == shape_type_name(ShapeType(t))) return ShapeType(t);
    return std::nullopt;
}

/// Index order matches ShapeTypes.
template <typename T> using Shape = ShapeTypes::Variant<T>;

template <typename T> ShapeType type_of(const Shape<T>& s) { return ShapeType(s.index()); }

/// A new shape of type t around `at` (ShapeTraits::example).
template <typename T> Shape<T> example_shape(ShapeType t, const Vec3<T>& at) {
    return visit_shape_type(t, [&](auto tag) -> Shape<T> { return decltype(tag)::Traits::example(at); });
}

template <typename T>
std::optional<RayHit<T>> cast(const Ray<T>& ray, const Shape<T>& shape, T t_min = T(0),
                              T t_max = infinity<T>()) {
    return std::visit([&](const auto& s) { return cast(ray, s, t_min, t_max); }, shape);
}

namespace detail {
template <typename T, typename S, typename = void> struct HasPassage : std::false_type {};
template <typename T, typename S>
struct HasPassage<T, S, std::void_t<decltype(passage(std::declval<const Ray<T>&>(), std::declval<const S&>(),
                                                     std::declval<T&>(), std::declval<T&>()))>> : std::true_type {};

/// cast()'s decision and t values for one shape, without its normals: a valid shape whose line
/// passage [t0, t1] overlaps [t_min, t_max]. A type without its own passage() (t only) answers
/// with cast(). Out of line on purpose: code compiled for wider
/// instruction sets (the batch kernels' out-of-range lanes, the BVH's lone leaf shapes) calls it,
/// and inlined there, a compiler that contracts by default (clang) would fuse its multiplies and
/// adds into FMA instructions (AVX-512 has them) and round differently from cast() itself.
template <typename T, typename S>
[[gnu::noinline]] bool accepted_passage(const Ray<T>& ray, const S& shape, T t_min, T t_max, T& t0, T& t1) {
    if constexpr (HasPassage<T, S>::value) {
        return is_valid(shape) && passage(ray, shape, t0, t1) && accepts(t0, t1, t_min, t_max);
    } else {
        const auto hit = cast(ray, shape, t_min, t_max);
        if (!hit) return false;
        t0 = hit->t_near;
        t1 = hit->t_far;
        return true;
    }
}
}  // namespace detail

/// Picking: the first surface point of `shape` along the ray in [t_min, t_max] — the entry, or the
/// exit when the ray starts inside. Empty on a miss. first_surface() of cast()'s hit; spheres and
/// capsules have their own pick() (RaySphere.h, RayCapsule.h) that gives the same bits without
/// computing the other normal.
template <typename T, typename S>
std::optional<SurfaceHit<T>> pick(const Ray<T>& ray, const S& shape, T t_min = T(0),
                                  T t_max = infinity<T>()) {
    const auto hit = cast(ray, shape, t_min, t_max);
    if (!hit) return std::nullopt;
    return first_surface(ray, *hit, t_min, t_max);
}
/// pick() of whichever shape `shape` holds.
template <typename T>
std::optional<SurfaceHit<T>> pick(const Ray<T>& ray, const Shape<T>& shape, T t_min = T(0), T t_max = infinity<T>()) {
    return std::visit([&](const auto& s) { return pick(ray, s, t_min, t_max); }, shape);
}

/// Exact equality of two shapes: the same type and every field equal (same_fields()).
template <typename T> bool same_shape(const Shape<T>& a, const Shape<T>& b) {
    if (a.index() != b.index()) return false;
    return std::visit([&](const auto& x) { return same_fields(x, std::get<std::decay_t<decltype(x)>>(b)); }, a);
}

template <typename T> bool is_valid(const Shape<T>& s) {
    return std::visit([](const auto& x) { return is_valid(x); }, s);
}
template <typename T> std::optional<InputError> validate(const Shape<T>& s) {
    return std::visit([](const auto& x) { return validate(x); }, s);
}
template <typename T> Aabb<T> bounds(const Shape<T>& s) {
    return std::visit([](const auto& x) { return bounds(x); }, s);
}

// ---- precision conversion -----------------------------------------------------------------------

template <typename U, typename T> Ray<U> convert(const Ray<T>& r) {
    return {Vec3<U>(r.origin), Vec3<U>(r.direction)};
}
template <typename U, typename T> Shape<U> convert(const Shape<T>& s) {
    return std::visit([](const auto& x) -> Shape<U> { return convert<U>(x); }, s);
}
template <typename U, typename T> RayHit<U> convert(const RayHit<T>& h) {
    return {U(h.t_near), U(h.t_far), Vec3<U>(h.n_near), Vec3<U>(h.n_far), h.origin_inside};
}

}  // namespace raypick
