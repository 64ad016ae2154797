#include "app/SceneEdit.h"

#include <algorithm>
#include <cmath>
#include <type_traits>

#include "scene/Euler.h"

namespace raypick::app {

Shape<double> make_shape(ShapeType type, const Vec3d& at) {
    switch (type) {
        case ShapeType::Sphere: {
            Sphere<double> s;
            s.center = at;
            return s;
        }
        case ShapeType::Aabb: {
            Aabb<double> b;
            b.min = at - Vec3d(0.75);
            b.max = at + Vec3d(0.75);
            return b;
        }
        case ShapeType::Obb: {
            Obb<double> b;
            b.center = at;
            b.rotation = rotation_from_euler_degrees(Vec3d(0.0, 30.0, 0.0));
            b.half_extents = Vec3d(1.0, 0.6, 0.4);
            return b;
        }
        case ShapeType::Capsule: {
            Capsule<double> c;
            c.a = at + Vec3d(0.0, -0.8, 0.0);
            c.b = at + Vec3d(0.0, 0.8, 0.0);
            c.radius = 0.5;
            return c;
        }
    }
    return Sphere<double>{};
}

std::string unique_name(const Scene& scene, const std::string& base) {
    for (int n = 1;; ++n) {
        const std::string candidate = base + " " + std::to_string(n);
        const bool used = std::any_of(scene.shapes.begin(), scene.shapes.end(),
                                      [&](const SceneShape& s) { return s.name == candidate; });
        if (!used) return candidate;
    }
}

bool delete_shape(Scene& scene, std::size_t i) {
    if (i >= scene.shapes.size()) return false;
    scene.shapes.erase(scene.shapes.begin() + static_cast<std::ptrdiff_t>(i));
    // Expectations about the deleted shape go with it (a cast against it, or "picks it"); the
    // others keep pointing at the same shapes, whose indices above i move down by one. Without
    // this the scene could no longer be saved (found by the random-edit driver).
    auto& ex = scene.expectations;
    ex.erase(std::remove_if(ex.begin(), ex.end(),
                            [i](const SceneExpectation& e) { return e.shape == i || e.picked == i; }),
             ex.end());
    for (SceneExpectation& e : ex) {
        if (e.shape && *e.shape > i) --*e.shape;
        if (e.picked && *e.picked > i) --*e.picked;
    }
    return true;
}

namespace {
const char* axis_name(int i) { return i == 0 ? "x" : i == 1 ? "y" : "z"; }
}

std::vector<std::string> degeneracies(const Shape<double>& shape) {
    std::vector<std::string> notes;
    std::visit(
        [&](const auto& s) {
            using S = std::decay_t<decltype(s)>;
            if constexpr (std::is_same_v<S, Sphere<double>>) {
                if (s.radius == 0.0) notes.push_back("radius 0: the sphere is a point");
            } else if constexpr (std::is_same_v<S, Aabb<double>>) {
                int flat = 0;
                for (int k = 0; k < 3; ++k)
                    if (s.min[k] == s.max[k]) {
                        ++flat;
                        notes.push_back(std::string("min == max on ") + axis_name(k) + ": flat box");
                    }
                if (flat == 3) notes.push_back("min == max: the box is a point");
            } else if constexpr (std::is_same_v<S, Obb<double>>) {
                for (int k = 0; k < 3; ++k)
                    if (s.half_extents[k] == 0.0)
                        notes.push_back(std::string("half extent ") + axis_name(k) + " is 0: flat box");
            } else {
                if (s.a == s.b) notes.push_back("a == b: the capsule is a sphere");
                if (s.radius == 0.0) notes.push_back("radius 0: the capsule is a segment");
            }
        },
        shape);
    return notes;
}

Vec3d shape_center(const Shape<double>& shape) {
    return std::visit(
        [](const auto& s) -> Vec3d {
            using S = std::decay_t<decltype(s)>;
            if constexpr (std::is_same_v<S, Sphere<double>> || std::is_same_v<S, Obb<double>>) return s.center;
            else if constexpr (std::is_same_v<S, Aabb<double>>) return (s.min + s.max) * 0.5;
            else return (s.a + s.b) * 0.5;
        },
        shape);
}

Shape<double> translated(const Shape<double>& shape, const Vec3d& delta) {
    return std::visit(
        [&](auto s) -> Shape<double> {
            using S = std::decay_t<decltype(s)>;
            if constexpr (std::is_same_v<S, Sphere<double>> || std::is_same_v<S, Obb<double>>) {
                s.center += delta;
            } else if constexpr (std::is_same_v<S, Aabb<double>>) {
                s.min += delta;
                s.max += delta;
            } else {
                s.a += delta;
                s.b += delta;
            }
            return s;
        },
        shape);
}

namespace {
// Corner k of a box: bit 0 selects x, bit 1 y, bit 2 z (0 = min / -h, 1 = max / +h).
Vec3d corner_sign(int k) { return Vec3d((k & 1) ? 1.0 : -1.0, (k & 2) ? 1.0 : -1.0, (k & 4) ? 1.0 : -1.0); }
const char* kCornerLabels[8] = {"corner ---", "corner +--", "corner -+-", "corner ++-",
                                "corner --+", "corner +-+", "corner -++", "corner +++"};
}  // namespace

std::vector<Handle> handles(const Shape<double>& shape) {
    std::vector<Handle> out;
    std::visit(
        [&](const auto& s) {
            using S = std::decay_t<decltype(s)>;
            if constexpr (std::is_same_v<S, Sphere<double>>) {
                out.push_back({0, s.center + Vec3d(s.radius, 0.0, 0.0), "radius"});
            } else if constexpr (std::is_same_v<S, Aabb<double>>) {
                const Vec3d c = (s.min + s.max) * 0.5, h = (s.max - s.min) * 0.5;
                for (int k = 0; k < 8; ++k) out.push_back({k, c + corner_sign(k) * h, kCornerLabels[k]});
            } else if constexpr (std::is_same_v<S, Obb<double>>) {
                for (int k = 0; k < 8; ++k)
                    out.push_back({k, s.center + s.rotation * (corner_sign(k) * s.half_extents), kCornerLabels[k]});
            } else {
                out.push_back({0, s.a, "end a"});
                out.push_back({1, s.b, "end b"});
            }
        },
        shape);
    return out;
}

Shape<double> move_handle(const Shape<double>& shape, int id, const Vec3d& p) {
    const bool finite = std::isfinite(p.x) && std::isfinite(p.y) && std::isfinite(p.z);
    if (!finite) return shape;
    return std::visit(
        [&](auto s) -> Shape<double> {
            using S = std::decay_t<decltype(s)>;
            if constexpr (std::is_same_v<S, Sphere<double>>) {
                s.radius = glm::length(p - s.center);
            } else if constexpr (std::is_same_v<S, Aabb<double>>) {
                if (id < 0 || id > 7) return s;
                const Vec3d c = (s.min + s.max) * 0.5, h = (s.max - s.min) * 0.5;
                const Vec3d fixed = c - corner_sign(id) * h;  // the opposite corner
                s.min = glm::min(fixed, p);
                s.max = glm::max(fixed, p);
            } else if constexpr (std::is_same_v<S, Obb<double>>) {
                if (id < 0 || id > 7) return s;
                const Vec3d fixed = s.center - s.rotation * (corner_sign(id) * s.half_extents);
                s.center = (fixed + p) * 0.5;
                s.half_extents = glm::abs(glm::transpose(s.rotation) * (p - fixed)) * 0.5;
            } else {
                if (id == 0) s.a = p;
                else if (id == 1) s.b = p;
            }
            return s;
        },
        shape);
}

}  // namespace raypick::app
