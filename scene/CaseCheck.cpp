// raypick case checker.
#include <raypick/scene/CaseCheck.h>

#include <raypick/scene/NumberText.h>

#include <algorithm>
#include <cmath>

namespace raypick {

namespace {

template <typename T> std::string vec_text(const Vec3<T>& v) {
    return "[" + shortest(v.x) + ", " + shortest(v.y) + ", " + shortest(v.z) + "]";
}

template <typename Item> std::string item_label(const std::vector<Item>& items, std::size_t i, const char* what) {
    std::string s = what;
    if (i < items.size() && !items[i].name.empty()) s += " \"" + items[i].name + "\"";
    return s + " (#" + std::to_string(i) + ")";
}

std::string shape_ref(const Scene& scene, std::size_t i) {
    if (i < scene.shapes.size() && !scene.shapes[i].name.empty())
        return "\"" + scene.shapes[i].name + "\" (#" + std::to_string(i) + ")";
    return "#" + std::to_string(i);
}

std::string instance_ref(const Scene& scene, std::size_t i) { return item_label(scene.instances, i, "instance"); }

/// What a pick expectation or the core picked: a shape, an instance, or nothing.
template <typename T> std::string picked_ref(const Scene& scene, const std::optional<SceneSurface<T>>& p) {
    if (!p) return "nothing";
    return p->shape ? shape_ref(scene, p->shape->shape) : instance_ref(scene, p->instance->instance);
}

struct Checker {
    double tol;
    std::vector<FieldCheck> fields;

    void boolean(const char* name, bool expected, bool got) {
        fields.push_back({name, expected ? "true" : "false", got ? "true" : "false", expected == got, ""});
    }
    template <typename T> void number(const char* name, double expected, T got) {
        FieldCheck f{name, shortest(expected), shortest(got), within_tolerance(double(got), expected, tol), ""};
        if (!f.passed)
            f.detail = "off by " + shortest(std::fabs(double(got) - expected)) + ", tolerance " +
                       shortest(tol * std::max(1.0, std::fabs(expected)));
        fields.push_back(f);
    }
    template <typename T> void vector(const char* name, const Vec3<double>& expected, const Vec3<T>& got) {
        bool ok = true;
        double off = 0.0;
        for (int i = 0; i < 3; ++i) {
            ok = ok && within_tolerance(double(got[i]), expected[i], tol);
            off = std::max(off, std::fabs(double(got[i]) - expected[i]));
        }
        FieldCheck f{name, vec_text(expected), vec_text(got), ok, ""};
        if (!ok) f.detail = "off by up to " + shortest(off) + ", tolerance " + shortest(tol);
        fields.push_back(f);
    }
    void index(const char* name, std::size_t expected, std::size_t got) {
        fields.push_back({name, std::to_string(expected), std::to_string(got), expected == got, ""});
    }
    void missing(const char* name, std::string expected, std::string got) {
        fields.push_back({name, std::move(expected), std::move(got), false, ""});
    }
};

/// Checks a cast expectation on instance `*e.instance` against the core's nearest triangle of it.
template <typename T>
void evaluate_instance(const CastScene<T>& cs, const SceneExpectation& e, const Ray<T>& ray, T t_min, T t_max,
                       Checker& c) {
    const auto h = cast_instance(cs, *e.instance, ray, t_min, t_max);
    if (e.hit) c.fields.push_back({"hit", *e.hit ? "hit" : "miss", h ? "hit" : "miss", *e.hit == bool(h), ""});
    if (!h) {
        // Expected hit fields cannot be compared against a miss.
        if (!e.hit) c.missing("hit", "hit", "miss");
        if (e.t) c.missing("t", shortest(*e.t), "miss");
        if (e.triangle) c.missing("triangle", std::to_string(*e.triangle), "miss");
        if (e.barycentric) c.missing("barycentric", vec_text(*e.barycentric), "miss");
        if (e.normal) c.missing("normal", vec_text(*e.normal), "miss");
        if (e.front) c.missing("front", *e.front ? "true" : "false", "miss");
        return;
    }
    if (e.t) c.number("t", *e.t, h->hit.t);
    if (e.triangle) c.index("triangle", *e.triangle, h->hit.triangle);
    if (e.barycentric) c.vector("barycentric", *e.barycentric, h->hit.barycentric);
    if (e.normal) c.vector("normal", *e.normal, h->hit.normal);
    if (e.front) c.boolean("front", *e.front, h->hit.front);
}

template <typename T>
void evaluate(const Scene& scene, const CastScene<T>& cs, const SceneExpectation& e, Checker& c) {
    const Ray<T>& ray = cs.rays[e.ray];
    const T t_min = cs.t_min[e.ray], t_max = cs.t_max[e.ray];
    if (e.instance) {
        evaluate_instance(cs, e, ray, t_min, t_max, c);
    } else if (e.shape) {
        const auto h = cast(ray, cs.shapes[*e.shape], t_min, t_max);
        if (e.hit) c.fields.push_back({"hit", *e.hit ? "hit" : "miss", h ? "hit" : "miss", *e.hit == bool(h), ""});
        if (!h) {
            // Expected hit fields cannot be compared against a miss.
            if (!e.hit) c.missing("hit", "hit", "miss");
            if (e.t_near) c.missing("t_near", shortest(*e.t_near), "miss");
            if (e.t_far) c.missing("t_far", shortest(*e.t_far), "miss");
            if (e.n_near) c.missing("n_near", vec_text(*e.n_near), "miss");
            if (e.n_far) c.missing("n_far", vec_text(*e.n_far), "miss");
            if (e.inside) c.missing("inside", *e.inside ? "true" : "false", "miss");
            return;
        }
        if (e.t_near) c.number("t_near", *e.t_near, h->t_near);
        if (e.t_far) c.number("t_far", *e.t_far, h->t_far);
        if (e.n_near) c.vector("n_near", *e.n_near, h->n_near);
        if (e.n_far) c.vector("n_far", *e.n_far, h->n_far);
        if (e.inside) c.boolean("inside", *e.inside, h->origin_inside);
    } else {
        const auto p = pick_scene(cs, ray, t_min, t_max);
        const std::string expected = e.picked            ? shape_ref(scene, *e.picked)
                                     : e.picked_instance ? instance_ref(scene, *e.picked_instance)
                                                         : "nothing";
        const bool same = e.picked            ? p && p->shape && p->shape->shape == *e.picked
                          : e.picked_instance ? p && p->instance && p->instance->instance == *e.picked_instance
                                              : !p;
        c.fields.push_back({"picked", expected, picked_ref(scene, p), same, ""});
        if (e.t) {
            if (p) c.number("t", *e.t, p->t());
            else c.missing("t", shortest(*e.t), "nothing picked");
        }
        if (e.triangle) {
            if (p && p->instance) c.index("triangle", *e.triangle, p->instance->hit.triangle);
            else c.missing("triangle", std::to_string(*e.triangle), p ? "a shape" : "nothing picked");
        }
    }
}

/// Evaluates expectation `index` of `scene` against the prepared scene `cs`.
template <typename T>
ExpectationResult evaluate_expectation(const Scene& scene, const CastScene<T>& cs, std::size_t index) {
    const SceneExpectation& e = scene.expectations.at(index);
    ExpectationResult r;
    r.index = index;
    r.ray = e.ray;
    r.shape = e.shape;
    r.instance = e.instance;
    r.tolerance = e.tolerance ? *e.tolerance : scene.tolerance;
    r.label = item_label(scene.rays, e.ray, "ray");
    r.label += e.shape      ? " x " + item_label(scene.shapes, *e.shape, "shape")
               : e.instance ? " x " + instance_ref(scene, *e.instance)
                            : std::string(": pick");
    if (e.ray >= scene.rays.size() || (e.shape && *e.shape >= scene.shapes.size()) ||
        (e.picked && *e.picked >= scene.shapes.size()) || (e.instance && *e.instance >= scene.instances.size()) ||
        (e.picked_instance && *e.picked_instance >= scene.instances.size())) {
        r.fields.push_back({"reference", "an existing ray/shape/instance", "out of range", false, ""});
    } else {
        Checker c{r.tolerance, {}};
        evaluate(scene, cs, e, c);
        r.fields = std::move(c.fields);
    }
    r.passed = !r.fields.empty() &&
               std::all_of(r.fields.begin(), r.fields.end(), [](const FieldCheck& f) { return f.passed; });
    for (const auto& f : r.fields) {
        const bool plain = f.field == "hit" || f.field == "picked";
        r.expected += (r.expected.empty() ? "" : ", ") + (plain ? f.expected : f.field + "=" + f.expected);
        r.got += (r.got.empty() ? "" : ", ") + (plain ? f.got : f.field + "=" + f.got);
    }
    return r;
}

template <typename T> CaseReport check_all(const Scene& scene, Precision precision) {
    CaseReport report;
    report.precision = precision;
    report.results.reserve(scene.expectations.size());
    const CastScene<T> cs = prepare_scene<T>(scene);
    for (std::size_t i = 0; i < scene.expectations.size(); ++i) {
        report.results.push_back(evaluate_expectation(scene, cs, i));
        (report.results.back().passed ? report.passed : report.failed)++;
    }
    return report;
}

}  // namespace

bool within_tolerance(double got, double expected, double tolerance) {
    return std::fabs(got - expected) <= tolerance * std::max(1.0, std::fabs(expected));
}

std::string format_number(double v) { return shortest(v); }
std::string format_number(float v) { return shortest(v); }

std::string ExpectationResult::summary() const {
    std::string s = "expectation " + std::to_string(index) + ": " + label + ": " + (passed ? "ok" : "FAILED");
    if (passed) return s + " (" + expected + ")";
    bool first = true;
    for (const auto& f : fields) {
        if (f.passed) continue;
        s += first ? ": " : "; ";
        first = false;
        s += f.field + " expected " + f.expected + ", got " + f.got;
        if (!f.detail.empty()) s += " (" + f.detail + ")";
    }
    return s;
}

ExpectationResult check_expectation(const Scene& scene, std::size_t index, Precision precision) {
    if (precision == Precision::Float) return evaluate_expectation(scene, prepare_scene<float>(scene), index);
    return evaluate_expectation(scene, prepare_scene<double>(scene), index);
}

CaseReport check_case(const Scene& scene, Precision precision) {
    return precision == Precision::Float ? check_all<float>(scene, precision) : check_all<double>(scene, precision);
}

}  // namespace raypick
