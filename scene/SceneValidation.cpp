// raypick scene files: the rules a scene must follow, for the reader and validate_scene().
#include <cmath>
#include <map>
#include <utility>

#include <raypick/scene/detail/JsonText.h>
#include <raypick/scene/detail/SceneChecks.h>

namespace raypick {

namespace scene_detail {

namespace {

/// Whether a core InputError field of `shape` is its rotation (FieldRole::Rotation), which the
/// file holds as "axes" or "euler_degrees".
bool is_rotation_field(const Shape<double>& shape, const std::string& core_field) {
    bool rotation = false;
    std::visit([&](const auto& s) {
        for_each_field(s, [&](const auto& f, const auto&) { rotation |= f.role == FieldRole::Rotation && core_field == f.name; });
    }, shape);
    return rotation;
}

template <typename Item>
void check_unique_item_names(const std::vector<Item>& items, const Path& path, const char* what) {
    std::map<std::string, std::size_t> seen;
    for (std::size_t i = 0; i < items.size(); ++i) {
        const std::string& n = items[i].name;
        if (n.empty()) continue;
        const auto [it, inserted] = seen.emplace(n, i);
        if (!inserted)
            fail(path / i / "name", std::string("duplicate ") + what + " name " + jstr(n) +
                                        " (already used by " + what + " " + std::to_string(it->second) +
                                        "); names must be unique");
    }
}

}  // namespace

void check_shape(const Shape<double>& shape, const Path& path, const std::string& rotation_key) {
    if (const auto err = validate(shape)) {
        const ShapeType t = type_of(shape);
        std::string msg = err->message;
        const bool rotation = is_rotation_field(shape, err->field);
        if (rotation && rotation_key == "axes")
            msg = "axes must be 3 orthonormal vectors forming a right-handed frame (u x v = w): " + msg;
        fail(path / (rotation ? rotation_key : err->field),
             std::string("invalid ") + shape_type_name(t) + ": " + msg);
    }
}

void check_ray(const SceneRay& r, const Path& path) {
    if (const auto err = validate(r.ray)) fail(path / err->field, "invalid ray: " + err->message);
    if (std::isnan(r.t_min)) fail(path / "t_min", "t_min must be a number, got NaN");
    if (std::isnan(r.t_max)) fail(path / "t_max", "t_max must be a number, got NaN");
    if (!(r.t_min <= r.t_max))
        fail(path / "t_max", "t_max must be >= t_min (" + json_number(r.t_min) + "), got " +
                                 json_number(r.t_max));
}

void check_camera(const SceneCamera& c, const Path& path) {
    if (!is_finite(c.eye)) fail(path / "eye", "eye must be finite");
    if (!is_finite(c.target)) fail(path / "target", "target must be finite");
    if (c.eye == c.target) fail(path / "target", "target must differ from eye");
    if (!(c.fov_y_degrees > 0.0 && c.fov_y_degrees < 180.0))
        fail(path / "fov_y_degrees",
             "fov_y_degrees must be > 0 and < 180, got " + json_number(c.fov_y_degrees));
}

void check_tolerance(double tol, const Path& path) {
    if (!(std::isfinite(tol) && tol >= 0.0))
        fail(path, "tolerance must be a finite number >= 0, got " + json_number(tol));
}

void check_unique_names(const std::vector<SceneShape>& shapes, const Path& path, const char* what) {
    check_unique_item_names(shapes, path, what);
}

void check_unique_names(const std::vector<SceneRay>& rays, const Path& path, const char* what) {
    check_unique_item_names(rays, path, what);
}

void check_expectation(const Scene& s, const SceneExpectation& e, const Path& path) {
    if (e.ray >= s.rays.size())
        fail(path / "ray", "ray index " + std::to_string(e.ray) + " is out of range (the file has " +
                               std::to_string(s.rays.size()) + " rays)");
    if (e.shape && *e.shape >= s.shapes.size())
        fail(path / "shape", "shape index " + std::to_string(*e.shape) +
                                 " is out of range (the file has " + std::to_string(s.shapes.size()) +
                                 " shapes)");
    if (e.picked && *e.picked >= s.shapes.size())
        fail(path / "picked", "shape index " + std::to_string(*e.picked) +
                                  " is out of range (the file has " + std::to_string(s.shapes.size()) +
                                  " shapes)");
    if (e.tolerance) check_tolerance(*e.tolerance, path / "tolerance");
    for (const auto& [key, v] : {std::pair<const char*, const std::optional<double>*>{"t_near", &e.t_near},
                                 {"t_far", &e.t_far}, {"t", &e.t}})
        if (*v && !std::isfinite(**v)) fail(path / key, std::string(key) + " must be finite");
    for (const auto& [key, v] : {std::pair<const char*, const std::optional<Vec3<double>>*>{"n_near", &e.n_near},
                                 {"n_far", &e.n_far}})
        if (*v && !is_finite(**v)) fail(path / key, std::string(key) + " must be finite");
    if (e.is_pick()) {
        if (e.hit || e.t_near || e.t_far || e.n_near || e.n_far || e.inside)
            fail(path, "a pick expectation (no \"shape\") can only check \"picked\" and \"t\"; "
                       "add \"shape\" to check hit, t_near, t_far, n_near, n_far or inside");
        if (!e.picked && e.t) fail(path / "t", "\"t\" given but nothing is expected to be picked");
    } else {
        if (e.picked || e.t)
            fail(path, "an expectation with \"shape\" checks hit, t_near, t_far, n_near, n_far, "
                       "inside; use a separate expectation without \"shape\" for \"picked\" and \"t\"");
        const bool hit_fields = e.t_near || e.t_far || e.n_near || e.n_far || e.inside;
        if (e.hit && !*e.hit && hit_fields)
            fail(path / "hit", "\"hit\": false (a miss) cannot have t_near, t_far, n_near, n_far or inside");
        if (!e.hit && !hit_fields)
            fail(path, "the expectation checks nothing: give \"hit\" and/or t_near, t_far, n_near, "
                       "n_far, inside");
    }
}

void check_scene(const Scene& s) {
    check_tolerance(s.tolerance, Path{} / "tolerance");
    if (s.camera) check_camera(*s.camera, Path{} / "camera");
    for (std::size_t i = 0; i < s.shapes.size(); ++i) check_shape(s.shapes[i].shape, Path{} / "shapes" / i, "axes");
    check_unique_names(s.shapes, Path{} / "shapes", "shape");
    for (std::size_t i = 0; i < s.rays.size(); ++i) check_ray(s.rays[i], Path{} / "rays" / i);
    check_unique_names(s.rays, Path{} / "rays", "ray");
    for (std::size_t i = 0; i < s.expectations.size(); ++i)
        check_expectation(s, s.expectations[i], Path{} / "expectations" / i);
}

}  // namespace scene_detail

std::optional<SceneLoadError> validate_scene(const Scene& scene) {
    try {
        scene_detail::check_scene(scene);
    } catch (const scene_detail::Fail& f) {
        return scene_detail::error_in_scene(f);
    }
    return std::nullopt;
}

}  // namespace raypick
