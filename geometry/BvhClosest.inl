// raypick geometry: Bvh::closest_point() and closest_shape(), the brute-force reference. Part of
// Bvh.h (included at its end); not a header of its own.
#pragma once

#include <raypick/geometry/ClosestPoint.h>

namespace raypick {

/// The shape whose surface is nearest to a point (Bvh::closest_point()).
template <typename T> struct ShapeClosest {
    std::uint32_t shape = 0;  ///< its index in the caller's order
    SurfacePoint<T> surface;  ///< closest_point() of the shape
};

namespace bvh_node {

/// Child k's box of an exact node.
template <typename T> inline void child_box(const Node<T>& n, int k, Vec3<T>& lo, Vec3<T>& hi) {
    for (int a = 0; a < 3; ++a) {
        lo[a] = n.lo[a][k];
        hi[a] = n.hi[a][k];
    }
}
/// Child k's box of a compact node, decoded (plane()): it holds the exact box.
template <typename T> inline void child_box(const Compact<T>& n, int k, Vec3<T>& lo, Vec3<T>& hi) {
    for (int a = 0; a < 3; ++a) {
        lo[a] = plane(n, a, n.lo[a][k]);
        hi[a] = plane(n, a, n.hi[a][k]);
    }
}

/// A child as the walk by distance keeps it: its reference and, for a leaf, its type and count.
struct ClosestRef {
    std::uint32_t ref;
    bvh_leaf::LeafInfo info;
};

}  // namespace bvh_node

template <typename T>
template <typename Keep>
std::optional<ShapeClosest<T>> Bvh<T>::closest_point(const Vec3<T>& p, T max_distance, const Keep& keep) const {
    std::optional<ShapeClosest<T>> best;
    if (nodes_.empty() || !is_finite(p) || !(max_distance >= T(0))) return best;
    // Every valid shape's surface lies in its box. Prune with the slack of the shapes' computed
    // distances, and (relative) an OBB's: its distance is its box frame's, which a rotation
    // orthonormal only within tolerance stretches by up to about 4 tolerances.
    const T mag = std::max(detail::finite_max_abs(root_lo_), detail::finite_max_abs(root_hi_));
    const T margin = detail::closest_margin(p, mag);
    const T stretch = T(1) + T(8) * orthonormality_tolerance<T>();
    T limit = (max_distance + margin) * stretch;
    const detail::BoxQuery<T> query(p, mag);
    using Ref = bvh_node::ClosestRef;
    using Entry = detail::WalkEntry<T, Ref>;
    const auto leaf = [&](const Ref& r) {
        bvh_leaf::for_each_shape<T>(&leaves_[r.ref & kOffsetMask], r.info, [&](std::uint32_t id, const Shape<T>& s) {
            if (!keep(id)) return;
            const auto c = raypick::closest_point(p, s);
            if (!c) return;
            const T d = c->distance;
            const bool better = best ? d < best->surface.distance || (d == best->surface.distance && id < best->shape)
                                     : d <= max_distance;
            if (!better) return;
            best = ShapeClosest<T>{id, *c};
            limit = (d + margin) * stretch;
        });
    };
    const auto walk = [&](const auto* nodes) {
        const auto expand = [&](const Ref& node, Entry* out) {
            const auto& n = nodes[node.ref];
            int count = 0;
            for (int k = 0; k < W; ++k) {
                if (n.child[k] == kNone) continue;
                Vec3<T> lo, hi;
                bvh_node::child_box(n, k, lo, hi);
                out[count++] = Entry{Ref{n.child[k], n.leaf[k]}, query.distance2(lo, hi)};
            }
            return count;
        };
        detail::closest_walk<kStack, W>(
            Ref{0, {}}, query, limit, [](const Ref& r) { return (r.ref & kLeaf) != 0; }, expand, leaf);
    };
    if (!compact_.empty()) walk(compact_.data());
    else walk(nodes_.data());
    return best;
}

/// The shape whose surface is nearest to p within max_distance (distance <= max_distance) by
/// brute force over every shape in index order, closest_point() of each: the reference
/// Bvh::closest_point() is tested against, with its contract (ties to the smaller index; invalid
/// shapes never). Empty for a non-finite p or a negative or NaN max_distance.
template <typename T>
std::optional<ShapeClosest<T>> closest_shape(const std::vector<Shape<T>>& shapes, const Vec3<T>& p,
                                             T max_distance = infinity<T>()) {
    std::optional<ShapeClosest<T>> best;
    if (!is_finite(p) || !(max_distance >= T(0))) return best;
    for (std::uint32_t i = 0; i < shapes.size(); ++i) {
        const auto c = closest_point(p, shapes[i]);
        if (!c) continue;
        if (best ? c->distance < best->surface.distance : c->distance <= max_distance) best = ShapeClosest<T>{i, *c};
    }
    return best;
}

}  // namespace raypick
