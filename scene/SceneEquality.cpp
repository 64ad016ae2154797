// raypick scene: exact value equality of scenes and their parts (the rule is in scene/Scene.h).
#include <variant>

#include <raypick/scene/Scene.h>

namespace raypick {

bool operator==(const SceneShape& a, const SceneShape& b) {
    return a.name == b.name && a.description == b.description && same_shape(a.shape, b.shape) && a.mask == b.mask;
}

namespace {

bool same_model(const Model& a, const Model& b) {
    if (a.meshes.size() != b.meshes.size() || a.instances.size() != b.instances.size()) return false;
    for (std::size_t i = 0; i < a.meshes.size(); ++i) {
        const ModelMesh &x = a.meshes[i], &y = b.meshes[i];
        if (x.name != y.name || x.positions != y.positions || x.normals != y.normals || x.triangles != y.triangles)
            return false;
    }
    for (std::size_t i = 0; i < a.instances.size(); ++i) {
        const ModelInstance &x = a.instances[i], &y = b.instances[i];
        if (x.mesh != y.mesh || x.transform != y.transform || x.name != y.name) return false;
    }
    return true;
}

}  // namespace

bool operator==(const SceneMesh& a, const SceneMesh& b) {
    return a.name == b.name && a.file == b.file && a.description == b.description && same_model(a.model, b.model);
}

bool operator==(const SceneInstance& a, const SceneInstance& b) {
    return a.name == b.name && a.mesh == b.mesh && a.translation == b.translation &&
           a.euler_degrees == b.euler_degrees && a.scale == b.scale && a.description == b.description &&
           a.mask == b.mask;
}

bool operator==(const SceneRay& a, const SceneRay& b) {
    return a.name == b.name && a.description == b.description && a.ray.origin == b.ray.origin &&
           a.ray.direction == b.ray.direction && a.t_min == b.t_min && a.t_max == b.t_max;
}

bool operator==(const ScenePoint& a, const ScenePoint& b) {
    return a.name == b.name && a.description == b.description && a.position == b.position;
}

bool operator==(const SceneCamera& a, const SceneCamera& b) {
    return a.eye == b.eye && a.target == b.target && a.fov_y_degrees == b.fov_y_degrees;
}

bool operator==(const SceneExpectation& a, const SceneExpectation& b) {
    return a.ray == b.ray && a.shape == b.shape && a.instance == b.instance && a.hit == b.hit &&
           a.t_near == b.t_near && a.t_far == b.t_far && a.n_near == b.n_near && a.n_far == b.n_far &&
           a.inside == b.inside && a.t == b.t && a.triangle == b.triangle && a.barycentric == b.barycentric &&
           a.normal == b.normal && a.front == b.front && a.picked == b.picked &&
           a.picked_instance == b.picked_instance && a.point == b.point && a.occluded == b.occluded &&
           a.crossing_count == b.crossing_count && a.crossing_t == b.crossing_t &&
           a.crossing_kinds == b.crossing_kinds && a.containment == b.containment &&
           a.contained_by == b.contained_by && a.mask == b.mask && a.cull_back_faces == b.cull_back_faces &&
           a.tolerance == b.tolerance && a.description == b.description;
}

bool operator==(const Scene& a, const Scene& b) {
    return a.description == b.description && a.tolerance == b.tolerance && a.camera == b.camera &&
           a.shapes == b.shapes && a.rays == b.rays && a.points == b.points && a.meshes == b.meshes &&
           a.instances == b.instances &&
           a.expectations == b.expectations;
}

}  // namespace raypick
