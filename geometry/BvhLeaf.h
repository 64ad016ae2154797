// raypick geometry: the BVH's leaf blocks, laid out for the batch kernels at the baseline vector
// width (4 floats or 2 doubles; the walks' test_leaf() and the ray bundles' test_section_rays(),
// BvhWalk.inl, test them).
//
// A leaf is one contiguous run of 16-byte chunks holding one section per shape type present, in
// ShapeTypes' order: the section's shapes' lanes (ShapeTraits.h: their fields' scalars)
// structure-of-arrays, each padded to a whole number of vectors (the padding lanes hold copies and
// are never looked at; a lone shape of its type has its fields packed instead and is tested by
// the scalar code), then right after them the shapes' indices in the caller's order (uint32), the
// section padded to whole chunks.
// What a node keeps of a leaf child is its LeafInfo, two bytes whatever the number of types: the
// type and number of the shapes of a leaf of one type (most leaves: a scene's shapes of a kind
// cluster), so their fields' addresses are known before the leaf arrives from memory; or
// kMixed, and then the leaf's first chunk names its sections. So neither a node's size, nor the
// walk's stack entries, nor the test of a leaf of one type grow with the number of types.
// A leaf's shapes are tested a vector at a time, with the same arithmetic as the scalar casts
// (bit for bit), and the whole leaf is a few adjacent cache lines.
#pragma once

#include <array>
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

/// Length of each field of a section: whole vectors, except a lone shape, whose fields are
/// packed (it is tested by the scalar code: a leaf of one shape takes a third to a quarter of the
/// memory, so more of the tree stays in cache).
template <typename T> inline std::size_t padded_length(std::size_t count) {
    return count == 1 ? 1 : ceil_div(count, lanes<T>()) * lanes<T>();
}

/// Bytes of the fields of a section of `count` shapes of `type` (their indices follow them).
template <typename T> inline std::size_t field_bytes(int type, std::size_t count) {
    return std::size_t(kLanes<T>.n[type]) * padded_length<T>(count) * sizeof(T);
}

/// Chunks of a section of `count` shapes of `type`: their fields, then their indices, padded to a
/// whole chunk.
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

/// What a node keeps of a leaf child: its shapes' type (index in ShapeTypes) and their number
/// (at most 100: BvhOptions::max_leaf_size is clamped there), or type kMixed for a leaf of several
/// types (count: all its shapes), whose header chunks name its sections. count 0: no leaf (an
/// inner node or an empty slot).
/// A trivial type (no member initialisers): the walks' stacks of entries holding one stay
/// uninitialised. LeafInfo{} is no leaf.
struct LeafInfo {
    std::uint8_t type;
    std::uint8_t count;
};
constexpr std::uint8_t kMixed = 255;
static_assert(sizeof(LeafInfo) == 2 && std::is_trivial_v<LeafInfo>, "a node's sixteen leaf infos take 32 bytes");
static_assert(kShapeTypeCount < kMixed, "a leaf's type fits in a byte beside kMixed");

/// Chunks of a mixed leaf's header: the number of its sections, then a (type, count) byte pair
/// for each, in type order.
inline std::size_t header_chunks(std::size_t sections) { return ceil_div(1 + 2 * sections, 16); }

/// Shapes per type of the slots a leaf is made of (the builder's count them).
using TypeCounts = std::array<std::uint8_t, kShapeTypeCount>;

/// The LeafInfo and the number of chunks of a leaf with `counts` shapes of each type.
template <typename T> inline LeafInfo leaf_layout(const TypeCounts& counts, std::size_t& chunks) {
    int types = 0, type = 0, total = 0;
    chunks = 0;
    for (int t = 0; t < kShapeTypeCount; ++t) {
        if (!counts[std::size_t(t)]) continue;
        ++types;
        type = t;
        total += counts[std::size_t(t)];
        chunks += section_chunks<T>(t, counts[std::size_t(t)]);
    }
    if (types > 1) chunks += header_chunks(std::size_t(types));
    return {std::uint8_t(types > 1 ? kMixed : type), std::uint8_t(total)};
}

/// One type's shapes in a leaf: their type and number, the first field, the padded length of a
/// field, and their indices.
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

/// Calls fn(Section) for each type's section of a leaf block (C: Chunk, or const Chunk), in
/// type order: one call for a leaf of one type.
template <typename T, typename C, typename Fn> inline void for_each_section(C* leaf, LeafInfo info, Fn&& fn) {
    if (info.type != kMixed) {
        fn(Section<T, C>{info.count, padded_length<T>(info.count), leaf, info.type});
        return;
    }
    const unsigned char* header = leaf->b;
    const std::size_t sections = header[0];
    C* p = leaf + header_chunks(sections);
    for (std::size_t i = 0; i < sections; ++i) {
        const int type = header[1 + 2 * i];
        const std::uint32_t count = header[2 + 2 * i];
        fn(Section<T, C>{count, padded_length<T>(count), p, type});
        p += section_chunks<T>(type, count);
    }
}

/// The section of shapes of `type` in a leaf block (count 0 when it holds none).
template <typename T, typename C> inline Section<T, C> section(C* leaf, LeafInfo info, int type) {
    Section<T, C> found{0, 0, leaf, type};
    for_each_section<T>(leaf, info, [&](const Section<T, C>& s) {
        if (s.type == type) found = s;
    });
    return found;
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
template <typename T, typename Fn> inline void for_each_shape(const Chunk* leaf, LeafInfo info, Fn&& fn) {
    for_each_section<T>(leaf, info, [&](const Section<T, const Chunk>& sec) {
        const Candidate<T> c{T(0), 0, sec.fields(), std::uint32_t(sec.padded), 0, sec.type};
        for (std::uint32_t lane = 0; lane < sec.count; ++lane) {
            Candidate<T> at = c;
            at.lane = lane;
            fn(sec.ids()[lane], at.shape());
        }
    });
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
