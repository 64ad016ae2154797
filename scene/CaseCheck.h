// raypick case checker: evaluates a Scene's expectations with the float or the double core: casts
// on one shape or instance directly, the scene queries (pick, occluded, crossings, classify,
// contains) through the scene's SceneBvh (SceneQuery.h). Used by the demo's Test cases panel and
// by raypick-cast --check.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include <raypick/geometry/MixedPick.h>
#include <raypick/geometry/Shape.h>
#include <raypick/scene/Scene.h>
#include <raypick/scene/SceneMeshes.h>
#include <raypick/scene/SceneQuery.h>

namespace raypick {

enum class Precision { Float, Double };

inline const char* precision_name(Precision p) { return p == Precision::Float ? "float" : "double"; }

/// A scene converted to the core's scalar T, ready to cast (double -> float for the float core):
/// its shapes, rays, and meshes placed by its instances (place_meshes()) under an InstanceBvh.
template <typename T> struct CastScene {
    std::vector<Shape<T>> shapes;
    std::vector<Ray<T>> rays;
    std::vector<T> t_min, t_max;  ///< per ray
    PlacedMeshes<T> meshes;       ///< the core's meshes and instances
    InstanceBvh<T> instances;     ///< over meshes.instances, in their order
    /// Scene instance k is core instances [first_instance[k], first_instance[k + 1]).
    std::vector<std::size_t> first_instance;
};

/// The scene in scalar T. Requires a scene that passes validate_scene().
template <typename T> CastScene<T> prepare_scene(const Scene& scene) {
    CastScene<T> out;
    out.shapes.reserve(scene.shapes.size());
    for (const auto& s : scene.shapes) out.shapes.push_back(convert<T>(s.shape));
    out.rays.reserve(scene.rays.size());
    out.t_min.reserve(scene.rays.size());
    out.t_max.reserve(scene.rays.size());
    for (const auto& r : scene.rays) {
        out.rays.push_back(convert<T>(r.ray));
        out.t_min.push_back(T(r.t_min));
        out.t_max.push_back(T(r.t_max));
    }
    out.meshes = place_meshes<T>(scene);
    out.instances = InstanceBvh<T>(out.meshes.meshes, out.meshes.instances);
    out.first_instance.assign(scene.instances.size() + 1, out.meshes.instances.size());
    for (std::size_t i = out.meshes.origin.size(); i-- > 0;) out.first_instance[out.meshes.origin[i].scene_instance] = i;
    for (std::size_t k = scene.instances.size(); k-- > 0;)  // an instance of an empty model: an empty range
        out.first_instance[k] = std::min(out.first_instance[k], out.first_instance[k + 1]);
    return out;
}

/// The scene-level pick of one ray among shapes.
template <typename T> struct ScenePick {
    std::size_t shape = 0;  ///< index of the picked shape
    SurfaceHit<T> hit;      ///< its first surface point in the ray's range
};

/// Nearest first surface point (raypick::pick()) over all shapes in [t_min, t_max]; on equal t the
/// lower shape index wins. Empty when no shape is picked.
template <typename T>
std::optional<ScenePick<T>> pick_scene(const Ray<T>& ray, const std::vector<Shape<T>>& shapes,
                                       T t_min = T(0), T t_max = infinity<T>()) {
    std::optional<ScenePick<T>> best;
    for (std::size_t j = 0; j < shapes.size(); ++j) {
        const auto h = pick(ray, shapes[j], t_min, t_max);
        if (h && (!best || h->t < best->hit.t)) best = ScenePick<T>{j, *h};
    }
    return best;
}

/// Where a ray crosses a scene instance: the instance (index into Scene::instances), the placement
/// of its mesh's model (index into Model::instances) and the hit in world space (InstanceHit's).
template <typename T> struct SceneInstanceHit {
    std::size_t instance = 0;
    std::size_t placement = 0;
    MeshHit<T> hit;
};

/// The nearest triangle of scene instance `k` (over its mesh's placements) with t in
/// [t_min, t_max]; on equal t the lower placement, then the lower triangle. Empty for a miss.
template <typename T>
std::optional<SceneInstanceHit<T>> cast_instance(const CastScene<T>& cs, std::size_t k, const Ray<T>& ray,
                                                 T t_min = T(0), T t_max = infinity<T>()) {
    std::optional<SceneInstanceHit<T>> best;
    if (!is_valid(ray) || !detail::valid_range(t_min, t_max)) return best;
    for (std::size_t i = cs.first_instance.at(k); i < cs.first_instance.at(k + 1); ++i) {
        const auto h = cs.instances.pick_instance(std::uint32_t(i), ray, t_min, best ? best->hit.t : t_max);
        if (!h || (best && h->t == best->hit.t)) continue;  // a tie keeps the lower placement
        best = SceneInstanceHit<T>{k, cs.meshes.origin[i].placement, *h};
    }
    return best;
}

/// The scene-level pick of one ray over shapes and instances: exactly one of `shape`, `instance`.
template <typename T> struct SceneSurface {
    std::optional<ScenePick<T>> shape;
    std::optional<SceneInstanceHit<T>> instance;
    T t() const { return shape ? shape->hit.t : instance->hit.t; }
};

/// Nearest first surface point over the scene's shapes (pick_scene()) and instances (the nearest
/// triangle) with t in [t_min, t_max]. Shapes against instances by nearer_side(): on equal t a
/// shape wins over an instance; among shapes the lower index, among instances the lower scene
/// instance, then placement, then triangle. Empty when nothing is picked.
template <typename T>
std::optional<SceneSurface<T>> pick_scene(const CastScene<T>& cs, const Ray<T>& ray, T t_min = T(0),
                                          T t_max = infinity<T>()) {
    std::optional<SceneSurface<T>> out;
    auto s = pick_scene(ray, cs.shapes, t_min, t_max);
    const auto m = cs.instances.pick(ray, t_min, s ? s->hit.t : t_max);
    switch (nearer_side(s ? &s->hit.t : nullptr, m ? &m->hit.t : nullptr)) {
        case MixedSide::shape: out = SceneSurface<T>{std::move(s), std::nullopt}; break;
        case MixedSide::instance: {
            const auto& origin = cs.meshes.origin[m->instance];
            out = SceneSurface<T>{std::nullopt, SceneInstanceHit<T>{origin.scene_instance, origin.placement, m->hit}};
            break;
        }
        case MixedSide::none: break;
    }
    return out;
}

/// One checked field of an expectation.
struct FieldCheck {
    std::string field;     ///< "hit", "t_near", "n_far", "picked", ...
    std::string expected;  ///< readable expected value, e.g. "4", "[0, 0, -1]", "\"ball\" (#0)"
    std::string got;       ///< readable value the core returned ("miss" when there was no hit)
    bool passed = false;
    std::string detail;    ///< for numbers: "off by 0.5, tolerance 0.0001"; empty otherwise
};

/// ExpectationResult::ray of a point expectation.
inline constexpr std::size_t kNoRay = std::size_t(-1);

/// The outcome of one expectation.
struct ExpectationResult {
    std::size_t index = 0;             ///< index in Scene::expectations
    std::size_t ray = 0;               ///< ray index; kNoRay for a point expectation
    std::optional<std::size_t> point;  ///< point index for a point expectation
    std::optional<std::size_t> shape;     ///< shape index for a cast on a shape
    std::optional<std::size_t> instance;  ///< instance index for a cast on an instance
    bool passed = false;
    double tolerance = 0.0;            ///< the tolerance that applied
    /// 'ray "forward" (#0) x shape "ball" (#0)', '... x instance "quad" (#1)', 'ray "forward" (#0): pick',
    /// 'ray "up" (#1): occluded, mask 2', 'ray "up" (#1): crossings of instance "box" (#0)',
    /// 'point "p" (#0) x shape "ball" (#0)' or 'point "p" (#0): contained_by'
    std::string label;
    std::string expected;  ///< every checked field, e.g. "hit, t_near=4, t_far=6"
    std::string got;       ///< the same fields as returned by the core
    std::vector<FieldCheck> fields;

    /// One line: "expectation 3: LABEL: FAILED (float): t_near expected 4, got 4.5 (off by ...)".
    std::string summary() const;
};

struct CaseReport {
    Precision precision = Precision::Float;
    std::vector<ExpectationResult> results;  ///< one per expectation, in file order
    std::size_t passed = 0, failed = 0;
    bool ok() const { return failed == 0; }
};

/// Evaluates every expectation of `scene` with the core in the given precision.
CaseReport check_case(const Scene& scene, Precision precision = Precision::Float);

/// Evaluates one expectation (scene.expectations[index]).
ExpectationResult check_expectation(const Scene& scene, std::size_t index,
                                    Precision precision = Precision::Float);

/// Whether `got` is within `tolerance` of `expected`: |got - expected| <= tol * max(1, |expected|).
bool within_tolerance(double got, double expected, double tolerance);

/// Shortest text that reads back to the same value in T's precision ("4", "0.1", "1e-07").
std::string format_number(double v);
std::string format_number(float v);

}  // namespace raypick
