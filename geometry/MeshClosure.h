// raypick geometry: whether a triangle mesh bounds a solid — closed, manifold and consistently
// wound — which the inside test and the signed distance need (a mesh with a hole has no inside).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>

#include <raypick/geometry/TriangleMesh.h>

namespace raypick {

/// What keeps a mesh from bounding a solid. Edges are taken between vertex positions (equal
/// coordinates are one vertex, whatever their indices: the crossing rule sees values), edges of
/// zero length left out.
struct MeshClosure {
    std::size_t boundary_edges = 0;     ///< used by one triangle
    std::size_t nonmanifold_edges = 0;  ///< used by three or more
    std::size_t misoriented_edges = 0;  ///< used twice in the same direction (inconsistent winding)
    /// The first problem found, naming a triangle and its edge; empty for a closed mesh.
    std::optional<std::string> problem;

    bool closed() const { return !problem; }
};

/// Checks that every edge of the mesh is shared by exactly two triangles that run it in opposite
/// directions. Requires a valid mesh (validate()).
template <typename T> MeshClosure mesh_closure(const TriangleMesh<T>& mesh) {
    MeshClosure out;
    // Positions to one id each; -0 and +0 are one value.
    struct Key {
        T x, y, z;
        bool operator==(const Key& o) const { return x == o.x && y == o.y && z == o.z; }
    };
    struct Hash {
        std::size_t operator()(const Key& k) const {
            const std::hash<T> h;
            return h(k.x) * 73856093u ^ h(k.y) * 19349663u ^ h(k.z) * 83492791u;
        }
    };
    std::unordered_map<Key, std::uint32_t, Hash> ids;
    std::vector<std::uint32_t> id_of(mesh.positions.size());
    for (std::size_t v = 0; v < mesh.positions.size(); ++v) {
        const Vec3<T>& p = mesh.positions[v];
        id_of[v] = ids.emplace(Key{p.x + T(0), p.y + T(0), p.z + T(0)}, std::uint32_t(ids.size())).first->second;
    }
    // Per undirected edge: uses from the smaller id to the larger, the other way, and the first
    // triangle that used it.
    struct Uses {
        std::uint32_t forward = 0, backward = 0, triangle = 0, corner = 0;
    };
    std::unordered_map<std::uint64_t, Uses> edges;
    for (std::size_t t = 0; t < mesh.indices.size(); ++t)
        for (std::uint32_t k = 0; k < 3; ++k) {
            const std::uint32_t u = id_of[mesh.indices[t][k]], v = id_of[mesh.indices[t][(k + 1) % 3]];
            if (u == v) continue;
            const std::uint64_t key = std::uint64_t(std::min(u, v)) << 32 | std::max(u, v);
            auto [it, fresh] = edges.try_emplace(key);
            if (fresh) it->second.triangle = std::uint32_t(t), it->second.corner = k;
            (u < v ? it->second.forward : it->second.backward) += 1;
        }
    std::uint32_t first = 0;  // the problem reported is the one of the lowest triangle (then corner)
    for (const auto& [key, uses] : edges) {
        (void)key;
        const char* what = nullptr;
        if (uses.forward + uses.backward == 1) ++out.boundary_edges, what = "is a boundary edge (one triangle uses it)";
        else if (uses.forward + uses.backward > 2) ++out.nonmanifold_edges, what = "is shared by three or more triangles";
        else if (uses.forward != 1) ++out.misoriented_edges, what = "runs the same way in both its triangles (inconsistent winding)";
        const std::uint32_t at = uses.triangle * 3 + uses.corner;
        if (what && (!out.problem || at < first))
            first = at, out.problem = "triangles[" + std::to_string(uses.triangle) + "]: the edge from vertex " +
                          std::to_string(mesh.indices[uses.triangle][uses.corner]) + " to vertex " +
                          std::to_string(mesh.indices[uses.triangle][(uses.corner + 1) % 3]) + " " + what;
    }
    return out;
}

}  // namespace raypick
