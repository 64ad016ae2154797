// raypick scene: a scene's meshes and instances as the core takes them (MeshBvh per mesh,
// InstanceBvh over the placements), shared by the case checker, the command-line caster and the
// demo so that all three place a mesh the same way.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include <raypick/geometry/MeshBvh.h>
#include <raypick/geometry/MeshInstances.h>
#include <raypick/scene/Euler.h>
#include <raypick/scene/Scene.h>

namespace raypick {

/// A SceneInstance's own transform: translate(translation) * rotation(euler_degrees) *
/// scale(scale), as a 4x4 affine matrix (column-major, column 3 the translation).
inline glm::dmat4 instance_matrix(const SceneInstance& inst) {
    const Mat3<double> r = rotation_from_euler_degrees(inst.euler_degrees);
    glm::dmat4 m(1.0);
    for (int c = 0; c < 3; ++c) m[c] = glm::dvec4(r[c] * inst.scale[c], 0.0);
    m[3] = glm::dvec4(inst.translation, 1.0);
    return m;
}

/// The affine map of a 4x4 affine matrix (its last row is taken to be 0 0 0 1), in scalar T.
template <typename T> Affine<T> affine_of(const glm::dmat4& m) {
    Affine<T> a;
    for (int c = 0; c < 3; ++c) a.linear[c] = Vec3<T>(Vec3<double>(m[c]));
    a.translation = Vec3<T>(Vec3<double>(m[3]));
    return a;
}

/// A scene's meshes placed for the core, in scalar T.
///  - meshes: one MeshBvh per ModelMesh of every SceneMesh, in scene order (the meshes of
///    Scene::meshes[k] start at first_mesh[k]);
///  - instances: one core Instance per (SceneInstance, placement of its mesh's model), in scene
///    order, then placement order; world transform = instance_matrix(scene instance) * the
///    placement's matrix;
///  - origin[i]: the scene instance and the model placement core instance i comes from.
template <typename T> struct PlacedMeshes {
    std::vector<std::shared_ptr<const MeshBvh<T>>> meshes;
    std::vector<std::uint32_t> first_mesh;
    std::vector<Instance<T>> instances;
    struct Origin {
        std::uint32_t scene_instance = 0;
        std::uint32_t placement = 0;
    };
    std::vector<Origin> origin;
};

/// The mesh of a ModelMesh in scalar T (positions and normals converted, triangles as triples).
template <typename T> TriangleMesh<T> triangle_mesh(const ModelMesh& m) {
    TriangleMesh<T> out;
    out.positions.reserve(m.positions.size());
    for (const glm::vec3& p : m.positions) out.positions.emplace_back(p);
    out.normals.reserve(m.normals.size());
    for (const glm::vec3& n : m.normals) out.normals.emplace_back(n);
    out.indices.reserve(m.triangles.size() / 3);
    for (std::size_t i = 0; i + 2 < m.triangles.size(); i += 3)
        out.indices.push_back({m.triangles[i], m.triangles[i + 1], m.triangles[i + 2]});
    return out;
}

/// Builds the hierarchies and placements of `scene`'s meshes and instances. Requires a scene that
/// passes validate_scene() (valid models, instances naming existing meshes, non-zero scales).
template <typename T> PlacedMeshes<T> place_meshes(const Scene& scene) {
    PlacedMeshes<T> out;
    for (const SceneMesh& sm : scene.meshes) {
        out.first_mesh.push_back(std::uint32_t(out.meshes.size()));
        for (const ModelMesh& m : sm.model.meshes) out.meshes.push_back(std::make_shared<const MeshBvh<T>>(triangle_mesh<T>(m)));
    }
    for (std::size_t i = 0; i < scene.instances.size(); ++i) {
        const SceneInstance& si = scene.instances[i];
        const SceneMesh& sm = scene.meshes.at(si.mesh);
        const glm::dmat4 world = instance_matrix(si);
        for (std::size_t p = 0; p < sm.model.instances.size(); ++p) {
            const ModelInstance& mi = sm.model.instances[p];
            out.instances.push_back({out.first_mesh[si.mesh] + mi.mesh, affine_of<T>(world * mi.transform)});
            out.origin.push_back({std::uint32_t(i), std::uint32_t(p)});
        }
    }
    return out;
}

}  // namespace raypick
