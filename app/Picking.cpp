#include "app/Picking.h"

#include <algorithm>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <type_traits>

#include "app/MeshPicking.h"
#include <raypick/geometry/textbook/TextbookAabb.h>
#include <raypick/geometry/textbook/TextbookCapsule.h>
#include <raypick/geometry/textbook/TextbookObb.h>
#include <raypick/geometry/textbook/TextbookSphere.h>
#include <raypick/geometry/textbook/TextbookTriangle.h>
#include <raypick/scene/NumberText.h>

namespace raypick::app {

std::string full(double v) { return shortest(v); }
std::string full(const Vec3<double>& v) { return "(" + full(v.x) + ", " + full(v.y) + ", " + full(v.z) + ")"; }

namespace {

bool finite3(const Vec3<double>& v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }

// Relative closeness for the difference flags: the variants are compared at a tolerance far above
// double rounding, so only real disagreements are marked.
bool close(double a, double b) {
    if (!std::isfinite(a) || !std::isfinite(b)) return false;
    return std::abs(a - b) <= 1e-9 * std::max({1.0, std::abs(a), std::abs(b)});
}
bool close(const Vec3<double>& a, const Vec3<double>& b) {
    return close(a.x, b.x) && close(a.y, b.y) && close(a.z, b.z);
}

void compare_single(VariantResult& v, const std::optional<SurfaceHit<double>>& s) {
    if (!v.hit && !s) return;
    if (v.hit != s.has_value()) {
        v.differs = true;
        v.difference = v.hit ? "variant hits, core misses" : "variant misses, core hits";
        return;
    }
    std::string d;
    if (!close(v.t, s->t)) d += "t ";
    if (!finite3(v.point) || !close(v.point, s->point)) d += "point ";
    if (!finite3(v.normal) || !close(v.normal, s->normal)) d += "normal ";
    if (!d.empty()) {
        v.differs = true;
        v.difference = "differs in: " + d;
        v.difference.pop_back();
    }
}

template <typename T> VariantResult from_surface(const char* name, const std::optional<SurfaceHit<T>>& h) {
    VariantResult v;
    v.name = name;
    if (h) {
        v.hit = true;
        v.t = h->t;
        v.point = h->point;
        v.normal = h->normal;
    }
    return v;
}

// ---- each shape type's textbook variant (geometry/textbook/); a type without one has none --------

template <typename S>
std::optional<VariantResult> variant_of(const Ray<double>&, const S&, const ShapeResult&, const CompareOptions&) {
    return std::nullopt;
}
std::optional<VariantResult> variant_of(const Ray<double>& ray, const Sphere<double>& s, const ShapeResult& core,
                                        const CompareOptions& opt) {
    VariantResult v = opt.sphere_geometric ? from_surface("textbook geometric", textbook::sphere_geometric(ray, s))
                                           : from_surface("textbook algebraic", textbook::sphere_algebraic(ray, s));
    compare_single(v, core.surface);
    return v;
}
std::optional<VariantResult> variant_of(const Ray<double>& ray, const Aabb<double>& s, const ShapeResult& core,
                                        const CompareOptions&) {
    VariantResult v = from_surface("textbook slab + epsilon", textbook::aabb_slab_epsilon(ray, s));
    compare_single(v, core.surface);
    return v;
}
std::optional<VariantResult> variant_of(const Ray<double>& ray, const Obb<double>& s, const ShapeResult& core,
                                        const CompareOptions&) {
    VariantResult v = from_surface("textbook axis loop", textbook::obb_axis_loop(ray, s));
    compare_single(v, core.surface);
    return v;
}
std::optional<VariantResult> variant_of(const Ray<double>& ray, const Capsule<double>& s, const ShapeResult& core,
                                        const CompareOptions&) {
    VariantResult v;
    v.name = "published capsule";
    const auto p = textbook::capsule_published(ray, s);
    if (p) {
        v.hit = true;
        v.t = p->t1;
        v.point = p->p1;
        v.normal = p->n1;
        v.has_second = true;
        v.t2 = p->t2;
        v.point2 = p->p2;
        v.normal2 = p->n2;
    }
    // The published test reports the line's entry and exit: compare with the passage.
    if (v.hit != core.hit.has_value()) {
        v.differs = true;
        v.difference = v.hit ? "variant hits, core misses" : "variant misses, core hits";
    } else if (v.hit) {
        std::string d;
        if (!close(v.t, core.hit->t_near)) d += "t1 ";
        if (!close(v.t2, core.hit->t_far)) d += "t2 ";
        if (!finite3(v.normal) || !close(v.normal, core.hit->n_near)) d += "n1 ";
        if (!finite3(v.normal2) || !close(v.normal2, core.hit->n_far)) d += "n2 ";
        if (!d.empty()) {
            v.differs = true;
            v.difference = "differs in: " + d;
            v.difference.pop_back();
        }
    }
    return v;
}

std::optional<VariantResult> variant_of(const Ray<double>& ray, const Triangle<double>& s, const ShapeResult& core,
                                        const CompareOptions&) {
    VariantResult v = from_surface("Möller-Trumbore", textbook::triangle_moller_trumbore(ray, s));
    compare_single(v, core.surface);
    return v;
}

template <typename S> constexpr bool has_variant(const S*) { return false; }
constexpr bool has_variant(const Sphere<double>*) { return true; }
constexpr bool has_variant(const Aabb<double>*) { return true; }
constexpr bool has_variant(const Obb<double>*) { return true; }
constexpr bool has_variant(const Capsule<double>*) { return true; }
constexpr bool has_variant(const Triangle<double>*) { return true; }

std::optional<VariantResult> run_variant(const Ray<double>& ray, const Shape<double>& shape, const ShapeResult& core,
                                         const CompareOptions& opt) {
    return std::visit([&](const auto& s) { return variant_of(ray, s, core, opt); }, shape);
}

}  // namespace

bool has_textbook_variant(ShapeType type) {
    return visit_shape_type(type, [](auto tag) {
        return has_variant(static_cast<const typename decltype(tag)::template type<double>*>(nullptr));
    });
}

PickResult cast_all(const Scene& scene, const Ray<double>& ray, const CompareOptions& compare) {
    PickResult r;
    cast_all(scene, ray, compare, r);
    return r;
}

std::vector<VariantPoint> scene_ray_variants(const Scene& scene, const CompareOptions& compare, std::size_t max_rays,
                                             std::size_t max_casts) {
    std::vector<VariantPoint> out;
    bool any = false;
    for (const bool on : compare.enabled) any = any || on;
    if (!any || scene.shapes.empty()) return out;
    const std::size_t rays = std::min({scene.rays.size(), max_rays, std::max<std::size_t>(1, max_casts / scene.shapes.size())});
    PickResult r;
    for (std::size_t k = 0; k < rays; ++k) {
        const Ray<double>& ray = scene.rays[k].ray;
        if (!is_valid(ray)) continue;
        cast_all(scene, ray, compare, r);
        for (std::size_t i = 0; i < r.shapes.size(); ++i) {
            if (!r.shapes[i].variant || !r.shapes[i].variant->hit) continue;
            const VariantResult& v = *r.shapes[i].variant;
            auto add = [&](const Vec3d& p, const Vec3d& n) {
                if (std::isfinite(p.x) && std::isfinite(p.y) && std::isfinite(p.z)) out.push_back({k, i, p, n, v.differs});
            };
            add(v.point, v.normal);
            if (v.has_second) add(v.point2, v.normal2);
        }
    }
    return out;
}

void clear_result(PickResult& r, std::size_t shape_count) {
    r.ray = Ray<double>{};
    r.nearest.reset();
    r.micros = 0.0;
    r.hit_count = 0;
    r.hits.clear();
    r.entries_beyond_hits = false;
    r.shapes.resize(shape_count);
    for (ShapeResult& sr : r.shapes) {
        sr.hit.reset();
        sr.surface.reset();
        sr.variant.reset();
    }
}

void cast_all(const Scene& scene, const Ray<double>& ray, const CompareOptions& compare, PickResult& r) {
    r.ray = ray;
    r.nearest.reset();
    r.hit_count = 0;
    r.hits.clear();
    r.entries_beyond_hits = false;
    r.shapes.resize(scene.shapes.size());
    double best = infinity<double>();
    const auto start = std::chrono::steady_clock::now();
    for (std::size_t i = 0; i < scene.shapes.size(); ++i) {
        ShapeResult& sr = r.shapes[i];
        sr.hit = cast(ray, scene.shapes[i].shape);
        sr.surface.reset();
        sr.variant.reset();
        if (!sr.hit) continue;
        ++r.hit_count;
        r.hits.push_back(i);
        sr.surface = first_surface(ray, *sr.hit);
        if (sr.surface && sr.surface->t < best) {
            best = sr.surface->t;
            r.nearest = i;
        }
    }
    const auto stop = std::chrono::steady_clock::now();
    r.micros = std::chrono::duration<double, std::micro>(stop - start).count();
    for (std::size_t i = 0; i < scene.shapes.size(); ++i) {
        const Shape<double>& s = scene.shapes[i].shape;
        if (compare.enabled[static_cast<std::size_t>(s.index())]) {
            r.shapes[i].variant = run_variant(ray, s, r.shapes[i], compare);
            r.entries_beyond_hits = true;
        }
    }
}

void cast_all(const Bvh<double>& bvh, const Scene& scene, const Ray<double>& ray, const CompareOptions& compare,
              PickResult& r) {
    bool comparing = false;
    for (const bool on : compare.enabled) comparing = comparing || on;
    if (comparing || bvh.size() != scene.shapes.size()) {
        cast_all(scene, ray, compare, r);
        return;
    }
    // Clear what the last cast left: only its hits, when nothing else was set.
    if (r.entries_beyond_hits || r.shapes.size() != scene.shapes.size()) {
        clear_result(r, scene.shapes.size());
    } else {
        for (const std::size_t i : r.hits) {
            r.shapes[i].hit.reset();
            r.shapes[i].surface.reset();
        }
        r.hits.clear();
    }
    r.ray = ray;
    r.nearest.reset();
    double best = infinity<double>();
    const auto start = std::chrono::steady_clock::now();
    bvh.for_each_hit(ray, [&](std::uint32_t i, const RayHit<double>& h) {
        ShapeResult& sr = r.shapes[i];
        sr.hit = h;
        sr.surface = first_surface(ray, h);
        r.hits.push_back(i);
        // The nearest first surface point; ties to the lower index, as the loop over every shape.
        if (sr.surface && (sr.surface->t < best || (sr.surface->t == best && r.nearest && i < *r.nearest))) {
            best = sr.surface->t;
            r.nearest = i;
        }
    });
    const auto stop = std::chrono::steady_clock::now();
    std::sort(r.hits.begin(), r.hits.end());
    r.hit_count = r.hits.size();
    r.micros = std::chrono::duration<double, std::micro>(stop - start).count();
    r.entries_beyond_hits = false;
}

std::optional<std::size_t> pick_nearest(const Scene& scene, const Ray<double>& ray) {
    std::optional<std::size_t> nearest;
    double best = infinity<double>();
    for (std::size_t i = 0; i < scene.shapes.size(); ++i) {
        const auto s = pick(ray, scene.shapes[i].shape);
        if (s && s->t < best) {
            best = s->t;
            nearest = i;
        }
    }
    return nearest;
}

void ScenePicker::build(const Scene& scene) {
    std::vector<Shape<double>> shapes;
    shapes.reserve(scene.shapes.size());
    for (const SceneShape& s : scene.shapes) shapes.push_back(s.shape);
    bvh_.build(shapes);
    ++rebuilds_;
}

void ScenePicker::sync(const SceneEditor& editor) {
    if (synced_version_ == editor.version()) return;
    const ChangeSet changes = editor.changes_since(synced_version_);
    const Scene& scene = editor.scene();
    if (changes.structure || bvh_.size() != scene.shapes.size()) {
        build(scene);
    } else {
        for (const std::size_t i : changes.modified) {
            bvh_.update(static_cast<std::uint32_t>(i), scene.shapes[i].shape);
            ++refits_;
        }
    }
    synced_version_ = editor.version();
}

std::optional<std::size_t> ScenePicker::pick(const SceneEditor& editor, const Ray<double>& ray) {
    sync(editor);
    return pick_synced(ray);
}

void ScenePicker::cast_all(const SceneEditor& editor, const Ray<double>& ray, const CompareOptions& compare,
                           PickResult& out) {
    sync(editor);
    app::cast_all(bvh_, editor.scene(), ray, compare, out);
}

std::optional<std::size_t> ScenePicker::pick(const Scene& scene, const Ray<double>& ray) {
    build(scene);
    synced_version_.reset();
    return pick_synced(ray);
}

std::optional<std::size_t> ScenePicker::pick_synced(const Ray<double>& ray) {
    const auto start = std::chrono::steady_clock::now();
    const auto p = bvh_.pick(ray);
    last_pick_us_ = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count();
    if (!p) return std::nullopt;
    return std::size_t(p->shape);
}

std::optional<TriangleHit<double>> triangle_hit(const Shape<double>& shape, const Ray<double>& ray) {
    if (const auto* tri = std::get_if<Triangle<double>>(&shape)) return intersect(ray, *tri);
    return std::nullopt;
}

namespace {
/// A triangle hit's barycentrics and face, as the reports give them.
std::string barycentric_and_face(const Vec3<double>& barycentric, bool front) {
    return "barycentric " + full(barycentric) + (front ? ", front face" : ", back face");
}
}  // namespace

std::string format_triangle_hit(const TriangleHit<double>& h) { return barycentric_and_face(h.barycentric, h.front); }

std::string format_result(const Scene& scene, const PickResult& r, bool include_misses, const TriangleReadout* mesh) {
    std::string out;
    out += "ray origin " + full(r.ray.origin) + " direction " + full(r.ray.direction) + "\n";
    const auto picked = picked_name(scene, r, mesh);
    out += "picked: " + (picked ? picked->name + " at t " + full(picked->t) : std::string("none")) + "\n";
    for (std::size_t i = 0; i < r.shapes.size() && i < scene.shapes.size(); ++i) {
        const ShapeResult& s = r.shapes[i];
        const std::string head = "[" + std::to_string(i) + "] " + scene.shapes[i].name + " (" +
                                 shape_type_name(type_of(scene.shapes[i].shape)) + "): ";
        if (!s.hit) {
            if (include_misses) out += head + "miss\n";
        } else {
            out += head + "hit\n";
            out += "  t_near " + full(s.hit->t_near) + "  t_far " + full(s.hit->t_far) + "\n";
            out += "  p_near " + full(r.ray.at(s.hit->t_near)) + "  n_near " + full(s.hit->n_near) + "\n";
            out += "  p_far  " + full(r.ray.at(s.hit->t_far)) + "  n_far  " + full(s.hit->n_far) + "\n";
            out += std::string("  inside ") + (s.hit->origin_inside ? "true" : "false") + "\n";
            if (const auto th = triangle_hit(scene.shapes[i].shape, r.ray)) out += "  " + format_triangle_hit(*th) + "\n";
        }
        if (s.variant && (s.hit || s.variant->hit || include_misses)) {
            const VariantResult& v = *s.variant;
            out += std::string("  variant ") + v.name + ": " + (v.hit ? "hit" : "miss");
            if (v.hit) {
                out += " t " + full(v.t) + " point " + full(v.point) + " normal " + full(v.normal);
                if (v.has_second)
                    out += " | t2 " + full(v.t2) + " point2 " + full(v.point2) + " normal2 " + full(v.normal2);
            }
            out += v.differs ? "  DIFFERS: " + v.difference + "\n" : "  (agrees)\n";
        }
    }
    if (mesh && mesh->instance < scene.instances.size()) {
        const MeshHit<double>& h = mesh->hit.hit;
        out += "[mesh] " + scene.instances[mesh->instance].name + ": triangle " + std::to_string(h.triangle) +
               (mesh->hidden ? " (behind the picked shape)" : "") + "\n";
        out += "  t " + full(h.t) + "  point " + full(r.ray.at(h.t)) + "\n";
        out += "  " + barycentric_and_face(h.barycentric, h.front) + "\n";
        out += "  face normal " + full(h.normal) + "\n";
        if (h.shading_normal) out += "  interpolated normal " + full(*h.shading_normal) + "\n";
    }
    return out;
}

}  // namespace raypick::app
