// raypick scene files: the rules a scene must follow, for the reader and validate_scene().
#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <utility>

#include <raypick/scene/SceneMeshes.h>
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


/// The checks of an inline mesh's single ModelMesh, placed at the keys the file holds them under.
void check_inline_mesh(const ModelMesh& m, const Path& path) {
    for (std::size_t i = 0; i < m.positions.size(); ++i)
        if (!is_finite(m.positions[i])) fail(path / "vertices" / i, "vertex " + std::to_string(i) + " is not finite");
    if (!m.normals.empty() && m.normals.size() != m.positions.size())
        fail(path / "normals", "expected one normal per vertex (" + std::to_string(m.positions.size()) + "), got " +
                                   std::to_string(m.normals.size()));
    for (std::size_t i = 0; i < m.normals.size(); ++i)
        if (!is_finite(m.normals[i])) fail(path / "normals" / i, "normal " + std::to_string(i) + " is not finite");
    if (m.triangles.size() % 3 != 0)
        fail(path / "triangles", std::to_string(m.triangles.size()) + " triangle indices, not a multiple of 3");
    for (std::size_t k = 0; k < m.triangles.size(); ++k)
        if (m.triangles[k] >= m.positions.size())
            fail(path / "triangles" / (k / 3), "vertex index " + std::to_string(m.triangles[k]) +
                                                   " is out of range (the mesh has " +
                                                   std::to_string(m.positions.size()) + " vertices)");
}

/// Whether instance `inst`'s world transform of `placement` is invertible in T (the core's
/// Affine validate()); its complaint otherwise.
template <typename T>
std::optional<InputError> placement_error(const SceneInstance& inst, const ModelInstance& placement) {
    return validate(affine_of<T>(instance_matrix(inst) * placement.transform));
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

void check_unique_names(const std::vector<SceneMesh>& meshes, const Path& path, const char* what) {
    check_unique_item_names(meshes, path, what);
}

void check_unique_names(const std::vector<ScenePoint>& points, const Path& path, const char* what) {
    check_unique_item_names(points, path, what);
}

void check_point(const ScenePoint& p, const Path& path) {
    if (!is_finite(p.position)) fail(path / "position", "position must be finite");
}

void check_mesh_file_name(const std::string& file, const Path& path) {
    if (file.empty()) fail(path, "expected the path of a model file (.obj, .gltf or .glb), got an empty string");
    if (!model_format_of(file))
        fail(path, "the model file " + jstr(file) + " has no model file extension (expected .obj, .gltf or .glb)");
}

void check_mesh(const SceneMesh& mesh, const Path& path) {
    if (!mesh.file.empty()) {
        check_mesh_file_name(mesh.file, path / "file");
        if (const auto err = validate_model(mesh.model, scene_model_limits(), mesh.file))
            fail(path / "file", "invalid model: " + err->what());
        return;
    }
    const Model& m = mesh.model;
    if (m.meshes.size() != 1 || m.instances.size() != 1 || m.instances[0].mesh != 0 ||
        m.instances[0].transform != glm::dmat4(1.0) || !m.instances[0].name.empty() || m.meshes[0].name != mesh.name)
        fail(path, "an inline mesh (no \"file\") is one mesh named as the scene mesh, placed once at identity");
    check_inline_mesh(m.meshes[0], path);
    if (const auto err = validate_model(m, scene_model_limits(), mesh.name))
        fail(path, "invalid mesh: " + err->what());
}

void check_instance(const Scene& s, const SceneInstance& inst, const Path& path) {
    if (inst.mesh >= s.meshes.size())
        fail(path / "mesh", "mesh index " + std::to_string(inst.mesh) + " is out of range (the file has " +
                                std::to_string(s.meshes.size()) + " meshes)");
    if (!is_finite(inst.translation)) fail(path / "translation", "translation must be finite");
    if (!is_finite(inst.euler_degrees)) fail(path / "euler_degrees", "euler_degrees must be finite");
    if (!is_finite(inst.scale)) fail(path / "scale", "scale must be finite");
    if (inst.scale.x == 0.0 || inst.scale.y == 0.0 || inst.scale.z == 0.0)
        fail(path / "scale", "every scale component must be non-zero (a negative one mirrors), got " +
                                 detail::str(inst.scale));
    const SceneMesh& mesh = s.meshes[inst.mesh];
    for (std::size_t p = 0; p < mesh.model.instances.size(); ++p) {
        const ModelInstance& placement = mesh.model.instances[p];
        for (const auto& [err, precision] : {std::pair{placement_error<double>(inst, placement), "double"},
                                             std::pair{placement_error<float>(inst, placement), "single"}})
            if (err)
                fail(path / "scale", "the instance's transform" +
                                         (mesh.model.instances.size() > 1 ? " of placement " + std::to_string(p) : std::string()) +
                                         " is unusable in " + precision + " precision: " + err->message);
    }
}

void check_instance_names(const Scene& s, const Path& path) {
    check_unique_item_names(s.instances, path, "instance");
    for (std::size_t i = 0; i < s.instances.size(); ++i) {
        const std::string& n = s.instances[i].name;
        if (n.empty()) continue;
        for (std::size_t j = 0; j < s.shapes.size(); ++j)
            if (s.shapes[j].name == n)
                fail(path / i / "name", "instance name " + jstr(n) + " is already used by shape " + std::to_string(j) +
                                            "; shape and instance names must be unique (expectations refer to both)");
    }
}

namespace {

/// The file's name of an expectation kind, for messages.
const char* kind_text(ExpectationKind k) {
    switch (k) {
        case ExpectationKind::CastShape: return "a cast on a shape";
        case ExpectationKind::CastInstance: return "a cast on an instance";
        case ExpectationKind::Pick: return "a pick expectation";
        case ExpectationKind::Occluded: return "an \"occluded\" expectation";
        case ExpectationKind::Crossings: return "a crossings expectation";
        case ExpectationKind::Classify: return "a point expectation about one object";
        case ExpectationKind::Contains: return "a \"contained_by\" expectation";
    }
    return "an expectation";
}

/// The keys an expectation of kind `k` may hold besides "ray" or "point", "tolerance" and
/// "description".
std::vector<const char*> allowed_keys(ExpectationKind k) {
    switch (k) {
        case ExpectationKind::CastShape: return {"shape", "hit", "t_near", "t_far", "n_near", "n_far", "inside"};
        case ExpectationKind::CastInstance:
            return {"instance", "hit", "t", "triangle", "barycentric", "normal", "front"};
        case ExpectationKind::Pick: return {"picked", "picked_instance", "t", "triangle", "mask", "cull_back_faces"};
        case ExpectationKind::Occluded: return {"occluded", "mask", "cull_back_faces"};
        case ExpectationKind::Crossings:
            return {"shape", "instance", "crossings", "crossing_t", "crossing_kinds", "mask", "cull_back_faces"};
        case ExpectationKind::Classify: return {"shape", "instance", "inside", "containment"};
        case ExpectationKind::Contains: return {"contained_by", "mask"};
    }
    return {};
}

/// Fails at the first key of `e` its kind does not allow, naming the keys it does.
void check_keys_of_kind(const SceneExpectation& e, const Path& path) {
    const std::pair<const char*, bool> present[] = {
        {"shape", bool(e.shape)}, {"instance", bool(e.instance)}, {"hit", bool(e.hit)},
        {"t_near", bool(e.t_near)}, {"t_far", bool(e.t_far)}, {"n_near", bool(e.n_near)},
        {"n_far", bool(e.n_far)}, {"inside", bool(e.inside)}, {"t", bool(e.t)},
        {"triangle", bool(e.triangle)}, {"barycentric", bool(e.barycentric)}, {"normal", bool(e.normal)},
        {"front", bool(e.front)}, {"picked", bool(e.picked)}, {"picked_instance", bool(e.picked_instance)},
        {"occluded", bool(e.occluded)}, {"crossings", bool(e.crossing_count)}, {"crossing_t", bool(e.crossing_t)},
        {"crossing_kinds", bool(e.crossing_kinds)}, {"containment", bool(e.containment)},
        {"contained_by", bool(e.contained_by)}, {"mask", bool(e.mask)}, {"cull_back_faces", bool(e.cull_back_faces)}};
    const ExpectationKind kind = e.kind();
    const std::vector<const char*> allowed = allowed_keys(kind);
    for (const auto& entry : present) {
        const char* key = entry.first;  // a plain variable: lambdas may not capture structured bindings in C++17
        const auto is_key = [key](const char* a) { return std::strcmp(a, key) == 0; };
        if (!entry.second || std::any_of(allowed.begin(), allowed.end(), is_key)) continue;
        std::string list;
        for (const char* a : allowed) list += (list.empty() ? "" : ", ") + std::string(a);
        fail(path / key, std::string("\"") + key + "\" does not belong in " + kind_text(kind) + " (it checks " + list +
                             ")");
    }
}

}  // namespace

void check_expectation(const Scene& s, const SceneExpectation& e, const Path& path) {
    if (e.point && *e.point >= s.points.size())
        fail(path / "point", "point index " + std::to_string(*e.point) + " is out of range (the file has " +
                                 std::to_string(s.points.size()) + " points)");
    if (!e.point && e.ray >= s.rays.size())
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
    if (e.instance && *e.instance >= s.instances.size())
        fail(path / "instance", "instance index " + std::to_string(*e.instance) +
                                    " is out of range (the file has " + std::to_string(s.instances.size()) +
                                    " instances)");
    if (e.picked_instance && *e.picked_instance >= s.instances.size())
        fail(path / "picked_instance", "instance index " + std::to_string(*e.picked_instance) +
                                           " is out of range (the file has " + std::to_string(s.instances.size()) +
                                           " instances)");
    if (e.contained_by)
        for (std::size_t i = 0; i < e.contained_by->size(); ++i) {
            const SceneObjectRef& r = (*e.contained_by)[i];
            const std::size_t n = r.is_instance() ? s.instances.size() : s.shapes.size();
            const char* what = r.is_instance() ? "instance" : "shape";
            if (r.index >= n)
                fail(path / "contained_by" / i, std::string(what) + " index " + std::to_string(r.index) +
                                                    " is out of range (the file has " + std::to_string(n) + " " + what +
                                                    "s)");
            for (std::size_t j = 0; j < i; ++j)
                if ((*e.contained_by)[j] == r)
                    fail(path / "contained_by" / i, std::string("the ") + what + " " + std::to_string(r.index) +
                                                        " is listed twice (also at " + std::to_string(j) + ")");
        }
    if (e.shape && e.instance)
        fail(path / "instance", "give either \"shape\" or \"instance\" (what the ray is cast against), not both");
    if (e.picked && e.picked_instance)
        fail(path / "picked_instance", "give either \"picked\" or \"picked_instance\", not both");
    if (e.tolerance) check_tolerance(*e.tolerance, path / "tolerance");
    for (const auto& [key, v] : {std::pair<const char*, const std::optional<double>*>{"t_near", &e.t_near},
                                 {"t_far", &e.t_far}, {"t", &e.t}})
        if (*v && !std::isfinite(**v)) fail(path / key, std::string(key) + " must be finite");
    for (const auto& [key, v] : {std::pair<const char*, const std::optional<Vec3<double>>*>{"n_near", &e.n_near},
                                 {"n_far", &e.n_far}, {"barycentric", &e.barycentric}, {"normal", &e.normal}})
        if (*v && !is_finite(**v)) fail(path / key, std::string(key) + " must be finite");
    if (e.crossing_t)
        for (std::size_t i = 0; i < e.crossing_t->size(); ++i)
            if (!std::isfinite((*e.crossing_t)[i])) fail(path / "crossing_t" / i, "crossing_t must be finite");
    if (!e.point && (e.containment || e.contained_by))
        fail(path / (e.containment ? "containment" : "contained_by"),
             std::string("\"") + (e.containment ? "containment" : "contained_by") +
                 "\" is about a point: give \"point\" instead of \"ray\"");
    const bool shape_fields = e.t_near || e.t_far || e.n_near || e.n_far || e.inside;
    const bool triangle_fields = e.barycentric || e.normal || e.front;
    const bool picks = e.picked || e.picked_instance;
    switch (e.kind()) {
        case ExpectationKind::Pick:
            if (e.hit || shape_fields || triangle_fields)
                fail(path, "a pick expectation (no \"shape\" or \"instance\") can only check \"picked\", \"t\" and "
                           "\"triangle\"; add \"shape\" to check hit, t_near, t_far, n_near, n_far or inside, or "
                           "\"instance\" to check hit, t, triangle, barycentric, normal or front");
            if (!picks && e.t) fail(path / "t", "\"t\" given but nothing is expected to be picked");
            if (!e.picked_instance && e.triangle)
                fail(path / "triangle", "\"triangle\" is checked only when an instance is expected to be picked");
            break;
        case ExpectationKind::CastShape:
            if (picks || e.t || e.triangle || triangle_fields)
                fail(path, "an expectation with \"shape\" checks hit, t_near, t_far, n_near, n_far, "
                           "inside; use a separate expectation without \"shape\" for \"picked\" and \"t\"");
            if (e.hit && !*e.hit && shape_fields)
                fail(path / "hit", "\"hit\": false (a miss) cannot have t_near, t_far, n_near, n_far or inside");
            if (!e.hit && !shape_fields)
                fail(path, "the expectation checks nothing: give \"hit\" and/or t_near, t_far, n_near, "
                           "n_far, inside");
            break;
        case ExpectationKind::CastInstance: {
            if (picks || shape_fields)
                fail(path, "an expectation with \"instance\" checks hit, t, triangle, barycentric, normal, front; "
                           "use a separate expectation without \"instance\" for \"picked\"");
            const bool hit_fields = e.t || e.triangle || triangle_fields;
            if (e.hit && !*e.hit && hit_fields)
                fail(path / "hit", "\"hit\": false (a miss) cannot have t, triangle, barycentric, normal or front");
            if (!e.hit && !hit_fields)
                fail(path, "the expectation checks nothing: give \"hit\" and/or t, triangle, barycentric, normal, "
                           "front");
            break;
        }
        case ExpectationKind::Occluded: break;
        case ExpectationKind::Crossings: {
            const std::size_t n_t = e.crossing_t ? e.crossing_t->size() : 0;
            const std::size_t n_kinds = e.crossing_kinds ? e.crossing_kinds->size() : 0;
            if (e.crossing_count && e.crossing_t && n_t != *e.crossing_count)
                fail(path / "crossing_t", std::to_string(n_t) + " values, but \"crossings\" says " +
                                              std::to_string(*e.crossing_count));
            if (e.crossing_count && e.crossing_kinds && n_kinds != *e.crossing_count)
                fail(path / "crossing_kinds", std::to_string(n_kinds) + " kinds, but \"crossings\" says " +
                                                  std::to_string(*e.crossing_count));
            if (e.crossing_t && e.crossing_kinds && n_t != n_kinds)
                fail(path / "crossing_kinds", std::to_string(n_kinds) + " kinds, but \"crossing_t\" has " +
                                                  std::to_string(n_t) + " values");
            break;
        }
        case ExpectationKind::Classify:
            if (!e.shape && !e.instance)
                fail(path, "a point expectation checks \"contained_by\" (the whole scene), or \"inside\" and/or "
                           "\"containment\" of the shape or instance given by \"shape\", \"instance\" or "
                           "\"object\"");
            if (!e.inside && !e.containment)
                fail(path, "the expectation checks nothing: give \"inside\" and/or \"containment\"");
            if (e.inside && e.containment && *e.inside != holds(*e.containment))
                fail(path / "inside", std::string("\"inside\": ") + (*e.inside ? "true" : "false") +
                                          " contradicts \"containment\": \"" + containment_name(*e.containment) +
                                          "\" (inside means the closed solid holds the point: inside or on_surface)");
            break;
        case ExpectationKind::Contains: break;
    }
    check_keys_of_kind(e, path);
}

void check_scene(const Scene& s) {
    check_tolerance(s.tolerance, Path{} / "tolerance");
    if (s.camera) check_camera(*s.camera, Path{} / "camera");
    for (std::size_t i = 0; i < s.shapes.size(); ++i) check_shape(s.shapes[i].shape, Path{} / "shapes" / i, "axes");
    check_unique_names(s.shapes, Path{} / "shapes", "shape");
    for (std::size_t i = 0; i < s.meshes.size(); ++i) check_mesh(s.meshes[i], Path{} / "meshes" / i);
    check_unique_names(s.meshes, Path{} / "meshes", "mesh");
    for (std::size_t i = 0; i < s.instances.size(); ++i) check_instance(s, s.instances[i], Path{} / "instances" / i);
    check_instance_names(s, Path{} / "instances");
    for (std::size_t i = 0; i < s.rays.size(); ++i) check_ray(s.rays[i], Path{} / "rays" / i);
    check_unique_names(s.rays, Path{} / "rays", "ray");
    for (std::size_t i = 0; i < s.points.size(); ++i) check_point(s.points[i], Path{} / "points" / i);
    check_unique_names(s.points, Path{} / "points", "point");
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
