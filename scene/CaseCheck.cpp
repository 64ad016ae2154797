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

/// A shape ('"ball" (#0)', as "picked" names it) or an instance ('instance "box" (#1)').
std::string object_ref(const Scene& scene, const SceneObjectRef& r) {
    return r.is_instance() ? instance_ref(scene, r.index) : shape_ref(scene, r.index);
}

/// Objects as a set: '{"ball" (#0), instance "box" (#1)}', or "nothing".
std::string object_set_text(const Scene& scene, std::vector<SceneObjectRef> refs) {
    if (refs.empty()) return "nothing";
    std::sort(refs.begin(), refs.end());
    std::string s;
    for (const SceneObjectRef& r : refs) s += (s.empty() ? "{" : ", ") + object_ref(scene, r);
    return s + "}";
}

template <typename T> std::string list_text(const std::vector<T>& values) {
    std::string s = "[";
    for (std::size_t i = 0; i < values.size(); ++i) s += (i ? ", " : "") + shortest(values[i]);
    return s + "]";
}

std::string kinds_text(const std::vector<CrossingKind>& kinds) {
    std::string s = "[";
    for (std::size_t i = 0; i < kinds.size(); ++i) s += std::string(i ? ", " : "") + crossing_kind_name(kinds[i]);
    return s + "]";
}

/// The query's filter as a label's suffix: ", mask 6, back faces culled"; empty without one.
std::string filter_text(const SceneExpectation& e) {
    std::string s;
    if (e.mask) s += ", mask " + std::to_string(*e.mask);
    if (e.cull_back_faces && *e.cull_back_faces) s += ", back faces culled";
    return s;
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

/// Checks a pick expectation against SceneBvh::pick() with the expectation's filter.
template <typename T>
void evaluate_pick(const Scene& scene, const SceneQuery<T>& q, const SceneExpectation& e, Checker& c) {
    const auto& r = q.ray(e.ray);
    const auto p = q.bvh().pick(r.ray, r.t_min, r.t_max, query_filter<T>(e.mask, e.cull_back_faces));
    const SceneQueryObject* got = p ? &q.object(p->object) : nullptr;
    const std::string expected = e.picked            ? shape_ref(scene, *e.picked)
                                 : e.picked_instance ? instance_ref(scene, *e.picked_instance)
                                                     : "nothing";
    const bool same = e.picked            ? got && got->object == SceneObjectRef::shape(*e.picked)
                      : e.picked_instance ? got && got->object == SceneObjectRef::instance(*e.picked_instance)
                                          : !got;
    c.fields.push_back({"picked", expected, got ? object_ref(scene, got->object) : "nothing", same, ""});
    if (e.t) {
        if (p) c.number("t", *e.t, p->t);
        else c.missing("t", shortest(*e.t), "nothing picked");
    }
    if (e.triangle) {
        if (got && got->object.is_instance()) c.index("triangle", *e.triangle, p->triangle);
        else c.missing("triangle", std::to_string(*e.triangle), got ? "a shape" : "nothing picked");
    }
}

/// Checks a crossings expectation against SceneBvh::crossings() with the expectation's filter,
/// restricted to one object's crossings when it names one.
template <typename T>
void evaluate_crossings(const SceneQuery<T>& q, const SceneExpectation& e, Checker& c) {
    const auto& r = q.ray(e.ray);
    const QueryFilter<T> filter = query_filter<T>(e.mask, e.cull_back_faces);
    std::vector<Crossing<T>> xs = q.bvh().crossings(r.ray, r.t_min, r.t_max, filter);
    if (e.shape || e.instance) {
        const SceneObjectRef only = e.shape ? SceneObjectRef::shape(*e.shape) : SceneObjectRef::instance(*e.instance);
        const auto other = [&](const Crossing<T>& x) { return !q.is_part_of(x.object, only); };
        xs.erase(std::remove_if(xs.begin(), xs.end(), other), xs.end());
    }
    if (e.crossing_count) c.index("crossings", *e.crossing_count, xs.size());
    if (e.crossing_t) {
        std::vector<T> got;
        for (const auto& x : xs) got.push_back(x.t);
        bool ok = got.size() == e.crossing_t->size();
        double off = 0.0;
        for (std::size_t i = 0; ok && i < got.size(); ++i)
            off = std::max(off, std::fabs(double(got[i]) - (*e.crossing_t)[i]));
        for (std::size_t i = 0; ok && i < got.size(); ++i)
            ok = within_tolerance(double(got[i]), (*e.crossing_t)[i], c.tol);
        FieldCheck f{"crossing_t", list_text(*e.crossing_t), list_text(got), ok, ""};
        if (!ok && got.size() == e.crossing_t->size())
            f.detail = "off by up to " + shortest(off) + ", tolerance " + shortest(c.tol);
        c.fields.push_back(f);
    }
    if (e.crossing_kinds) {
        std::vector<CrossingKind> got;
        for (const auto& x : xs) got.push_back(x.kind);
        c.fields.push_back(
            {"crossing_kinds", kinds_text(*e.crossing_kinds), kinds_text(got), got == *e.crossing_kinds, ""});
    }
}

template <typename T>
void evaluate(const Scene& scene, const CastScene<T>& cs, const SceneQuery<T>& q, const SceneExpectation& e,
              Checker& c) {
    switch (e.kind()) {
        case ExpectationKind::CastInstance:
            evaluate_instance(cs, e, cs.rays[e.ray], cs.t_min[e.ray], cs.t_max[e.ray], c);
            return;
        case ExpectationKind::CastShape: {
            const auto h = cast(cs.rays[e.ray], cs.shapes[*e.shape], cs.t_min[e.ray], cs.t_max[e.ray]);
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
            return;
        }
        case ExpectationKind::Pick: evaluate_pick(scene, q, e, c); return;
        case ExpectationKind::Occluded: {
            const auto& r = q.ray(e.ray);
            c.boolean("occluded", *e.occluded,
                      q.bvh().occluded(r.ray, r.t_min, r.t_max, query_filter<T>(e.mask, e.cull_back_faces)));
            return;
        }
        case ExpectationKind::Crossings: evaluate_crossings(q, e, c); return;
        case ExpectationKind::Classify: {
            const SceneObjectRef r = e.shape ? SceneObjectRef::shape(*e.shape) : SceneObjectRef::instance(*e.instance);
            const Containment got = q.classify(q.point(*e.point), r);
            if (e.inside) c.boolean("inside", *e.inside, holds(got));
            if (e.containment)
                c.fields.push_back({"containment", containment_name(*e.containment), containment_name(got),
                                    got == *e.containment, ""});
            return;
        }
        case ExpectationKind::Contains: {
            const auto got = q.contains(q.point(*e.point), query_filter<T>(e.mask, std::nullopt));
            std::vector<SceneObjectRef> expected = *e.contained_by;
            std::sort(expected.begin(), expected.end());
            c.fields.push_back({"contained_by", object_set_text(scene, expected), object_set_text(scene, got),
                                expected == got, ""});
            return;
        }
    }
}

/// Whether every index `e` holds refers to an existing part of `scene`.
bool references_exist(const Scene& scene, const SceneExpectation& e) {
    if (e.point ? *e.point >= scene.points.size() : e.ray >= scene.rays.size()) return false;
    if ((e.shape && *e.shape >= scene.shapes.size()) || (e.picked && *e.picked >= scene.shapes.size()) ||
        (e.instance && *e.instance >= scene.instances.size()) ||
        (e.picked_instance && *e.picked_instance >= scene.instances.size()))
        return false;
    if (e.contained_by)
        for (const SceneObjectRef& r : *e.contained_by)
            if (r.index >= (r.is_instance() ? scene.instances.size() : scene.shapes.size())) return false;
    return true;
}

/// 'ray "forward" (#0) x shape "ball" (#0)', 'ray "up" (#1): pick', 'ray "up" (#1): crossings of
/// instance "box" (#0), mask 2', 'point "p" (#0) x shape "ball" (#0)', 'point "p" (#0): contained_by'.
std::string label_of(const Scene& scene, const SceneExpectation& e) {
    const std::string subject =
        e.point ? item_label(scene.points, *e.point, "point") : item_label(scene.rays, e.ray, "ray");
    const std::string object = e.shape      ? item_label(scene.shapes, *e.shape, "shape")
                               : e.instance ? instance_ref(scene, *e.instance)
                                            : std::string();
    switch (e.kind()) {
        case ExpectationKind::CastShape:
        case ExpectationKind::CastInstance:
        case ExpectationKind::Classify: return subject + " x " + object;
        case ExpectationKind::Pick: return subject + ": pick" + filter_text(e);
        case ExpectationKind::Occluded: return subject + ": occluded" + filter_text(e);
        case ExpectationKind::Crossings:
            return subject + ": crossings" + (object.empty() ? "" : " of " + object) + filter_text(e);
        case ExpectationKind::Contains: return subject + ": contained_by" + filter_text(e);
    }
    return subject;
}

/// Evaluates expectation `index` of `scene` against the prepared scene `cs`.
template <typename T>
ExpectationResult evaluate_expectation(const Scene& scene, const CastScene<T>& cs, const SceneQuery<T>& q,
                                       std::size_t index) {
    const SceneExpectation& e = scene.expectations.at(index);
    ExpectationResult r;
    r.index = index;
    r.ray = e.point ? kNoRay : e.ray;
    r.point = e.point;
    r.shape = e.shape;
    r.instance = e.instance;
    r.tolerance = e.tolerance ? *e.tolerance : scene.tolerance;
    r.label = label_of(scene, e);
    if (!references_exist(scene, e)) {
        r.fields.push_back({"reference", "an existing ray/point/shape/instance", "out of range", false, ""});
    } else {
        Checker c{r.tolerance, {}};
        evaluate(scene, cs, q, e, c);
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
    const SceneQuery<T> q(scene, cs.meshes);
    for (std::size_t i = 0; i < scene.expectations.size(); ++i) {
        report.results.push_back(evaluate_expectation(scene, cs, q, i));
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

template <typename T> ExpectationResult check_one(const Scene& scene, std::size_t index) {
    const CastScene<T> cs = prepare_scene<T>(scene);
    return evaluate_expectation(scene, cs, SceneQuery<T>(scene, cs.meshes), index);
}

ExpectationResult check_expectation(const Scene& scene, std::size_t index, Precision precision) {
    return precision == Precision::Float ? check_one<float>(scene, index) : check_one<double>(scene, index);
}

CaseReport check_case(const Scene& scene, Precision precision) {
    return precision == Precision::Float ? check_all<float>(scene, precision) : check_all<double>(scene, precision);
}

}  // namespace raypick
