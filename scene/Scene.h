// raypick scene model: what a scene/case file holds, in double precision (files are exact; the
// float core gets convert<float>()). Shared by the demo, the command-line caster and the tests.
// The file format is described in scene/FORMAT.md; load/save in scene/SceneFile.h.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <raypick/geometry/SceneBvh.h>  // CrossingKind, Containment: what query expectations name
#include <raypick/geometry/Shape.h>
#include <raypick/scene/Model.h>

namespace raypick {

/// Every object's mask unless the file gives one ("mask"): it takes part in every query.
inline constexpr std::uint32_t kAllMask = ~std::uint32_t(0);

struct SceneShape {
    std::string name;
    Shape<double> shape;
    std::string description;  ///< free text, optional ("description" in the file)
    /// The object's mask in the scene's queries (SceneBvh): a query whose mask shares no bit with
    /// it does not see the shape. Casts on the shape ignore it.
    std::uint32_t mask = kAllMask;
};

struct SceneRay {
    std::string name;
    Ray<double> ray;
    double t_min = 0.0;
    double t_max = infinity<double>();
    std::string description;  ///< free text, optional
};

/// A named point of a case file, for the point queries (containment).
struct ScenePoint {
    std::string name;
    Vec3<double> position{0.0};
    std::string description;  ///< free text, optional
};

/// A shape or an instance of a scene, as an expectation names it.
struct SceneObjectRef {
    enum class Kind : std::uint8_t { Shape, Instance };
    Kind kind = Kind::Shape;
    std::size_t index = 0;  ///< into Scene::shapes or Scene::instances

    static SceneObjectRef shape(std::size_t i) { return {Kind::Shape, i}; }
    static SceneObjectRef instance(std::size_t i) { return {Kind::Instance, i}; }
    bool is_instance() const { return kind == Kind::Instance; }
    friend bool operator==(const SceneObjectRef& a, const SceneObjectRef& b) {
        return a.kind == b.kind && a.index == b.index;
    }
    friend bool operator!=(const SceneObjectRef& a, const SceneObjectRef& b) { return !(a == b); }
    /// Shapes first, then instances, each by index.
    friend bool operator<(const SceneObjectRef& a, const SceneObjectRef& b) {
        return a.kind != b.kind ? a.kind < b.kind : a.index < b.index;
    }
};

/// A crossing's kind as case files and the caster write it: "enter", "leave", "touch".
inline const char* crossing_kind_name(CrossingKind k) {
    return k == CrossingKind::Enter ? "enter" : k == CrossingKind::Leave ? "leave" : "touch";
}

/// A containment as case files and the caster write it: "inside", "outside", "on_surface",
/// "no_inside".
inline const char* containment_name(Containment c) {
    switch (c) {
        case Containment::Inside: return "inside";
        case Containment::OnSurface: return "on_surface";
        case Containment::NoInside: return "no_inside";
        case Containment::Outside: break;
    }
    return "outside";
}

/// What an expectation asks, decided by the fields it sets (SceneExpectation::kind()).
enum class ExpectationKind : std::uint8_t {
    CastShape,     ///< cast(ray, shape)
    CastInstance,  ///< the nearest triangle of one instance
    Pick,          ///< the scene's pick
    Occluded,      ///< the scene's occluded()
    Crossings,     ///< the scene's crossings(), whole or restricted to one object
    Classify,      ///< a point against one shape's or instance's solid (classify())
    Contains,      ///< a point against the whole scene (contains())
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

/// What a case file says the core must return. The kinds (kind()):
///  - Cast on a shape (`shape` set, no ray query, no point): ray `ray` cast against shape `*shape` (with the ray's t
///    range). `hit` false means a miss; every other field set means a hit with that value.
///  - Cast on an instance (`instance` set, likewise): the nearest triangle of instance `*instance` (over its
///    mesh's placements) in the ray's t range: `hit`, `t`, `triangle`, `barycentric`, `normal`
///    (the world-space geometric normal, out of the front face), `front`.
///  - Pick (none of the other kinds): the scene-level pick of ray `ray` (nearest first surface over all shapes
///    and instances; at equal t a shape before an instance, then the lower index) is shape
///    `picked` or instance `picked_instance` (neither: nothing is picked), at `t`, on triangle
///    `triangle` (an instance only), through SceneBvh::pick() with the query's `mask` and
///    `cull_back_faces`.
///  - Occluded (`occluded` set): SceneBvh::occluded() over the ray's range, with the filter.
///  - Crossings (`crossing_count`, `crossing_t` or `crossing_kinds` set): SceneBvh::crossings()
///    over the ray's range, with the filter; restricted to the crossings of shape `*shape` or
///    instance `*instance` (all its placements) when one is set.
///  - Classify (`point` set with `shape` or `instance`): where point `*point` stands against that
///    object's solid: `containment` (for an instance, the strongest over its placements: Inside,
///    then OnSurface, then Outside, then NoInside) and `inside` (the closed solid holds it: Inside
///    or OnSurface).
///  - Contains (`point` set with `contained_by`): the shapes and instances SceneBvh::contains()
///    answers for the point (an instance when any of its placements holds it), as a set, under the
///    query's `mask`.
/// Fields that are not set are not checked. The future `distance` / `closest` / `feature`
/// expectations of a closest-point query would be point expectations beside these.
struct SceneExpectation {
    std::size_t ray = 0;                  ///< index into Scene::rays (not used by a point expectation)
    std::optional<std::size_t> point;     ///< index into Scene::points: a point expectation
    std::optional<std::size_t> shape;     ///< index into Scene::shapes (cast, classify, crossings of one shape)
    std::optional<std::size_t> instance;  ///< index into Scene::instances (cast, classify, crossings of one instance)

    // Cast kinds
    std::optional<bool> hit;
    std::optional<double> t_near, t_far;
    std::optional<Vec3<double>> n_near, n_far;
    /// Cast on a shape: RayHit::origin_inside. Classify: the object's closed solid holds the point.
    std::optional<bool> inside;

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

    // Ray queries
    std::optional<bool> occluded;
    std::optional<std::size_t> crossing_count;         ///< "crossings": how many
    std::optional<std::vector<double>> crossing_t;     ///< every crossing's t, in order
    std::optional<std::vector<CrossingKind>> crossing_kinds;  ///< every crossing's kind, in order

    // Point queries (and `inside`, above)
    std::optional<Containment> containment;
    std::optional<std::vector<SceneObjectRef>> contained_by;  ///< the objects holding the point, any order

    // The query's filter (pick, occluded, crossings; contains takes the mask only)
    std::optional<std::uint32_t> mask;      ///< QueryFilter::mask
    std::optional<bool> cull_back_faces;    ///< QueryFilter::cull_back_faces

    std::optional<double> tolerance;  ///< overrides Scene::tolerance for this expectation
    std::string description;

    bool is_point() const { return point.has_value(); }
    bool is_crossings() const { return crossing_count || crossing_t || crossing_kinds; }
    ExpectationKind kind() const {
        if (point) return contained_by ? ExpectationKind::Contains : ExpectationKind::Classify;
        if (occluded) return ExpectationKind::Occluded;
        if (is_crossings()) return ExpectationKind::Crossings;
        if (shape) return ExpectationKind::CastShape;
        if (instance) return ExpectationKind::CastInstance;
        return ExpectationKind::Pick;
    }
    bool is_pick() const { return kind() == ExpectationKind::Pick; }
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
    /// The mask of each of its placements' objects in the scene's queries (as SceneShape::mask).
    std::uint32_t mask = kAllMask;
};

struct Scene {
    std::vector<SceneShape> shapes;
    std::vector<SceneRay> rays;
    std::vector<ScenePoint> points;
    std::vector<SceneMesh> meshes;
    std::vector<SceneInstance> instances;
    std::optional<SceneCamera> camera;

    std::string description;                 ///< free text about the file/case
    double tolerance = kDefaultTolerance;    ///< file-level default for expectations
    std::vector<SceneExpectation> expectations;
};

// ---- equality ---------------------------------------------------------------------------------
// Exact value equality of everything a scene file stores, part by part: names, descriptions, shape
// types, every parameter and masks, rays with their t ranges, points, the camera (present or not,
// and its values), the tolerance, and the expectations (which fields are set, and their values);
// lists in order.
// Numbers compare with IEEE ==, no tolerance: -0 equals +0 (values, not bit patterns; the writer
// and the reader keep the sign of a zero all the same), and NaN equals nothing, so a part holding
// NaN is not equal even to itself (NaN is not valid in a scene). Shapes compare with the core's
// same_shape() (geometry/Shape.h): the same type and every field equal. Meshes compare their
// models in full (every mesh's name, positions, normals and triangles; every placement).


bool operator==(const SceneShape& a, const SceneShape& b);
bool operator==(const SceneMesh& a, const SceneMesh& b);
bool operator==(const SceneInstance& a, const SceneInstance& b);
bool operator==(const SceneRay& a, const SceneRay& b);
bool operator==(const ScenePoint& a, const ScenePoint& b);
bool operator==(const SceneCamera& a, const SceneCamera& b);
bool operator==(const SceneExpectation& a, const SceneExpectation& b);
bool operator==(const Scene& a, const Scene& b);
inline bool operator!=(const SceneShape& a, const SceneShape& b) { return !(a == b); }
inline bool operator!=(const SceneMesh& a, const SceneMesh& b) { return !(a == b); }
inline bool operator!=(const SceneInstance& a, const SceneInstance& b) { return !(a == b); }
inline bool operator!=(const SceneRay& a, const SceneRay& b) { return !(a == b); }
inline bool operator!=(const ScenePoint& a, const ScenePoint& b) { return !(a == b); }
inline bool operator!=(const SceneCamera& a, const SceneCamera& b) { return !(a == b); }
inline bool operator!=(const SceneExpectation& a, const SceneExpectation& b) { return !(a == b); }
inline bool operator!=(const Scene& a, const Scene& b) { return !(a == b); }

}  // namespace raypick
