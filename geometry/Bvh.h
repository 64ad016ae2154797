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

#include "geometry/BvhBuild.h"
#include "geometry/BvhLeaf.h"
#include "geometry/BvhNode.h"
#include "geometry/CacheSize.h"
#include "geometry/LargeAlloc.h"
#include "geometry/Shape.h"

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
    /// last-level cache. Measured (in-process A/B on the bench scenes, AMD Zen 3, 32 MB of L3):
    /// picks 0-9 % slower with compact nodes at 10^4 and 10^5 shapes (up to 15 MB), where the
    /// exact tree stays in cache and decoding costs more than it saves, and 7-12 % faster at
    /// 3 x 10^5 spheres (19 MB), 4-15 % at 10^6 (60-120 MB). Tests set 0 and the largest value
    /// to prove both walks pick the same.
    std::optional<std::size_t> compact_above_bytes = std::nullopt;
};

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
///   Each leaf is one contiguous block (BvhLeaf.h): its shapes' indices and, per type, their
///   fields structure-of-arrays, tested a vector of shapes at a time by the batch kernels
///   (Batch.h; bit for bit the scalar casts). A leaf is prefetched whole when pushed.
/// - pick_bundle(): coherent rays (a tile of pixels) walk the tree together, each getting exactly
///   its own pick().
/// - update(i, shape): replace one shape and refit the bounds on its path to the root (cheap; for
///   a drag). Changing a shape's type rebuilds. Quality degrades after large moves; call build()
///   again then.
/// - Invalid shapes are kept (indices stay stable) but have empty bounds and are never picked.
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
    std::uint32_t make_leaf(std::uint32_t first, std::uint32_t count, bvh_leaf::Counts& counts,
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

// ---- implementation -----------------------------------------------------------------------------

template <typename T> Aabb<T> Bvh<T>::padded_bounds(const Shape<T>& s) const {
    if (!is_valid(s)) return {Vec3<T>(infinity<T>()), Vec3<T>(-infinity<T>())};
    Aabb<T> b = bounds(s);
    if (!pad_) return b;
    // Pad outward, on every axis alike, by a few ulps of the shape's largest coordinate: the scale
    // at which bounds() and the shape's own cast round (a zero-size shape far out on one axis is
    // decided at that scale on the others too), so rounding never cuts off what the cast accepts.
    const T eps = std::numeric_limits<T>::epsilon();
    const T m = std::max(detail::max_abs(b.min), detail::max_abs(b.max));
    const Vec3<T> pad(m * (T(8) * eps) + std::numeric_limits<T>::min());
    return {b.min - pad, b.max + pad};
}

template <typename T> void Bvh<T>::build(const std::vector<Shape<T>>& shapes, BvhOptions options) {
    const auto n = static_cast<std::uint32_t>(shapes.size());
    nodes_.clear();
    parent_.clear();
    leaves_.clear();
    depth_ = 0;
    options.max_leaf_size = std::clamp(options.max_leaf_size, 1, 100);  // leaf counts fit in 8 bits
    options_ = options;
    pad_ = options.pad_bounds;
    isa_ = effective_isa(options.node_test_isa);
    root_lo_ = Vec3<T>(infinity<T>());
    root_hi_ = Vec3<T>(-infinity<T>());
    bvh_build::Settings settings;
    settings.max_leaf_size = options.max_leaf_size;
    settings.bins = options.bins;
    settings.max_depth = kMaxDepth;
    settings.morton_min = options.morton_above < kNone ? options.morton_above + 1 : kNone;
    settings.morton_leaf = std::max<std::uint32_t>(options.morton_leaf, 1u);
    // The shapes' types by index, noted while the builder reads every shape in order anyway: the
    // slots' types below are then looked up in n bytes, not in the shapes themselves.
    std::vector<std::uint8_t> type_by_id(n);
    bvh_build::Tree<T> tree = bvh_build::Builder<T>().build(
        n,
        [&](std::uint32_t i) {
            type_by_id[i] = std::uint8_t(shapes[i].index());
            return padded_bounds(shapes[i]);
        },
        settings);
    LargeVector<BinNode>& bin = tree.nodes;
    depth_ = tree.depth;
    id_of_ = std::move(tree.order);
    slot_of_.resize(n);
    type_of_.resize(n);
    std::size_t chunks = 0;
    for (std::uint32_t s = 0; s < n; ++s) {
        slot_of_[id_of_[s]] = s;
        const int type = type_by_id[id_of_[s]];
        type_of_[s] = std::uint8_t(type);
        chunks += bvh_leaf::section_chunks<T>(type, 1);
    }
    leaf_of_.assign(n, ChildRef{});
    lane_of_.assign(n, 0);
    if (n > 0) {
        // Upper bounds (untouched reserved pages cost nothing): no reallocation while collapsing.
        nodes_.reserve(bin.size() / 2 + 1);
        leaves_.reserve(2 * chunks);  // leaves of several shapes pad their fields: at most twice
        root_lo_ = bin[0].lo;
        root_hi_ = bin[0].hi;
        std::vector<How> how(bin.size(), How{});
        plan(bin, 0, how);
        collapse(bin, how, 0, ChildRef{kNone, 0}, shapes);
    }
    encode_compact();
}

template <typename T> void Bvh<T>::encode_compact() {
    compact_.clear();
    const std::size_t bytes = nodes_.size() * sizeof(Node) + leaves_.size() * sizeof(bvh_leaf::Chunk);
    if (bytes <= options_.compact_above_bytes.value_or(detail::last_level_cache_bytes() / 2)) return;
    // Reserved, not resized: resize() would zero the 256 bytes a node that encode() writes anyway.
    compact_.reserve(nodes_.size());
    bvh_node::Compact<T> c;
    for (const Node& n : nodes_) {
        if (!bvh_node::encode(n, c)) {
            compact_.clear();
            return;
        }
        compact_.push_back(c);
    }
}

template <typename T>
void Bvh<T>::set_child(std::uint32_t node, std::uint32_t k, const Vec3<T>& lo, const Vec3<T>& hi) {
    for (int a = 0; a < 3; ++a) {
        nodes_[node].lo[a][k] = lo[a];
        nodes_[node].hi[a][k] = hi[a];
    }
}

/// Appends the leaf block of slots [first, first + count) and returns its child reference.
template <typename T>
std::uint32_t Bvh<T>::make_leaf(std::uint32_t first, std::uint32_t count, bvh_leaf::Counts& counts,
                                const std::vector<Shape<T>>& shapes) {
    using namespace bvh_leaf;
    counts = 0;
    for (std::uint32_t s = first; s < first + count; ++s) counts += bvh_leaf::Counts(1) << (8 * type_of_[s]);
    // Leaves are made in slot order, and a slot's shape is a random read of `shapes`: start
    // reading the shapes of the slots kAhead on now (each slot once, as the leaves tile the slots),
    // so those misses overlap the leaves made meanwhile. Without it this function took a fifth of
    // a build of 10^6 spheres.
    constexpr std::uint32_t kAhead = 64;
    const auto n = std::uint32_t(id_of_.size());
    for (std::uint32_t s = first + kAhead; s < std::min(n, first + count + kAhead); ++s) {
        const char* p = reinterpret_cast<const char*>(&shapes[id_of_[s]]);
        __builtin_prefetch(p);
        __builtin_prefetch(p + sizeof(Shape<T>) - 1);
    }
    const std::size_t offset = leaves_.size();
    const std::size_t size = leaf_chunks<T>(counts);
    if (offset + size > kOffsetMask) throw std::length_error("raypick::Bvh: too many shapes for the leaf storage");
    leaves_.resize(offset + size);  // value-initialised: zeroed (ids of padding lanes stay 0)
    Chunk* leaf = &leaves_[offset];
    for (int type = 0; type < kShapeTypeCount; ++type) {
        if (!count_of(counts, type)) continue;
        const Section<T, Chunk> sec = section<T>(leaf, counts, type);
        std::uint8_t lane = 0;
        std::uint32_t first_of_type = kNone;
        for (std::uint32_t s = first; s < first + count; ++s) {
            if (type_of_[s] != type) continue;
            if (first_of_type == kNone) first_of_type = s;
            sec.ids()[lane] = id_of_[s];
            write_lane(sec, lane, shapes[id_of_[s]]);
            lane_of_[s] = lane++;
        }
        for (std::size_t l = lane; l < sec.padded; ++l) write_lane(sec, l, shapes[id_of_[first_of_type]]);
    }
    // Cache lines the block may touch (it need not start on a line).
    const std::size_t lines = std::min<std::size_t>(8, (size * sizeof(Chunk) + 63) / 64 + 1);
    return kLeaf | std::uint32_t((lines - 1) << 28) | std::uint32_t(offset);
}

template <typename T> bvh_leaf::Candidate<T> Bvh<T>::candidate_at(std::uint32_t slot) const {
    const ChildRef leaf = leaf_of_[slot];
    const Node& node = nodes_[leaf.node];
    const int type = type_of_[slot];
    const auto sec = bvh_leaf::section<T>(&leaves_[node.child[leaf.k] & kOffsetMask], node.counts[leaf.k], type);
    return {T(0), id_of_[slot], sec.fields(), std::uint32_t(sec.padded), lane_of_[slot], type};
}

template <typename T> Shape<T> Bvh<T>::shape_at(std::uint32_t slot) const { return candidate_at(slot).shape(); }

template <typename T>
typename Bvh<T>::Sub Bvh<T>::plan(const LargeVector<BinNode>& bin, std::uint32_t b, std::vector<How>& how) const {
    // Costs in node visits: a wide node's box test, or a vector of leaf shapes of one type (a lone
    // shape of its type is one scalar test) weighted by what that type's test costs against a node
    // test (ShapeTraits::leaf_cost, measured: OBB vectors 1.5 and capsule vectors 1.25 gave the
    // fastest picks among 10^6 of them; heavier spheres and boxes bought less than the noise for
    // twice the nodes), times the probability of a visit, the box's area.
    constexpr double kNodeCost = 1.0;
    double kLeafVectorCost[kShapeTypeCount];
    {
        int t = 0;
        for_each_shape_type([&](auto tag) { kLeafVectorCost[t++] = decltype(tag)::Traits::leaf_cost; });
    }
    const BinNode& node = bin[b];
    double area;
    {
        double e[3];
        for (int a = 0; a < 3; ++a) {
            const double d = double(node.hi[a]) - double(node.lo[a]);  // empty box: negative
            e[a] = d > 0 ? std::min(d, 1e100) : 0.0;                    // no inf (inf * 0 = NaN)
        }
        area = e[0] * e[1] + e[1] * e[2] + e[2] * e[0];
    }
    auto leaf_cost = [&](const std::array<std::uint32_t, kShapeTypeCount>& n) {
        double c = 0;
        for (int t = 0; t < kShapeTypeCount; ++t)
            c += kLeafVectorCost[t] * double((n[std::size_t(t)] + bvh_leaf::lanes<T>() - 1) / bvh_leaf::lanes<T>());
        return area * c;
    };
    Sub s;
    if (node.count) {
        s.n.fill(0);
        for (std::uint32_t k = node.first; k < node.first + node.count; ++k) ++s.n[type_of_[k]];
        s.cost[0] = leaf_cost(s.n);  // one slot: the flat rest is never read (see below)
        return s;
    }
    const Sub l = plan(bin, b + 1, how), r = plan(bin, node.first, how);
    std::uint32_t total = 0;
    for (int t = 0; t < kShapeTypeCount; ++t) total += (s.n[t] = l.n[t] + r.n[t]);
    How& h = how[b];
    // Both children sharing j slots: the best k for the left one. Selects, not branches: which
    // k wins is data dependent and was mispredicted most of the time. Only the splits the
    // children can use: a subtree of m binary leaves never fills more than m slots (its cost[] is
    // flat from m on), so a k with k > l.slots or j - k > r.slots costs no less than the nearest
    // k without, and j beyond l.slots + r.slots gains nothing. The minimum is the same. Most
    // binary nodes are near the leaves, so this is a few additions where all W^2 / 2 took a
    // fifth of a build at 16 wide. For the same reason cost[] is kept only up to slots (every
    // read below stays within a child's slots), and how[b][i] beyond them stays 0 (`how` starts
    // zeroed: no better than with i - 1 slots).
    const int most = std::min(W, l.slots + r.slots);
    s.slots = most;
    double dist[W + 1];
    std::uint8_t split[W + 1];
    for (int j = 2; j <= most; ++j) {
        const int k0 = std::max(1, j - r.slots), k1 = std::min(j - 1, l.slots);
        double d = l.cost[k0 - 1] + r.cost[j - k0 - 1];
        std::uint8_t at = std::uint8_t(k0);
        for (int k = k0 + 1; k <= k1; ++k) {
            const double c = l.cost[k - 1] + r.cost[j - k - 1];
            at = c < d ? std::uint8_t(k) : at;
            d = c < d ? c : d;
        }
        dist[j] = d;
        split[j] = at;
    }
    h[0] = split[most];
    const double inner = area * kNodeCost + dist[most];
    const double leaf = total <= std::uint32_t(options_.max_leaf_size) ? leaf_cost(s.n)
                                                                       : std::numeric_limits<double>::infinity();
    h[1] = leaf < inner;
    s.cost[0] = leaf < inner ? leaf : inner;
    for (int i = 2; i <= most; ++i) {
        const bool better = dist[i] < s.cost[i - 2];
        h[i] = better ? split[i] : 0;
        s.cost[i - 1] = better ? dist[i] : s.cost[i - 2];
    }
    return s;
}

template <typename T>
std::uint32_t Bvh<T>::collapse(const LargeVector<BinNode>& bin, const std::vector<How>& how, std::uint32_t b,
                               ChildRef up, const std::vector<Shape<T>>& shapes) {
    // The node's children, following plan(): binary node, and whether it becomes one leaf.
    struct Kid {
        std::uint32_t b;
        bool leaf;
    };
    std::array<Kid, W> kids{};
    int n = 0;
    auto gather = [&](auto& self, std::uint32_t x, int i) -> void {
        while (i > 1 && how[x][std::size_t(i)] == 0) --i;
        if (i == 1) {
            kids[std::size_t(n++)] = {x, bin[x].count != 0 || how[x][1] != 0};
            return;
        }
        const int k = how[x][std::size_t(i)];
        self(self, x + 1, k);
        self(self, bin[x].first, i - k);
    };
    if (bin[b].count) {
        kids[std::size_t(n++)] = {b, true};  // a lone leaf (the whole tree is one leaf)
    } else {
        gather(gather, b + 1, how[b][0]);
        gather(gather, bin[b].first, W - how[b][0]);
    }
    const auto index = static_cast<std::uint32_t>(nodes_.size());
    nodes_.push_back({});
    parent_.push_back(up);
    for (std::uint32_t k = 0; k < std::uint32_t(W); ++k) {
        nodes_[index].child[k] = kNone;
        nodes_[index].counts[k] = 0;
        set_child(index, k, Vec3<T>(infinity<T>()), Vec3<T>(-infinity<T>()));
    }
    for (int k = 0; k < n; ++k) {
        const BinNode& c = bin[kids[std::size_t(k)].b];
        set_child(index, std::uint32_t(k), c.lo, c.hi);
        if (kids[std::size_t(k)].leaf) {
            // The subtree's slots: from its leftmost leaf's first to its rightmost leaf's last.
            std::uint32_t lo = kids[std::size_t(k)].b, hi = lo;
            while (!bin[lo].count) ++lo;
            while (!bin[hi].count) hi = bin[hi].first;
            const std::uint32_t first = bin[lo].first, count = bin[hi].first + bin[hi].count - first;
            bvh_leaf::Counts counts = 0;
            const std::uint32_t ref = make_leaf(first, count, counts, shapes);
            nodes_[index].child[k] = ref;
            nodes_[index].counts[k] = counts;
            for (std::uint32_t s = first; s < first + count; ++s) leaf_of_[s] = {index, std::uint32_t(k)};
        } else {
            const std::uint32_t child =
                collapse(bin, how, kids[std::size_t(k)].b, ChildRef{index, std::uint32_t(k)}, shapes);
            nodes_[index].child[k] = child;
        }
    }
    return index;
}

template <typename T>
std::optional<NearestHit<T>> Bvh<T>::pick(const Ray<T>& ray, T t_min, T t_max) const {
    return pick(ray, t_min, t_max, kNone);
}

template <typename T>
std::optional<NearestHit<T>> Bvh<T>::pick(const Ray<T>& ray, T t_min, T t_max, std::uint32_t hint) const {
    if (nodes_.empty() || !is_valid(ray) || !(t_min <= t_max)) return std::nullopt;
    bvh_leaf::Candidate<T> best;
    if (hint < slot_of_.size()) {
        // The same arithmetic as a leaf lane (the batch kernels are bit for bit the scalar code).
        bvh_leaf::test_scalar(candidate_at(slot_of_[hint]), ray, t_min, t_max, best);
    }
    const RayConsts rc = ray_consts(ray);
    T root_t;
    if (enters_root(rc, t_min, t_max, root_t)) {
        auto walk = [&](const auto& tree) {
            switch (isa_) {
                case BatchIsa::Avx512: bvh_walk_avx512::walk_pick(tree, rc, ray, t_min, t_max, root_t, best); break;
                case BatchIsa::Avx2: bvh_walk_avx2::walk_pick(tree, rc, ray, t_min, t_max, root_t, best); break;
                default: bvh_walk_sse2::walk_pick(tree, rc, ray, t_min, t_max, root_t, best); break;
            }
        };
        if (!compact_.empty()) walk(bvh_node::TreeOf<bvh_node::Compact<T>>{compact_.data(), leaves_.data()});
        else walk(bvh_node::Tree<T>{nodes_.data(), leaves_.data()});
    }
    return finish(ray, best, t_min, t_max);
}

template <typename T> typename Bvh<T>::RayConsts Bvh<T>::ray_consts(const Ray<T>& ray) const {
    // Boxes are widened by delta for this ray: a cast's accept/reject decisions carry rounding of
    // about eps * (|origin| + |shape|) in space (a zero-radius shape at a rounding-level distance
    // from the line may count as hit), so culling must be at least that conservative to agree
    // with brute force exactly. Folded into the origin: lo - delta - o = lo - (o + delta).
    const T scene_mag = std::max(detail::finite_max_abs(root_lo_), detail::finite_max_abs(root_hi_));
    const T delta = T(16) * std::numeric_limits<T>::epsilon() * (detail::max_abs(ray.origin) + scene_mag) +
                    std::numeric_limits<T>::min();
    RayConsts rc;
    for (int a = 0; a < 3; ++a) {
        rc.neg[a] = std::signbit(ray.direction[a]);  // hi plane first
        rc.o_near[a] = rc.neg[a] ? ray.origin[a] - delta : ray.origin[a] + delta;
        rc.o_far[a] = rc.neg[a] ? ray.origin[a] + delta : ray.origin[a] - delta;
        rc.inv[a] = T(1) / ray.direction[a];  // +-inf for a zero component
    }
    return rc;
}

template <typename T> bool Bvh<T>::enters_root(const RayConsts& rc, T t_min, T t_max, T& entry) const {
    const T eps = T(4) * std::numeric_limits<T>::epsilon();
    T tn = t_min, tf = t_max;
    for (int a = 0; a < 3; ++a) {
        const bool neg = rc.neg[a];
        const T ta = ((neg ? root_hi_[a] : root_lo_[a]) - rc.o_near[a]) * rc.inv[a];
        const T tb = ((neg ? root_lo_[a] : root_hi_[a]) - rc.o_far[a]) * rc.inv[a];
        if (ta > tn) tn = ta;
        if (tb < tf) tf = tb;
    }
    entry = tn;
    return tn - std::abs(tn) * eps <= tf + std::abs(tf) * eps;
}

template <typename T>
std::optional<NearestHit<T>> Bvh<T>::finish(const Ray<T>& ray, const bvh_leaf::Candidate<T>& best, T t_min,
                                            T t_max) const {
    if (best.none()) return std::nullopt;
    const auto h = best.visit([&](const auto& s) { return cast(ray, s, t_min, t_max); });
    if (!h) return std::nullopt;  // unreachable: the leaf test accepted it
    const auto surf = first_surface(ray, *h, t_min, t_max);
    if (!surf) return std::nullopt;
    return NearestHit<T>{best.id, *surf, *h};
}

template <typename T>
void Bvh<T>::pick_bundle(const Ray<T>* rays, std::size_t count, std::optional<NearestHit<T>>* out, T t_min,
                         T t_max) const {
    for (; count > kMaxBundle; count -= kMaxBundle, rays += kMaxBundle, out += kMaxBundle)
        pick_bundle(rays, kMaxBundle, out, t_min, t_max);
    for (std::size_t i = 0; i < count; ++i) out[i].reset();
    if (nodes_.empty() || count == 0 || !(t_min <= t_max)) return;
    constexpr std::size_t N = kMaxBundle;
    // Node tests at the baseline width (the bundle's own interval arithmetic, below).
    namespace walk = bvh_walk_sse2;
    constexpr int L = walk::NodeVec<T>::kLanes;
    using V = typename walk::NodeVec<T>::V;
    const V zero{};
    const T eps = T(4) * std::numeric_limits<T>::epsilon();
    const T inf = infinity<T>();
    static_assert(N <= 64, "one bit per ray in live_mask");
    std::uint64_t live_mask = 0;  // bit i: rays[i] is valid
    bool neg[3];                  // per axis: the bundle's rays meet the hi plane first
    V vnl[3], vnh[3], vfl[3], vfh[3], vil[3], vih[3];  // interval bounds of on, of, iv over the rays
    using M = decltype(V{} < V{});
    auto bits = [](M m) {  // bit l set where lane l of m is set
        if constexpr (sizeof(T) == 4) return unsigned(_mm_movemask_ps(__m128(m)));
        else return unsigned(_mm_movemask_pd(__m128d(m)));
    };
    auto vmin = [](V x, V y) { return x < y ? x : y; };
    auto vmax = [](V x, V y) { return x > y ? x : y; };
    auto vabs = [](V x) { return V(M(x) & ~M(-V{})); };  // clears the sign bits
    // Per ray, structure of arrays padded to whole vectors: the single-ray node test's constants
    // (ray_consts()'s arithmetic, L rays at a time), and each ray's limit: t_max, then its best t so
    // far; -inf for a lane without a valid ray, which then never enters a box.
    const std::size_t padded = (count + L - 1) / L * L;
    alignas(16) T on[3][N], of[3][N], iv[3][N], lim[N];
    bvh_leaf::Candidate<T> best[N];
    alignas(16) T org[3][N], dir[3][N];
    {
        for (std::size_t i = 0; i < count; ++i)
            for (int a = 0; a < 3; ++a) org[a][i] = rays[i].origin[a], dir[a][i] = rays[i].direction[a];
        for (std::size_t i = count; i < padded; ++i)  // padding lanes: invalid (a NaN direction)
            for (int a = 0; a < 3; ++a) org[a][i] = T(0), dir[a][i] = std::numeric_limits<T>::quiet_NaN();
        const T big = std::numeric_limits<T>::max();
        const T scene_mag = std::max(detail::finite_max_abs(root_lo_), detail::finite_max_abs(root_hi_));
        const V tmax_v = zero + t_max, ninf = zero - inf, pinf = zero + inf;
        M any_neg[3] = {}, all_neg[3], finite = ~M{};
        V on_lo[3], on_hi[3], of_lo[3], of_hi[3], iv_lo[3], iv_hi[3];
        for (int a = 0; a < 3; ++a) {
            all_neg[a] = ~M{};
            on_lo[a] = of_lo[a] = iv_lo[a] = pinf;
            on_hi[a] = of_hi[a] = iv_hi[a] = ninf;
        }
        for (std::size_t i0 = 0; i0 < padded; i0 += L) {
            V o[3], d[3];
            for (int a = 0; a < 3; ++a) {
                std::memcpy(&o[a], &org[a][i0], sizeof(V));
                std::memcpy(&d[a], &dir[a][i0], sizeof(V));
            }
            // is_valid(Ray): finite origin and direction, 0 < d.d <= max.
            const V dd = (d[0] * d[0] + d[1] * d[1]) + d[2] * d[2];
            M valid = (dd > T(0)) & (dd <= big);
            for (int a = 0; a < 3; ++a) valid &= (o[a] - o[a] == T(0)) & (d[a] - d[a] == T(0));
            live_mask |= std::uint64_t(bits(valid)) << i0;
            const V tl = valid ? tmax_v : ninf;
            std::memcpy(&lim[i0], &tl, sizeof(V));
            const V delta = (T(16) * std::numeric_limits<T>::epsilon()) *
                                (vmax(vabs(o[0]), vmax(vabs(o[1]), vabs(o[2]))) + scene_mag) +
                            std::numeric_limits<T>::min();
            for (int a = 0; a < 3; ++a) {
                const M neg = M(d[a]) < 0;  // the sign bit: hi plane first
                const V n = neg ? o[a] - delta : o[a] + delta, f = neg ? o[a] + delta : o[a] - delta;
                const V v = T(1) / d[a];
                std::memcpy(&on[a][i0], &n, sizeof(V));
                std::memcpy(&of[a][i0], &f, sizeof(V));
                std::memcpy(&iv[a][i0], &v, sizeof(V));
                // Interval bounds need one plane order per axis and finite values (no 0 * inf).
                any_neg[a] |= neg & valid;
                all_neg[a] &= neg | ~valid;
                finite &= ((vabs(v) <= big) & (vabs(n) <= big) & (vabs(f) <= big)) | ~valid;
                on_lo[a] = vmin(on_lo[a], valid ? n : pinf), on_hi[a] = vmax(on_hi[a], valid ? n : ninf);
                of_lo[a] = vmin(of_lo[a], valid ? f : pinf), of_hi[a] = vmax(of_hi[a], valid ? f : ninf);
                iv_lo[a] = vmin(iv_lo[a], valid ? v : pinf), iv_hi[a] = vmax(iv_hi[a], valid ? v : ninf);
            }
        }
        if (live_mask == 0) return;
        const unsigned all_lanes = (1u << L) - 1;
        bool coherent = bits(finite) == all_lanes;
        for (int a = 0; a < 3; ++a) {
            neg[a] = bits(any_neg[a]) != 0;
            coherent = coherent && neg[a] == (bits(all_neg[a]) == all_lanes);
            // Each bound's extreme over its lanes, splat into every lane.
            T x[6] = {inf, -inf, inf, -inf, inf, -inf};
            for (int l = 0; l < L; ++l) {
                x[0] = std::min(x[0], on_lo[a][l]), x[1] = std::max(x[1], on_hi[a][l]);
                x[2] = std::min(x[2], of_lo[a][l]), x[3] = std::max(x[3], of_hi[a][l]);
                x[4] = std::min(x[4], iv_lo[a][l]), x[5] = std::max(x[5], iv_hi[a][l]);
            }
            vnl[a] = zero + x[0], vnh[a] = zero + x[1], vfl[a] = zero + x[2], vfh[a] = zero + x[3];
            vil[a] = zero + x[4], vih[a] = zero + x[5];
        }
        if (!coherent) {  // ray by ray (each result constructed in place: see the end)
            for (std::size_t i = 0; i < count; ++i)
                if (live_mask >> i & 1u) ::new (static_cast<void*>(&out[i])) std::optional<NearestHit<T>>(pick(rays[i], t_min, t_max));
            return;
        }
    }
    // Bounds of a child's slab entry and exit over every ray of the bundle. Each ray computes
    // fl(fl(plane - o) * inv); rounding is monotone and the product bilinear, so its value lies
    // between the least and greatest of the four corner products of the intervals of (plane - o)
    // and inv. The widened comparison is monotone too, so a box some ray would enter passes.
    std::size_t near_off[3], far_off[3];
    for (int a = 0; a < 3; ++a) {
        const std::size_t lo_off = offsetof(Node, lo) + std::size_t(a) * W * sizeof(T);
        const std::size_t hi_off = offsetof(Node, hi) + std::size_t(a) * W * sizeof(T);
        near_off[a] = neg[a] ? hi_off : lo_off;
        far_off[a] = neg[a] ? lo_off : hi_off;
    }
    // A pinhole camera's tile: every ray starts at the same point, so each plane's offset from the
    // (widened) origins is one value, x1 == x2 and y1 == y2 below, and the four corner products
    // are two. The same bits: the minimum of {p, q, p, q} taken as below is min(p, q), NaN or not.
    bool one_origin = true;
    for (int a = 0; a < 3; ++a) one_origin = one_origin && vnl[a][0] == vnh[a][0] && vfl[a][0] == vfh[a][0];
    auto test_node = [&](const Node& n, T t0, T t1, T* entry) __attribute__((always_inline)) {
        if (one_origin)
            return walk::test_children(n, near_off, far_off, t0, t1, entry, [&](int a, V np, V fp, V& ta, V& tb) __attribute__((always_inline)) {
                const V x = np - vnh[a], y = fp - vfh[a];
                ta = vmin(x * vil[a], x * vih[a]);
                tb = vmax(y * vil[a], y * vih[a]);
            });
        return walk::test_children(n, near_off, far_off, t0, t1, entry, [&](int a, V np, V fp, V& ta, V& tb) __attribute__((always_inline)) {
            const V x1 = np - vnh[a], x2 = np - vnl[a], y1 = fp - vfh[a], y2 = fp - vfl[a];
            ta = vmin(vmin(x1 * vil[a], x1 * vih[a]), vmin(x2 * vil[a], x2 * vih[a]));
            tb = vmax(vmax(y1 * vil[a], y1 * vih[a]), vmax(y2 * vil[a], y2 * vih[a]));
        });
    };
    // The bundle's limit: the farthest of its rays' limits (each ray's best t so far, or t_max).
    T bundle_lim = t_max;
    static_assert(std::size_t(L) == bvh_leaf::lanes<T>(), "the leaf kernels test rays L at a time");
    const walk::BundleRays<T> bundle{{org[0], org[1], org[2]}, {dir[0], dir[1], dir[2]}, best, lim};
    auto visit_leaf = [&](std::uint32_t ref, bvh_leaf::Counts counts, const Node& parent, int k) {
        // Each ray's own node test on the leaf's box (as in pick()), then its shapes.
        const bvh_leaf::Chunk* leaf = &leaves_[ref & kOffsetMask];
        std::uint64_t entered = 0, groups = 0;  // rays that enter the box; vectors of L holding any
        V near_plane[3], far_plane[3];          // the box's planes, minus the origins if all rays share one
        for (int a = 0; a < 3; ++a) {
            const T np = neg[a] ? parent.hi[a][k] : parent.lo[a][k];
            const T fp = neg[a] ? parent.lo[a][k] : parent.hi[a][k];
            // (The shared origin's planes from the bounds over the valid rays: ray 0 may be invalid.)
            near_plane[a] = zero + (one_origin ? np - vnh[a][0] : np);
            far_plane[a] = zero + (one_origin ? fp - vfh[a][0] : fp);
        }
        for (std::size_t i0 = 0; i0 < padded; i0 += L) {
            V tn, tf;
            std::memcpy(&tf, &lim[i0], sizeof(V));
            tn = zero + t_min;
            for (int a = 0; a < 3; ++a) {
                V v, x = near_plane[a], y = far_plane[a];
                std::memcpy(&v, &iv[a][i0], sizeof(V));
                if (!one_origin) {  // (one origin: the same subtraction, done once above)
                    V o1, o2;
                    std::memcpy(&o1, &on[a][i0], sizeof(V));
                    std::memcpy(&o2, &of[a][i0], sizeof(V));
                    x = x - o1;
                    y = y - o2;
                }
                const V ta = x * v, tb = y * v;
                tn = ta > tn ? ta : tn;
                tf = tb < tf ? tb : tf;
            }
            // A lane without a valid ray has limit -inf: tf + |tf| eps is NaN, so it never hits.
            if (const unsigned hit = walk::widened_hits<T>(tn, tf)) {
                entered |= std::uint64_t(hit) << i0;
                groups |= std::uint64_t(1) << (i0 / L);
            }
        }
        if (entered) {
            // Per section, whichever takes fewer kernel calls: each shape against the entering
            // rays L at a time, or each entering ray against the section's shapes L at a time
            // (a lone shape: the scalar code). Both give every ray exactly its own test's result.
            const std::size_t rays_in = std::size_t(__builtin_popcountll(entered));
            const std::size_t vectors = std::size_t(__builtin_popcountll(groups));
            walk::for_each_section<T>(leaf, counts, [&](const walk::LeafSection<T>& sec) {
                if (sec.count * vectors < rays_in * ((sec.count + L - 1) / L)) {
                    walk::test_section_rays(sec, entered, groups, bundle, t_min, t_max);
                    return;
                }
                for (std::uint64_t m = entered; m; m &= m - 1) {
                    const std::size_t i = std::size_t(__builtin_ctzll(m));
                    walk::test_section(sec, rays[i], t_min, t_max, best[i]);
                    if (!best[i].none()) lim[i] = best[i].t;
                }
            });
        }
        V far = zero - inf;
        for (std::size_t i0 = 0; i0 < padded; i0 += L) {
            V l;
            std::memcpy(&l, &lim[i0], sizeof(V));
            far = vmax(far, l);
        }
        bundle_lim = -inf;
        for (int j = 0; j < L; ++j) bundle_lim = std::max(bundle_lim, far[j]);
    };
    struct Entry { std::uint32_t ref; bvh_leaf::Counts counts; std::uint32_t node, k; T t; };
    std::array<Entry, kStack> stack;
    int sp = 0;
    {
        // The root box, as a child of a virtual node.
        Node root{};
        for (int k = 0; k < W; ++k)
            for (int a = 0; a < 3; ++a) root.lo[a][k] = inf, root.hi[a][k] = -inf;
        for (int a = 0; a < 3; ++a) root.lo[a][0] = root_lo_[a], root.hi[a][0] = root_hi_[a];
        alignas(16) T entry[W];
        if (!(test_node(root, t_min, t_max, entry) & 1u)) return;
        stack[sp++] = {0, 0, 0, 0, entry[0]};
    }
    while (sp > 0) {
        const Entry e = stack[--sp];
        if (e.t > bundle_lim + std::abs(bundle_lim) * eps) continue;
        if (e.ref & kLeaf) {
            visit_leaf(e.ref, e.counts, nodes_[e.node], int(e.k));
            continue;
        }
        const Node& n = nodes_[e.ref];
        alignas(16) T entry[W];
        // Sorted straight onto the stack (no copy).
        sp += walk::sorted_children(n, test_node(n, t_min, bundle_lim, entry), &stack[std::size_t(sp)], [&](int k) {
            return Entry{n.child[k], n.counts[k], e.ref, std::uint32_t(k), entry[k]};
        });
    }
    // Constructed in place: finish() returns straight into out[i]. (An assignment returned into a
    // temporary and copied its 76 bytes with wider loads than the callee's stores: a
    // store-forwarding stall on every ray, a seventh of this function's time.)
    static_assert(std::is_trivially_destructible_v<std::optional<NearestHit<T>>>, "replaced in place");
    for (std::size_t i = 0; i < count; ++i)
        if (live_mask >> i & 1u) ::new (static_cast<void*>(&out[i])) std::optional<NearestHit<T>>(finish(rays[i], best[i], t_min, t_max));
}

template <typename T>
template <typename Visit>
void Bvh<T>::for_each_hit(const Ray<T>& ray, Visit&& visit, T t_min, T t_max) const {
    if (nodes_.empty() || !is_valid(ray) || !(t_min <= t_max)) return;
    const RayConsts rc = ray_consts(ray);
    T root_entry;
    if (!enters_root(rc, t_min, t_max, root_entry)) return;
    // The walk runs in the instruction set's own copy (BvhNode.h) and hands each crossed leaf back
    // here, where the visitor's type is known.
    struct Context {
        const Bvh& bvh;
        const Ray<T>& ray;
        Visit& visit;
        T t_min, t_max;
    } ctx{*this, ray, visit, t_min, t_max};
    auto leaf = [](void* p, std::uint32_t ref, bvh_leaf::Counts counts) {
        Context& c = *static_cast<Context*>(p);
        bvh_leaf::for_each_shape<T>(&c.bvh.leaves_[ref & kOffsetMask], counts, [&](std::uint32_t id, const Shape<T>& s) {
            if (const auto h = cast(c.ray, s, c.t_min, c.t_max)) c.visit(id, *h);
        });
    };
    const bvh_node::Tree<T> tree{nodes_.data(), leaves_.data()};
    switch (isa_) {
        case BatchIsa::Avx512: bvh_walk_avx512::walk_every(tree, rc, t_min, t_max, +leaf, &ctx); break;
        case BatchIsa::Avx2: bvh_walk_avx2::walk_every(tree, rc, t_min, t_max, +leaf, &ctx); break;
        default: bvh_walk_sse2::walk_every(tree, rc, t_min, t_max, +leaf, &ctx); break;
    }
}

template <typename T> void Bvh<T>::refit_up(ChildRef ref, Vec3<T> lo, Vec3<T> hi) {
    while (ref.node != kNone) {
        set_child(ref.node, ref.k, lo, hi);
        if (!compact_.empty() && !bvh_node::encode(nodes_[ref.node], compact_[ref.node])) compact_.clear();
        Vec3<T> nlo(infinity<T>()), nhi(-infinity<T>());
        const Node& n = nodes_[ref.node];
        for (int k = 0; k < W; ++k)
            for (int a = 0; a < 3; ++a) {
                nlo[a] = std::min(nlo[a], n.lo[a][k]);
                nhi[a] = std::max(nhi[a], n.hi[a][k]);
            }
        lo = nlo;
        hi = nhi;
        ref = parent_[ref.node];
    }
    root_lo_ = lo;
    root_hi_ = hi;
}

template <typename T> void Bvh<T>::update(std::uint32_t index, const Shape<T>& shape) {
    if (index >= slot_of_.size()) return;
    const std::uint32_t slot = slot_of_[index];
    if (type_of_[slot] != std::uint8_t(shape.index())) {
        // A change of type changes the leaf's layout: rebuild (rare; a drag keeps the type).
        std::vector<Shape<T>> all(size());
        for (std::uint32_t s = 0; s < size(); ++s) all[id_of_[s]] = shape_at(s);
        all[index] = shape;
        build(all, options_);
        return;
    }
    const ChildRef leaf = leaf_of_[slot];
    bvh_leaf::Chunk* block = &leaves_[nodes_[leaf.node].child[leaf.k] & kOffsetMask];
    const bvh_leaf::Counts counts = nodes_[leaf.node].counts[leaf.k];
    bvh_leaf::write_lane(bvh_leaf::section<T>(block, counts, int(shape.index())), lane_of_[slot], shape);
    // The leaf's new box: the union of its shapes' (read from the block itself).
    Vec3<T> lo(infinity<T>()), hi(-infinity<T>());
    bvh_leaf::for_each_shape<T>(block, counts, [&](std::uint32_t, const Shape<T>& s) {
        const Aabb<T> b = padded_bounds(s);
        lo = glm::min(lo, b.min);
        hi = glm::max(hi, b.max);
    });
    refit_up(leaf, lo, hi);
}

}  // namespace raypick
