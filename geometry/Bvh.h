// raypick geometry: a bounding volume hierarchy over mixed shapes, for nearest-hit picking.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <cstdint>
#include <limits>
#include <new>
#include <optional>
#include <stdexcept>
#include <type_traits>
#include <utility>
#include <vector>

#include <raypick/geometry/BvhBuild.h>
#include <raypick/geometry/BvhLeaf.h>
#include <raypick/geometry/BvhNode.h>
#include <raypick/geometry/CacheSize.h>
#include <raypick/geometry/Lanes.h>
#include <raypick/geometry/LargeAlloc.h>
#include <raypick/geometry/Shape.h>

namespace raypick {

/// Result of a nearest pick: which shape (its index in the caller's order), the first surface point
/// along the ray (the exit when the origin is inside that shape), and the shape's full passage.
template <typename T> struct NearestHit {
    std::uint32_t shape = std::numeric_limits<std::uint32_t>::max();
    SurfaceHit<T> surface;
    RayHit<T> hit;
};

namespace detail {
/// Largest finite |component| (0 if none): the magnitude of a box whose faces may be infinite.
template <typename T> inline T finite_max_abs(const Vec3<T>& v) {
    T m = T(0);
    for (int i = 0; i < 3; ++i)
        if (std::abs(v[i]) <= std::numeric_limits<T>::max()) m = std::max(m, std::abs(v[i]));
    return m;
}

/// True when candidate (t, id) beats the current best: smaller t, ties to the smaller index, so
/// every pick is deterministic and independent of the hierarchy's layout.
template <typename T>
inline bool better(T t, std::uint32_t id, const std::optional<NearestHit<T>>& best) {
    return !best || t < best->surface.t || (t == best->surface.t && id < best->shape);
}
}  // namespace detail

/// Nearest pick by brute force over every shape: the reference the hierarchy is tested against.
/// Same contract as Bvh::pick.
template <typename T>
std::optional<NearestHit<T>> pick_nearest(const std::vector<Shape<T>>& shapes, const Ray<T>& ray,
                                          T t_min = T(0), T t_max = infinity<T>()) {
    std::optional<NearestHit<T>> best;
    for (std::uint32_t i = 0; i < shapes.size(); ++i) {
        const T limit = best ? best->surface.t : t_max;
        const auto h = cast(ray, shapes[i], t_min, limit);
        if (!h) continue;
        const auto s = first_surface(ray, *h, t_min, limit);
        if (s && detail::better(s->t, i, best)) best = NearestHit<T>{i, *s, *h};
    }
    return best;
}

struct BvhOptions {
    int max_leaf_size = 4;  ///< leaves hold at most this many shapes (unless they cannot be split)
    int bins = 12;          ///< SAH bins per axis
    /// Pad node bounds outward by a few ulps (belt and braces on top of the widened node test).
    /// Tests turn it off to prove the node test alone loses no node.
    bool pad_bounds = true;
    /// Scenes of more than this many shapes build their top levels from the Morton order of the
    /// shapes' centroids (spatial-median splits, fast for millions of shapes), down to ranges of
    /// at most morton_leaf shapes, which the SAH builds. Tests lower both to exercise that path.
    std::uint32_t morton_above = 1u << 16;
    std::uint32_t morton_leaf = 2048;
    /// Instruction set of the node and leaf tests: Auto, the widest the CPU has — AVX-512 or AVX2
    /// (a node's 8 child boxes as 8 floats or 4 doubles a vector), else SSE2 (4 or 2). The picks
    /// are the same bit for bit; tests force each to prove it.
    BatchIsa node_test_isa = BatchIsa::Auto;
    /// When the exact nodes and the leaves take more than this many bytes, pick() walks compact
    /// copies of the nodes (child boxes in 8 bits a plane: half the memory, bvh_node::Compact)
    /// where every box is finite, else the exact nodes. Unset (the default): half the CPU's
    /// last-level cache: while the exact tree stays in cache, decoding costs more than it saves,
    /// and beyond that the halved node fetches win (figures: docs/performance.md). Tests set 0
    /// and the largest value to prove both walks pick the same.
    std::optional<std::size_t> compact_above_bytes = std::nullopt;
};

template <typename T> struct ShapeClosest;  // BvhClosest.inl

/// Bounding volume hierarchy over a fixed set of mixed shapes.
///
/// - Built top-down with a binned surface-area heuristic over shape centroids (BvhBuild.h; the
///   top levels of scenes of more than 65 536 shapes from their Morton order instead).
/// - pick(): nearest first surface point (same contract and tie-break as pick_nearest()),
///   traversed nearest child first with early termination against the best hit so far.
/// - Node tests are robust for rays parallel to node slabs: a zero direction component gives
///   +-inf slab distances, and the NaN of an origin lying exactly on a slab plane of such an axis is
///   ignored (the ray is inside the closed slab); slab distances are widened by a few ulps (Ize
///   2013), boxes by the casts' own rounding scale for the ray, and node bounds padded, so
///   rounding never loses a node and pick() agrees with pick_nearest() exactly.
/// - Nodes are 16 wide (BvhNode.h), their sixteen child boxes tested together — two AVX2 vectors
///   per plane where the CPU has AVX2 or AVX-512, else four SSE2 vectors, the same picks every
///   way — so a pick waits on fewer dependent node fetches than with narrower nodes. The children
///   it does not descend into first are prefetched when pushed. The binary SAH tree is collapsed
///   into the nodes at least surface-area cost (plan()), which also merges small subtrees into
///   leaves of up to max_leaf_size shapes, so nodes are nearly full (10^6 spheres: 43 000 nodes of
///   512 bytes, 22 MB; at 8 wide, 97 000 nodes, and 281 000 with a greedy collapse); stored
///   depth first. In large scenes pick() walks a copy of them with child boxes quantised to 8
///   bits a plane (bvh_node::Compact, 256 bytes a node; conservative, so no pick changes), as
///   its time there goes on waiting for nodes from memory (BvhOptions::compact_above_bytes).
///   Each leaf is one contiguous block (BvhLeaf.h): per type, its shapes' fields
///   structure-of-arrays and their indices, tested a vector of shapes at a time by the batch
///   kernels (Batch.h; bit for bit the scalar casts). A node keeps two bytes per leaf child, the
///   type and count of a leaf of one type (a mixed leaf names its types in its block), so no
///   node, stack entry or leaf test of one type grows with the number of types. A leaf is
///   prefetched whole when pushed.
/// - pick_bundle(): coherent rays (a tile of pixels) walk the tree together, each getting exactly
///   its own pick().
/// - update(i, shape): replace one shape and refit the bounds on its path to the root (cheap; for
///   a drag). Changing a shape's type rebuilds. Quality degrades after large moves; call build()
///   again then.
/// - Invalid shapes are kept (indices stay stable) but have empty bounds and are never picked.
/// - A pick's traversal stack lives on the calling thread's stack (README, "Stack": about 51 KB,
///   130 KB for a bundle).
template <typename T> class Bvh {
public:
    Bvh() = default;
    explicit Bvh(const std::vector<Shape<T>>& shapes, BvhOptions options = {}) { build(shapes, options); }

    /// (Re)builds over `shapes`. Their fields are copied into the leaves (where shape() reads them
    /// back): the hierarchy keeps no other copy.
    void build(const std::vector<Shape<T>>& shapes, BvhOptions options = {});
    void update(std::uint32_t index, const Shape<T>& shape);

    std::optional<NearestHit<T>> pick(const Ray<T>& ray, T t_min = T(0), T t_max = infinity<T>()) const;
    /// The same pick, casting shape `hint` first (e.g. the shape the neighbouring pixel's ray hit):
    /// a good hint gives a tight bound from the start, so traversal prunes more. The result is
    /// exactly pick(ray, t_min, t_max) whatever the hint (an out-of-range hint is ignored).
    std::optional<NearestHit<T>> pick(const Ray<T>& ray, T t_min, T t_max, std::uint32_t hint) const;
    /// Picks for a bundle of rays at once — coherent rays such as an 8 x 8 tile of pixels from one
    /// eye: out[i] is exactly pick(rays[i], t_min, t_max). The bundle walks the hierarchy once,
    /// culling nodes with interval bounds over all its rays (a conservative frustum test), and
    /// tests each leaf's box per ray, then its shapes against the rays that enter it: ray by ray,
    /// or shape by shape against four rays at a time, whichever takes fewer kernel calls. Bundles
    /// whose rays differ in direction sign on an axis (or have a zero or non-finite component)
    /// are picked ray by ray.
    void pick_bundle(const Ray<T>* rays, std::size_t count, std::optional<NearestHit<T>>* out, T t_min = T(0),
                     T t_max = infinity<T>()) const;
    /// Every hit along the ray: calls visit(index, const RayHit<T>&) once for each shape whose
    /// cast(ray, shape, t_min, t_max) hits, with exactly that cast's result, in no particular
    /// order (sort by t_near, or by index, as needed). Only the nodes whose box the ray crosses
    /// within [t_min, t_max] are walked, so the cost grows with what the ray passes, not with the
    /// scene. Nothing is visited for an invalid ray or range.
    template <typename Visit>
    void for_each_hit(const Ray<T>& ray, Visit&& visit, T t_min = T(0), T t_max = infinity<T>()) const;
    /// Calls visit(index, const Shape<T>&) once for each shape in the leaves whose boxes the ray
    /// crosses within [t_min, t_max] (the walk's widened test): a superset of the shapes
    /// for_each_hit() visits, for tests of one's own. Nothing for an invalid ray or range.
    template <typename Visit>
    void for_each_candidate(const Ray<T>& ray, Visit&& visit, T t_min = T(0), T t_max = infinity<T>()) const;
    /// Rays per bundle walk (larger bundles are split).
    static constexpr std::size_t kMaxBundle = 64;

    std::size_t size() const { return id_of_.size(); }
    /// Shape `index` as the hierarchy holds it (read back from its leaf: the same fields, bit for bit).
    Shape<T> shape(std::uint32_t index) const { return shape_at(slot_of_[index]); }
    /// Number of 16-wide nodes.
    std::size_t node_count() const { return nodes_.size(); }
    /// Whether pick() walks the compact copies of the nodes (BvhOptions::compact_above_bytes).
    bool compact() const { return !compact_.empty(); }
    /// Children per node.
    static constexpr int kWidth = bvh_node::kWidth;
    /// The instruction set the node and leaf tests run with (see BvhOptions::node_test_isa).
    BatchIsa node_test_isa() const { return isa_; }
    /// Depth of the binary hierarchy before it was collapsed to 16-wide nodes.
    int depth() const { return depth_; }
    /// Bounds of everything (empty box, min > max, when there is nothing valid).
    Aabb<T> root_bounds() const { return {root_lo_, root_hi_}; }

    // Closest points (BvhClosest.inl).

    /// The shape whose surface is nearest to p within max_distance (distance <= max_distance),
    /// its closest_point(): exactly closest_shape(shapes, p, max_distance), the brute-force loop
    /// (ties in distance go to the smaller index; invalid shapes never). The distance is to the
    /// surface, also from inside a shape (a point inside a sphere of radius R is R - |p - centre|
    /// from it). The tree is walked nearest box first (compact nodes where pick() walks them); a
    /// node is skipped when its box lies farther than the nearest surface so far (with the slack
    /// of the distances' rounding): a box holds its shapes' surfaces, so its distance bounds
    /// theirs. Empty for a non-finite p, a negative or NaN max_distance, or nothing within it.
    /// keep(index): whether a shape takes part (a filter's; default all).
    template <typename Keep = KeepAll>
    std::optional<ShapeClosest<T>> closest_point(const Vec3<T>& p, T max_distance = infinity<T>(),
                                                 const Keep& keep = {}) const;

private:
    // The hierarchy is built binary (BinNode) and then collapsed into 16-wide nodes (Node), whose
    // sixteen child boxes are tested together (structure-of-arrays, vector ops per plane).
    using BinNode = bvh_build::BinNode<T>;
    static constexpr int W = kWidth;
    using Node = bvh_node::Node<T>;
    struct ChildRef {
        std::uint32_t node = 0;  ///< the node holding the box
        std::uint32_t k = 0;     ///< which of its slots
    };
    static constexpr int kMaxDepth = bvh_node::kMaxDepth;  // beyond this the builder splits at the median
    static constexpr std::uint32_t kNone = bvh_node::kNone;
    static constexpr std::uint32_t kLeaf = bvh_node::kLeaf;  // see bvh_node::kLeaf
    static constexpr std::uint32_t kOffsetMask = bvh_node::kOffsetMask;
    static constexpr std::size_t kStack = bvh_node::kStack;

    Aabb<T> padded_bounds(const Shape<T>& s) const;
    /// The collapse into W-wide nodes that minimises the surface-area cost (Ylitie, Karras, Laine
    /// 2017, "Efficient incoherent ray traversal on GPUs through compressed wide BVHs", 4.1): per
    /// binary node and number of slots i <= W, the cheapest way to cover its subtree with at most i
    /// children of one wide node: itself as one child (a wide node, or a leaf of its whole
    /// subtree when that holds at most max_leaf_size shapes), or its two children sharing the
    /// slots. plan() records each choice in how[b] (bottom-up); collapse() follows them.
    /// how[b][0]: slots of the left child when b becomes a wide node (the right gets the rest);
    /// how[b][1]: 1 when b becomes one leaf; how[b][i], i >= 2: slots of the left child, or 0 for
    /// no better than with i - 1 slots.
    using How = std::array<std::uint8_t, W + 1>;
    struct Sub {
        double cost[W];                                 ///< cost with at most 1..slots slots (unset beyond)
        std::array<std::uint32_t, kShapeTypeCount> n;  ///< shapes per type
        int slots = 1;  ///< slots it can use at most: its binary leaves, up to W (the cost is flat beyond)
    };
    Sub plan(const LargeVector<BinNode>& bin, std::uint32_t b, std::vector<How>& how) const;
    /// `shapes`: build()'s argument (the leaves copy their fields).
    std::uint32_t collapse(const LargeVector<BinNode>& bin, const std::vector<How>& how, std::uint32_t b,
                           ChildRef up, const std::vector<Shape<T>>& shapes);
    std::uint32_t make_leaf(std::uint32_t first, std::uint32_t count, bvh_leaf::LeafInfo& info,
                            const std::vector<Shape<T>>& shapes);
    /// The shape in a slot, read from its leaf.
    Shape<T> shape_at(std::uint32_t slot) const;
    /// Where the shape in a slot lies in its leaf, with its caller's index (t = 0).
    bvh_leaf::Candidate<T> candidate_at(std::uint32_t slot) const;
    void set_child(std::uint32_t node, std::uint32_t k, const Vec3<T>& lo, const Vec3<T>& hi);
    using RayConsts = bvh_node::RayConsts<T>;
    RayConsts ray_consts(const Ray<T>& ray) const;
    /// Whether the ray meets the root box within [t_min, t_max] (widened as every node test);
    /// `entry` gets its entry distance.
    bool enters_root(const RayConsts& rc, T t_min, T t_max, T& entry) const;
    /// The winner's full cast (normals, passage): the same t, bit for bit.
    std::optional<NearestHit<T>> finish(const Ray<T>& ray, const bvh_leaf::Candidate<T>& best, T t_min, T t_max) const;
    void refit_up(ChildRef ref, Vec3<T> lo, Vec3<T> hi);

    LargeVector<Node> nodes_;
    /// nodes_ in compact form, for pick(); empty for trees of at most
    /// options_.compact_above_bytes or when some box cannot be encoded (see bvh_node::encode).
    LargeVector<bvh_node::Compact<T>> compact_;
    void encode_compact();
    std::vector<ChildRef> parent_;        // node -> its slot in the parent (node kNone: root)
    Vec3<T> root_lo_{infinity<T>()}, root_hi_{-infinity<T>()};
    LargeVector<bvh_leaf::Chunk> leaves_; // every leaf's block, depth first; the shapes' only copy
    BvhOptions options_;
    std::vector<std::uint32_t> id_of_;    // slot -> caller's index
    std::vector<std::uint32_t> slot_of_;  // caller's index -> slot
    std::vector<ChildRef> leaf_of_;       // slot -> the leaf's slot in its node
    std::vector<std::uint8_t> lane_of_;   // slot -> its lane among the leaf's shapes of its type
    std::vector<std::uint8_t> type_of_;   // slot -> its shape type (Shape's index())
    int depth_ = 0;
    bool pad_ = true;
    BatchIsa isa_ = BatchIsa::Sse2;  // options_.node_test_isa as this CPU runs it
};

}  // namespace raypick

// The implementation: the build (binary tree, collapse into wide nodes and leaves, refit), the
// single-ray walks, and the bundle walk.
#include <raypick/geometry/BvhConstruct.inl>
#include <raypick/geometry/BvhPick.inl>
#include <raypick/geometry/BvhBundle.inl>
#include <raypick/geometry/BvhClosest.inl>
