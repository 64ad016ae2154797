// raypick scene files: the writer, Scene -> JSON text in the documented format (scene/FORMAT.md)
// with numbers that read back exactly, and the atomic save.
#include <cmath>
#include <cstdio>
#include <variant>
#include <vector>

#include <raypick/scene/AtomicFile.h>
#include <raypick/scene/NumberText.h>
#include <raypick/scene/SceneFile.h>
#include <raypick/scene/detail/JsonText.h>

namespace raypick {

using namespace scene_detail;

namespace {

std::string num(double x) {
    if (std::isinf(x)) return x > 0 ? "\"inf\"" : "\"-inf\"";
    if (std::isnan(x)) return "\"nan\"";  // never valid; validate_scene() rejects it before saving
    // Integers print without ".0" (they parse back exactly); everything else with nlohmann's
    // shortest round-trip representation.
    if (x == std::floor(x) && std::fabs(x) < 1e15 && !(x == 0.0 && std::signbit(x))) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.0f", x);
        return buf;
    }
    return json_number(x);
}

std::string vec(const Vec3<double>& v) { return "[" + num(v.x) + ", " + num(v.y) + ", " + num(v.z) + "]"; }

struct ObjectWriter {
    std::string out = "{";
    void field(const char* key, const std::string& value) {
        if (out.size() > 1) out += ", ";
        out += jstr(key);
        out += ": ";
        out += value;
    }
    std::string done() { return out + "}"; }
};

// ---- shapes: every type's fields written by their roles (ShapeTraits::fields()) ------------------------

void write_value(ObjectWriter& w, const char* key, double v) { w.field(key, num(v)); }
void write_value(ObjectWriter& w, const char* key, const Vec3<double>& v) { w.field(key, vec(v)); }
/// A rotation is always written as "axes" (exact; Euler angles would not read back exactly).
void write_value(ObjectWriter& w, const char*, const Mat3<double>& m) {
    w.field("axes", "[" + vec(m[0]) + ", " + vec(m[1]) + ", " + vec(m[2]) + "]");
}

std::string shape_json(const SceneShape& sh) {
    ObjectWriter w;
    if (!sh.name.empty()) w.field("name", jstr(sh.name));
    w.field("type", jstr(shape_type_name(type_of(sh.shape))));
    if (!sh.description.empty()) w.field("description", jstr(sh.description));
    std::visit([&](const auto& s) { for_each_field(s, [&](const auto& f, const auto& v) { write_value(w, f.name, v); }); },
               sh.shape);
    if (sh.mask != kAllMask) w.field("mask", std::to_string(sh.mask));
    return w.done();
}

// ---- meshes and instances ------------------------------------------------------------------------

/// A float as the shortest text that reads back as the same float; -0 as "-0.0" (a JSON integer
/// -0 would read back as +0).
std::string float_num(float x) { return x == 0.0f && std::signbit(x) ? "-0.0" : shortest(x); }

/// A single-precision point as [x, y, z] (float_num()).
std::string float_vec(const glm::vec3& v) {
    return "[" + float_num(v.x) + ", " + float_num(v.y) + ", " + float_num(v.z) + "]";
}

/// An array of points, eight to a line.
std::string float_vecs(const std::vector<glm::vec3>& points) {
    std::string out = "[";
    for (std::size_t i = 0; i < points.size(); ++i) {
        if (i) out += i % 8 == 0 ? ",\n      " : ", ";
        out += float_vec(points[i]);
    }
    return out + "]";
}

/// Triangles as [[i, j, k], ...], eight to a line.
std::string triangle_list(const std::vector<std::uint32_t>& indices) {
    std::string out = "[";
    for (std::size_t t = 0; t + 2 < indices.size(); t += 3) {
        if (t) out += (t / 3) % 8 == 0 ? ",\n      " : ", ";
        out += "[" + std::to_string(indices[t]) + ", " + std::to_string(indices[t + 1]) + ", " +
               std::to_string(indices[t + 2]) + "]";
    }
    return out + "]";
}

/// A mesh as it came: its "file" reference, or inline vertices, triangles and normals.
std::string mesh_json(const SceneMesh& m) {
    ObjectWriter w;
    if (!m.name.empty()) w.field("name", jstr(m.name));
    if (!m.description.empty()) w.field("description", jstr(m.description));
    if (!m.file.empty()) {
        w.field("file", jstr(m.file));
        return w.done();
    }
    const ModelMesh empty;
    const ModelMesh& mesh = m.model.meshes.empty() ? empty : m.model.meshes[0];
    w.field("vertices", float_vecs(mesh.positions));
    w.field("triangles", triangle_list(mesh.triangles));
    if (!mesh.normals.empty()) w.field("normals", float_vecs(mesh.normals));
    return w.done();
}

// ---- rays, expectations, the scene -----------------------------------------------------------------

std::string ray_json(const SceneRay& r) {
    ObjectWriter w;
    if (!r.name.empty()) w.field("name", jstr(r.name));
    if (!r.description.empty()) w.field("description", jstr(r.description));
    w.field("origin", vec(r.ray.origin));
    w.field("direction", vec(r.ray.direction));
    if (!(r.t_min == 0.0 && !std::signbit(r.t_min))) w.field("t_min", num(r.t_min));
    if (!(r.t_max == infinity<double>())) w.field("t_max", num(r.t_max));
    return w.done();
}

template <typename Item> std::string ref(const std::vector<Item>& items, std::size_t i) {
    if (i < items.size() && !items[i].name.empty()) return jstr(items[i].name);
    return std::to_string(i);
}

std::string instance_json(const Scene& s, const SceneInstance& inst) {
    ObjectWriter w;
    if (!inst.name.empty()) w.field("name", jstr(inst.name));
    if (!inst.description.empty()) w.field("description", jstr(inst.description));
    w.field("mesh", ref(s.meshes, inst.mesh));
    if (inst.translation != Vec3<double>(0.0)) w.field("translation", vec(inst.translation));
    if (inst.euler_degrees != Vec3<double>(0.0)) w.field("euler_degrees", vec(inst.euler_degrees));
    if (inst.scale != Vec3<double>(1.0)) w.field("scale", vec(inst.scale));
    if (inst.mask != kAllMask) w.field("mask", std::to_string(inst.mask));
    return w.done();
}

std::string boolean(bool b) { return b ? "true" : "false"; }

/// One object of "contained_by": its name, else a shape's index or {"instance": index}.
std::string object_json(const Scene& s, const SceneObjectRef& r) {
    if (r.is_instance())
        return r.index < s.instances.size() && !s.instances[r.index].name.empty()
                   ? jstr(s.instances[r.index].name)
                   : "{\"instance\": " + std::to_string(r.index) + "}";
    return ref(s.shapes, r.index);
}

/// An expectation: every field it sets, in one order for all kinds (the validation allows each
/// kind only its own fields).
std::string expectation_json(const Scene& s, const SceneExpectation& e) {
    ObjectWriter w;
    if (e.point) w.field("point", ref(s.points, *e.point));
    else w.field("ray", ref(s.rays, e.ray));
    if (e.shape) w.field("shape", ref(s.shapes, *e.shape));
    if (e.instance) w.field("instance", ref(s.instances, *e.instance));
    if (e.kind() == ExpectationKind::Pick) {
        // An instance is named by "picked" when it has a name (names are unique over shapes and
        // instances); an unnamed one by its index in "picked_instance".
        if (e.picked_instance && s.instances.at(*e.picked_instance).name.empty())
            w.field("picked_instance", std::to_string(*e.picked_instance));
        else if (e.picked_instance)
            w.field("picked", jstr(s.instances[*e.picked_instance].name));
        else
            w.field("picked", e.picked ? ref(s.shapes, *e.picked) : "null");
    }
    if (e.hit) w.field("hit", boolean(*e.hit));
    if (e.t_near) w.field("t_near", num(*e.t_near));
    if (e.t_far) w.field("t_far", num(*e.t_far));
    if (e.n_near) w.field("n_near", vec(*e.n_near));
    if (e.n_far) w.field("n_far", vec(*e.n_far));
    if (e.inside) w.field("inside", boolean(*e.inside));
    if (e.t) w.field("t", num(*e.t));
    if (e.triangle) w.field("triangle", std::to_string(*e.triangle));
    if (e.barycentric) w.field("barycentric", vec(*e.barycentric));
    if (e.normal) w.field("normal", vec(*e.normal));
    if (e.front) w.field("front", boolean(*e.front));
    if (e.occluded) w.field("occluded", boolean(*e.occluded));
    if (e.crossing_count) w.field("crossings", std::to_string(*e.crossing_count));
    if (e.crossing_t) {
        std::string list;
        for (double t : *e.crossing_t) list += (list.empty() ? "" : ", ") + num(t);
        w.field("crossing_t", "[" + list + "]");
    }
    if (e.crossing_kinds) {
        std::string list;
        for (CrossingKind k : *e.crossing_kinds) list += (list.empty() ? "" : ", ") + jstr(crossing_kind_name(k));
        w.field("crossing_kinds", "[" + list + "]");
    }
    if (e.containment) w.field("containment", jstr(containment_name(*e.containment)));
    if (e.contained_by) {
        std::string list;
        for (const SceneObjectRef& r : *e.contained_by) list += (list.empty() ? "" : ", ") + object_json(s, r);
        w.field("contained_by", "[" + list + "]");
    }
    if (e.mask) w.field("mask", std::to_string(*e.mask));
    if (e.cull_back_faces) w.field("cull_back_faces", boolean(*e.cull_back_faces));
    if (e.tolerance) w.field("tolerance", num(*e.tolerance));
    if (!e.description.empty()) w.field("description", jstr(e.description));
    return w.done();
}

std::string point_json(const ScenePoint& p) {
    ObjectWriter w;
    if (!p.name.empty()) w.field("name", jstr(p.name));
    if (!p.description.empty()) w.field("description", jstr(p.description));
    w.field("position", vec(p.position));
    return w.done();
}

template <typename Item, typename F>
void write_array(std::string& out, const char* key, const std::vector<Item>& items, F&& item_json) {
    out += "  " + jstr(key) + ": [";
    for (std::size_t i = 0; i < items.size(); ++i) {
        out += i ? ",\n    " : "\n    ";
        out += item_json(items[i]);
    }
    out += items.empty() ? "]" : "\n  ]";
}

}  // namespace

std::string scene_to_json(const Scene& s) {
    std::string out = "{\n";
    if (!s.description.empty()) out += "  \"description\": " + jstr(s.description) + ",\n";
    if (s.tolerance != kDefaultTolerance) out += "  \"tolerance\": " + num(s.tolerance) + ",\n";
    if (s.camera) {
        ObjectWriter w;
        w.field("eye", vec(s.camera->eye));
        w.field("target", vec(s.camera->target));
        w.field("fov_y_degrees", num(s.camera->fov_y_degrees));
        out += "  \"camera\": " + w.done() + ",\n";
    }
    write_array(out, "shapes", s.shapes, shape_json);
    out += ",\n";
    if (!s.meshes.empty()) {
        write_array(out, "meshes", s.meshes, mesh_json);
        out += ",\n";
    }
    if (!s.instances.empty()) {
        write_array(out, "instances", s.instances, [&](const SceneInstance& i) { return instance_json(s, i); });
        out += ",\n";
    }
    write_array(out, "rays", s.rays, ray_json);
    if (!s.points.empty()) {
        out += ",\n";
        write_array(out, "points", s.points, point_json);
    }
    if (!s.expectations.empty()) {
        out += ",\n";
        write_array(out, "expectations", s.expectations,
                    [&](const SceneExpectation& e) { return expectation_json(s, e); });
    }
    out += "\n}\n";
    return out;
}

std::optional<std::string> save_scene_file(const std::string& path, const Scene& scene) {
    if (const auto err = validate_scene(scene))
        return "cannot save " + path + ": " + err->where + ": " + err->message;
    return write_file_atomically(path, scene_to_json(scene));
}

}  // namespace raypick
