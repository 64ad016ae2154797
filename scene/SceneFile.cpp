// raypick scene files: JSON <-> Scene. See scene/FORMAT.md for the format.
#include "scene/SceneFile.h"

#include <algorithm>
#include <initializer_list>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdint>
#include <cstring>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <sstream>
#include <utility>
#include <vector>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

namespace raypick {

using json = nlohmann::json;

namespace {

// ---- paths and failures -------------------------------------------------------------------------

/// JSON pointer tokens ("shapes", "3", "radius").
using Tokens = std::vector<std::string>;

/// Where a value is, as a chain of nodes on the stack: building one costs nothing, the tokens are
/// only materialised when something fails (files can hold 10^5 rays).
struct Path {
    const Path* parent = nullptr;
    const char* ckey = nullptr;
    const std::string* skey = nullptr;
    std::size_t index = 0;
    enum Kind { Root, CKey, SKey, Index } kind = Root;

    Tokens tokens() const {
        Tokens out;
        for (const Path* p = this; p && p->kind != Root; p = p->parent) {
            if (p->kind == CKey) out.push_back(p->ckey);
            else if (p->kind == SKey) out.push_back(*p->skey);
            else out.push_back(std::to_string(p->index));
        }
        std::reverse(out.begin(), out.end());
        return out;
    }
};

// The result refers to `p` (and a string key): use it within the full expression that made it,
// or while `p` is alive.
Path operator/(const Path& p, const char* key) { return Path{&p, key, nullptr, 0, Path::CKey}; }
Path operator/(const Path& p, const std::string& key) { return Path{&p, nullptr, &key, 0, Path::SKey}; }
Path operator/(const Path& p, std::size_t index) { return Path{&p, nullptr, nullptr, index, Path::Index}; }

std::string pointer_of(const Tokens& p) {
    std::string out;
    for (const auto& tok : p) {
        out += '/';
        for (char c : tok) {
            if (c == '~') out += "~0";
            else if (c == '/') out += "~1";
            else out += c;
        }
    }
    return out;
}

/// Thrown inside the loader, turned into a SceneLoadError at the top.
struct Fail {
    Tokens path;
    std::string message;
};

[[noreturn]] void fail(const Path& path, std::string message) { throw Fail{path.tokens(), std::move(message)}; }

// Invalid UTF-8 (a truncated message, a name typed in the demo) is replaced, never thrown on.
std::string jstr(const std::string& s) { return json(s).dump(-1, ' ', false, json::error_handler_t::replace); }

std::string type_name(const json& v) {
    switch (v.type()) {
        case json::value_t::null: return "null";
        case json::value_t::boolean: return v.get<bool>() ? "true" : "false";
        case json::value_t::number_integer:
        case json::value_t::number_unsigned:
        case json::value_t::number_float: return "the number " + v.dump();
        case json::value_t::string: {
            std::string s = v.get<std::string>();
            if (s.size() > 40) s = s.substr(0, 37) + "...";
            return "the string " + jstr(s);
        }
        case json::value_t::array: return "an array of " + std::to_string(v.size());
        case json::value_t::object: return "an object";
        default: return "an unsupported value";
    }
}

std::string lower(std::string s) {
    for (char& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

bool looks_like_nan_or_inf(const std::string& s) {
    const std::string l = lower(s);
    return l == "nan" || l == "-nan" || l == "+nan" || l == "inf" || l == "-inf" || l == "+inf" ||
           l == "infinity" || l == "-infinity" || l == "+infinity";
}

// ---- reading values -----------------------------------------------------------------------------

const json* find(const json& obj, const char* key) {
    const auto it = obj.find(key);
    return it == obj.end() ? nullptr : &*it;
}

void expect_object(const json& v, const Path& path, const char* what) {
    if (!v.is_object()) fail(path, std::string("expected ") + what + " (a JSON object {...}), got " + type_name(v));
}

/// Rejects keys not in `allowed`, naming the allowed ones.
void check_keys(const json& obj, const Path& path, std::initializer_list<const char*> allowed,
                const char* what) {
    for (auto it = obj.begin(); it != obj.end(); ++it) {
        if (std::find_if(allowed.begin(), allowed.end(), [&](const char* a) { return it.key() == a; }) != allowed.end())
            continue;
        std::string list;
        for (const char* a : allowed) list += (list.empty() ? "" : ", ") + std::string(a);
        fail(path / it.key(), "unknown field " + jstr(it.key()) + " in " + std::string(what) +
                                  " (expected one of: " + list + ")");
    }
}

const json& require(const json& obj, const Path& path, const char* key, const char* expected) {
    const json* v = find(obj, key);
    if (!v) fail(path, "missing field " + jstr(key) + " (expected " + expected + ")");
    return *v;
}

/// A finite number. `what` describes the expectation, e.g. "a number >= 0".
double finite_number(const json& v, const Path& path, const char* what = "a finite number") {
    if (v.is_number()) {
        const double d = v.get<double>();
        if (!std::isfinite(d)) fail(path, std::string("expected ") + what + ", got " + v.dump() + " (out of range)");
        return d;
    }
    if (v.is_string() && looks_like_nan_or_inf(v.get<std::string>()))
        fail(path, std::string("expected ") + what + ", got " + type_name(v) +
                       " (NaN and infinity are not allowed here)");
    fail(path, std::string("expected ") + what + ", got " + type_name(v));
}

/// t_min / t_max: a number, or the strings "inf" / "-inf" (JSON has no infinity literal).
double range_number(const json& v, const Path& path) {
    const char* what = "a number or \"inf\" / \"-inf\"";
    if (v.is_string()) {
        const std::string l = lower(v.get<std::string>());
        if (l == "inf" || l == "+inf" || l == "infinity" || l == "+infinity") return infinity<double>();
        if (l == "-inf" || l == "-infinity") return -infinity<double>();
        if (l == "nan" || l == "-nan" || l == "+nan")
            fail(path, std::string("expected ") + what + ", got " + type_name(v) + " (NaN is not allowed)");
    }
    return finite_number(v, path, what);
}

Vec3<double> vec3(const json& v, const Path& path, const char* what = "[x, y, z]") {
    if (!v.is_array() || v.size() != 3)
        fail(path, std::string("expected ") + what + " (an array of 3 numbers), got " + type_name(v));
    Vec3<double> out;
    for (std::size_t i = 0; i < 3; ++i) out[int(i)] = finite_number(v[i], path / i);
    return out;
}

bool boolean(const json& v, const Path& path) {
    if (!v.is_boolean()) fail(path, "expected true or false, got " + type_name(v));
    return v.get<bool>();
}

std::string text(const json& v, const Path& path) {
    if (!v.is_string()) fail(path, "expected a string, got " + type_name(v));
    return v.get<std::string>();
}

// ---- Euler angles -------------------------------------------------------------------------------

/// cos and sin of an angle in degrees, exact for multiples of 90 degrees.
void cos_sin_degrees(double deg, double& c, double& s) {
    const double r = std::fmod(deg, 360.0);
    const double q = r / 90.0;
    if (q == std::floor(q)) {
        const int k = ((int(q) % 4) + 4) % 4;
        const double cs[4] = {1, 0, -1, 0}, sn[4] = {0, 1, 0, -1};
        c = cs[k];
        s = sn[k];
        return;
    }
    const double rad = r * (3.14159265358979323846 / 180.0);
    c = std::cos(rad);
    s = std::sin(rad);
}

}  // namespace

/// Rotation from Euler angles in degrees: R = Rz(z) * Ry(y) * Rx(x) (rotate about the world X axis
/// first, then Y, then Z). Exact for multiples of 90 degrees.
Mat3<double> rotation_from_euler_degrees(const Vec3<double>& deg) {
    double cx, sx, cy, sy, cz, sz;
    cos_sin_degrees(deg.x, cx, sx);
    cos_sin_degrees(deg.y, cy, sy);
    cos_sin_degrees(deg.z, cz, sz);
    // glm is column-major: m[col][row].
    Mat3<double> rx(1.0), ry(1.0), rz(1.0);
    rx[1][1] = cx; rx[2][1] = -sx; rx[1][2] = sx; rx[2][2] = cx;
    ry[0][0] = cy; ry[2][0] = sy; ry[0][2] = -sy; ry[2][2] = cy;
    rz[0][0] = cz; rz[1][0] = -sz; rz[0][1] = sz; rz[1][1] = cz;
    return rz * ry * rx;
}

namespace {

// ---- validation shared by the loader and validate_scene ----------------------------------------

/// Field name in the file for a core InputError field.
std::string file_field(ShapeType type, const std::string& core_field, const std::string& rotation_key) {
    if (type == ShapeType::Obb && core_field == "rotation") return rotation_key;
    return core_field;
}

void check_shape(const Shape<double>& shape, const Path& path, const std::string& rotation_key) {
    if (const auto err = validate(shape)) {
        const ShapeType t = type_of(shape);
        std::string msg = err->message;
        if (t == ShapeType::Obb && err->field == "rotation" && rotation_key == "axes")
            msg = "axes must be 3 orthonormal vectors forming a right-handed frame (u x v = w): " + msg;
        fail(path / file_field(t, err->field, rotation_key),
             std::string("invalid ") + shape_type_name(t) + ": " + msg);
    }
}

void check_ray(const SceneRay& r, const Path& path) {
    if (const auto err = validate(r.ray)) fail(path / err->field, "invalid ray: " + err->message);
    if (std::isnan(r.t_min)) fail(path / "t_min", "t_min must be a number, got NaN");
    if (std::isnan(r.t_max)) fail(path / "t_max", "t_max must be a number, got NaN");
    if (!(r.t_min <= r.t_max))
        fail(path / "t_max", "t_max must be >= t_min (" + json(r.t_min).dump() + "), got " +
                                 json(r.t_max).dump());
}

void check_camera(const SceneCamera& c, const Path& path) {
    if (!is_finite(c.eye)) fail(path / "eye", "eye must be finite");
    if (!is_finite(c.target)) fail(path / "target", "target must be finite");
    if (c.eye == c.target) fail(path / "target", "target must differ from eye");
    if (!(c.fov_y_degrees > 0.0 && c.fov_y_degrees < 180.0))
        fail(path / "fov_y_degrees",
             "fov_y_degrees must be > 0 and < 180, got " + json(c.fov_y_degrees).dump());
}

void check_tolerance(double tol, const Path& path) {
    if (!(std::isfinite(tol) && tol >= 0.0))
        fail(path, "tolerance must be a finite number >= 0, got " + json(tol).dump());
}

template <typename Item>
void check_unique_names(const std::vector<Item>& items, const Path& path, const char* what) {
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

void check_scene(const Scene& s, const std::vector<std::string>* rotation_keys) {
    check_tolerance(s.tolerance, Path{} / "tolerance");
    if (s.camera) check_camera(*s.camera, Path{} / "camera");
    for (std::size_t i = 0; i < s.shapes.size(); ++i)
        check_shape(s.shapes[i].shape, Path{} / "shapes" / i,
                    rotation_keys ? (*rotation_keys)[i] : std::string("axes"));
    check_unique_names(s.shapes, Path{} / "shapes", "shape");
    for (std::size_t i = 0; i < s.rays.size(); ++i) check_ray(s.rays[i], Path{} / "rays" / i);
    check_unique_names(s.rays, Path{} / "rays", "ray");
    for (std::size_t i = 0; i < s.expectations.size(); ++i)
        check_expectation(s, s.expectations[i], Path{} / "expectations" / i);
}

// ---- the loader ---------------------------------------------------------------------------------

const char* kShapeTypes = "\"sphere\", \"aabb\", \"obb\" or \"capsule\"";

SceneShape read_shape(const json& v, const Path& path, std::string& rotation_key) {
    expect_object(v, path, "a shape");
    SceneShape out;
    const json& type = require(v, path, "type", "the shape type: \"sphere\", \"aabb\", \"obb\" or \"capsule\"");
    if (!type.is_string()) fail(path / "type", std::string("expected ") + kShapeTypes + ", got " + type_name(type));
    const std::string t = type.get<std::string>();
    if (const json* n = find(v, "name")) out.name = text(*n, path / "name");
    if (const json* d = find(v, "description")) out.description = text(*d, path / "description");
    rotation_key = "axes";
    if (t == "sphere") {
        check_keys(v, path, {"name", "type", "description", "center", "radius"}, "a sphere");
        Sphere<double> s;
        s.center = vec3(require(v, path, "center", "[x, y, z]"), path / "center");
        s.radius = finite_number(require(v, path, "radius", "a number >= 0"), path / "radius",
                                 "a number >= 0");
        out.shape = s;
    } else if (t == "aabb") {
        check_keys(v, path, {"name", "type", "description", "min", "max"}, "an aabb");
        Aabb<double> b;
        b.min = vec3(require(v, path, "min", "[x, y, z]"), path / "min");
        b.max = vec3(require(v, path, "max", "[x, y, z]"), path / "max");
        out.shape = b;
    } else if (t == "obb") {
        check_keys(v, path, {"name", "type", "description", "center", "axes", "euler_degrees", "half_extents"},
                   "an obb");
        Obb<double> b;
        b.center = vec3(require(v, path, "center", "[x, y, z]"), path / "center");
        b.half_extents = vec3(require(v, path, "half_extents", "[hx, hy, hz], each >= 0"),
                              path / "half_extents", "[hx, hy, hz]");
        const json* axes = find(v, "axes");
        const json* euler = find(v, "euler_degrees");
        if (axes && euler)
            fail(path / "euler_degrees", "give either \"axes\" or \"euler_degrees\", not both");
        if (axes) {
            if (!axes->is_array() || axes->size() != 3)
                fail(path / "axes", "expected [[ux, uy, uz], [vx, vy, vz], [wx, wy, wz]] (3 orthonormal axes), got " +
                                        type_name(*axes));
            for (std::size_t i = 0; i < 3; ++i)
                b.rotation[int(i)] = vec3((*axes)[i], path / "axes" / i, "an axis [x, y, z]");
        } else if (euler) {
            b.rotation = rotation_from_euler_degrees(
                vec3(*euler, path / "euler_degrees", "[x, y, z] angles in degrees"));
            rotation_key = "euler_degrees";
        }  // neither: identity (an axis-aligned obb)
        out.shape = b;
    } else if (t == "capsule") {
        check_keys(v, path, {"name", "type", "description", "a", "b", "radius"}, "a capsule");
        Capsule<double> c;
        c.a = vec3(require(v, path, "a", "[x, y, z]"), path / "a");
        c.b = vec3(require(v, path, "b", "[x, y, z]"), path / "b");
        c.radius = finite_number(require(v, path, "radius", "a number >= 0"), path / "radius",
                                 "a number >= 0");
        out.shape = c;
    } else {
        fail(path / "type", "unknown shape type " + jstr(t) + " (expected " + kShapeTypes + ")");
    }
    check_shape(out.shape, path, rotation_key);
    return out;
}

SceneRay read_ray(const json& v, const Path& path) {
    expect_object(v, path, "a ray");
    check_keys(v, path, {"name", "description", "origin", "direction", "t_min", "t_max"}, "a ray");
    SceneRay r;
    if (const json* n = find(v, "name")) r.name = text(*n, path / "name");
    if (const json* d = find(v, "description")) r.description = text(*d, path / "description");
    r.ray.origin = vec3(require(v, path, "origin", "[x, y, z]"), path / "origin");
    r.ray.direction = vec3(require(v, path, "direction", "a non-zero [x, y, z]"), path / "direction");
    if (const json* t = find(v, "t_min")) r.t_min = range_number(*t, path / "t_min");
    if (const json* t = find(v, "t_max")) r.t_max = range_number(*t, path / "t_max");
    check_ray(r, path);
    return r;
}

SceneCamera read_camera(const json& v, const Path& path) {
    expect_object(v, path, "a camera");
    check_keys(v, path, {"eye", "target", "fov_y_degrees"}, "the camera");
    SceneCamera c;
    if (const json* e = find(v, "eye")) c.eye = vec3(*e, path / "eye");
    if (const json* t = find(v, "target")) c.target = vec3(*t, path / "target");
    if (const json* f = find(v, "fov_y_degrees"))
        c.fov_y_degrees = finite_number(*f, path / "fov_y_degrees", "a number of degrees in (0, 180)");
    check_camera(c, path);
    return c;
}

template <typename Item>
std::size_t reference(const json& v, const Path& path, const std::vector<Item>& items, const char* what) {
    if (v.is_string()) {
        const std::string n = v.get<std::string>();
        for (std::size_t i = 0; i < items.size() && !n.empty(); ++i)
            if (items[i].name == n) return i;
        fail(path, std::string("no ") + what + " is named " + jstr(n) + " (expected the name or index of a " +
                       what + ")");
    }
    if (v.is_number_integer() || v.is_number_unsigned()) {
        if (v.is_number_integer() && v.get<std::int64_t>() < 0)
            fail(path, std::string("expected a ") + what + " index >= 0 or a " + what + " name, got " + v.dump());
        const auto i = v.get<std::uint64_t>();
        if (i >= items.size())
            fail(path, std::string(what) + " index " + std::to_string(i) + " is out of range (the file has " +
                           std::to_string(items.size()) + " " + what + "s)");
        return std::size_t(i);
    }
    fail(path, std::string("expected a ") + what + " name (string) or index (integer), got " + type_name(v));
}

SceneExpectation read_expectation(const json& v, const Path& path, const Scene& s) {
    expect_object(v, path, "an expectation");
    check_keys(v, path,
               {"ray", "shape", "hit", "t_near", "t_far", "n_near", "n_far", "inside", "picked", "t",
                "tolerance", "description"},
               "an expectation");
    SceneExpectation e;
    e.ray = reference(require(v, path, "ray", "the name or index of a ray"), path / "ray", s.rays, "ray");
    if (const json* x = find(v, "shape")) e.shape = reference(*x, path / "shape", s.shapes, "shape");
    if (const json* x = find(v, "hit")) e.hit = boolean(*x, path / "hit");
    if (const json* x = find(v, "t_near")) e.t_near = finite_number(*x, path / "t_near");
    if (const json* x = find(v, "t_far")) e.t_far = finite_number(*x, path / "t_far");
    if (const json* x = find(v, "n_near")) e.n_near = vec3(*x, path / "n_near");
    if (const json* x = find(v, "n_far")) e.n_far = vec3(*x, path / "n_far");
    if (const json* x = find(v, "inside")) e.inside = boolean(*x, path / "inside");
    if (const json* x = find(v, "picked")) {
        if (!x->is_null()) e.picked = reference(*x, path / "picked", s.shapes, "shape");
        else if (find(v, "shape"))
            fail(path / "picked", "\"picked\" belongs in an expectation without \"shape\"");
    } else if (!find(v, "shape")) {
        fail(path, "missing field \"shape\" (the shape to cast against) or \"picked\" (the shape the "
                   "ray should pick, or null for none)");
    }
    if (const json* x = find(v, "t")) e.t = finite_number(*x, path / "t");
    if (const json* x = find(v, "tolerance"))
        e.tolerance = finite_number(*x, path / "tolerance", "a tolerance >= 0");
    if (const json* x = find(v, "description")) e.description = text(*x, path / "description");
    check_expectation(s, e, path);
    return e;
}

Scene read_scene(const json& doc) {
    const Path root;
    expect_object(doc, root, "a scene");
    check_keys(doc, root, {"description", "tolerance", "camera", "shapes", "rays", "expectations"}, "a scene");
    Scene s;
    if (const json* d = find(doc, "description")) s.description = text(*d, root / "description");
    if (const json* t = find(doc, "tolerance")) {
        s.tolerance = finite_number(*t, root / "tolerance", "a tolerance >= 0");
        check_tolerance(s.tolerance, root / "tolerance");
    }
    if (const json* c = find(doc, "camera")) s.camera = read_camera(*c, root / "camera");
    if (const json* shapes = find(doc, "shapes")) {
        if (!shapes->is_array()) fail(root / "shapes", "expected an array of shapes [...], got " + type_name(*shapes));
        s.shapes.reserve(shapes->size());
        std::string rotation_key;
        for (std::size_t i = 0; i < shapes->size(); ++i)
            s.shapes.push_back(read_shape((*shapes)[i], root / "shapes" / i, rotation_key));
        check_unique_names(s.shapes, root / "shapes", "shape");
    }
    if (const json* rays = find(doc, "rays")) {
        if (!rays->is_array()) fail(root / "rays", "expected an array of rays [...], got " + type_name(*rays));
        s.rays.reserve(rays->size());
        for (std::size_t i = 0; i < rays->size(); ++i) s.rays.push_back(read_ray((*rays)[i], root / "rays" / i));
        check_unique_names(s.rays, root / "rays", "ray");
    }
    if (const json* ex = find(doc, "expectations")) {
        if (!ex->is_array())
            fail(root / "expectations", "expected an array of expectations [...], got " + type_name(*ex));
        s.expectations.reserve(ex->size());
        for (std::size_t i = 0; i < ex->size(); ++i)
            s.expectations.push_back(read_expectation((*ex)[i], root / "expectations" / i, s));
    }
    return s;
}

// ---- locating a JSON pointer in the text --------------------------------------------------------

/// Finds the byte offset where the value at `target` starts in valid JSON `s`. Only descends along
/// the target path, so its recursion depth is the path's length.
class Locator {
public:
    Locator(const std::string& s, const Tokens& target) : s_(s), target_(target) {}

    std::optional<std::size_t> run() {
        if (descend(0)) return found_;
        return std::nullopt;
    }

private:
    const std::string& s_;
    const Tokens& target_;
    std::size_t i_ = 0;
    std::size_t found_ = 0;

    void ws() {
        while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\t' || s_[i_] == '\n' || s_[i_] == '\r')) ++i_;
    }
    std::string string() {  // at '"'; decodes the simple escapes (enough to compare keys)
        std::string out;
        ++i_;
        while (i_ < s_.size() && s_[i_] != '"') {
            if (s_[i_] == '\\' && i_ + 1 < s_.size()) {
                const char c = s_[++i_];
                switch (c) {
                    case 'n': out += '\n'; break;
                    case 't': out += '\t'; break;
                    case 'r': out += '\r'; break;
                    case 'b': out += '\b'; break;
                    case 'f': out += '\f'; break;
                    case 'u': out += "\\u"; break;
                    default: out += c;
                }
            } else {
                out += s_[i_];
            }
            ++i_;
        }
        ++i_;
        return out;
    }
    void skip_value() {  // non-recursive
        ws();
        int nest = 0;
        while (i_ < s_.size()) {
            const char c = s_[i_];
            if (c == '"') {
                string();
                if (nest == 0) return;
                continue;
            }
            if (c == '{' || c == '[') ++nest;
            else if (c == '}' || c == ']') {
                if (nest == 0) return;  // end of the enclosing container
                if (--nest == 0) { ++i_; return; }
            } else if (nest == 0 && (c == ',' || c == ' ' || c == '\n' || c == '\r' || c == '\t')) {
                return;
            }
            ++i_;
        }
    }
    /// At a value whose path is target_[0..depth); true when the target was found inside it.
    bool descend(std::size_t depth) {
        ws();
        if (depth == target_.size()) {
            found_ = i_;
            return true;
        }
        if (i_ >= s_.size()) return false;
        const std::string& want = target_[depth];
        if (s_[i_] == '{') {
            ++i_;
            std::optional<std::size_t> best;  // nlohmann keeps the last of duplicate keys
            for (;;) {
                ws();
                if (i_ >= s_.size() || s_[i_] == '}') break;
                if (s_[i_] == ',') { ++i_; continue; }
                if (s_[i_] != '"') break;
                const std::string key = string();
                ws();
                if (i_ < s_.size() && s_[i_] == ':') ++i_;
                if (key == want) {
                    Locator probe(s_, target_);
                    probe.i_ = i_;
                    if (probe.descend(depth + 1)) best = probe.found_;
                }
                skip_value();
            }
            if (!best) return false;
            found_ = *best;
            return true;
        }
        if (s_[i_] == '[') {
            ++i_;
            std::size_t index = 0;
            for (;;) {
                ws();
                if (i_ >= s_.size() || s_[i_] == ']') return false;
                if (s_[i_] == ',') { ++i_; ++index; continue; }
                if (std::to_string(index) == want) return descend(depth + 1);
                skip_value();
            }
        }
        return false;
    }
};

void line_column(const std::string& s, std::size_t offset, int& line, int& column) {
    offset = std::min(offset, s.size());
    line = 1;
    std::size_t line_start = 0;
    for (std::size_t k = 0; k < offset; ++k)
        if (s[k] == '\n') {
            ++line;
            line_start = k + 1;
        }
    column = int(offset - line_start) + 1;
}

std::string place(int line, int column, const std::string& pointer) {
    std::string w;
    if (line > 0) w = "line " + std::to_string(line) + ", column " + std::to_string(column);
    if (!pointer.empty()) w += (w.empty() ? "" : " ") + std::string("(") + pointer + ")";
    return w;
}

// ---- the writer ---------------------------------------------------------------------------------

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
    return json(x).dump();
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

std::string shape_json(const SceneShape& sh) {
    ObjectWriter w;
    if (!sh.name.empty()) w.field("name", jstr(sh.name));
    w.field("type", jstr(shape_type_name(type_of(sh.shape))));
    if (!sh.description.empty()) w.field("description", jstr(sh.description));
    std::visit(
        [&](const auto& s) {
            using S = std::decay_t<decltype(s)>;
            if constexpr (std::is_same_v<S, Sphere<double>>) {
                w.field("center", vec(s.center));
                w.field("radius", num(s.radius));
            } else if constexpr (std::is_same_v<S, Aabb<double>>) {
                w.field("min", vec(s.min));
                w.field("max", vec(s.max));
            } else if constexpr (std::is_same_v<S, Obb<double>>) {
                w.field("center", vec(s.center));
                w.field("axes", "[" + vec(s.rotation[0]) + ", " + vec(s.rotation[1]) + ", " +
                                    vec(s.rotation[2]) + "]");
                w.field("half_extents", vec(s.half_extents));
            } else {
                w.field("a", vec(s.a));
                w.field("b", vec(s.b));
                w.field("radius", num(s.radius));
            }
        },
        sh.shape);
    return w.done();
}

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

// ---- equality -----------------------------------------------------------------------------------

bool same(const Sphere<double>& a, const Sphere<double>& b) { return a.center == b.center && a.radius == b.radius; }
bool same(const Aabb<double>& a, const Aabb<double>& b) { return a.min == b.min && a.max == b.max; }
bool same(const Obb<double>& a, const Obb<double>& b) {
    return a.center == b.center && a.rotation == b.rotation && a.half_extents == b.half_extents;
}
bool same(const Capsule<double>& a, const Capsule<double>& b) {
    return a.a == b.a && a.b == b.b && a.radius == b.radius;
}

}  // namespace

// ---- public API ---------------------------------------------------------------------------------

std::string SceneLoadError::what() const {
    std::string out = file.empty() ? std::string("<scene>") : file;
    if (!where.empty()) out += ": " + where;
    out += ": " + message;
    return out;
}

std::variant<Scene, SceneLoadError> parse_scene(const std::string& text, const std::string& file_label) {
    SceneLoadError err;
    err.file = file_label;
    json doc;
    try {
        doc = json::parse(text);
    } catch (const json::parse_error& e) {
        // nlohmann's byte is 1-based: the position of the last character read.
        const std::size_t offset = e.byte > 0 ? std::size_t(e.byte - 1) : 0;
        line_column(text, offset, err.line, err.column);
        std::string m = e.what();
        // "[json.exception.parse_error.101] parse error at line 3, column 5: syntax error ..."
        const auto colon = m.find(": ", m.find("parse error"));
        if (colon != std::string::npos) m = m.substr(colon + 2);
        err.message = "invalid JSON: " + m;
        err.where = place(err.line, err.column, "");
        return err;
    } catch (const json::exception& e) {
        // e.g. out_of_range.406 "number overflow parsing '1e400'": no position, so find the token.
        std::string m = e.what();
        const auto close = m.find("] ");
        if (close != std::string::npos) m = m.substr(close + 2);
        const auto q1 = m.find('\'');
        const auto q2 = q1 == std::string::npos ? q1 : m.find('\'', q1 + 1);
        if (q2 != std::string::npos && q2 > q1 + 1) {
            const auto at = text.find(m.substr(q1 + 1, q2 - q1 - 1));
            if (at != std::string::npos) {
                line_column(text, at, err.line, err.column);
                err.where = place(err.line, err.column, "");
            }
        }
        err.message = "invalid JSON: " + m + " (numbers must fit in a double)";
        return err;
    }
    try {
        return read_scene(doc);
    } catch (const Fail& f) {
        err.pointer = pointer_of(f.path);
        if (const auto off = Locator(text, f.path).run()) line_column(text, *off, err.line, err.column);
        err.where = place(err.line, err.column, err.pointer.empty() ? "document root" : err.pointer);
        err.message = f.message;
        return err;
    } catch (const std::exception& e) {  // not expected; never let one escape the loader
        err.message = std::string("could not read the scene: ") + e.what();
        return err;
    }
}

std::variant<Scene, SceneLoadError> load_scene_file(const std::string& path) {
    auto fail = [&](std::string message) {
        SceneLoadError err;
        err.file = path;
        err.message = std::move(message);
        return err;
    };
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) return fail("this is a directory, not a scene file");
    std::ifstream in(path, std::ios::binary);
    if (!in) return fail(std::string("cannot open the file: ") + std::strerror(errno));
    std::string text;
    try {  // libstdc++ reports some read errors (EISDIR, EIO) by throwing from the stream buffer
        text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    } catch (const std::exception& e) {
        return fail(std::string("cannot read the file: ") + e.what());
    }
    if (in.bad()) return fail("cannot read the file");
    return parse_scene(text, path);
}

std::optional<SceneLoadError> validate_scene(const Scene& scene) {
    try {
        check_scene(scene, nullptr);
    } catch (const Fail& f) {
        SceneLoadError err;
        err.pointer = pointer_of(f.path);
        err.where = err.pointer.empty() ? "document root" : err.pointer;
        err.message = f.message;
        return err;
    }
    return std::nullopt;
}

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
    const std::string data = scene_to_json(scene);

    std::string tmpl = path + ".tmp-XXXXXX";
    std::vector<char> name(tmpl.begin(), tmpl.end());
    name.push_back('\0');
    const int fd = ::mkstemp(name.data());
    if (fd < 0) return "cannot save " + path + ": cannot create a temporary file next to it: " + std::strerror(errno);
    const std::string tmp(name.data());
    auto give_up = [&](const char* what) {
        const std::string msg = "cannot save " + path + ": " + what + ": " + std::strerror(errno);
        ::close(fd);
        ::unlink(tmp.c_str());
        return msg;
    };
    // Keep the permissions of the file being replaced; a new file gets rw-r--r--.
    struct stat st{};
    const mode_t mode = ::stat(path.c_str(), &st) == 0 ? (st.st_mode & 07777) : 0644;
    if (::fchmod(fd, mode) != 0) return give_up("cannot set permissions");
    std::size_t done = 0;
    while (done < data.size()) {
        const ssize_t n = ::write(fd, data.data() + done, data.size() - done);
        if (n < 0) {
            if (errno == EINTR) continue;
            return give_up("write failed");
        }
        done += std::size_t(n);
    }
    if (::fsync(fd) != 0) return give_up("fsync failed");
    if (::close(fd) != 0) {
        const std::string msg = "cannot save " + path + ": close failed: " + std::strerror(errno);
        ::unlink(tmp.c_str());
        return msg;
    }
    if (::rename(tmp.c_str(), path.c_str()) != 0) {
        const std::string msg = "cannot save " + path + ": rename failed: " + std::strerror(errno);
        ::unlink(tmp.c_str());
        return msg;
    }
    return std::nullopt;
}

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
