// raypick geometry: the BVH's leaf blocks, laid out for the batch kernels at the baseline vector
// width (4 floats or 2 doubles; the walks' test_leaf() and the ray bundles' test_section_rays(),
// BvhWalk.inl, test them).
//
// A leaf is one contiguous run of 16-byte chunks: for each type present (in ShapeTypes' order),
// the shapes' lanes (ShapeTraits.h: their fields' scalars) structure-of-arrays, each padded to a whole
// number of vectors (the padding lanes hold copies and are never looked at; a lone shape of its
// type has its fields packed instead and is tested by the scalar code), then right after them the
// shapes' indices in the caller's order (uint32), the section padded to whole chunks. The number
// of shapes of each
// type is kept in the parent node (one byte per type, packed: Counts), so the fields' addresses
// are known before the leaf itself arrives from memory.
// So a leaf's shapes of one type are tested a vector at a time, with the same arithmetic as the
// scalar casts (bit for bit), and the whole leaf is a few adjacent cache lines.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include <raypick/geometry/Batch.h>
#include <raypick/geometry/Shape.h>

namespace raypick {

namespace bvh_leaf {

struct alignas(16) Chunk {
    unsigned char b[16];
};

/// Lanes per shape type (lane_count(), ShapeTraits.h), indexed by type.
template <typename T> struct LaneCounts {
    int n[kShapeTypeCount] = {};
    constexpr LaneCounts() {
        int i = 0;
        ShapeTypes::for_each([&](auto tag) { n[i++] = lane_count<typename decltype(tag)::template type<T>>(); });
    }
};
template <typename T> inline constexpr LaneCounts<T> kLanes{};

/// Shapes per vector.
template <typename T> constexpr std::size_t lanes() { return 16 / sizeof(T); }

inline std::size_t ceil_div(std::size_t a, std::size_t b) { return (a + b - 1) / b; }

/// Chunks of one type's section holding `count` shapes.
/// Length of each field of a type's section: whole vectors, except a lone shape, whose fields are
/// packed (it is tested by the scalar code: a leaf of one shape takes a third to a quarter of the
/// memory, so more of the tree stays in cache).
template <typename T> inline std::size_t padded_length(std::size_t count) {
    return count == 1 ? 1 : ceil_div(count, lanes<T>()) * lanes<T>();
}

/// Bytes of the fields of a type's section (its shapes' indices follow them).
template <typename T> inline std::size_t field_bytes(int type, std::size_t count) {
    return std::size_t(kLanes<T>.n[type]) * padded_length<T>(count) * sizeof(T);
}

/// Chunks of a type's section: its fields, then its shapes' indices, padded to a whole chunk.
/// The indices follow the fields directly, not from the next chunk: a lone AABB or capsule
/// (24 or 28 bytes of floats and a 4-byte index) then takes two chunks, not three.
template <typename T> inline std::size_t section_chunks(int type, std::size_t count) {
    if (count == 0) return 0;
    return ceil_div(field_bytes<T>(type, count) + count * sizeof(std::uint32_t), 16);
}

/// The indices of a section of `count` shapes of `type` that starts at `start` (const where the
/// leaf is): right after its fields.
template <typename T, typename C> inline auto ids_of(C* start, int type, std::size_t count) {
    using U = std::conditional_t<std::is_const_v<C>, const std::uint32_t, std::uint32_t>;
    using B = std::conditional_t<std::is_const_v<C>, const unsigned char, unsigned char>;
    return reinterpret_cast<U*>(reinterpret_cast<B*>(start) + field_bytes<T>(type, count));
}

/// Shapes per type of a leaf, one byte each (the first type in the low byte): 32 bits hold four
/// types, 64 bits eight.
using Counts = std::conditional_t<(kShapeTypeCount <= 4), std::uint32_t, std::uint64_t>;
static_assert(kShapeTypeCount <= 8, "a leaf's counts hold up to eight shape types");
inline std::size_t count_of(Counts counts, int type) { return std::size_t(counts >> (8 * type)) & 0xffu; }

template <typename T> inline std::size_t leaf_chunks(Counts counts) {
    std::size_t n = 0;
    for (int type = 0; type < kShapeTypeCount; ++type) n += section_chunks<T>(type, count_of(counts, type));
    return n;
}

/// One type's shapes in a leaf: their indices, the first field, and the padded length of a field.
template <typename T, typename C> struct Section {
    std::uint32_t count;
    std::size_t padded;
    C* start;
    /// Const where the leaf is.
    template <typename U> using Like = std::conditional_t<std::is_const_v<C>, const U, U>;
    Like<T>* fields() const { return reinterpret_cast<Like<T>*>(start); }
    Like<std::uint32_t>* ids() const { return ids_of<T>(start, type, count); }
    int type;
};

template <typename T, typename C> inline Section<T, C> section(C* leaf, Counts counts, int type) {
    C* p = leaf;
    for (int t = 0; t < type; ++t) p += section_chunks<T>(t, count_of(counts, t));
    const std::size_t n = count_of(counts, type);
    return {std::uint32_t(n), padded_length<T>(n), p, type};
}

/// Writes shape `s` into lane `lane` of its type's section. (Padding lanes are filled by the
/// builder; their results are never used.)
template <typename T> inline void write_lane(const Section<T, Chunk>& sec, std::size_t lane, const Shape<T>& s) {
    std::visit([&](const auto& x) { store_lanes(x, sec.fields() + lane, sec.padded); }, s);
}

/// The best candidate of a pick so far: smallest t, ties to the smallest index; where its fields
/// are (so the final full cast reads the leaf already in cache).
template <typename T> struct Candidate {
    T t = T(0);
    std::uint32_t id = std::numeric_limits<std::uint32_t>::max();
    const T* fields = nullptr;
    std::uint32_t padded = 0, lane = 0;
    int type = 0;
    bool none() const { return id == std::numeric_limits<std::uint32_t>::max(); }
    /// Whether a hit at t on shape `other_id` beats this candidate: smaller t, ties to the smaller index.
    bool beaten_by(T other_t, std::uint32_t other_id) const {
        return none() || other_t < t || (other_t == t && other_id < id);
    }
    /// fn(the shape as its own type: Sphere<T>, Aabb<T>, ...): no Shape variant built and visited.
    template <typename Fn> decltype(auto) visit(Fn&& fn) const {
        return visit_shape_type(ShapeType(type), [&](auto tag) -> decltype(auto) {
            return fn(load_lanes<typename decltype(tag)::template type<T>>(fields + lane, padded));
        });
    }
    Shape<T> shape() const {
        return visit([](const auto& s) { return Shape<T>(s); });
    }
};

/// Calls fn(index in the caller's order, shape) for every shape of a leaf block.
template <typename T, typename Fn> inline void for_each_shape(const Chunk* leaf, Counts counts, Fn&& fn) {
    const Chunk* p = leaf;
    for (int type = 0; type < kShapeTypeCount; ++type) {
        const std::size_t count = count_of(counts, type);
        if (!count) continue;
        const Candidate<T> c{T(0), 0, reinterpret_cast<const T*>(p), std::uint32_t(padded_length<T>(count)), 0, type};
        const std::uint32_t* ids = ids_of<T>(p, type, count);
        for (std::uint32_t lane = 0; lane < count; ++lane) {
            Candidate<T> at = c;
            at.lane = lane;
            fn(ids[lane], at.shape());
        }
        p += section_chunks<T>(type, count);
    }
}

/// One shape by the scalar code, with limit best.t (or t_max): the same decisions and t as a
/// kernel lane. `c` says where the shape is found again (its t is filled in).
template <typename T>
inline void test_scalar(const Candidate<T>& c, const Ray<T>& ray, T t_min, T t_max, Candidate<T>& best) {
    const T lim = best.none() ? t_max : best.t;
    c.visit([&](const auto& s) {
        T t0, t1;
        if (!detail::accepted_passage(ray, s, t_min, lim, t0, t1)) return;
        const T t = t0 >= t_min ? t0 : t1;
        if (t < t_min || t > lim) return;
        if (best.beaten_by(t, c.id)) {
            best = c;
            best.t = t;
        }
    });
}

}  // namespace bvh_leaf
}  // namespace raypick
