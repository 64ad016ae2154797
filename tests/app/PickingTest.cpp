// Picking through the double core, textbook comparison flags, the full-precision text report.
#include <gtest/gtest.h>

#include <cstdlib>
#include <random>

#include "app/Camera.h"
#include "app/Picking.h"
#include "app/Showcase.h"

using namespace raypick;
using namespace raypick::app;

namespace {
Scene two_spheres() {
    Scene s;
    SceneShape a;
    a.name = "far";
    a.shape = Sphere<double>{Vec3d(0, 0, -10), 1.0};
    SceneShape b;
    b.name = "near";
    b.shape = Sphere<double>{Vec3d(0, 0, -5), 1.0};
    s.shapes = {a, b};
    return s;
}
/// A random shape of `type` (ShapeType order) near the origin; its OBBs are flat (zero z extent).
Shape<double> random_edit_shape(std::mt19937& rng, int type) {
    std::uniform_real_distribution<double> u(-5.0, 5.0), sz(0.1, 1.5);
    const Vec3d c(u(rng), u(rng), u(rng));
    switch (type) {
        case 0: return Sphere<double>{c, sz(rng)};
        case 1: return Aabb<double>{c - Vec3d(sz(rng)), c + Vec3d(sz(rng))};
        case 2: return Obb<double>{c, Mat3<double>(1.0), Vec3d(sz(rng), sz(rng), 0.0)};
        default: return Capsule<double>{c, c + Vec3d(u(rng), 0, 0) * 0.3, sz(rng)};
    }
}

/// Appends `shape` through the editor's commands (Add, then the new shape's parameters set).
void append(SceneEditor& e, const Shape<double>& shape) {
    const std::size_t i = e.add(type_of(shape), Vec3d(0.0));
    ASSERT_FALSE(e.edit_shape(i, shape).has_value());
}
/// Shape i's parameters (and type) set through the editor's commands.
void set(SceneEditor& e, std::size_t i, const Shape<double>& shape) { ASSERT_FALSE(e.edit_shape(i, shape).has_value()); }
Ray<double> down_z() {
    Ray<double> r;
    r.origin = Vec3d(0.0);
    r.direction = Vec3d(0, 0, -1);
    return r;
}
}  // namespace

TEST(Picking, NearestFirstSurfaceWins) {
    const Scene s = two_spheres();
    const PickResult r = cast_all(s, down_z(), CompareOptions{});
    ASSERT_TRUE(r.nearest);
    EXPECT_EQ(*r.nearest, 1u);
    EXPECT_EQ(r.hit_count, 2u);
    EXPECT_DOUBLE_EQ(r.shapes[1].hit->t_near, 4.0);
    EXPECT_DOUBLE_EQ(r.shapes[1].hit->t_far, 6.0);
    EXPECT_EQ(r.shapes[1].hit->n_near, Vec3d(0, 0, 1));
    EXPECT_EQ(pick_nearest(s, down_z()), std::optional<std::size_t>(1));
    Ray<double> away = down_z();
    away.direction = Vec3d(0, 0, 1);
    EXPECT_FALSE(pick_nearest(s, away));
    EXPECT_GE(r.micros, 0.0);
}

TEST(Picking, InsideTheShapeThePickIsTheExit) {
    Scene s = two_spheres();
    Ray<double> r = down_z();
    r.origin = Vec3d(0, 0, -5);
    const PickResult res = cast_all(s, r, CompareOptions{});
    ASSERT_TRUE(res.nearest);
    EXPECT_EQ(*res.nearest, 1u);
    EXPECT_TRUE(res.shapes[1].hit->origin_inside);
    EXPECT_TRUE(res.shapes[1].surface->is_exit);
    EXPECT_DOUBLE_EQ(res.shapes[1].surface->t, 1.0);
}

TEST(Picking, TextbookVariantDifferencesAreMarked) {
    // A sphere entirely behind the ray: the core misses, the algebraic textbook test hits.
    Scene s;
    SceneShape b;
    b.name = "behind";
    b.shape = Sphere<double>{Vec3d(0, 0, 5), 1.0};
    s.shapes = {b};
    CompareOptions c;
    c.enabled.fill(true);
    const PickResult r = cast_all(s, down_z(), c);
    EXPECT_FALSE(r.shapes[0].hit);
    ASSERT_TRUE(r.shapes[0].variant);
    EXPECT_TRUE(r.shapes[0].variant->hit);
    EXPECT_TRUE(r.shapes[0].variant->differs);
    // Where they agree, nothing is marked.
    const PickResult ok = cast_all(two_spheres(), down_z(), c);
    ASSERT_TRUE(ok.shapes[1].variant);
    EXPECT_FALSE(ok.shapes[1].variant->differs) << ok.shapes[1].variant->difference;
    // Comparison off: no variant computed.
    EXPECT_FALSE(cast_all(s, down_z(), CompareOptions{}).shapes[0].variant);
}

// The triangle's textbook variant is Möller–Trumbore; the readout gives the hit's barycentric
// weights and the face the ray arrives at.
TEST(Picking, TriangleComparesWithMollerTrumboreAndReportsWeightsAndFace) {
    EXPECT_TRUE(has_textbook_variant(ShapeType::Triangle));
    Scene s;
    SceneShape t;
    t.name = "tri";
    t.shape = Triangle<double>{Vec3d(0, 0, -2), Vec3d(4, 0, -2), Vec3d(0, 4, -2)};  // front faces +z
    s.shapes = {t};
    CompareOptions c;
    c.enabled[std::size_t(ShapeType::Triangle)] = true;
    Ray<double> ray = down_z();
    ray.origin = Vec3d(1, 1, 0);
    const PickResult r = cast_all(s, ray, c);
    ASSERT_TRUE(r.shapes[0].hit);
    ASSERT_TRUE(r.shapes[0].variant);
    EXPECT_TRUE(r.shapes[0].variant->hit);
    EXPECT_FALSE(r.shapes[0].variant->differs) << r.shapes[0].variant->difference;
    const auto h = triangle_hit(t.shape, ray);
    ASSERT_TRUE(h);
    EXPECT_EQ(format_triangle_hit(*h), "barycentric (0.5, 0.25, 0.25), front face");
    EXPECT_NE(format_result(s, r, false).find("barycentric (0.5, 0.25, 0.25), front face"), std::string::npos);
    ray.origin.z = -4;
    ray.direction = Vec3d(0, 0, 1);
    EXPECT_EQ(format_triangle_hit(*triangle_hit(t.shape, ray)), "barycentric (0.5, 0.25, 0.25), back face");
    EXPECT_FALSE(triangle_hit(Sphere<double>{Vec3d(1, 1, -2), 1.0}, ray));
}

TEST(Picking, EveryShowcaseShapeComparesWithoutNaNsInTheReport) {
    const Scene s = showcase_scene();
    CompareOptions c;
    c.enabled.fill(true);
    Ray<double> r;
    r.origin = Vec3d(7, 6, 10);
    r.direction = Vec3d(-7, -5, -10);
    const PickResult res = cast_all(s, r, c);
    const std::string text = format_result(s, res, true);
    EXPECT_NE(text.find("picked:"), std::string::npos);
    for (const SceneShape& sh : s.shapes) EXPECT_NE(text.find(sh.name), std::string::npos);
}

TEST(Picking, ReportIsFullPrecision) {
    const Scene s = two_spheres();
    Ray<double> r = down_z();
    r.origin = Vec3d(0.1, 0.0, 0.0);
    const PickResult res = cast_all(s, r, CompareOptions{});
    const std::string text = format_result(s, res, false);
    EXPECT_NE(text.find(full(res.shapes[1].hit->t_near)), std::string::npos);
    EXPECT_EQ(full(0.1), "0.1");  // the shortest text that reads back as the same double
    EXPECT_EQ(std::strtod(full(res.shapes[1].hit->t_near).c_str(), nullptr), res.shapes[1].hit->t_near);
    EXPECT_EQ(text.find("far (sphere): miss"), std::string::npos);
}

// The hierarchy behind hover and click picks follows every edit (moves refit, structural changes
// rebuild) and always picks what brute force picks.
TEST(ScenePickerTest, FollowsEditsAndMatchesBruteForce) {
    std::mt19937 rng(4242);
    std::uniform_real_distribution<double> u(-5.0, 5.0);
    auto random_shape = [&](int type) { return random_edit_shape(rng, type); };
    Scene start;
    for (int i = 0; i < 60; ++i) start.shapes.push_back({"s" + std::to_string(i), random_shape(i % 4), ""});
    SceneEditor e(start);
    const Scene& s = e.scene();
    ScenePicker picker;
    std::size_t structural = 0;
    for (int step = 0; step < 300; ++step) {
        const int edit = int(rng() % 10);
        const std::size_t i = rng() % s.shapes.size();
        if (edit < 7) {
            set(e, i, random_shape(int(s.shapes[i].shape.index())));  // a drag or resize
        } else if (edit == 7) {
            append(e, random_shape(int(rng() % 4)));
            ++structural;
        } else if (edit == 8 && s.shapes.size() > 5) {
            e.remove(i);
            ++structural;
        } else {
            set(e, i, random_shape(int(s.shapes[i].shape.index() + 1) % 4));  // a change of type
            ++structural;
        }
        for (int k = 0; k < 20; ++k) {
            const Ray<double> ray{Vec3d(u(rng), u(rng), u(rng)) * 3.0, Vec3d(u(rng), u(rng), u(rng))};
            ASSERT_EQ(picker.pick(e, ray), pick_nearest(s, ray)) << "step " << step << " ray " << k;
        }
    }
    EXPECT_GT(picker.refits(), 100u);
    EXPECT_LE(picker.rebuilds(), structural + 1);
    EXPECT_GT(picker.rebuilds(), 1u);
}

TEST(Picking, CastingIntoAReusedResultGivesTheFreshResult) {
    const Scene showcase = showcase_scene();
    CompareOptions all;
    all.enabled.fill(true);
    PickResult reused;
    // Bigger, then smaller scenes, comparison on then off: nothing of an earlier cast is left over.
    const std::vector<std::pair<Scene, CompareOptions>> runs = {
        {showcase, all}, {two_spheres(), CompareOptions{}}, {showcase, CompareOptions{}}, {Scene{}, all}, {showcase, all}};
    const Camera cam;
    for (std::size_t k = 0; k < runs.size(); ++k) {
        SCOPED_TRACE(k);
        const Ray<double> ray = k == 1 ? down_z() : cam.ray_from_pixel(400.0 + 30.0 * double(k), 300.0, 800.0, 600.0);
        cast_all(runs[k].first, ray, runs[k].second, reused);
        const PickResult fresh = cast_all(runs[k].first, ray, runs[k].second);
        EXPECT_EQ(reused.nearest, fresh.nearest);
        EXPECT_EQ(reused.hit_count, fresh.hit_count);
        ASSERT_EQ(reused.shapes.size(), fresh.shapes.size());
        EXPECT_EQ(format_result(runs[k].first, reused, true), format_result(runs[k].first, fresh, true));
        for (std::size_t i = 0; i < fresh.shapes.size(); ++i) {
            EXPECT_EQ(reused.shapes[i].hit.has_value(), fresh.shapes[i].hit.has_value());
            EXPECT_EQ(reused.shapes[i].surface.has_value(), fresh.shapes[i].surface.has_value());
            EXPECT_EQ(reused.shapes[i].variant.has_value(), fresh.shapes[i].variant.has_value());
        }
    }
    clear_result(reused, 3);
    EXPECT_EQ(reused.shapes.size(), 3u);
    EXPECT_EQ(reused.hit_count, 0u);
    EXPECT_FALSE(reused.nearest);
    for (const ShapeResult& r : reused.shapes) EXPECT_FALSE(r.hit || r.surface || r.variant);
}

TEST(ScenePickerTest, WithTheSceneVersionItComparesTheSceneOnlyWhenTheVersionChanged) {
    SceneEditor e(two_spheres());
    ScenePicker picker;
    EXPECT_EQ(picker.pick(e, down_z()), std::optional<std::size_t>(1));
    EXPECT_EQ(picker.rebuilds(), 1u);
    // The near sphere moves away: with a new version the hierarchy follows (a refit)...
    set(e, 1, Sphere<double>{Vec3d(5, 0, -5), 1.0});
    EXPECT_EQ(picker.pick(e, down_z()), std::optional<std::size_t>(0));
    EXPECT_EQ(picker.refits(), 1u);
    // ...and with the same version nothing is done again (no refit, no rebuild).
    for (int i = 0; i < 5; ++i) EXPECT_EQ(picker.pick(e, down_z()), std::optional<std::size_t>(0));
    EXPECT_EQ(picker.refits(), 1u);
    EXPECT_EQ(picker.rebuilds(), 1u);
    // A structural change rebuilds; a rename (no geometry) neither refits nor rebuilds.
    e.remove(1);
    EXPECT_EQ(picker.pick(e, down_z()), std::optional<std::size_t>(0));
    EXPECT_EQ(picker.rebuilds(), 2u);
    e.rename(0, "renamed");
    EXPECT_EQ(picker.pick(e, down_z()), std::optional<std::size_t>(0));
    EXPECT_EQ(picker.rebuilds(), 2u);
    EXPECT_EQ(picker.refits(), 1u);
    // A scene outside the editor is built for; the next pick through the editor builds again.
    Scene moved = e.scene();
    moved.shapes[0].shape = Sphere<double>{Vec3d(5, 0, -10), 1.0};
    EXPECT_EQ(picker.pick(moved, down_z()), std::nullopt);
    EXPECT_EQ(picker.pick(e, down_z()), std::optional<std::size_t>(0)) << "a pick of another scene forgets the version";
    // Undo and redo are changes like any other: the structural undo rebuilds.
    ASSERT_TRUE(e.undo());  // the rename
    ASSERT_TRUE(e.undo());  // the removal
    EXPECT_EQ(picker.pick(e, down_z()), std::optional<std::size_t>(0));
    EXPECT_EQ(picker.rebuilds(), 5u);
}

// The mouse ray's every-hit cast through the hierarchy gives exactly the brute-force result —
// every shape's entry, the nearest, the hit list — across drags, added, removed and retyped
// shapes, into one reused result, with the textbook comparison switched on and off.
TEST(ScenePickerTest, EveryHitCastThroughTheHierarchyMatchesBruteForce) {
    std::mt19937 rng(777);
    std::uniform_real_distribution<double> u(-5.0, 5.0);
    auto random_shape = [&](int type) { return random_edit_shape(rng, type); };
    Scene start;
    for (int i = 0; i < 80; ++i) start.shapes.push_back({"s" + std::to_string(i), random_shape(i % 4), ""});
    SceneEditor e(start);
    const Scene& s = e.scene();
    ScenePicker picker;
    PickResult reused;
    std::size_t hits = 0;
    for (int step = 0; step < 200; ++step) {
        const std::size_t i = rng() % s.shapes.size();
        switch (rng() % 6) {
            case 0: append(e, random_shape(int(rng() % 4))); break;
            case 1: if (s.shapes.size() > 5) e.remove(i); break;
            case 2: set(e, i, random_shape(int(s.shapes[i].shape.index() + 1) % 4)); break;
            default: set(e, i, random_shape(int(s.shapes[i].shape.index()))); break;
        }
        CompareOptions compare;
        if (step % 7 == 3) compare.enabled.fill(true);
        for (int k = 0; k < 10; ++k) {
            SCOPED_TRACE("step " + std::to_string(step) + " ray " + std::to_string(k));
            const Ray<double> ray{Vec3d(u(rng), u(rng), u(rng)) * 2.0, Vec3d(u(rng), u(rng), u(rng))};
            picker.cast_all(e, ray, compare, reused);
            const PickResult fresh = cast_all(s, ray, compare);
            ASSERT_EQ(reused.nearest, fresh.nearest);
            ASSERT_EQ(reused.hit_count, fresh.hit_count);
            ASSERT_EQ(reused.hits, fresh.hits);
            ASSERT_EQ(format_result(s, reused, true), format_result(s, fresh, true));
            for (std::size_t j = 0; j < fresh.shapes.size(); ++j)
                ASSERT_EQ(reused.shapes[j].variant.has_value(), fresh.shapes[j].variant.has_value()) << j;
            hits += fresh.hit_count;
        }
    }
    EXPECT_GT(hits, 500u);  // the rays cross many shapes: the comparison is not vacuous
}

TEST(Picking, TheTextbookComparisonAppliesToTheScenesOwnRays) {
    // assets/edge_capsule_behind.json: a capsule entirely behind the ray's origin, which the
    // published capsule test reports as a hit. Its variant's points are shown for the case's ray.
    Scene scene;
    SceneShape behind;
    behind.name = "behind";
    behind.shape = Capsule<double>{Vec3d(-1, 0, -5), Vec3d(1, 0, -5), 1.0};
    scene.shapes.push_back(behind);
    SceneRay forward;
    forward.name = "forward";
    forward.ray = Ray<double>{Vec3d(0.0), Vec3d(0, 0, 1)};
    scene.rays.push_back(forward);
    CompareOptions off;
    EXPECT_TRUE(scene_ray_variants(scene, off).empty()) << "no comparison, no points";
    CompareOptions on;
    on.enabled.fill(true);
    const std::vector<VariantPoint> points = scene_ray_variants(scene, on);
    ASSERT_EQ(points.size(), 2u) << "the published test's P1 and P2";
    for (const VariantPoint& p : points) {
        EXPECT_EQ(p.ray, 0u);
        EXPECT_EQ(p.shape, 0u);
        EXPECT_TRUE(p.differs) << "the core misses: the capsule is behind";
        EXPECT_LT(p.point.z, 0.0) << "behind the origin";
    }
    // Only the types enabled.
    CompareOptions spheres_only;
    spheres_only.enabled[std::size_t(ShapeType::Sphere)] = true;
    EXPECT_TRUE(scene_ray_variants(scene, spheres_only).empty());
}
