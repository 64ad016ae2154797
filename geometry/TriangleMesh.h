// raypick geometry: the indexed triangle mesh — vertex positions, index triples and optional
// per-vertex normals — with its validation. Its hierarchy and ray picks are MeshBvh.h.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <raypick/geometry/Aabb.h>
#include <raypick/geometry/Math.h>
#include <raypick/geometry/Triangle.h>
#include <raypick/geometry/Validate.h>

namespace raypick {

/// An indexed triangle mesh. Triangle i has the vertices positions[indices[i][0]],
/// positions[indices[i][1]], positions[indices[i][2]] (a, b, c of Triangle.h: its front face is the
/// one from which they run counter-clockwise). Triangles sharing a vertex share its position
/// exactly, which is what makes the ray test watertight across their common edges.
/// `normals` is empty, or holds one normal per position (any non-zero length; picks interpolate
/// and re-normalise them).
template <typename T> struct TriangleMesh {
    std::vector<Vec3<T>> positions;
    std::vector<std::array<std::uint32_t, 3>> indices;
    std::vector<Vec3<T>> normals;

    std::size_t triangle_count() const { return indices.size(); }
    bool has_normals() const { return !normals.empty(); }
};

/// Triangle i of the mesh. Requires i < triangle_count() and the mesh valid.
template <typename T> inline Triangle<T> triangle(const TriangleMesh<T>& mesh, std::size_t i) {
    const auto& v = mesh.indices[i];
    return {mesh.positions[v[0]], mesh.positions[v[1]], mesh.positions[v[2]]};
}

/// Empty when the mesh is valid, else the first problem found, naming the vertex or triangle:
///   - more than 2^32 - 1 positions or triangles (indices are 32-bit);
///   - a position that is not finite ("positions[7]");
///   - normals neither empty nor one per position ("normals"), or a normal that is not finite;
///   - a triangle with an index out of range ("indices[12]"), checked in triangle order.
/// Zero-area triangles are valid (no ray hits them). An empty mesh is valid.
template <typename T> std::optional<InputError> validate(const TriangleMesh<T>& mesh) {
    using detail::str;
    constexpr std::size_t kMax = 0xffffffffu;
    if (mesh.positions.size() > kMax)
        return InputError{"positions", "at most 4294967295 positions, got " + std::to_string(mesh.positions.size())};
    if (mesh.indices.size() > kMax)
        return InputError{"indices", "at most 4294967295 triangles, got " + std::to_string(mesh.indices.size())};
    for (std::size_t i = 0; i < mesh.positions.size(); ++i) {
        if (!is_finite(mesh.positions[i])) {
            const std::string at = "positions[" + std::to_string(i) + "]";
            return InputError{at, at + " must be finite, got " + str(mesh.positions[i])};
        }
    }
    if (!mesh.normals.empty() && mesh.normals.size() != mesh.positions.size())
        return InputError{"normals", "normals must be empty or one per position (" +
                                         std::to_string(mesh.positions.size()) + "), got " +
                                         std::to_string(mesh.normals.size())};
    for (std::size_t i = 0; i < mesh.normals.size(); ++i) {
        if (!is_finite(mesh.normals[i])) {
            const std::string at = "normals[" + std::to_string(i) + "]";
            return InputError{at, at + " must be finite, got " + str(mesh.normals[i])};
        }
    }
    const std::size_t n = mesh.positions.size();
    for (std::size_t i = 0; i < mesh.indices.size(); ++i) {
        const auto& v = mesh.indices[i];
        for (int k = 0; k < 3; ++k) {
            if (v[k] >= n) {
                const std::string at = "indices[" + std::to_string(i) + "]";
                return InputError{at, at + " (triangle " + std::to_string(i) + ") has vertex index " +
                                          std::to_string(v[k]) + ", but there are only " + std::to_string(n) +
                                          " positions"};
            }
        }
    }
    return std::nullopt;
}

/// Whether validate() finds nothing wrong.
template <typename T> inline bool is_valid(const TriangleMesh<T>& mesh) { return !validate(mesh).has_value(); }

/// The smallest box holding every position (exact); empty (min > max) for a mesh without
/// positions. Positions no triangle uses count too.
template <typename T> Aabb<T> bounds(const TriangleMesh<T>& mesh) {
    Aabb<T> b{Vec3<T>(infinity<T>()), Vec3<T>(-infinity<T>())};
    for (const Vec3<T>& p : mesh.positions) {
        b.min = glm::min(b.min, p);
        b.max = glm::max(b.max, p);
    }
    return b;
}

}  // namespace raypick
