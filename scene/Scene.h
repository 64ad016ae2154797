// raypick scene model: what a scene/case file holds, in double precision (files are exact; the
// float core gets convert<float>()). Shared by the demo, the command-line caster and the tests.
// The file format is described in scene/FORMAT.md; load/save in scene/SceneFile.h.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "geometry/Shape.h"

namespace raypick {

struct SceneShape {
    std::string name;
    Shape<double> shape;
    std::string description;  ///< free text, optional ("description" in the file)
};

struct SceneRay {
    std::string name;
    Ray<double> ray;
    double t_min = 0.0;
    double t_max = infinity<double>();
    std::string description;  ///< free text, optional
};

struct SceneCamera {
    Vec3<double> eye{6.0, 4.0, 8.0};
    Vec3<double> target{0.0};
    double fov_y_degrees = 45.0;
};

/// Tolerance used when neither the file nor the expectation gives one. A value passes when
/// |got - expected| <= tolerance * max(1, |expected|) (absolute near 0, relative for large values);
/// normals are compared per component with the same rule.
inline constexpr double kDefaultTolerance = 1e-4;

/// What a case file says the core must return. Two kinds:
///  - Cast (`shape` set): ray `ray` cast against shape `*shape` (with the ray's t range).
///    `hit` false means a miss; every other field set means a hit with that value.
///  - Pick (`shape` empty): the scene-level pick of ray `ray` (nearest first surface over all
///    shapes, lowest index on ties) is shape `picked` (nullopt: nothing is picked), at `t`.
/// Fields that are not set are not checked.
struct SceneExpectation {
    std::size_t ray = 0;                ///< index into Scene::rays
    std::optional<std::size_t> shape;   ///< index into Scene::shapes (Cast kind)

    // Cast kind
    std::optional<bool> hit;
    std::optional<double> t_near, t_far;
    std::optional<Vec3<double>> n_near, n_far;
    std::optional<bool> inside;  ///< RayHit::origin_inside

    // Pick kind
    std::optional<std::size_t> picked;  ///< index into Scene::shapes; nullopt: no shape is picked
    std::optional<double> t;            ///< t of the picked surface point

    std::optional<double> tolerance;  ///< overrides Scene::tolerance for this expectation
    std::string description;

    bool is_pick() const { return !shape.has_value(); }
};

struct Scene {
    std::vector<SceneShape> shapes;
    std::vector<SceneRay> rays;
    std::optional<SceneCamera> camera;

    std::string description;                 ///< free text about the file/case
    double tolerance = kDefaultTolerance;    ///< file-level default for expectations
    std::vector<SceneExpectation> expectations;
};

/// Exact (bitwise-value) equality of everything a file stores; used for round-trip tests.
bool operator==(const Scene& a, const Scene& b);
inline bool operator!=(const Scene& a, const Scene& b) { return !(a == b); }

}  // namespace raypick
