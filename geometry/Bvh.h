// raypick geometry: a bounding volume hierarchy over mixed shapes, for nearest-hit picking.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <cstdint>
#include <limits>
#include <optional>
#include <type_traits>
#include <utility>
#include <vector>

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
};

/// Bounding volume hierarchy over a fixed set of mixed shapes.
///
/// - Built top-down with a binned surface-area heuristic over shape centroids.
/// - pick(): nearest first surface point (same contract and tie-break as pick_nearest()),
///   traversed nearest child first with early termination against the best hit so far.
/// - Node tests are robust for rays parallel to node slabs: a zero direction component gives
///   +-inf slab distances, and the NaN of an origin lying exactly on a slab plane of such an axis is
///   ignored (the ray is inside the closed slab); slab distances are widened by a few ulps (Ize
///   2013), boxes by the casts' own rounding scale for the ray, and node bounds padded, so
///   rounding never loses a node and pick() agrees with pick_nearest() exactly.
/// - Nodes are 4 wide (a binary SAH tree collapsed), their four child boxes tested together; leaves
///   keep their shapes in compact per-type arrays (a float sphere is 16 bytes, not a 64-byte
///   variant), so traversal touches little memory.
/// - update(i, shape): replace one shape and refit the bounds on its path to the root (cheap; for
///   a drag). Changing a shape's type rebuilds. Quality degrades after large moves; call build()
///   again then.
/// - Invalid shapes are kept (indices stay stable) but have empty bounds and are never picked.
template <typename T> class Bvh {
public:
    Bvh() = default;
    explicit Bvh(std::vector<Shape<T>> shapes, BvhOptions options = {}) { build(std::move(shapes), options); }

    void build(std::vector<Shape<T>> shapes, BvhOptions options = {});
    void update(std::uint32_t index, const Shape<T>& shape);

    std::optional<NearestHit<T>> pick(const Ray<T>& ray, T t_min = T(0), T t_max = infinity<T>()) const;
    /// The same pick, casting shape `hint` first (e.g. the shape the neighbouring pixel's ray hit):
    /// a good hint gives a tight bound from the start, so traversal prunes more. The result is
    /// exactly pick(ray, t_min, t_max) whatever the hint (an out-of-range hint is ignored).
    std::optional<NearestHit<T>> pick(const Ray<T>& ray, T t_min, T t_max, std::uint32_t hint) const;

    std::size_t size() const { return shapes_.size(); }
    const Shape<T>& shape(std::uint32_t index) const { return shapes_[slot_of_[index]]; }
    /// Number of 4-wide nodes.
    std::size_t node_count() const { return nodes_.size(); }
    /// Depth of the binary hierarchy before it was collapsed to 4-wide nodes.
    int depth() const { return depth_; }
    /// Bounds of everything (empty box, min > max, when there is nothing valid).
    Aabb<T> root_bounds() const { return {root_lo_, root_hi_}; }

private:
    // The hierarchy is built binary (BinNode) and then collapsed into 4-wide nodes (Node), whose
    // four child boxes are tested together (structure-of-arrays, one vector op per plane).
    struct BinNode {
        Vec3<T> lo, hi;
        std::uint32_t first = 0;  ///< leaf: first slot; inner: index of the right child (left = this + 1)
        std::uint32_t count = 0;  ///< leaf: number of shapes (>0); inner: 0
    };
    struct Node {
        T lo[3][4], hi[3][4];        ///< child boxes per axis; empty slots have lo = +inf, hi = -inf
        std::uint32_t child[4];      ///< inner child: node index; leaf child: first slot
        std::uint32_t count[4];      ///< 0: inner child (or empty slot); > 0: leaf with that many shapes
    };
    struct ChildRef {
        std::uint32_t node = 0;  ///< the 4-wide node holding the box
        std::uint32_t k = 0;     ///< which of its four slots
    };
    static constexpr int kMaxDepth = 96;  // beyond this the builder splits at the median
    static constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();

    struct Prim {
        Vec3<T> lo, hi;  ///< padded bounds; empty (lo > hi) for an invalid shape
        Vec3<T> c;       ///< centroid (halves first: no overflow near the largest finite values); 0 if invalid
        std::uint32_t id;
        const Vec3<T>& centroid2() const { return c; }
        static Prim make(const Aabb<T>& b, std::uint32_t id) {
            return {b.min, b.max, b.min.x <= b.max.x ? b.min * T(0.5) + b.max * T(0.5) : Vec3<T>(T(0)), id};
        }
    };
    /// Box and centroid bounds of a range of prims, handed from a node to its children.
    struct Range {
        Vec3<T> lo{infinity<T>()}, hi{-infinity<T>()}, clo{infinity<T>()}, chi{-infinity<T>()};
        void add(const Prim& p) {
            lo = glm::min(lo, p.lo);
            hi = glm::max(hi, p.hi);
            const Vec3<T> c = p.centroid2();
            clo = glm::min(clo, c);
            chi = glm::max(chi, c);
        }
    };

    Aabb<T> padded_bounds(const Shape<T>& s) const;
    std::uint32_t build_node(std::vector<BinNode>& bin, std::vector<Prim>& prims, std::uint32_t begin,
                             std::uint32_t end, const Range& range, int depth, const BvhOptions& opt);
    std::uint32_t collapse(const std::vector<BinNode>& bin, std::uint32_t b, ChildRef up);
    std::uint32_t make_leaf(std::uint32_t first, std::uint32_t count);
    std::uint32_t leaf_counts(std::uint32_t first, std::uint32_t count) const;
    /// The best candidate so far during a pick: t and caller's index decide; type and index into
    /// the compact array find the shape again for the final full cast.
    struct Candidate {
        T t = T(0);
        std::uint32_t id = kNone;
        int type = 0;
        std::uint32_t index = 0;
    };
    template <typename S>
    void leaf_passages(const Ray<T>& ray, const std::vector<S>& shapes, const std::vector<std::uint32_t>& ids,
                       int type, std::uint32_t first, std::uint32_t count, T t_min, T t_max, Candidate& best) const;
    static Shape<T> poisoned_if_invalid(const Shape<T>& s);
    void set_child(std::uint32_t node, std::uint32_t k, const Vec3<T>& lo, const Vec3<T>& hi);
    void refit_up(ChildRef ref, Vec3<T> lo, Vec3<T> hi);

    std::vector<Node> nodes_;
    std::vector<ChildRef> parent_;        // 4-wide node -> its slot in the parent (node kNone: root)
    Vec3<T> root_lo_{infinity<T>()}, root_hi_{-infinity<T>()};
    std::vector<Shape<T>> shapes_;        // in leaf order ("slots")
    // The same shapes as compact per-type arrays, in leaf order, for traversal (a leaf's shapes of
    // one type are contiguous). count[k] of a leaf child packs its four per-type counts (8 bits
    // each: sphere, aabb, obb, capsule) and child[k] indexes leaves_, the first index per type.
    struct Leaf { std::uint32_t first[kShapeTypeCount]; };
    std::vector<Leaf> leaves_;
    std::vector<Sphere<T>> spheres_;
    std::vector<Aabb<T>> aabbs_;
    std::vector<Obb<T>> obbs_;
    std::vector<Capsule<T>> capsules_;
    std::vector<std::uint32_t> typed_id_[kShapeTypeCount];  // per-type index -> caller's index
    std::vector<std::uint32_t> typed_of_;                   // slot -> index in its type's array
    BvhOptions options_;
    std::vector<std::uint32_t> id_of_;    // slot -> caller's index
    std::vector<std::uint32_t> slot_of_;  // caller's index -> slot
    std::vector<ChildRef> leaf_of_;       // slot -> the leaf's slot in its 4-wide node
    int depth_ = 0;
    bool pad_ = true;
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

template <typename T> void Bvh<T>::build(std::vector<Shape<T>> shapes, BvhOptions options) {
    const auto n = static_cast<std::uint32_t>(shapes.size());
    nodes_.clear();
    parent_.clear();
    depth_ = 0;
    options.max_leaf_size = std::clamp(options.max_leaf_size, 1, 100);  // leaf counts fit in 8 bits
    options_ = options;
    pad_ = options.pad_bounds;
    leaves_.clear();
    spheres_.clear();
    aabbs_.clear();
    obbs_.clear();
    capsules_.clear();
    for (auto& v : typed_id_) v.clear();
    typed_of_.assign(n, 0);
    root_lo_ = Vec3<T>(infinity<T>());
    root_hi_ = Vec3<T>(-infinity<T>());
    std::vector<Prim> prims(n);
    for (std::uint32_t i = 0; i < n; ++i) {
        const Aabb<T> b = padded_bounds(shapes[i]);
        prims[i] = Prim::make(b, i);
    }
    std::vector<BinNode> bin;
    if (n > 0) {
        Range all;
        for (const Prim& p : prims) all.add(p);
        bin.reserve(2 * (n / std::uint32_t(std::max(1, options.max_leaf_size))) + 1);
        build_node(bin, prims, 0, n, all, 1, options);
    }
    shapes_.resize(n);
    id_of_.resize(n);
    slot_of_.resize(n);
    for (std::uint32_t s = 0; s < n; ++s) {
        id_of_[s] = prims[s].id;
        slot_of_[prims[s].id] = s;
        shapes_[s] = shapes[prims[s].id];
    }
    leaf_of_.assign(n, ChildRef{});
    if (n > 0) {
        nodes_.reserve(bin.size() / 2 + 1);
        root_lo_ = bin[0].lo;
        root_hi_ = bin[0].hi;
        collapse(bin, 0, ChildRef{kNone, 0});
    }
}

template <typename T>
std::uint32_t Bvh<T>::build_node(std::vector<BinNode>& bin_nodes, std::vector<Prim>& prims, std::uint32_t begin,
                                 std::uint32_t end, const Range& range, int depth, const BvhOptions& opt) {
    depth_ = std::max(depth_, depth);
    const auto index = static_cast<std::uint32_t>(bin_nodes.size());
    bin_nodes.push_back({});
    const Vec3<T> lo = range.lo, hi = range.hi, clo = range.clo, chi = range.chi;
    bin_nodes[index].lo = lo;
    bin_nodes[index].hi = hi;
    const std::uint32_t count = end - begin;
    auto make_leaf = [&] {
        bin_nodes[index].first = begin;
        bin_nodes[index].count = count;
        return index;
    };
    if (count <= std::uint32_t(std::max(1, opt.max_leaf_size))) return make_leaf();

    auto area = [](const Vec3<T>& a, const Vec3<T>& b) {
        const Vec3<T> e = glm::max(b - a, Vec3<T>(T(0)));
        return e.x * e.y + e.y * e.z + e.z * e.x;
    };
    // Binned SAH over all three axes, binned in one pass over the shapes.
    constexpr int kMaxBins = 32;
    const int bins = std::clamp(opt.bins, 2, kMaxBins);
    struct Bin { Vec3<T> lo{infinity<T>()}, hi{-infinity<T>()}; std::uint32_t n = 0; };
    std::array<std::array<Bin, kMaxBins>, 3> bin{};
    const Vec3<T> ext = chi - clo;
    Vec3<T> scale;
    for (int a = 0; a < 3; ++a) scale[a] = ext[a] > T(0) ? T(bins) / ext[a] : T(0);
    // Bin of a centroid coordinate. NaN or out-of-range positions (extents that overflow to inf
    // near the largest finite values make scale 0 and inf * 0 = NaN) land in the end bins.
    auto bin_index = [&](T c, int a) {
        const T f = (c - clo[a]) * scale[a];
        return f > T(0) ? (f < T(bins) ? int(f) : bins - 1) : 0;
    };
    auto bin_of = [&](const Prim& p, int a) { return bin_index(p.centroid2()[a], a); };
    int best_axis = -1, best_split = 0;
    T best_cost = infinity<T>();
    if (depth < kMaxDepth) {
        for (std::uint32_t i = begin; i < end; ++i) {
            const Prim& p = prims[i];
            const Vec3<T> c = p.centroid2();
            for (int a = 0; a < 3; ++a) {
                Bin& b = bin[a][bin_index(c[a], a)];
                b.lo = glm::min(b.lo, p.lo);
                b.hi = glm::max(b.hi, p.hi);
                ++b.n;
            }
        }
        for (int axis = 0; axis < 3; ++axis) {
            if (!(ext[axis] > T(0))) continue;
            std::array<T, kMaxBins> right_cost{};
            Vec3<T> rlo(infinity<T>()), rhi(-infinity<T>());
            std::uint32_t rn = 0;
            for (int b = bins - 1; b > 0; --b) {
                rlo = glm::min(rlo, bin[axis][b].lo);
                rhi = glm::max(rhi, bin[axis][b].hi);
                rn += bin[axis][b].n;
                right_cost[b] = rn ? area(rlo, rhi) * T(rn) : T(0);
            }
            Vec3<T> llo(infinity<T>()), lhi(-infinity<T>());
            std::uint32_t ln = 0;
            for (int b = 0; b < bins - 1; ++b) {
                llo = glm::min(llo, bin[axis][b].lo);
                lhi = glm::max(lhi, bin[axis][b].hi);
                ln += bin[axis][b].n;
                if (ln == 0 || ln == count) continue;
                const T cost = area(llo, lhi) * T(ln) + right_cost[b + 1];
                if (cost < best_cost) {
                    best_cost = cost;
                    best_axis = axis;
                    best_split = b + 1;
                }
            }
        }
    }
    std::uint32_t mid;
    Range left, right;
    if (best_axis >= 0) {
        // SAH: traversal cost 1, intersection cost 1 per shape, relative to the parent's area.
        const T parent_area = area(lo, hi);
        const T split_cost = T(1) + (parent_area > T(0) ? best_cost / parent_area : T(count));
        if (count <= std::uint32_t(2 * opt.max_leaf_size) && split_cost >= T(count)) return make_leaf();
        auto it = std::partition(prims.begin() + begin, prims.begin() + end,
                                 [&](const Prim& p) { return bin_of(p, best_axis) < best_split; });
        mid = static_cast<std::uint32_t>(it - prims.begin());
    } else {
        // All centroids coincide (or the tree is too deep): split at the median of the longest axis.
        int axis = 0;
        if (ext.y > ext[axis]) axis = 1;
        if (ext.z > ext[axis]) axis = 2;
        mid = begin + count / 2;
        std::nth_element(prims.begin() + begin, prims.begin() + mid, prims.begin() + end,
                         [axis](const Prim& a, const Prim& b) { return a.centroid2()[axis] < b.centroid2()[axis]; });
    }
    if (mid == begin || mid == end) mid = begin + count / 2;
    for (std::uint32_t k = begin; k < mid; ++k) left.add(prims[k]);
    for (std::uint32_t k = mid; k < end; ++k) right.add(prims[k]);
    build_node(bin_nodes, prims, begin, mid, left, depth + 1, opt);
    const std::uint32_t right_child = build_node(bin_nodes, prims, mid, end, right, depth + 1, opt);
    bin_nodes[index].first = right_child;
    bin_nodes[index].count = 0;
    return index;
}

template <typename T>
void Bvh<T>::set_child(std::uint32_t node, std::uint32_t k, const Vec3<T>& lo, const Vec3<T>& hi) {
    for (int a = 0; a < 3; ++a) {
        nodes_[node].lo[a][k] = lo[a];
        nodes_[node].hi[a][k] = hi[a];
    }
}

template <typename T> std::uint32_t Bvh<T>::make_leaf(std::uint32_t first, std::uint32_t count) {
    Leaf leaf;
    leaf.first[0] = std::uint32_t(spheres_.size());
    leaf.first[1] = std::uint32_t(aabbs_.size());
    leaf.first[2] = std::uint32_t(obbs_.size());
    leaf.first[3] = std::uint32_t(capsules_.size());
    // Shapes of each type in slot order; the leaf's slots are contiguous, so are its typed ranges.
    for (int type = 0; type < kShapeTypeCount; ++type)
        for (std::uint32_t s = first; s < first + count; ++s) {
            if (int(shapes_[s].index()) != type) continue;
            const Shape<T> shape = poisoned_if_invalid(shapes_[s]);
            typed_id_[type].push_back(id_of_[s]);
            switch (type) {
                case 0: typed_of_[s] = std::uint32_t(spheres_.size()); spheres_.push_back(std::get<0>(shape)); break;
                case 1: typed_of_[s] = std::uint32_t(aabbs_.size()); aabbs_.push_back(std::get<1>(shape)); break;
                case 2: typed_of_[s] = std::uint32_t(obbs_.size()); obbs_.push_back(std::get<2>(shape)); break;
                default: typed_of_[s] = std::uint32_t(capsules_.size()); capsules_.push_back(std::get<3>(shape)); break;
            }
        }
    leaves_.push_back(leaf);
    return std::uint32_t(leaves_.size() - 1);
}

template <typename T> std::uint32_t Bvh<T>::leaf_counts(std::uint32_t first, std::uint32_t count) const {
    std::uint32_t packed = 0;
    for (std::uint32_t s = first; s < first + count; ++s) packed += 1u << (8 * shapes_[s].index());
    return packed;
}

template <typename T>
template <typename S>
void Bvh<T>::leaf_passages(const Ray<T>& ray, const std::vector<S>& shapes, const std::vector<std::uint32_t>& ids,
                           int type, std::uint32_t first, std::uint32_t count, T t_min, T t_max,
                           Candidate& best) const {
    // t only: the same arithmetic as cast() + first_surface(), without validation (done at build)
    // or normals (computed for the winner only).
    for (std::uint32_t i = first; i < first + count; ++i) {
        const T lim = best.id != kNone ? best.t : t_max;
        T t0, t1;
        if (!detail::passage(ray, shapes[i], t0, t1) || !detail::accepts(t0, t1, t_min, lim)) continue;
        const T t = t0 >= t_min ? t0 : t1;
        if (t < t_min || t > lim) continue;
        if (best.id == kNone || t < best.t || (t == best.t && ids[i] < best.id)) best = {t, ids[i], type, i};
    }
}

/// Invalid shapes never hit (cast() refuses them); their compact copies are poisoned with NaN so
/// that the unvalidated passage() refuses them too.
template <typename T> Shape<T> Bvh<T>::poisoned_if_invalid(const Shape<T>& s) {
    if (is_valid(s)) return s;
    const T nan = std::numeric_limits<T>::quiet_NaN();
    return std::visit([&](auto x) -> Shape<T> {
        using S = decltype(x);
        if constexpr (std::is_same_v<S, Sphere<T>>) x.center = Vec3<T>(nan);
        else if constexpr (std::is_same_v<S, Aabb<T>>) x.min = x.max = Vec3<T>(nan);
        else if constexpr (std::is_same_v<S, Obb<T>>) x.center = Vec3<T>(nan);
        else { x.a = x.b = Vec3<T>(nan); }
        return x;
    }, s);
}

template <typename T>
std::uint32_t Bvh<T>::collapse(const std::vector<BinNode>& bin, std::uint32_t b, ChildRef up) {
    // Gather up to four descendants of binary node b, always opening the largest inner one.
    std::array<std::uint32_t, 4> kids{};
    int n = 0;
    if (bin[b].count) {
        kids[n++] = b;  // a lone leaf (the whole tree is one leaf)
    } else {
        kids[n++] = b + 1;
        kids[n++] = bin[b].first;
        while (n < 4) {
            int best = -1;
            T best_area = -infinity<T>();
            for (int i = 0; i < n; ++i) {
                const BinNode& c = bin[kids[i]];
                if (c.count) continue;
                const Vec3<T> e = c.hi - c.lo;
                const T area = e.x * e.y + e.y * e.z + e.z * e.x;
                if (area > best_area) { best_area = area; best = i; }
            }
            if (best < 0) break;
            const std::uint32_t open = kids[best];
            kids[best] = open + 1;
            kids[n++] = bin[open].first;
        }
    }
    const auto index = static_cast<std::uint32_t>(nodes_.size());
    nodes_.push_back({});
    parent_.push_back(up);
    for (std::uint32_t k = 0; k < 4; ++k) {
        nodes_[index].child[k] = kNone;
        nodes_[index].count[k] = 0;
        set_child(index, k, Vec3<T>(infinity<T>()), Vec3<T>(-infinity<T>()));
    }
    for (int k = 0; k < n; ++k) {
        const BinNode& c = bin[kids[k]];
        set_child(index, std::uint32_t(k), c.lo, c.hi);
        if (c.count) {
            nodes_[index].child[k] = make_leaf(c.first, c.count);
            nodes_[index].count[k] = leaf_counts(c.first, c.count);
            for (std::uint32_t s = c.first; s < c.first + c.count; ++s) leaf_of_[s] = {index, std::uint32_t(k)};
        } else {
            const std::uint32_t child = collapse(bin, kids[k], ChildRef{index, std::uint32_t(k)});
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
    Candidate best;
    auto visit_typed = [&](int type, std::uint32_t first, std::uint32_t count) {
        switch (type) {
            case 0: leaf_passages(ray, spheres_, typed_id_[0], 0, first, count, t_min, t_max, best); break;
            case 1: leaf_passages(ray, aabbs_, typed_id_[1], 1, first, count, t_min, t_max, best); break;
            case 2: leaf_passages(ray, obbs_, typed_id_[2], 2, first, count, t_min, t_max, best); break;
            default: leaf_passages(ray, capsules_, typed_id_[3], 3, first, count, t_min, t_max, best); break;
        }
    };
    if (hint < slot_of_.size()) {
        const std::uint32_t slot = slot_of_[hint];
        visit_typed(int(shapes_[slot].index()), typed_of_[slot], 1);
    }
    // The winner's full cast (normals, passage) at the end: the same t, bit for bit.
    auto result = [&]() -> std::optional<NearestHit<T>> {
        if (best.id == kNone) return std::nullopt;
        const Shape<T>& shape = shapes_[slot_of_[best.id]];
        const auto h = cast(ray, shape, t_min, t_max);
        if (!h) return std::nullopt;  // unreachable: passage() accepted it
        const auto surf = first_surface(ray, *h, t_min, t_max);
        if (!surf) return std::nullopt;
        return NearestHit<T>{best.id, *surf, *h};
    };
    typedef T V4 __attribute__((vector_size(4 * sizeof(T))));
    const V4 zero4{};
    const T eps = T(4) * std::numeric_limits<T>::epsilon();
    // Boxes are widened by delta for this ray: a cast's accept/reject decisions carry rounding of
    // about eps * (|origin| + |shape|) in space (a zero-radius shape at a rounding-level distance
    // from the line may count as hit), so culling must be at least that conservative to agree
    // with brute force exactly. Folded into the origin: lo - delta - o = lo - (o + delta).
    const T scene_mag = std::max(detail::finite_max_abs(root_lo_), detail::finite_max_abs(root_hi_));
    const T delta = T(16) * std::numeric_limits<T>::epsilon() * (detail::max_abs(ray.origin) + scene_mag) +
                    std::numeric_limits<T>::min();
    // Per axis: origin shifted for the near and far planes, 1/direction (+-inf for a zero
    // component) and which plane is met first.
    V4 o_near[3], o_far[3], inv[3];
    T o_near1[3], o_far1[3];
    int first[3];
    for (int a = 0; a < 3; ++a) {
        first[a] = std::signbit(ray.direction[a]) ? 1 : 0;  // 0: lo plane first, 1: hi plane first
        o_near1[a] = first[a] ? ray.origin[a] - delta : ray.origin[a] + delta;
        o_far1[a] = first[a] ? ray.origin[a] + delta : ray.origin[a] - delta;
        o_near[a] = zero4 + o_near1[a];
        o_far[a] = zero4 + o_far1[a];
        inv[a] = zero4 + T(1) / ray.direction[a];
    }
    // Entry/exit of the four child boxes of node n, within [t0, t1]. Robust for parallel rays: a
    // NaN (0 * inf: zero direction component and origin exactly on that plane) fails both
    // comparisons and so constrains nothing — the origin lies in the closed slab. Distances are
    // widened by a few ulps so rounding never drops a box (Ize 2013).
    using M4 = decltype(V4{} < V4{});
    auto test4 = [&](const Node& n, T t0, T t1, V4& entry, M4& hit) {
        V4 tn = zero4 + t0, tf = zero4 + t1;
        for (int a = 0; a < 3; ++a) {
            V4 near_plane, far_plane;
            std::memcpy(&near_plane, first[a] ? n.hi[a] : n.lo[a], sizeof(V4));
            std::memcpy(&far_plane, first[a] ? n.lo[a] : n.hi[a], sizeof(V4));
            const V4 ta = (near_plane - o_near[a]) * inv[a];
            const V4 tb = (far_plane - o_far[a]) * inv[a];
            tn = ta > tn ? ta : tn;
            tf = tb < tf ? tb : tf;
        }
        entry = tn;
        const V4 atn = tn < zero4 ? -tn : tn, atf = tf < zero4 ? -tf : tf;
        hit = (tn - atn * eps) <= (tf + atf * eps);
    };
    struct Entry { std::uint32_t index, count; T t; };
    std::array<Entry, 3 * kMaxDepth + 8> stack;
    int sp = 0;
    // The root box.
    {
        T tn = t_min, tf = t_max;
        for (int a = 0; a < 3; ++a) {
            const T ta = ((first[a] ? root_hi_[a] : root_lo_[a]) - o_near1[a]) * inv[a][0];
            const T tb = ((first[a] ? root_lo_[a] : root_hi_[a]) - o_far1[a]) * inv[a][0];
            if (ta > tn) tn = ta;
            if (tb < tf) tf = tb;
        }
        if (!(tn - std::abs(tn) * eps <= tf + std::abs(tf) * eps)) return result();
        stack[sp++] = {0, 0, tn};
    }
    while (sp > 0) {
        const Entry e = stack[--sp];
        const T limit = best.id != kNone ? best.t : t_max;
        if (e.t > limit + std::abs(limit) * eps) continue;
        if (e.count) {  // a leaf
            const Leaf& leaf = leaves_[e.index];
            for (int type = 0; type < kShapeTypeCount; ++type)
                if (const std::uint32_t c = (e.count >> (8 * type)) & 0xffu) visit_typed(type, leaf.first[type], c);
            continue;
        }
        const Node& n = nodes_[e.index];
        V4 entry;
        M4 hit;
        test4(n, t_min, limit, entry, hit);
        // Push the hit children farthest first, so that the nearest is visited next.
        Entry kids[4];
        int nk = 0;
        for (int k = 0; k < 4; ++k) {
            // Empty slots never count: near the largest finite values the widened origin can be
            // infinite, and inf - inf = NaN would let an empty box through.
            if (!hit[k] || n.child[k] == kNone) continue;
            Entry c{n.child[k], n.count[k], entry[k]};
            int j = nk++;
            while (j > 0 && kids[j - 1].t < c.t) { kids[j] = kids[j - 1]; --j; }
            kids[j] = c;
        }
        // Start loading every pushed child now, so that their cache misses overlap.
        for (int k = 0; k < nk; ++k) {
            const Entry& c = kids[k];
            if (c.count) {
                __builtin_prefetch(&leaves_[c.index]);
            } else {
                const char* p = reinterpret_cast<const char*>(&nodes_[c.index]);
                __builtin_prefetch(p);
                __builtin_prefetch(p + 64);
                if (sizeof(Node) > 128) {
                    __builtin_prefetch(p + 128);
                    __builtin_prefetch(p + 192);
                }
            }
            stack[sp++] = c;
        }
    }
    return result();
}

template <typename T> void Bvh<T>::refit_up(ChildRef ref, Vec3<T> lo, Vec3<T> hi) {
    while (ref.node != kNone) {
        set_child(ref.node, ref.k, lo, hi);
        Vec3<T> nlo(infinity<T>()), nhi(-infinity<T>());
        const Node& n = nodes_[ref.node];
        for (int k = 0; k < 4; ++k)
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
    if (shapes_[slot].index() != shape.index()) {
        // A change of type changes the leaf's typed layout: rebuild (rare; a drag keeps the type).
        std::vector<Shape<T>> all(shapes_.size());
        for (std::uint32_t s = 0; s < shapes_.size(); ++s) all[id_of_[s]] = shapes_[s];
        all[index] = shape;
        build(std::move(all), options_);
        return;
    }
    shapes_[slot] = shape;
    const std::uint32_t ti = typed_of_[slot];
    const Shape<T> compact = poisoned_if_invalid(shape);
    switch (compact.index()) {
        case 0: spheres_[ti] = std::get<0>(compact); break;
        case 1: aabbs_[ti] = std::get<1>(compact); break;
        case 2: obbs_[ti] = std::get<2>(compact); break;
        default: capsules_[ti] = std::get<3>(compact); break;
    }
    // The leaf's slots: the contiguous run of slots that share this leaf.
    const ChildRef leaf = leaf_of_[slot];
    std::uint32_t first = slot, last = slot;
    auto same = [&](std::uint32_t s) { return leaf_of_[s].node == leaf.node && leaf_of_[s].k == leaf.k; };
    while (first > 0 && same(first - 1)) --first;
    while (last + 1 < shapes_.size() && same(last + 1)) ++last;
    Vec3<T> lo(infinity<T>()), hi(-infinity<T>());
    for (std::uint32_t s = first; s <= last; ++s) {
        const Aabb<T> b = padded_bounds(shapes_[s]);
        lo = glm::min(lo, b.min);
        hi = glm::max(hi, b.max);
    }
    refit_up(leaf, lo, hi);
}

}  // namespace raypick
