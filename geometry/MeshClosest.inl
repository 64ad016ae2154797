// raypick geometry: MeshBvh::closest_point() and closest_walk(), the walk by distance they share
// with InstanceBvh's, and closest_triangle(), the brute-force reference. Part of MeshBvh.h
// (included at its end); not a header of its own.
#pragma once

#include <raypick/geometry/ClosestPoint.h>

namespace raypick {

/// The triangle of a mesh nearest to a point (MeshBvh::closest_point()).
template <typename T> struct MeshClosest {
    std::uint32_t triangle = 0;  ///< its index in the mesh
    /// closest_point_barycentric()'s: distance, point, the triangle's unit winding normal, and
    /// which of its vertices, edges or its face the point lies on (inside is false).
    SurfacePoint<T> surface;
    /// Weights of the triangle's vertices a, b, c (indices[triangle][0..2]).
    Vec3<T> barycentric{T(1), T(0), T(0)};
};

namespace mesh_bvh {

/// Child k's box of an exact node.
template <typename T> inline void child_box(const Node<T>& n, int k, Vec3<T>& lo, Vec3<T>& hi) {
    for (int a = 0; a < 3; ++a) {
        lo[a] = n.lo[a][k];
        hi[a] = n.hi[a][k];
    }
}
/// Child k's box of a quantised node, decoded as the ray walks decode it (plane()): it holds
/// the exact box.
inline void child_box(const QNode& n, int k, Vec3<float>& lo, Vec3<float>& hi) {
    for (int a = 0; a < 3; ++a) {
        lo[a] = plane(n, a, n.lo[a][k]);
        hi[a] = plane(n, a, n.hi[a][k]);
    }
}

/// Walks a mesh or instance tree (Node or QNode, root at 0) by distance from query.q: hands
/// leaf(first, count) every leaf whose box may lie within `limit` (which leaf() may lower) of it
/// (detail::closest_walk()).
template <typename T, typename N, typename Leaf>
inline void walk_closest(const N* nodes, const detail::BoxQuery<T>& query, const T& limit, const Leaf& leaf) {
    using Entry = detail::WalkEntry<T, std::uint32_t>;
    const auto expand = [&](std::uint32_t node, Entry* out) {
        const N& n = nodes[node];
        int count = 0;
        for (std::uint32_t m = n.occupied; m; m &= m - 1) {
            const int k = __builtin_ctz(m);
            Vec3<T> lo, hi;
            child_box(n, k, lo, hi);
            out[count++] = Entry{n.child[k], query.distance2(lo, hi)};
        }
        return count;
    };
    detail::closest_walk<kStack, kWidth>(
        std::uint32_t(0), query, limit, [](std::uint32_t ref) { return (ref & kLeaf) != 0; }, expand,
        [&](std::uint32_t ref) { leaf(leaf_first(ref), leaf_count(ref)); });
}

}  // namespace mesh_bvh

template <typename T>
template <typename Visit>
void MeshBvh<T>::closest_walk(const Vec3<T>& q, T& limit, const Visit& visit) const {
    for (const std::uint32_t id : degenerate_) visit(id, triangle(mesh_, id));
    if (packets_.empty()) return;
    const detail::BoxQuery<T> query(q, scene_mag_);
    with_nodes([&](const auto* nodes) {
        mesh_bvh::walk_closest(nodes, query, limit, [&](std::uint32_t first, std::uint32_t count) {
            // The leaf's triangles (its last packet's padding lanes left out).
            for (std::uint32_t k = 0; k < count; ++k) {
                const Packet& packet = packets_[first + k / 4];
                visit(packet.id[k % 4], mesh_bvh::triangle_of(packet, k % 4));
            }
        });
    });
}

template <typename T>
std::optional<MeshClosest<T>> MeshBvh<T>::closest_point(const Vec3<T>& p, T max_distance) const {
    std::optional<MeshClosest<T>> best;
    if (!is_finite(p) || !(max_distance >= T(0))) return best;
    // Prune with the slack of the triangles' computed distances (detail::closest_margin()).
    const T margin = detail::closest_margin(p, scene_mag_);
    T limit = max_distance + margin;
    closest_walk(p, limit, [&](std::uint32_t id, const Triangle<T>& tri) {
        const auto c = closest_point_barycentric(p, tri);
        if (!c) return;
        const T d = c->surface.distance;
        const bool better = best ? d < best->surface.distance || (d == best->surface.distance && id < best->triangle)
                                 : d <= max_distance;
        if (!better) return;
        best = MeshClosest<T>{id, c->surface, c->barycentric};
        limit = d + margin;
    });
    return best;
}

/// The triangle nearest to p within max_distance (distance <= max_distance) by brute force over
/// every triangle in index order, closest_point_barycentric() of each: the reference
/// MeshBvh::closest_point() is tested against, with its contract (ties to the smaller index;
/// zero-area triangles included). Empty for a non-finite p or a negative or NaN max_distance.
/// Requires a valid mesh.
template <typename T>
std::optional<MeshClosest<T>> closest_triangle(const TriangleMesh<T>& mesh, const Vec3<T>& p,
                                               T max_distance = infinity<T>()) {
    std::optional<MeshClosest<T>> best;
    if (!is_finite(p) || !(max_distance >= T(0))) return best;
    for (std::uint32_t i = 0; i < mesh.indices.size(); ++i) {
        const auto c = closest_point_barycentric(p, triangle(mesh, i));
        if (!c) continue;
        const T d = c->surface.distance;
        if (best ? d < best->surface.distance : d <= max_distance) best = MeshClosest<T>{i, c->surface, c->barycentric};
    }
    return best;
}

}  // namespace raypick
