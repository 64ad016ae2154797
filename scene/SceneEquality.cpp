// raypick scene: exact value equality of scenes (the rule is in scene/Scene.h).
#include <variant>

#include "scene/Scene.h"

namespace raypick {

namespace {

bool same(const Sphere<double>& a, const Sphere<double>& b) { return a.center == b.center && a.radius == b.radius; }
bool same(const Aabb<double>& a, const Aabb<double>& b) { return a.min == b.min && a.max == b.max; }
bool same(const Obb<double>& a, const Obb<double>& b) {
    return a.center == b.center && a.rotation == b.rotation && a.half_extents == b.half_extents;
}
bool same(const Capsule<double>& a, const Capsule<double>& b) {
    return a.a == b.a && a.b == b.b && a.radius == b.radius;
}

}  // namespace

bool operator==(const Scene& a, const Scene& b) {
    if (a.shapes.size() != b.shapes.size() || a.rays.size() != b.rays.size() ||
        a.expectations.size() != b.expectations.size())
        return false;
    if (a.description != b.description || a.tolerance != b.tolerance) return false;
    if (a.camera.has_value() != b.camera.has_value()) return false;
    if (a.camera && (a.camera->eye != b.camera->eye || a.camera->target != b.camera->target ||
                     a.camera->fov_y_degrees != b.camera->fov_y_degrees))
        return false;
    for (std::size_t i = 0; i < a.shapes.size(); ++i) {
        const auto& x = a.shapes[i];
        const auto& y = b.shapes[i];
        if (x.name != y.name || x.description != y.description || x.shape.index() != y.shape.index())
            return false;
        const bool eq = std::visit(
            [&](const auto& s) { return same(s, std::get<std::decay_t<decltype(s)>>(y.shape)); }, x.shape);
        if (!eq) return false;
    }
    for (std::size_t i = 0; i < a.rays.size(); ++i) {
        const auto& x = a.rays[i];
        const auto& y = b.rays[i];
        if (x.name != y.name || x.description != y.description || x.ray.origin != y.ray.origin ||
            x.ray.direction != y.ray.direction || x.t_min != y.t_min || x.t_max != y.t_max)
            return false;
    }
    for (std::size_t i = 0; i < a.expectations.size(); ++i) {
        const auto& x = a.expectations[i];
        const auto& y = b.expectations[i];
        if (x.ray != y.ray || x.shape != y.shape || x.hit != y.hit || x.t_near != y.t_near ||
            x.t_far != y.t_far || x.n_near != y.n_near || x.n_far != y.n_far || x.inside != y.inside ||
            x.picked != y.picked || x.t != y.t || x.tolerance != y.tolerance ||
            x.description != y.description)
            return false;
    }
    return true;
}

}  // namespace raypick
