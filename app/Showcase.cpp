#include "app/Showcase.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <type_traits>
#include <variant>
#include <vector>
#include <string>

#include "app/SceneEdit.h"
#include <raypick/scene/Euler.h>

namespace raypick::app {

namespace {
void add(Scene& s, const std::string& name, const Shape<double>& shape) {
    SceneShape x;
    x.name = name;
    x.shape = shape;
    s.shapes.push_back(std::move(x));
}
}  // namespace

Scene showcase_scene() {
    Scene s;
    Sphere<double> sphere;
    sphere.center = {-3.0, 1.0, 0.0};
    sphere.radius = 1.0;
    add(s, "sphere", sphere);

    Aabb<double> box;
    box.min = {-0.75, 0.0, -0.75};
    box.max = {0.75, 1.5, 0.75};
    add(s, "box", box);

    Obb<double> obb;
    obb.center = {3.0, 1.0, 0.0};
    obb.rotation = rotation_from_euler_degrees({20.0, 35.0, 10.0});
    obb.half_extents = {1.0, 0.6, 0.4};
    add(s, "oriented box", obb);

    Capsule<double> cap;
    cap.a = {-1.5, 0.6, 3.0};
    cap.b = {1.5, 1.4, 3.0};
    cap.radius = 0.5;
    add(s, "capsule", cap);

    Aabb<double> flat;
    flat.min = {-3.5, 0.0, -3.5};
    flat.max = {-2.5, 1.0, -3.5};
    add(s, "flat box (z)", flat);

    Capsule<double> ball;
    ball.a = ball.b = {3.0, 0.7, 3.0};
    ball.radius = 0.7;
    add(s, "capsule a == b", ball);

    Capsule<double> segment;
    segment.a = {1.0, 0.2, -3.0};
    segment.b = {3.5, 1.8, -3.0};
    segment.radius = 0.0;
    add(s, "capsule radius 0", segment);

    SceneCamera cam;
    cam.eye = {7.0, 6.0, 10.0};
    cam.target = {0.0, 0.8, 0.0};
    s.camera = cam;
    return s;
}

namespace {

/// A small deterministic generator (splitmix64): the same scene on every platform and library.
class Random {
public:
    explicit Random(std::uint64_t seed) : state_(seed) {}
    std::uint64_t next() {
        std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    /// Uniform in [lo, hi).
    double uniform(double lo, double hi) { return lo + (hi - lo) * double(next() >> 11) * 0x1.0p-53; }
    /// Roughly normal (the sum of three uniforms), mean 0, standard deviation about `sigma`.
    double bell(double sigma) { return (uniform(-1, 1) + uniform(-1, 1) + uniform(-1, 1)) * sigma; }

private:
    std::uint64_t state_;
};

/// `shape` scaled by `k` about `at`: points move away from it, lengths and extents grow;
/// directions and rotations are kept.
Shape<double> scaled(const Shape<double>& shape, const Vec3d& at, double k) {
    return std::visit([&](auto s) -> Shape<double> {
        for_each_field(s, [&](const auto& f, auto& v) {
            using V = std::decay_t<decltype(v)>;
            if constexpr (std::is_same_v<V, Vec3d>) {
                if (f.role == FieldRole::Point) v = at + (v - at) * k;
                else if (f.role == FieldRole::Extent) v *= k;
            } else if constexpr (std::is_same_v<V, double>) {
                if (f.role == FieldRole::Length) v *= k;
            }
        });
        return s;
    }, shape);
}

}  // namespace

Scene generated_scene(std::size_t count) {
    // Three structures whose size grows with the cube root of the count, so the density stays
    // about the same: a double helix rising from the middle (a quarter of the shapes), towers on
    // two rings around it (a third), and floating clusters between and above them (the rest).
    Scene s;
    s.shapes.reserve(count);
    Random rng(20261127);
    const double scale = std::cbrt(static_cast<double>(std::max<std::size_t>(count, 1)));
    const std::size_t helix = count / 4, towers = count / 3;
    const std::size_t clusters = count - helix - towers;
    const double reach = 2.5 * scale;  // the structures' radius
    auto add_at = [&](Vec3d at, double size) {
        at.y = std::max(at.y, 1.0);  // nothing below the ground
        const std::size_t i = s.shapes.size();
        const auto type = static_cast<ShapeType>(rng.next() % kShapeTypeCount);
        SceneShape x;
        x.name = std::string(shape_type_name(type)) + " " + std::to_string(i);
        x.shape = scaled(make_shape(type, at), at, size);
        if (auto* b = std::get_if<Obb<double>>(&x.shape))
            b->rotation = rotation_from_euler_degrees({rng.uniform(0, 360), rng.uniform(0, 360), rng.uniform(0, 360)});
        s.shapes.push_back(std::move(x));
    };
    constexpr double kTurn = 6.283185307179586;

    // The double helix: two strands, four turns, narrowing as they rise.
    const double height = 1.3 * reach, helix_radius = 0.3 * reach;
    const std::size_t per_strand = std::max<std::size_t>(helix / 2, 1);
    for (std::size_t k = 0; k < helix; ++k) {
        const double t = (double(k / 2) + 0.5) / double(per_strand);  // 0 at the bottom, 1 at the top
        const double angle = t * 4.0 * kTurn + (k % 2 ? kTurn / 2 : 0.0);
        const double r = helix_radius * (1.0 - 0.4 * t) + rng.bell(0.02 * reach);
        add_at({r * std::cos(angle), 1.0 + t * height + rng.bell(0.01 * reach), r * std::sin(angle)}, rng.uniform(0.5, 0.9));
    }

    // Towers on two rings around it, of random heights: rings of shapes stacked level by level,
    // each level turned a little against the one below.
    const std::size_t tower_count = towers ? std::max<std::size_t>(std::size_t(std::lround(2.0 * scale)), 1) : 0;
    for (std::size_t t = 0, placed = 0; t < tower_count; ++t) {
        const double ring = t % 2 ? 0.7 * reach : 1.0 * reach;
        const double angle = kTurn * (double(t) + rng.uniform(-0.25, 0.25)) / double(tower_count);
        const Vec3d base(ring * std::cos(angle), 0.0, ring * std::sin(angle));
        const std::size_t n = (towers - placed) / (tower_count - t);  // the rest shared evenly
        placed += n;
        const double tower_height = rng.uniform(0.25, 0.9) * height;
        const double level_step = 1.4;
        const std::size_t levels = std::max<std::size_t>(std::size_t(tower_height / level_step), 1);
        const std::size_t per_level = std::max<std::size_t>((n + levels - 1) / levels, 1);
        const double footprint = 0.25 * double(per_level) + 0.5;
        for (std::size_t k = 0; k < n; ++k) {
            const std::size_t level = k / per_level;
            const double a = kTurn * (double(k % per_level) + 0.5 * double(level)) / double(per_level);
            add_at(base + Vec3d(footprint * std::cos(a), 1.0 + double(level) * level_step, footprint * std::sin(a)),
                   rng.uniform(0.45, 0.7));
        }
    }

    // Clusters: round blobs of varied sizes, between the towers and above everything.
    const std::size_t cluster_count = clusters ? std::max<std::size_t>(std::size_t(std::lround(1.5 * scale)), 1) : 0;
    std::vector<Vec3d> centres(cluster_count);
    std::vector<double> radii(cluster_count);
    for (std::size_t c = 0; c < cluster_count; ++c) {
        const double angle = rng.uniform(0.0, kTurn), r = reach * std::sqrt(rng.uniform(0.1, 1.8));
        centres[c] = {r * std::cos(angle), rng.uniform(0.35, 1.25) * height, r * std::sin(angle)};
        radii[c] = rng.uniform(0.5, 1.0);
    }
    for (std::size_t k = 0; k < clusters; ++k) {
        const std::size_t c = k % cluster_count;
        const double spread = radii[c] * std::cbrt(double(clusters) / double(cluster_count)) * 0.8;
        add_at(centres[c] + Vec3d(rng.bell(spread), rng.bell(spread), rng.bell(spread)), rng.uniform(0.3, 0.7));
    }
    // Seen from above the towers' tops, the helix in the middle of the view (R and Home come back
    // here; F frames every shape).
    SceneCamera camera;
    camera.target = {0.0, 0.45 * height, 0.0};
    camera.eye = camera.target + Vec3d(2.0, 1.2, 3.7) * reach;
    s.camera = camera;
    return s;
}

}  // namespace raypick::app
