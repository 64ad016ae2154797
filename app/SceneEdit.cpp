#include "app/SceneEdit.h"

#include <algorithm>
#include <cmath>
#include <type_traits>

#include <raypick/scene/Euler.h>

namespace raypick::app {

Shape<double> make_shape(ShapeType type, const Vec3d& at) { return example_shape(type, at); }

std::string unique_name(const Scene& scene, const std::string& base) {
    for (int n = 1;; ++n) {
        const std::string candidate = base + " " + std::to_string(n);
        const bool used = std::any_of(scene.shapes.begin(), scene.shapes.end(),
                                      [&](const SceneShape& s) { return s.name == candidate; }) ||
                          std::any_of(scene.instances.begin(), scene.instances.end(),
                                      [&](const SceneInstance& s) { return s.name == candidate; });
        if (!used) return candidate;
    }
}

bool delete_shape(Scene& scene, std::size_t i) {
    if (i >= scene.shapes.size()) return false;
    scene.shapes.erase(scene.shapes.begin() + static_cast<std::ptrdiff_t>(i));
    // Expectations about the deleted shape go with it (a cast against it, a query about it, "picks
    // it", "is contained by it"); the others keep pointing at the same shapes, whose indices above
    // i move down by one. Without this the scene could not be saved (the random-edit driver checks
    // it).
    const SceneObjectRef deleted = SceneObjectRef::shape(i);
    auto& ex = scene.expectations;
    ex.erase(std::remove_if(ex.begin(), ex.end(),
                            [&](const SceneExpectation& e) {
                                return e.shape == i || e.picked == i ||
                                       (e.contained_by && std::find(e.contained_by->begin(), e.contained_by->end(),
                                                                    deleted) != e.contained_by->end());
                            }),
             ex.end());
    for (SceneExpectation& e : ex) {
        if (e.shape && *e.shape > i) --*e.shape;
        if (e.picked && *e.picked > i) --*e.picked;
        if (e.contained_by)
            for (SceneObjectRef& r : *e.contained_by)
                if (!r.is_instance() && r.index > i) --r.index;
    }
    return true;
}

namespace {

const char* axis_name(int i) { return i == 0 ? "x" : i == 1 ? "y" : "z"; }

// ---- what every shape type gets from its fields (ShapeTraits::fields()) ---------------------------
// A type without its own overloads below is edited through these: a handle per Point field, the
// zero lengths and extents noted as degenerate.

template <typename S> void add_degeneracies(const S& s, std::vector<std::string>& notes) {
    for_each_field(s, [&](const auto& f, const auto& v) {
        using V = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<V, double>) {
            if (f.role == FieldRole::Length && v == 0.0) notes.push_back(std::string(f.name) + " 0");
        } else if constexpr (std::is_same_v<V, Vec3d>) {
            if (f.role == FieldRole::Extent)
                for (int k = 0; k < 3; ++k)
                    if (v[k] == 0.0) notes.push_back(std::string(f.name) + " " + axis_name(k) + " is 0: flat");
        }
    });
}

template <typename S> void add_handles(const S& s, std::vector<Handle>& out) {
    int id = 0;
    for_each_field(s, [&](const auto& f, const auto& v) {
        if constexpr (std::is_same_v<std::decay_t<decltype(v)>, Vec3d>)
            if (f.role == FieldRole::Point) out.push_back({id++, v, f.name});
    });
}

template <typename S> S moved(S s, int id, const Vec3d& p) {
    int k = 0;
    for_each_field(s, [&](const auto& f, auto& v) {
        if constexpr (std::is_same_v<std::decay_t<decltype(v)>, Vec3d>)
            if (f.role == FieldRole::Point && k++ == id) v = p;
    });
    return s;
}

// ---- the built-in types' own ------------------------------------------------------------------------

void add_degeneracies(const Sphere<double>& s, std::vector<std::string>& notes) {
    if (s.radius == 0.0) notes.push_back("radius 0: the sphere is a point");
}
void add_degeneracies(const Aabb<double>& s, std::vector<std::string>& notes) {
    int flat = 0;
    for (int k = 0; k < 3; ++k)
        if (s.min[k] == s.max[k]) {
            ++flat;
            notes.push_back(std::string("min == max on ") + axis_name(k) + ": flat box");
        }
    if (flat == 3) notes.push_back("min == max: the box is a point");
}
void add_degeneracies(const Obb<double>& s, std::vector<std::string>& notes) {
    for (int k = 0; k < 3; ++k)
        if (s.half_extents[k] == 0.0) notes.push_back(std::string("half extent ") + axis_name(k) + " is 0: flat box");
}
void add_degeneracies(const Capsule<double>& s, std::vector<std::string>& notes) {
    if (s.a == s.b) notes.push_back("a == b: the capsule is a sphere");
    if (s.radius == 0.0) notes.push_back("radius 0: the capsule is a segment");
}

void add_degeneracies(const Triangle<double>& s, std::vector<std::string>& notes) {
    if (is_degenerate(s)) notes.push_back("zero area: no ray hits it");
}

// Corner k of a box: bit 0 selects x, bit 1 y, bit 2 z (0 = min / -h, 1 = max / +h).
Vec3d corner_sign(int k) { return Vec3d((k & 1) ? 1.0 : -1.0, (k & 2) ? 1.0 : -1.0, (k & 4) ? 1.0 : -1.0); }
const char* kCornerLabels[8] = {"corner ---", "corner +--", "corner -+-", "corner ++-",
                                "corner --+", "corner +-+", "corner -++", "corner +++"};

void add_handles(const Sphere<double>& s, std::vector<Handle>& out) {
    out.push_back({0, s.center + Vec3d(s.radius, 0.0, 0.0), "radius"});
}
void add_handles(const Aabb<double>& s, std::vector<Handle>& out) {
    const Vec3d c = (s.min + s.max) * 0.5, h = (s.max - s.min) * 0.5;
    for (int k = 0; k < 8; ++k) out.push_back({k, c + corner_sign(k) * h, kCornerLabels[k]});
}
void add_handles(const Obb<double>& s, std::vector<Handle>& out) {
    for (int k = 0; k < 8; ++k) out.push_back({k, s.center + s.rotation * (corner_sign(k) * s.half_extents), kCornerLabels[k]});
}
void add_handles(const Capsule<double>& s, std::vector<Handle>& out) {
    out.push_back({0, s.a, "end a"});
    out.push_back({1, s.b, "end b"});
}

Sphere<double> moved(Sphere<double> s, int, const Vec3d& p) {
    s.radius = glm::length(p - s.center);
    return s;
}
Aabb<double> moved(Aabb<double> s, int id, const Vec3d& p) {
    if (id < 0 || id > 7) return s;
    const Vec3d c = (s.min + s.max) * 0.5, h = (s.max - s.min) * 0.5;
    const Vec3d fixed = c - corner_sign(id) * h;  // the opposite corner
    s.min = glm::min(fixed, p);
    s.max = glm::max(fixed, p);
    return s;
}
Obb<double> moved(Obb<double> s, int id, const Vec3d& p) {
    if (id < 0 || id > 7) return s;
    const Vec3d fixed = s.center - s.rotation * (corner_sign(id) * s.half_extents);
    s.center = (fixed + p) * 0.5;
    s.half_extents = glm::abs(glm::transpose(s.rotation) * (p - fixed)) * 0.5;
    return s;
}
Capsule<double> moved(Capsule<double> s, int id, const Vec3d& p) {
    if (id == 0) s.a = p;
    else if (id == 1) s.b = p;
    return s;
}

}  // namespace

std::vector<std::string> degeneracies(const Shape<double>& shape) {
    std::vector<std::string> notes;
    std::visit([&](const auto& s) { add_degeneracies(s, notes); }, shape);
    return notes;
}

/// The mean of the shape's Point fields: a sphere's or box's centre, a capsule's mid point.
Vec3d shape_center(const Shape<double>& shape) {
    Vec3d sum(0.0);
    int n = 0;
    std::visit([&](const auto& s) {
        for_each_field(s, [&](const auto& f, const auto& v) {
            if constexpr (std::is_same_v<std::decay_t<decltype(v)>, Vec3d>)
                if (f.role == FieldRole::Point) sum = n++ == 0 ? v : sum + v;
        });
    }, shape);
    if (n == 2) return sum * 0.5;
    return n > 2 ? sum / double(n) : sum;
}

/// Every Point field moved by `delta`; lengths, extents, directions and rotations unchanged.
Shape<double> translated(const Shape<double>& shape, const Vec3d& delta) {
    return std::visit([&](auto s) -> Shape<double> {
        for_each_field(s, [&](const auto& f, auto& v) {
            if constexpr (std::is_same_v<std::decay_t<decltype(v)>, Vec3d>)
                if (f.role == FieldRole::Point) v += delta;
        });
        return s;
    }, shape);
}

std::vector<Handle> handles(const Shape<double>& shape) {
    std::vector<Handle> out;
    std::visit([&](const auto& s) { add_handles(s, out); }, shape);
    return out;
}

Shape<double> move_handle(const Shape<double>& shape, int id, const Vec3d& p) {
    const bool finite = std::isfinite(p.x) && std::isfinite(p.y) && std::isfinite(p.z);
    if (!finite) return shape;
    return std::visit([&](const auto& s) -> Shape<double> { return moved(s, id, p); }, shape);
}

}  // namespace raypick::app
