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
    void missing(const char* name, std::string expected, std::string got) {
        fields.push_back({name, std::move(expected), std::move(got), false, ""});
    }
};

template <typename T>
void evaluate(const Scene& scene, const SceneExpectation& e, Checker& c) {
    const SceneRay& sr = scene.rays[e.ray];
    const Ray<T> ray = convert<T>(sr.ray);
    const T t_min = T(sr.t_min), t_max = T(sr.t_max);
    if (e.shape) {
        const Shape<T> shape = convert<T>(scene.shapes[*e.shape].shape);
        const auto h = cast(ray, shape, t_min, t_max);
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
        std::vector<Shape<T>> shapes;
        shapes.reserve(scene.shapes.size());
        for (const auto& s : scene.shapes) shapes.push_back(convert<T>(s.shape));
        const auto p = pick_scene(ray, shapes, t_min, t_max);
        const std::string expected = e.picked ? shape_ref(scene, *e.picked) : "nothing";
        const std::string got = p ? shape_ref(scene, p->shape) : "nothing";
        c.fields.push_back({"picked", expected, got, e.picked ? (p && p->shape == *e.picked) : !p, ""});
        if (e.t) {
            if (p) c.number("t", *e.t, p->hit.t);
            else c.missing("t", shortest(*e.t), "nothing picked");
        }
    }
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
    const SceneExpectation& e = scene.expectations.at(index);
    ExpectationResult r;
    r.index = index;
    r.ray = e.ray;
    r.shape = e.shape;
    r.tolerance = e.tolerance ? *e.tolerance : scene.tolerance;
    r.label = item_label(scene.rays, e.ray, "ray");
    r.label += e.shape ? " x " + item_label(scene.shapes, *e.shape, "shape") : std::string(": pick");
    if (e.ray >= scene.rays.size() || (e.shape && *e.shape >= scene.shapes.size()) ||
        (e.picked && *e.picked >= scene.shapes.size())) {
        r.fields.push_back({"reference", "an existing ray/shape", "out of range", false, ""});
    } else {
        Checker c{r.tolerance, {}};
        if (precision == Precision::Float) evaluate<float>(scene, e, c);
        else evaluate<double>(scene, e, c);
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

CaseReport check_case(const Scene& scene, Precision precision) {
    CaseReport report;
    report.precision = precision;
    report.results.reserve(scene.expectations.size());
    for (std::size_t i = 0; i < scene.expectations.size(); ++i) {
        report.results.push_back(check_expectation(scene, i, precision));
        (report.results.back().passed ? report.passed : report.failed)++;
    }
    return report;
}

}  // namespace raypick
