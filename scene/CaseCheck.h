// raypick case checker: evaluates a Scene's expectations with the float or the double core.
// Used by the demo's Test cases panel and by raypick-cast --check.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include <raypick/geometry/Shape.h>
#include <raypick/scene/Scene.h>

namespace raypick {

enum class Precision { Float, Double };

inline const char* precision_name(Precision p) { return p == Precision::Float ? "float" : "double"; }

/// A scene converted to the core's scalar T, ready to cast (double -> float for the float core).
template <typename T> struct CastScene {
    std::vector<Shape<T>> shapes;
    std::vector<Ray<T>> rays;
    std::vector<T> t_min, t_max;  ///< per ray
};

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
    return out;
}

/// The scene-level pick of one ray.
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

/// One checked field of an expectation.
struct FieldCheck {
    std::string field;     ///< "hit", "t_near", "n_far", "picked", ...
    std::string expected;  ///< readable expected value, e.g. "4", "[0, 0, -1]", "\"ball\" (#0)"
    std::string got;       ///< readable value the core returned ("miss" when there was no hit)
    bool passed = false;
    std::string detail;    ///< for numbers: "off by 0.5, tolerance 0.0001"; empty otherwise
};

/// The outcome of one expectation.
struct ExpectationResult {
    std::size_t index = 0;             ///< index in Scene::expectations
    std::size_t ray = 0;               ///< ray index
    std::optional<std::size_t> shape;  ///< shape index for a cast expectation, empty for a pick
    bool passed = false;
    double tolerance = 0.0;            ///< the tolerance that applied
    std::string label;     ///< 'ray "forward" (#0) x shape "ball" (#0)' or 'ray "forward" (#0): pick'
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
