// raypick scene files: the writer, Scene -> JSON text in the documented format (scene/FORMAT.md)
// with numbers that read back exactly, and the atomic save.
#include <cmath>
#include <cstdio>
#include <variant>
#include <vector>

#include <raypick/scene/AtomicFile.h>
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

std::string expectation_json(const Scene& s, const SceneExpectation& e) {
    ObjectWriter w;
    w.field("ray", ref(s.rays, e.ray));
    if (e.shape) {
        w.field("shape", ref(s.shapes, *e.shape));
        if (e.hit) w.field("hit", *e.hit ? "true" : "false");
        if (e.t_near) w.field("t_near", num(*e.t_near));
        if (e.t_far) w.field("t_far", num(*e.t_far));
        if (e.n_near) w.field("n_near", vec(*e.n_near));
        if (e.n_far) w.field("n_far", vec(*e.n_far));
        if (e.inside) w.field("inside", *e.inside ? "true" : "false");
    } else {
        w.field("picked", e.picked ? ref(s.shapes, *e.picked) : "null");
        if (e.t) w.field("t", num(*e.t));
    }
    if (e.tolerance) w.field("tolerance", num(*e.tolerance));
    if (!e.description.empty()) w.field("description", jstr(e.description));
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
    write_array(out, "rays", s.rays, ray_json);
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
