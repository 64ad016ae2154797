// raypick scene: exact value equality of scenes and their parts (the rule is in scene/Scene.h).
#include <variant>

#include <raypick/scene/Scene.h>

namespace raypick {

bool operator==(const SceneShape& a, const SceneShape& b) {
    return a.name == b.name && a.description == b.description && same_shape(a.shape, b.shape);
}

bool operator==(const SceneRay& a, const SceneRay& b) {
    return a.name == b.name && a.description == b.description && a.ray.origin == b.ray.origin &&
           a.ray.direction == b.ray.direction && a.t_min == b.t_min && a.t_max == b.t_max;
}

bool operator==(const SceneCamera& a, const SceneCamera& b) {
    return a.eye == b.eye && a.target == b.target && a.fov_y_degrees == b.fov_y_degrees;
}

bool operator==(const SceneExpectation& a, const SceneExpectation& b) {
    return a.ray == b.ray && a.shape == b.shape && a.hit == b.hit && a.t_near == b.t_near && a.t_far == b.t_far &&
           a.n_near == b.n_near && a.n_far == b.n_far && a.inside == b.inside && a.picked == b.picked &&
           a.t == b.t && a.tolerance == b.tolerance && a.description == b.description;
}

bool operator==(const Scene& a, const Scene& b) {
    return a.description == b.description && a.tolerance == b.tolerance && a.camera == b.camera &&
           a.shapes == b.shapes && a.rays == b.rays && a.expectations == b.expectations;
}

}  // namespace raypick
