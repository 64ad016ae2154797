// raypick scene model: what a scene/case file holds, in double precision (files are exact; the
// float core gets convert<float>()). Shared by the demo, the command-line caster and the tests.
// The file format is described in scene/FORMAT.md; load/save in scene/SceneFile.h.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include <raypick/geometry/Shape.h>
#include <raypick/scene/Model.h>

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

/// What a case file says the core must return. Three kinds:
///  - Cast on a shape (`shape` set): ray `ray` cast against shape `*shape` (with the ray's t
///    range). `hit` false means a miss; every other field set means a hit with that value.
///  - Cast on an instance (`instance` set): the nearest triangle of instance `*instance` (over its
///    mesh's placements) in the ray's t range: `hit`, `t`, `triangle`, `barycentric`, `normal`
///    (the world-space geometric normal, out of the front face), `front`.
///  - Pick (neither set): the scene-level pick of ray `ray` (nearest first surface over all shapes
///    and instances; at equal t a shape before an instance, then the lower index) is shape
///    `picked` or instance `picked_instance` (neither: nothing is picked), at `t`, on triangle
///    `triangle` (an instance only).
/// Fields that are not set are not checked.
struct SceneExpectation {
    std::size_t ray = 0;                  ///< index into Scene::rays
    std::optional<std::size_t> shape;     ///< index into Scene::shapes (cast on a shape)
    std::optional<std::size_t> instance;  ///< index into Scene::instances (cast on an instance)

    // Cast kinds
    std::optional<bool> hit;
    std::optional<double> t_near, t_far;
    std::optional<Vec3<double>> n_near, n_far;
    std::optional<bool> inside;  ///< RayHit::origin_inside

    // Cast on an instance, and pick
    std::optional<double> t;                ///< t of the instance's hit, or of the picked surface point
    std::optional<std::size_t> triangle;    ///< the triangle hit, its index in its mesh
    std::optional<Vec3<double>> barycentric;  ///< weights of the triangle's vertices at the hit
    std::optional<Vec3<double>> normal;     ///< unit geometric normal in world space, out of the front face
    std::optional<bool> front;              ///< the ray arrives at the triangle's front face

    // Pick kind
    std::optional<std::size_t> picked;           ///< index into Scene::shapes
    std::optional<std::size_t> picked_instance;  ///< index into Scene::instances
    // neither picked nor picked_instance: nothing is picked

    std::optional<double> tolerance;  ///< overrides Scene::tolerance for this expectation
    std::string description;

    bool is_pick() const { return !shape.has_value() && !instance.has_value(); }
};

/// Triangle meshes that instances place in the scene: inline in the scene file ("vertices",
/// "triangles", optional "normals": one mesh placed once at identity), or read from a model file
/// (OBJ: one mesh per object, each at identity; glTF: its meshes placed by its node hierarchy).
struct SceneMesh {
    std::string name;
    std::string file;         ///< the model file as the scene file names it (relative to the scene file's folder); empty: inline
    Model model;              ///< the meshes and their placements within the model
    std::string description;  ///< free text, optional
};

/// One placement of a SceneMesh: world = translate(translation) * rotation(euler_degrees, as the
/// OBB's "euler_degrees", scene/Euler.h) * scale(scale), applied to each of the mesh's own
/// placements (Model::instances). A negative scale mirrors; a zero scale is invalid.
struct SceneInstance {
    std::string name;
    std::size_t mesh = 0;  ///< index into Scene::meshes
    Vec3<double> translation{0.0};
    Vec3<double> euler_degrees{0.0};
    Vec3<double> scale{1.0};
    std::string description;  ///< free text, optional
};

struct Scene {
    std::vector<SceneShape> shapes;
    std::vector<SceneRay> rays;
    std::vector<SceneMesh> meshes;
    std::vector<SceneInstance> instances;
    std::optional<SceneCamera> camera;

    std::string description;                 ///< free text about the file/case
    double tolerance = kDefaultTolerance;    ///< file-level default for expectations
    std::vector<SceneExpectation> expectations;
};

// ---- equality ---------------------------------------------------------------------------------
// Exact value equality of everything a scene file stores, part by part: names, descriptions, shape
// types and every parameter, rays with their t ranges, the camera (present or not, and its values),
// the tolerance, and the expectations (which fields are set, and their values); lists in order.
// Numbers compare with IEEE ==, no tolerance: -0 equals +0 (values, not bit patterns; the writer
// and the reader keep the sign of a zero all the same), and NaN equals nothing, so a part holding
// NaN is not equal even to itself (NaN is not valid in a scene). Shapes compare with the core's
// same_shape() (geometry/Shape.h): the same type and every field equal. Meshes compare their
// models in full (every mesh's name, positions, normals and triangles; every placement).


bool operator==(const SceneShape& a, const SceneShape& b);
bool operator==(const SceneMesh& a, const SceneMesh& b);
bool operator==(const SceneInstance& a, const SceneInstance& b);
bool operator==(const SceneRay& a, const SceneRay& b);
bool operator==(const SceneCamera& a, const SceneCamera& b);
bool operator==(const SceneExpectation& a, const SceneExpectation& b);
bool operator==(const Scene& a, const Scene& b);
inline bool operator!=(const SceneShape& a, const SceneShape& b) { return !(a == b); }
inline bool operator!=(const SceneMesh& a, const SceneMesh& b) { return !(a == b); }
inline bool operator!=(const SceneInstance& a, const SceneInstance& b) { return !(a == b); }
inline bool operator!=(const SceneRay& a, const SceneRay& b) { return !(a == b); }
inline bool operator!=(const SceneCamera& a, const SceneCamera& b) { return !(a == b); }
inline bool operator!=(const SceneExpectation& a, const SceneExpectation& b) { return !(a == b); }
inline bool operator!=(const Scene& a, const Scene& b) { return !(a == b); }

}  // namespace raypick
