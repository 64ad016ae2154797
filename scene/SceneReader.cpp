// raypick scene files: the reader, JSON text -> Scene, with every error placed in the file (its
// JSON pointer, line and column). See scene/FORMAT.md for the format.
#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <iterator>
#include <limits>
#include <utility>
#include <variant>

#include <raypick/scene/SceneFile.h>
#include <raypick/scene/detail/ErrorLocation.h>
#include <raypick/scene/detail/JsonText.h>
#include <raypick/scene/detail/SceneChecks.h>

namespace raypick {

using namespace scene_detail;

namespace {

// ---- values in messages -------------------------------------------------------------------------

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
template <typename Keys> void check_keys(const json& obj, const Path& path, const Keys& allowed, const std::string& what) {
    for (auto it = obj.begin(); it != obj.end(); ++it) {
        if (std::find_if(allowed.begin(), allowed.end(), [&](const char* a) { return it.key() == a; }) != allowed.end())
            continue;
        std::string list;
        for (const char* a : allowed) list += (list.empty() ? "" : ", ") + std::string(a);
        fail(path / it.key(), "unknown field " + jstr(it.key()) + " in " + what +
                                  " (expected one of: " + list + ")");
    }
}

void check_keys(const json& obj, const Path& path, std::initializer_list<const char*> allowed, const char* what) {
    check_keys<std::initializer_list<const char*>>(obj, path, allowed, what);
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

/// A count or index: an integer >= 0. `what` names it ("a triangle index").
std::size_t natural(const json& v, const Path& path, const char* what) {
    if (!((v.is_number_integer() && v.get<std::int64_t>() >= 0) || v.is_number_unsigned()))
        fail(path, std::string("expected ") + what + " (an integer >= 0), got " + type_name(v));
    return std::size_t(v.get<std::uint64_t>());
}

/// A 32-bit object or query mask: an integer in [0, 2^32).
std::uint32_t mask_value(const json& v, const Path& path) {
    if ((v.is_number_integer() && v.get<std::int64_t>() >= 0) || v.is_number_unsigned()) {
        const auto m = v.get<std::uint64_t>();
        if (m <= 0xffffffffu) return std::uint32_t(m);
    }
    fail(path, "expected a mask: an integer from 0 to 4294967295 (32 bits), got " + type_name(v));
}

// ---- shapes: every type's fields read by their roles (ShapeTraits::fields()) ---------------------------

/// A field's value from the file: a number >= 0 (Length), [x, y, z] (Point, Direction, Extent).
void read_value(const json& v, const Path& path, const char* key, FieldRole role, double& out) {
    (void)role;
    out = finite_number(require(v, path, key, "a number >= 0"), path / key, "a number >= 0");
}
void read_value(const json& v, const Path& path, const char* key, FieldRole role, Vec3<double>& out) {
    if (role == FieldRole::Extent)
        out = vec3(require(v, path, key, "[hx, hy, hz], each >= 0"), path / key, "[hx, hy, hz]");
    else
        out = vec3(require(v, path, key, "[x, y, z]"), path / key);
}
/// A rotation is "axes" (three orthonormal columns) or "euler_degrees" [x, y, z] (Euler.h), or
/// neither: the identity.
void read_value(const json& v, const Path& path, const char*, FieldRole, Mat3<double>& out) {
    const json* axes = find(v, "axes");
    const json* euler = find(v, "euler_degrees");
    if (axes && euler) fail(path / "euler_degrees", "give either \"axes\" or \"euler_degrees\", not both");
    if (axes) {
        if (!axes->is_array() || axes->size() != 3)
            fail(path / "axes", "expected [[ux, uy, uz], [vx, vy, vz], [wx, wy, wz]] (3 orthonormal axes), got " +
                                    type_name(*axes));
        for (std::size_t i = 0; i < 3; ++i) out[int(i)] = vec3((*axes)[i], path / "axes" / i, "an axis [x, y, z]");
    } else if (euler) {
        out = rotation_from_euler_degrees(vec3(*euler, path / "euler_degrees", "[x, y, z] angles in degrees"));
    } else {
        out = Mat3<double>(1.0);
    }
}

/// Reads shape `s`'s fields, after checking that the object has no other keys than theirs and the
/// common "name", "type", "description", "mask".
template <typename S> void read_shape_fields(const json& v, const Path& path, S& s) {
    std::vector<const char*> keys{"name", "type", "description", "mask"};
    for_each_field(s, [&](const auto& f, const auto&) {
        if (f.role == FieldRole::Rotation) {
            keys.push_back("axes");
            keys.push_back("euler_degrees");
        } else {
            keys.push_back(f.name);
        }
    });
    const std::string name = TraitsOf<S>::name;
    check_keys(v, path, keys, (std::strchr("aeiou", name[0]) ? "an " : "a ") + name);
    for_each_field(s, [&](const auto& f, auto& value) { read_value(v, path, f.name, f.role, value); });
}

/// The shape types' names in files as a list for messages: "\"sphere\", \"aabb\" or \"capsule\"".
std::string shape_type_list() {
    std::string out;
    for (int t = 0; t < kShapeTypeCount; ++t)
        out += (t == 0 ? "" : t + 1 == kShapeTypeCount ? " or " : ", ") + jstr(shape_type_name(ShapeType(t)));
    return out;
}

/// A default shape of the type whose variant index is `index` (< the number of shape types).
template <std::size_t I = 0> Shape<double> default_shape(std::size_t index) {
    if constexpr (I + 1 < std::variant_size_v<Shape<double>>)
        if (index != I) return default_shape<I + 1>(index);
    return Shape<double>(std::in_place_index<I>);
}

SceneShape read_shape(const json& v, const Path& path) {
    expect_object(v, path, "a shape");
    SceneShape out;
    static const std::string type_list = shape_type_list();
    static const std::string expected_type = "the shape type: " + type_list;
    const json& type = require(v, path, "type", expected_type.c_str());
    if (!type.is_string()) fail(path / "type", "expected " + type_list + ", got " + type_name(type));
    const std::string t = type.get<std::string>();
    if (const json* n = find(v, "name")) out.name = text(*n, path / "name");
    if (const json* d = find(v, "description")) out.description = text(*d, path / "description");
    if (const json* m = find(v, "mask")) out.mask = mask_value(*m, path / "mask");
    int index = 0;
    while (index < kShapeTypeCount && t != shape_type_name(ShapeType(index))) ++index;
    if (index == kShapeTypeCount)
        fail(path / "type", "unknown shape type " + jstr(t) + " (expected " + type_list + ")");
    out.shape = default_shape(std::size_t(index));
    std::visit([&](auto& s) { read_shape_fields(v, path, s); }, out.shape);
    check_shape(out.shape, path, find(v, "euler_degrees") ? "euler_degrees" : "axes");
    return out;
}

// ---- rays, camera, expectations, the scene ---------------------------------------------------------

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

ScenePoint read_point(const json& v, const Path& path) {
    expect_object(v, path, "a point");
    check_keys(v, path, {"name", "description", "position"}, "a point");
    ScenePoint p;
    if (const json* n = find(v, "name")) p.name = text(*n, path / "name");
    if (const json* d = find(v, "description")) p.description = text(*d, path / "description");
    p.position = vec3(require(v, path, "position", "[x, y, z]"), path / "position");
    check_point(p, path);
    return p;
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
    const std::string a = std::strchr("aeiou", what[0]) ? "an " : "a ";  // "a ray", "an instance"
    if (v.is_string()) {
        const std::string n = v.get<std::string>();
        for (std::size_t i = 0; i < items.size() && !n.empty(); ++i)
            if (items[i].name == n) return i;
        fail(path, std::string("no ") + what + " is named " + jstr(n) + " (expected the name or index of " + a +
                       what + ")");
    }
    if (v.is_number_integer() || v.is_number_unsigned()) {
        if (v.is_number_integer() && v.get<std::int64_t>() < 0)
            fail(path, "expected " + a + what + " index >= 0 or " + a + what + " name, got " + v.dump());
        const auto i = v.get<std::uint64_t>();
        if (i >= items.size())
            fail(path, std::string(what) + " index " + std::to_string(i) + " is out of range (the file has " +
                           std::to_string(items.size()) + " " + what + (std::strcmp(what, "mesh") == 0 ? "es)" : "s)"));
        return std::size_t(i);
    }
    fail(path, "expected " + a + what + " name (string) or index (integer), got " + type_name(v));
}

// ---- meshes and instances ----------------------------------------------------------------------------

/// Where the reader finds a mesh's model file: the folder its relative path starts from, or
/// nothing when model files are refused (a scene parsed from text).
using ModelDir = std::optional<std::string>;

/// A point of an inline mesh: [x, y, z], each within single precision's range (models hold floats).
glm::vec3 mesh_point(const json& v, const Path& path, const char* what) {
    const Vec3<double> d = vec3(v, path, what);
    const double largest = double(std::numeric_limits<float>::max());
    if (!(std::fabs(d.x) <= largest && std::fabs(d.y) <= largest && std::fabs(d.z) <= largest))
        fail(path, std::string("expected ") + what + " within single precision's range (about 3.4e38), got " +
                       v.dump());
    return glm::vec3(d);
}

/// An index of an inline mesh's triangle: an integer in [0, 2^32).
std::uint32_t mesh_index(const json& v, const Path& path) {
    if ((v.is_number_integer() && v.get<std::int64_t>() >= 0) || v.is_number_unsigned()) {
        const auto i = v.get<std::uint64_t>();
        if (i <= 0xffffffffu) return std::uint32_t(i);
    }
    fail(path, "expected a vertex index (an integer >= 0), got " + type_name(v));
}

/// An array value at `key` of `v` (required), or a failure naming `what` it should hold.
const json& array_field(const json& v, const Path& path, const char* key, const char* what) {
    const json& a = require(v, path, key, what);
    if (!a.is_array()) fail(path / key, std::string("expected ") + what + ", got " + type_name(a));
    return a;
}

/// An inline mesh: "vertices", "triangles" and optional "normals", as one ModelMesh placed once at
/// identity, named as the scene mesh.
Model read_inline_mesh(const json& v, const Path& path, const std::string& name) {
    ModelMesh mesh;
    mesh.name = name;
    const json& vertices = array_field(v, path, "vertices", "an array of vertices [[x, y, z], ...]");
    mesh.positions.reserve(vertices.size());
    for (std::size_t i = 0; i < vertices.size(); ++i)
        mesh.positions.push_back(mesh_point(vertices[i], path / "vertices" / i, "a vertex [x, y, z]"));
    const json& triangles = array_field(v, path, "triangles", "an array of triangles [[i, j, k], ...]");
    mesh.triangles.reserve(3 * triangles.size());
    const Path triangles_path = path / "triangles";
    for (std::size_t t = 0; t < triangles.size(); ++t) {
        const Path at = triangles_path / t;
        const json& tri = triangles[t];
        if (!tri.is_array() || tri.size() != 3)
            fail(at, "expected a triangle [i, j, k] (3 vertex indices), got " + type_name(tri));
        for (std::size_t k = 0; k < 3; ++k) mesh.triangles.push_back(mesh_index(tri[k], at / k));
    }
    if (const json* normals = find(v, "normals")) {
        if (!normals->is_array())
            fail(path / "normals", "expected an array of normals [[x, y, z], ...], one per vertex, got " +
                                       type_name(*normals));
        mesh.normals.reserve(normals->size());
        for (std::size_t i = 0; i < normals->size(); ++i)
            mesh.normals.push_back(mesh_point((*normals)[i], path / "normals" / i, "a normal [x, y, z]"));
    }
    Model model;
    model.meshes.push_back(std::move(mesh));
    model.instances.push_back(ModelInstance{});
    return model;
}

/// The path a mesh's "file" names: as is when absolute, else under `dir` (empty: the working
/// directory).
std::string model_path(const std::string& dir, const std::string& file) {
    const std::filesystem::path f(file);
    if (f.is_absolute() || dir.empty()) return file;
    return (std::filesystem::path(dir) / f).string();
}

/// A mesh: inline, or its model file read under `model_dir` (refused without one), then checked.
SceneMesh read_mesh(const json& v, const Path& path, const ModelDir& model_dir) {
    expect_object(v, path, "a mesh");
    check_keys(v, path, {"name", "description", "file", "vertices", "triangles", "normals"}, "a mesh");
    SceneMesh m;
    if (const json* n = find(v, "name")) m.name = text(*n, path / "name");
    if (const json* d = find(v, "description")) m.description = text(*d, path / "description");
    const json* file = find(v, "file");
    if (!file) {
        m.model = read_inline_mesh(v, path, m.name);
        check_mesh(m, path);
        return m;
    }
    for (const char* inline_key : {"vertices", "triangles", "normals"})
        if (find(v, inline_key))
            fail(path / inline_key, "a mesh is either a model \"file\" or inline \"vertices\" and \"triangles\", not both");
    m.file = text(*file, path / "file");
    check_mesh_file_name(m.file, path / "file");
    if (!model_dir)
        fail(path / "file", "the scene was parsed from text, so its model files are not read (their folder is "
                            "unknown); load the scene from its file to read " + jstr(m.file));
    auto loaded = load_model(model_path(*model_dir, m.file), scene_model_limits());
    if (const auto* err = std::get_if<ModelLoadError>(&loaded)) fail(path / "file", "cannot load the model: " + err->what());
    m.model = std::get<Model>(std::move(loaded));
    check_mesh(m, path);
    return m;
}

/// An instance of one of the meshes read so far (`s.meshes`), checked.
SceneInstance read_instance(const json& v, const Path& path, const Scene& s) {
    expect_object(v, path, "an instance");
    check_keys(v, path, {"name", "description", "mesh", "translation", "euler_degrees", "scale", "mask"},
               "an instance");
    SceneInstance inst;
    if (const json* n = find(v, "name")) inst.name = text(*n, path / "name");
    if (const json* d = find(v, "description")) inst.description = text(*d, path / "description");
    inst.mesh = reference(require(v, path, "mesh", "the name or index of a mesh"), path / "mesh", s.meshes, "mesh");
    if (const json* t = find(v, "translation")) inst.translation = vec3(*t, path / "translation");
    if (const json* e = find(v, "euler_degrees"))
        inst.euler_degrees = vec3(*e, path / "euler_degrees", "[x, y, z] angles in degrees");
    if (const json* k = find(v, "scale")) inst.scale = vec3(*k, path / "scale", "[sx, sy, sz], each non-zero");
    if (const json* m = find(v, "mask")) inst.mask = mask_value(*m, path / "mask");
    check_instance(s, inst, path);
    return inst;
}

/// The shape or instance named `n` (names are unique over both), if any.
std::optional<SceneObjectRef> named_object(const Scene& s, const std::string& n) {
    for (std::size_t i = 0; i < s.shapes.size() && !n.empty(); ++i)
        if (s.shapes[i].name == n) return SceneObjectRef::shape(i);
    for (std::size_t i = 0; i < s.instances.size() && !n.empty(); ++i)
        if (s.instances[i].name == n) return SceneObjectRef::instance(i);
    return std::nullopt;
}

/// A pick expectation's "picked": null (nothing), a shape or instance name (names are unique over
/// both), or a shape index. Sets e.picked or e.picked_instance.
void read_picked(const json& v, const Path& path, const Scene& s, SceneExpectation& e) {
    if (v.is_null()) return;
    if (v.is_string()) {
        const std::string n = v.get<std::string>();
        if (const auto r = named_object(s, n)) {
            (r->is_instance() ? e.picked_instance : e.picked) = r->index;
            return;
        }
        fail(path, "no shape or instance is named " + jstr(n) +
                       " (expected the name of a shape or an instance, the index of a shape, or null)");
    }
    e.picked = reference(v, path, s.shapes, "shape");
}

/// One object of "contained_by": a shape or instance name, a shape index, or {"shape": name or
/// index} / {"instance": name or index}.
SceneObjectRef object_ref(const json& v, const Path& path, const Scene& s) {
    if (v.is_string()) {
        const std::string n = v.get<std::string>();
        if (const auto r = named_object(s, n)) return *r;
        fail(path, "no shape or instance is named " + jstr(n) +
                       " (expected the name of a shape or an instance, the index of a shape, or "
                       "{\"instance\": index})");
    }
    if (v.is_object()) {
        check_keys(v, path, {"shape", "instance"}, "an object reference");
        const json* shape = find(v, "shape");
        const json* instance = find(v, "instance");
        if (shape && instance) fail(path / "instance", "give either \"shape\" or \"instance\", not both");
        if (shape) return SceneObjectRef::shape(reference(*shape, path / "shape", s.shapes, "shape"));
        if (instance) return SceneObjectRef::instance(reference(*instance, path / "instance", s.instances, "instance"));
        fail(path, "expected {\"shape\": name or index} or {\"instance\": name or index}, got an empty object");
    }
    if (v.is_number_integer() || v.is_number_unsigned())
        return SceneObjectRef::shape(reference(v, path, s.shapes, "shape"));
    fail(path, "expected the name of a shape or an instance, the index of a shape, or {\"instance\": index}, got " +
                   type_name(v));
}

CrossingKind crossing_kind(const json& v, const Path& path) {
    const char* expected = "\"enter\", \"leave\" or \"touch\"";
    if (!v.is_string()) fail(path, std::string("expected a crossing kind: ") + expected + ", got " + type_name(v));
    const std::string k = v.get<std::string>();
    for (CrossingKind c : {CrossingKind::Enter, CrossingKind::Leave, CrossingKind::Touch})
        if (k == crossing_kind_name(c)) return c;
    fail(path, "unknown crossing kind " + jstr(k) + " (expected " + expected + ")");
}

Containment containment_value(const json& v, const Path& path) {
    const char* expected = "\"inside\", \"outside\", \"on_surface\" or \"no_inside\"";
    if (!v.is_string()) fail(path, std::string("expected a containment: ") + expected + ", got " + type_name(v));
    const std::string k = v.get<std::string>();
    for (Containment c : {Containment::Inside, Containment::Outside, Containment::OnSurface, Containment::NoInside})
        if (k == containment_name(c)) return c;
    fail(path, "unknown containment " + jstr(k) + " (expected " + expected + ")");
}

/// An array at `path`, or a failure naming what it should hold.
const json& array_value(const json& v, const Path& path, const char* what) {
    if (!v.is_array()) fail(path, std::string("expected ") + what + ", got " + type_name(v));
    return v;
}

/// An expectation referring to the rays, points, shapes and instances of `s`, checked for its kind.
SceneExpectation read_expectation(const json& v, const Path& path, const Scene& s) {
    expect_object(v, path, "an expectation");
    check_keys(v, path,
               {"ray", "point", "shape", "instance", "object", "hit", "t_near", "t_far", "n_near", "n_far", "inside",
                "t", "triangle", "barycentric", "normal", "front", "picked", "picked_instance", "occluded", "crossings",
                "crossing_t", "crossing_kinds", "containment", "contained_by", "mask", "cull_back_faces", "tolerance",
                "description"},
               "an expectation");
    SceneExpectation e;
    const json* point = find(v, "point");
    if (point && find(v, "ray"))
        fail(path / "point", "give either \"ray\" (a cast or a ray query) or \"point\" (a point query), not both");
    if (point) e.point = reference(*point, path / "point", s.points, "point");
    else
        e.ray = reference(require(v, path, "ray", "the name or index of a ray, or \"point\" for a point query"),
                          path / "ray", s.rays, "ray");
    const json* shape = find(v, "shape");
    const json* instance = find(v, "instance");
    const json* object = find(v, "object");
    if (shape && instance)
        fail(path / "instance", "give either \"shape\" or \"instance\" (what the ray is cast against), not both");
    if (object && (shape || instance))
        fail(path / "object", "give one of \"shape\", \"instance\" and \"object\" (any of them by name), not two");
    if (shape) e.shape = reference(*shape, path / "shape", s.shapes, "shape");
    if (instance) e.instance = reference(*instance, path / "instance", s.instances, "instance");
    if (object) {
        if (!object->is_string())
            fail(path / "object", "expected the name of a shape or an instance, got " + type_name(*object));
        const auto r = named_object(s, object->get<std::string>());
        if (!r)
            fail(path / "object", "no shape or instance is named " + jstr(object->get<std::string>()) +
                                      " (expected the name of a shape or an instance)");
        (r->is_instance() ? e.instance : e.shape) = r->index;
    }
    if (const json* x = find(v, "hit")) e.hit = boolean(*x, path / "hit");
    if (const json* x = find(v, "t_near")) e.t_near = finite_number(*x, path / "t_near");
    if (const json* x = find(v, "t_far")) e.t_far = finite_number(*x, path / "t_far");
    if (const json* x = find(v, "n_near")) e.n_near = vec3(*x, path / "n_near");
    if (const json* x = find(v, "n_far")) e.n_far = vec3(*x, path / "n_far");
    if (const json* x = find(v, "inside")) e.inside = boolean(*x, path / "inside");
    if (const json* x = find(v, "triangle")) e.triangle = natural(*x, path / "triangle", "a triangle index");
    if (const json* x = find(v, "barycentric"))
        e.barycentric = vec3(*x, path / "barycentric", "[wa, wb, wc] (the weights of the triangle's vertices)");
    if (const json* x = find(v, "normal")) e.normal = vec3(*x, path / "normal");
    if (const json* x = find(v, "front")) e.front = boolean(*x, path / "front");
    if (const json* x = find(v, "occluded")) e.occluded = boolean(*x, path / "occluded");
    if (const json* x = find(v, "crossings"))
        e.crossing_count = natural(*x, path / "crossings", "a number of crossings");
    if (const json* x = find(v, "crossing_t")) {
        const Path at = path / "crossing_t";
        const json& a = array_value(*x, at, "an array of the crossings' t [t0, t1, ...]");
        e.crossing_t.emplace();
        for (std::size_t i = 0; i < a.size(); ++i) e.crossing_t->push_back(finite_number(a[i], at / i));
    }
    if (const json* x = find(v, "crossing_kinds")) {
        const Path at = path / "crossing_kinds";
        const json& a = array_value(*x, at, "an array of crossing kinds [\"enter\", \"leave\", \"touch\", ...]");
        e.crossing_kinds.emplace();
        for (std::size_t i = 0; i < a.size(); ++i) e.crossing_kinds->push_back(crossing_kind(a[i], at / i));
    }
    if (const json* x = find(v, "containment")) e.containment = containment_value(*x, path / "containment");
    if (const json* x = find(v, "contained_by")) {
        const Path at = path / "contained_by";
        const json& a = array_value(*x, at, "an array of the shapes and instances holding the point [\"name\", ...]");
        e.contained_by.emplace();
        for (std::size_t i = 0; i < a.size(); ++i) e.contained_by->push_back(object_ref(a[i], at / i, s));
    }
    if (const json* x = find(v, "mask")) e.mask = mask_value(*x, path / "mask");
    if (const json* x = find(v, "cull_back_faces")) e.cull_back_faces = boolean(*x, path / "cull_back_faces");
    const json* picked = find(v, "picked");
    const json* picked_instance = find(v, "picked_instance");
    if (picked && picked_instance)
        fail(path / "picked_instance", "give either \"picked\" or \"picked_instance\", not both");
    // A ray query, or a point one (a point's keys without "point" are reported by the checks).
    const bool query = e.occluded || e.is_crossings() || point || e.contained_by || e.containment;
    if (picked) {
        if (!picked->is_null()) read_picked(*picked, path / "picked", s, e);
        else if (shape || instance || object)
            fail(path / "picked", "\"picked\" belongs in an expectation without \"shape\" or \"instance\"");
        else if (query)
            fail(path / "picked", "\"picked\" belongs in a pick expectation, not with \"point\", \"occluded\", "
                                  "\"crossings\", \"crossing_t\" or \"crossing_kinds\"");
    } else if (picked_instance) {
        e.picked_instance = reference(*picked_instance, path / "picked_instance", s.instances, "instance");
    } else if (!shape && !instance && !object && !query) {
        fail(path, "missing field \"shape\" or \"instance\" (what to cast against), \"picked\" (the shape or "
                   "instance the ray should pick, or null for none), \"occluded\", or \"crossings\", "
                   "\"crossing_t\" or \"crossing_kinds\"");
    }
    if (const json* x = find(v, "t")) e.t = finite_number(*x, path / "t");
    if (const json* x = find(v, "tolerance"))
        e.tolerance = finite_number(*x, path / "tolerance", "a tolerance >= 0");
    if (const json* x = find(v, "description")) e.description = text(*x, path / "description");
    check_expectation(s, e, path);
    return e;
}

/// The scene in `doc`, its parts read in an order that lets each refer to those before it.
Scene read_scene(const json& doc, const ModelDir& model_dir) {
    const Path root;
    expect_object(doc, root, "a scene");
    check_keys(doc, root,
               {"description", "tolerance", "camera", "shapes", "meshes", "instances", "rays", "points",
                "expectations"},
               "a scene");
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
        for (std::size_t i = 0; i < shapes->size(); ++i)
            s.shapes.push_back(read_shape((*shapes)[i], root / "shapes" / i));
        check_unique_names(s.shapes, root / "shapes", "shape");
    }
    if (const json* meshes = find(doc, "meshes")) {
        if (!meshes->is_array()) fail(root / "meshes", "expected an array of meshes [...], got " + type_name(*meshes));
        s.meshes.reserve(meshes->size());
        for (std::size_t i = 0; i < meshes->size(); ++i)
            s.meshes.push_back(read_mesh((*meshes)[i], root / "meshes" / i, model_dir));
        check_unique_names(s.meshes, root / "meshes", "mesh");
    }
    if (const json* instances = find(doc, "instances")) {
        if (!instances->is_array())
            fail(root / "instances", "expected an array of instances [...], got " + type_name(*instances));
        s.instances.reserve(instances->size());
        for (std::size_t i = 0; i < instances->size(); ++i)
            s.instances.push_back(read_instance((*instances)[i], root / "instances" / i, s));
        check_instance_names(s, root / "instances");
    }
    if (const json* rays = find(doc, "rays")) {
        if (!rays->is_array()) fail(root / "rays", "expected an array of rays [...], got " + type_name(*rays));
        s.rays.reserve(rays->size());
        for (std::size_t i = 0; i < rays->size(); ++i) s.rays.push_back(read_ray((*rays)[i], root / "rays" / i));
        check_unique_names(s.rays, root / "rays", "ray");
    }
    if (const json* points = find(doc, "points")) {
        if (!points->is_array()) fail(root / "points", "expected an array of points [...], got " + type_name(*points));
        s.points.reserve(points->size());
        for (std::size_t i = 0; i < points->size(); ++i)
            s.points.push_back(read_point((*points)[i], root / "points" / i));
        check_unique_names(s.points, root / "points", "point");
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

/// Parses `text` (see parse_scene()); model files are read under `model_dir`, or refused without one.
std::variant<Scene, SceneLoadError> parse_scene_text(const std::string& text, const std::string& file_label,
                                                     const ModelDir& model_dir) {
    json doc;
    try {
        doc = json::parse(text);
    } catch (const json::parse_error& e) {
        // nlohmann's byte is 1-based: the position of the last character read.
        const std::size_t offset = e.byte > 0 ? std::size_t(e.byte - 1) : 0;
        std::string m = e.what();
        // "[json.exception.parse_error.101] parse error at line 3, column 5: syntax error ..."
        const auto colon = m.find(": ", m.find("parse error"));
        if (colon != std::string::npos) m = m.substr(colon + 2);
        return error_at_offset(text, offset, "invalid JSON: " + m, file_label);
    } catch (const json::exception& e) {
        // e.g. out_of_range.406 "number overflow parsing '1e400'": no position, so find the token.
        std::string m = e.what();
        const auto close = m.find("] ");
        if (close != std::string::npos) m = m.substr(close + 2);
        const auto q1 = m.find('\'');
        const auto q2 = q1 == std::string::npos ? q1 : m.find('\'', q1 + 1);
        const std::string token = q2 != std::string::npos ? m.substr(q1 + 1, q2 - q1 - 1) : std::string();
        return error_at_token(text, token, "invalid JSON: " + m + " (numbers must fit in a double)", file_label);
    }
    try {
        return read_scene(doc, model_dir);
    } catch (const Fail& f) {
        return error_in_text(f, text, file_label);
    } catch (const std::exception& e) {  // not expected; never let one escape the loader
        SceneLoadError err;
        err.file = file_label;
        err.message = std::string("could not read the scene: ") + e.what();
        return err;
    }
}

}  // namespace

std::variant<Scene, SceneLoadError> parse_scene(const std::string& text, const std::string& file_label) {
    return parse_scene_text(text, file_label, std::nullopt);
}

std::variant<Scene, SceneLoadError> parse_scene(const std::string& text, const std::string& file_label,
                                                const std::string& model_dir) {
    return parse_scene_text(text, file_label, model_dir);
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
    return parse_scene(text, path, std::filesystem::path(path).parent_path().string());
}

}  // namespace raypick
