// raypick geometry: a bounding volume hierarchy over mixed shapes, for nearest-hit picking.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <optional>
#include <utility>
#include <vector>

#include "geometry/Shape.h"

namespace raypick {

/// Result of a nearest pick: which shape (its index in the caller's order), the first surface point
/// along the ray (the exit when the origin is inside that shape), and the shape's full passage.
template <typename T> struct PickResult {
    std::uint32_t shape = std::numeric_limits<std::uint32_t>::max();
    SurfaceHit<T> surface;
    RayHit<T> hit;
};

namespace detail {
/// True when candidate (t, id) beats the current best: smaller t, ties to the smaller index, so
/// every pick is deterministic and independent of the hierarchy's layout.
template <typename T>
inline bool better(T t, std::uint32_t id, const std::optional<PickResult<T>>& best) {
    return !best || t < best->surface.t || (t == best->surface.t && id < best->shape);
}
}  // namespace detail

/// Nearest pick by brute force over every shape: the reference the hierarchy is tested against.
/// Same contract as Bvh::pick.
template <typename T>
std::optional<PickResult<T>> pick_nearest(const std::vector<Shape<T>>& shapes, const Ray<T>& ray,
                                          T t_min = T(0), T t_max = infinity<T>()) {
    std::optional<PickResult<T>> best;
    for (std::uint32_t i = 0; i < shapes.size(); ++i) {
        const T limit = best ? best->surface.t : t_max;
        const auto h = cast(ray, shapes[i], t_min, limit);
        if (!h) continue;
        const auto s = first_surface(ray, *h, t_min, limit);
        if (s && detail::better(s->t, i, best)) best = PickResult<T>{i, *s, *h};
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
///   2013) and node bounds padded, so rounding never loses a node.
/// - update(i, shape): replace one shape and refit the bounds on its path to the root (cheap; for
///   a drag). Quality degrades after large moves; call build() again then.
/// - Invalid shapes are kept (indices stay stable) but have empty bounds and are never picked.
template <typename T> class Bvh {
public:
    Bvh() = default;
    explicit Bvh(std::vector<Shape<T>> shapes, BvhOptions options = {}) { build(std::move(shapes), options); }

    void build(std::vector<Shape<T>> shapes, BvhOptions options = {});
    void update(std::uint32_t index, const Shape<T>& shape);

    std::optional<PickResult<T>> pick(const Ray<T>& ray, T t_min = T(0), T t_max = infinity<T>()) const;

    std::size_t size() const { return shapes_.size(); }
    const Shape<T>& shape(std::uint32_t index) const { return shapes_[slot_of_[index]]; }
    std::size_t node_count() const { return nodes_.size(); }
    int depth() const { return depth_; }
    /// Bounds of everything (empty box, min > max, when there is nothing valid).
    Aabb<T> root_bounds() const {
        return nodes_.empty() ? Aabb<T>{Vec3<T>(infinity<T>()), Vec3<T>(-infinity<T>())}
                              : Aabb<T>{nodes_[0].lo, nodes_[0].hi};
    }

private:
    struct Node {
        Vec3<T> lo, hi;
        std::uint32_t first = 0;  ///< leaf: first slot; inner: index of the right child (left = this + 1)
        std::uint32_t count = 0;  ///< leaf: number of shapes (>0); inner: 0
    };
    static constexpr int kMaxDepth = 96;  // beyond this the builder splits at the median
    static constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();

    struct Prim {
        Vec3<T> lo, hi, centroid;
        std::uint32_t id;
    };

    Aabb<T> padded_bounds(const Shape<T>& s) const;
    std::uint32_t build_node(std::vector<Prim>& prims, std::uint32_t begin, std::uint32_t end,
                             std::uint32_t parent, int depth, const BvhOptions& opt);
    bool node_entry(const Node& n, const Vec3<T>& o, const Vec3<T>& inv, const std::array<bool, 3>& neg,
                    T t0, T t1, T& entry) const;
    void refit_leaf(std::uint32_t node);

    std::vector<Node> nodes_;
    std::vector<std::uint32_t> parent_;   // node -> parent node (kNone for the root)
    std::vector<Shape<T>> shapes_;        // in leaf order
    std::vector<std::uint32_t> id_of_;    // slot -> caller's index
    std::vector<std::uint32_t> slot_of_;  // caller's index -> slot
    std::vector<std::uint32_t> leaf_of_;  // slot -> leaf node
    int depth_ = 0;
    bool pad_ = true;
};

// ---- implementation -----------------------------------------------------------------------------

template <typename T> Aabb<T> Bvh<T>::padded_bounds(const Shape<T>& s) const {
    if (!is_valid(s)) return {Vec3<T>(infinity<T>()), Vec3<T>(-infinity<T>())};
    Aabb<T> b = bounds(s);
    if (!pad_) return b;
    // Pad outward by a few ulps of the magnitudes so rounding in bounds() can never cut the shape.
    const T eps = std::numeric_limits<T>::epsilon();
    const Vec3<T> pad = (glm::abs(b.min) + glm::abs(b.max)) * (T(4) * eps) + Vec3<T>(std::numeric_limits<T>::min());
    return {b.min - pad, b.max + pad};
}

template <typename T> void Bvh<T>::build(std::vector<Shape<T>> shapes, BvhOptions options) {
    const auto n = static_cast<std::uint32_t>(shapes.size());
    nodes_.clear();
    parent_.clear();
    depth_ = 0;
    pad_ = options.pad_bounds;
    std::vector<Prim> prims(n);
    for (std::uint32_t i = 0; i < n; ++i) {
        const Aabb<T> b = padded_bounds(shapes[i]);
        const bool empty = !(b.min.x <= b.max.x);
        prims[i] = {b.min, b.max, empty ? Vec3<T>(T(0)) : (b.min + b.max) * T(0.5), i};
    }
    if (n > 0) {
        nodes_.reserve(2 * (n / std::max(1, options.max_leaf_size)) + 1);
        build_node(prims, 0, n, kNone, 1, options);
    }
    shapes_.resize(n);
    id_of_.resize(n);
    slot_of_.resize(n);
    for (std::uint32_t s = 0; s < n; ++s) {
        id_of_[s] = prims[s].id;
        slot_of_[prims[s].id] = s;
        shapes_[s] = shapes[prims[s].id];
    }
    leaf_of_.assign(n, 0);
    for (std::uint32_t k = 0; k < nodes_.size(); ++k)
        if (nodes_[k].count)
            for (std::uint32_t s = nodes_[k].first; s < nodes_[k].first + nodes_[k].count; ++s) leaf_of_[s] = k;
}

template <typename T>
std::uint32_t Bvh<T>::build_node(std::vector<Prim>& prims, std::uint32_t begin, std::uint32_t end,
                                 std::uint32_t parent, int depth, const BvhOptions& opt) {
    depth_ = std::max(depth_, depth);
    const auto index = static_cast<std::uint32_t>(nodes_.size());
    nodes_.push_back({});
    parent_.push_back(parent);
    Vec3<T> lo(infinity<T>()), hi(-infinity<T>()), clo(infinity<T>()), chi(-infinity<T>());
    for (std::uint32_t i = begin; i < end; ++i) {
        lo = glm::min(lo, prims[i].lo);
        hi = glm::max(hi, prims[i].hi);
        clo = glm::min(clo, prims[i].centroid);
        chi = glm::max(chi, prims[i].centroid);
    }
    nodes_[index].lo = lo;
    nodes_[index].hi = hi;
    const std::uint32_t count = end - begin;
    auto make_leaf = [&] {
        nodes_[index].first = begin;
        nodes_[index].count = count;
        return index;
    };
    if (count <= std::uint32_t(std::max(1, opt.max_leaf_size))) return make_leaf();

    auto area = [](const Vec3<T>& a, const Vec3<T>& b) {
        const Vec3<T> e = glm::max(b - a, Vec3<T>(T(0)));
        return e.x * e.y + e.y * e.z + e.z * e.x;
    };
    // Binned SAH over all three axes.
    const int bins = std::clamp(opt.bins, 2, 64);
    int best_axis = -1, best_split = 0;
    T best_cost = infinity<T>();
    const Vec3<T> ext = chi - clo;
    if (depth < kMaxDepth) {
        for (int axis = 0; axis < 3; ++axis) {
            if (!(ext[axis] > T(0))) continue;
            struct Bin { Vec3<T> lo{infinity<T>()}, hi{-infinity<T>()}; std::uint32_t n = 0; };
            std::array<Bin, 64> bin{};
            const T scale = T(bins) / ext[axis];
            for (std::uint32_t i = begin; i < end; ++i) {
                const int b = std::min(bins - 1, int((prims[i].centroid[axis] - clo[axis]) * scale));
                bin[b].lo = glm::min(bin[b].lo, prims[i].lo);
                bin[b].hi = glm::max(bin[b].hi, prims[i].hi);
                ++bin[b].n;
            }
            std::array<T, 64> right_cost{};
            Vec3<T> rlo(infinity<T>()), rhi(-infinity<T>());
            std::uint32_t rn = 0;
            for (int b = bins - 1; b > 0; --b) {
                rlo = glm::min(rlo, bin[b].lo);
                rhi = glm::max(rhi, bin[b].hi);
                rn += bin[b].n;
                right_cost[b] = rn ? area(rlo, rhi) * T(rn) : T(0);
            }
            Vec3<T> llo(infinity<T>()), lhi(-infinity<T>());
            std::uint32_t ln = 0;
            for (int b = 0; b < bins - 1; ++b) {
                llo = glm::min(llo, bin[b].lo);
                lhi = glm::max(lhi, bin[b].hi);
                ln += bin[b].n;
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
    if (best_axis >= 0) {
        // SAH: traversal cost 1, intersection cost 1 per shape, relative to the parent's area.
        const T parent_area = area(lo, hi);
        const T split_cost = T(1) + (parent_area > T(0) ? best_cost / parent_area : T(count));
        if (count <= std::uint32_t(2 * opt.max_leaf_size) && split_cost >= T(count)) return make_leaf();
        const T scale = T(bins) / ext[best_axis];
        const T c0 = clo[best_axis];
        auto it = std::partition(prims.begin() + begin, prims.begin() + end, [&](const Prim& p) {
            return std::min(bins - 1, int((p.centroid[best_axis] - c0) * scale)) < best_split;
        });
        mid = static_cast<std::uint32_t>(it - prims.begin());
    } else {
        // All centroids coincide (or the tree is too deep): split at the median of the longest axis.
        int axis = 0;
        if (ext.y > ext[axis]) axis = 1;
        if (ext.z > ext[axis]) axis = 2;
        mid = begin + count / 2;
        std::nth_element(prims.begin() + begin, prims.begin() + mid, prims.begin() + end,
                         [axis](const Prim& a, const Prim& b) { return a.centroid[axis] < b.centroid[axis]; });
    }
    if (mid == begin || mid == end) mid = begin + count / 2;
    build_node(prims, begin, mid, index, depth + 1, opt);
    const std::uint32_t right = build_node(prims, mid, end, index, depth + 1, opt);
    nodes_[index].first = right;
    nodes_[index].count = 0;
    return index;
}

template <typename T>
inline bool Bvh<T>::node_entry(const Node& n, const Vec3<T>& o, const Vec3<T>& inv,
                               const std::array<bool, 3>& neg, T t0, T t1, T& entry) const {
    for (int i = 0; i < 3; ++i) {
        T a = (n.lo[i] - o[i]) * inv[i];
        T b = (n.hi[i] - o[i]) * inv[i];
        if (neg[i]) std::swap(a, b);
        // A NaN (0 * inf: parallel ray with its origin on this slab plane) fails both comparisons
        // and so constrains nothing: the origin lies in the closed slab.
        if (a > t0) t0 = a;
        if (b < t1) t1 = b;
    }
    // Widen by a few ulps so rounding in the products never drops a node (Ize 2013).
    const T eps = T(4) * std::numeric_limits<T>::epsilon();
    entry = t0;
    return t0 - glm::abs(t0) * eps <= t1 + glm::abs(t1) * eps;
}

template <typename T>
std::optional<PickResult<T>> Bvh<T>::pick(const Ray<T>& ray, T t_min, T t_max) const {
    std::optional<PickResult<T>> best;
    if (nodes_.empty() || !is_valid(ray) || !(t_min <= t_max)) return best;
    const Vec3<T>& o = ray.origin;
    const Vec3<T> inv = T(1) / ray.direction;  // +-inf for zero components, handled in node_entry
    const std::array<bool, 3> neg{std::signbit(ray.direction.x), std::signbit(ray.direction.y),
                                  std::signbit(ray.direction.z)};
    struct Entry { std::uint32_t node; T t; };
    std::array<Entry, kMaxDepth * 2 + 8> stack;
    int sp = 0;
    T entry;
    if (!node_entry(nodes_[0], o, inv, neg, t_min, t_max, entry)) return best;
    stack[sp++] = {0, entry};
    while (sp > 0) {
        const Entry e = stack[--sp];
        const T limit = best ? best->surface.t : t_max;
        if (e.t > limit + glm::abs(limit) * T(4) * std::numeric_limits<T>::epsilon()) continue;
        const Node& n = nodes_[e.node];
        if (n.count) {
            for (std::uint32_t s = n.first; s < n.first + n.count; ++s) {
                const T lim = best ? best->surface.t : t_max;
                const auto h = cast(ray, shapes_[s], t_min, lim);
                if (!h) continue;
                const auto surf = first_surface(ray, *h, t_min, lim);
                if (surf && detail::better(surf->t, id_of_[s], best)) best = PickResult<T>{id_of_[s], *surf, *h};
            }
            continue;
        }
        const std::uint32_t l = e.node + 1, r = n.first;
        T tl, tr;
        const bool hl = node_entry(nodes_[l], o, inv, neg, t_min, limit, tl);
        const bool hr = node_entry(nodes_[r], o, inv, neg, t_min, limit, tr);
        if (hl && hr) {  // push the farther first so the nearer is visited next
            if (tl <= tr) { stack[sp++] = {r, tr}; stack[sp++] = {l, tl}; }
            else { stack[sp++] = {l, tl}; stack[sp++] = {r, tr}; }
        } else if (hl) {
            stack[sp++] = {l, tl};
        } else if (hr) {
            stack[sp++] = {r, tr};
        }
    }
    return best;
}

template <typename T> void Bvh<T>::refit_leaf(std::uint32_t k) {
    Node& n = nodes_[k];
    Vec3<T> lo(infinity<T>()), hi(-infinity<T>());
    for (std::uint32_t s = n.first; s < n.first + n.count; ++s) {
        const Aabb<T> b = padded_bounds(shapes_[s]);
        lo = glm::min(lo, b.min);
        hi = glm::max(hi, b.max);
    }
    n.lo = lo;
    n.hi = hi;
}

template <typename T> void Bvh<T>::update(std::uint32_t index, const Shape<T>& shape) {
    if (index >= slot_of_.size()) return;
    const std::uint32_t slot = slot_of_[index];
    shapes_[slot] = shape;
    std::uint32_t k = leaf_of_[slot];
    refit_leaf(k);
    for (k = parent_[k]; k != kNone; k = parent_[k]) {
        Node& n = nodes_[k];
        const Node& a = nodes_[k + 1];
        const Node& b = nodes_[n.first];
        n.lo = glm::min(a.lo, b.lo);
        n.hi = glm::max(a.hi, b.hi);
    }
}

}  // namespace raypick
