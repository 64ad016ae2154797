// Where things go on screen, without a window: the free region the docked columns leave, how a
// column's panels share its height, where the view's labels go so that none overlaps another, and
// how the camera frames a case (the file's camera only when it shows every shape), and where a
// case's rays first meet the scene.
#include <gtest/gtest.h>

#include "app/AppState.h"
#include "app/LabelLayout.h"
#include "app/ViewLayout.h"
#include <raypick/scene/CaseCheck.h>
#include <raypick/scene/ModelGenerators.h>

using namespace raypick;
using namespace raypick::app;

TEST(ViewLayout, ColumnsNarrowInASmallWindowSoTheViewKeepsItsShare) {
    PanelLayout p;
    EXPECT_EQ(p.left_in(1600), p.left_width) << "full width from 1280 px up";
    EXPECT_EQ(p.right_in(1280), p.right_width);
    const ViewRect small = free_region(1024, 600, p);
    EXPECT_LT(p.left_in(1024), p.left_width);
    EXPECT_LT(p.right_in(1024), p.right_width);
    EXPECT_GE(small.width, 0.53 * 1024) << "at 1024 x 600 the view keeps more than half the width";
    EXPECT_EQ(small.x, p.left_in(1024));
    EXPECT_GE(p.left_in(640), kMinLeftPanelWidth) << "never narrower than the panels' contents allow";
    EXPECT_GE(p.right_in(640), kMinRightPanelWidth);
}

TEST(ViewLayout, TheFreeRegionIsWhatTheShownColumnsAndBarsLeave) {
    PanelLayout p;
    const ViewRect both = free_region(1280, 720, p);
    EXPECT_EQ(both.x, p.left_width);
    EXPECT_EQ(both.width, 1280 - p.left_width - p.right_width);
    EXPECT_EQ(both.y, kMenuBarHeight);
    EXPECT_EQ(both.height, 720 - kMenuBarHeight - kStatusBarHeight);
    EXPECT_GT(both.width, 0.5 * 1280) << "the view keeps more than half of the width at 1280 x 720";
    p.right = false;
    EXPECT_EQ(free_region(1280, 720, p).width, 1280 - p.left_width);
    p.left = false;
    EXPECT_EQ(free_region(1280, 720, p).x, 0.0);
    EXPECT_EQ(free_region(1280, 720, p).width, 1280.0);
    p = PanelLayout{};
    p.shown = false;
    const ViewRect all = free_region(1280, 720, p);
    EXPECT_EQ(all.y, 0.0);
    EXPECT_EQ(all.height, 720.0);
    // Beside the CPU ray-cast picture the view is the free region's left half, the picture the rest.
    const ViewRect view = view_rect(1280, 720, PanelLayout{}, true), pic = beside_rect(1280, 720, PanelLayout{});
    EXPECT_EQ(view.x, both.x);
    EXPECT_EQ(view.width + pic.width, both.width);
    EXPECT_EQ(pic.x, view.x + view.width);
}

TEST(ViewLayout, ColumnPanelsShareTheHeightCollapsedOnesKeepTheirTitle) {
    // Two weighted panels, one collapsed: the other takes everything but the title bar.
    auto h = stack_panels({{false, 1.0f, 0.0f}, {true, 1.0f, 0.0f}}, 600.0f, 20.0f);
    EXPECT_FLOAT_EQ(h[0], 580.0f);
    EXPECT_FLOAT_EQ(h[1], 20.0f);
    // A fitted panel gets what its contents need, the weighted one the rest.
    h = stack_panels({{false, 1.0f, 150.0f}, {false, 1.0f, 0.0f}}, 600.0f, 20.0f);
    EXPECT_FLOAT_EQ(h[0], 150.0f);
    EXPECT_FLOAT_EQ(h[1], 450.0f);
    // Fitted panels that need more than there is: the small need is met, the others share evenly,
    // and the heights fill the column exactly.
    h = stack_panels({{false, 1.0f, 1000.0f}, {false, 1.0f, 100.0f}, {false, 1.0f, 1000.0f}}, 600.0f, 20.0f);
    EXPECT_FLOAT_EQ(h[1], 100.0f);
    EXPECT_FLOAT_EQ(h[0], 250.0f);
    EXPECT_FLOAT_EQ(h[0] + h[1] + h[2], 600.0f);
    // Only fitted panels, all satisfied: what is left goes to the first open one.
    h = stack_panels({{true, 1.0f, 50.0f}, {false, 1.0f, 100.0f}, {false, 1.0f, 200.0f}}, 600.0f, 20.0f);
    EXPECT_FLOAT_EQ(h[0], 20.0f);
    EXPECT_FLOAT_EQ(h[1], 380.0f);
    EXPECT_FLOAT_EQ(h[2], 200.0f);
}

namespace {
bool overlap(const LabelBox& a, const ScreenLabel& la, const LabelBox& b, const ScreenLabel& lb) {
    return a.x < b.x + lb.width && b.x < a.x + la.width && a.y < b.y + lb.height && b.y < a.y + la.height;
}
}  // namespace

TEST(LabelLayout, LabelsOfOnePointAreStackedInsideTheRegionWithoutOverlap) {
    // Four rays from one point (as in edge_capsule_behind.json) and one far from them.
    const ViewRect region{100.0, 20.0, 600.0, 400.0};
    std::vector<ScreenLabel> labels;
    for (int k = 0; k < 4; ++k) labels.push_back({300.0, 200.0, 60.0 + 10.0 * k, 13.0, "ray"});
    labels.push_back({650.0, 30.0, 120.0, 26.0, "two\nlines"});  // near the top right corner
    const std::vector<LabelBox> boxes = layout_labels(labels, region);
    ASSERT_EQ(boxes.size(), labels.size());
    for (std::size_t i = 0; i < boxes.size(); ++i) {
        EXPECT_GE(boxes[i].x, region.x) << i;
        EXPECT_GE(boxes[i].y, region.y) << i;
        EXPECT_LE(boxes[i].x + labels[i].width, region.x + region.width) << i;
        EXPECT_LE(boxes[i].y + labels[i].height, region.y + region.height) << i;
        for (std::size_t j = 0; j < i; ++j) EXPECT_FALSE(overlap(boxes[i], labels[i], boxes[j], labels[j])) << i << " " << j;
    }
    // The first label is where it belongs, beside its point; the others were moved (leader lines).
    EXPECT_FALSE(boxes[0].moved);
    EXPECT_TRUE(boxes[1].moved);
    // No room on the right of the corner point: the label goes to its left.
    EXPECT_LT(boxes[4].x + labels[4].width, 650.0);
}

namespace {
/// A scene of one unit ball at the origin.
Scene ball_scene() {
    Scene scene;
    SceneShape ball;
    ball.name = "ball";
    ball.shape = Sphere<double>{Vec3d(0.0), 1.0};
    scene.shapes.push_back(ball);
    return scene;
}
}  // namespace

TEST(Framing, AFileCameraIsTakenOnlyWhenItShowsEveryShape) {
    Scene scene = ball_scene();
    SceneCamera cam;
    cam.eye = Vec3d(0.0, 0.0, 8.0);
    cam.target = Vec3d(0.0);
    scene.camera = cam;
    AppState s;
    s.editor.reset(scene);
    reset_camera(s);
    EXPECT_LT(glm::length(s.camera.eye() - cam.eye), 1e-9) << "the file's camera shows the ball: taken";

    SceneShape far;
    far.name = "far";
    far.shape = Sphere<double>{Vec3d(30.0, 0.0, 0.0), 1.0};
    scene.shapes.push_back(far);
    s.editor.reset(scene);
    Camera file_camera;
    file_camera.look_at(cam.eye, cam.target);
    EXPECT_FALSE(shows_every_shape(file_camera, s.scene(), s.viewport.width, s.viewport.height));
    reset_camera(s);
    EXPECT_GT(glm::length(s.camera.eye() - cam.eye), 1.0) << "the far ball is out of the file camera's view: framed";
    EXPECT_TRUE(shows_every_shape(s.camera, s.scene(), s.viewport.width, s.viewport.height));
    EXPECT_NEAR(s.camera.forward().z, -1.0, 1e-9) << "framing keeps the file camera's direction";
}

TEST(SceneRays, TheFirstHitMayBeOnAMeshInstance) {
    // The ball at the origin, and an icosphere (inscribed in the unit sphere) placed at x = -5,
    // nearer along a ray coming from -x.
    Scene scene = ball_scene();
    scene.meshes.push_back({"ico", "", make_icosphere(2, 1.0), ""});
    SceneInstance ico;
    ico.name = "ico";
    ico.translation = Vec3d(-5.0, 0.0, 0.0);
    scene.instances.push_back(ico);
    SceneRay ray;
    ray.name = "from_afar";
    ray.ray.origin = Vec3d(-20.0, 0.0, 0.0);
    ray.ray.direction = Vec3d(1.0, 0.0, 0.0);
    scene.rays.push_back(ray);
    const InstanceBvh<double> instances = prepare_scene<double>(scene).instances;
    const auto mesh = first_hit(scene, instances, ray);
    ASSERT_TRUE(mesh);
    EXPECT_GE(mesh->point.x, -6.0);
    EXPECT_LT(mesh->point.x, -5.9);
    EXPECT_EQ(mesh->point, ray.ray.at(mesh->t));
    EXPECT_FALSE(mesh->is_exit);
    EXPECT_NEAR(mesh->normal.x, -1.0, 0.05);
    // A range starting past the icosphere reaches the ball; one ending before it, nothing.
    SceneRay past = ray;
    past.t_min = 16.5;
    const auto ball = first_hit(scene, instances, past);
    ASSERT_TRUE(ball);
    EXPECT_NEAR(ball->point.x, -1.0, 1e-12);
    SceneRay short_of = ray;
    short_of.t_max = 10.0;
    EXPECT_FALSE(first_hit(scene, instances, short_of));
}

TEST(Framing, FramingShowsTheRaysOriginsAndFirstHitsToo) {
    // The first hit lies on the ball, within its bounds: framed with them. An origin near the
    // ball (within 1.5 times its size) is framed too.
    Scene scene = ball_scene();
    SceneRay ray;
    ray.name = "from_nearby";
    ray.ray.origin = Vec3d(-4.0, 0.0, 0.0);
    ray.ray.direction = Vec3d(1.0, 0.0, 0.0);
    scene.rays.push_back(ray);
    std::vector<Vec3d> points = framing_points(scene);
    EXPECT_EQ(points.size(), 8u + 1u) << "the ball's bounds' corners and the ray's origin";
    EXPECT_EQ(points[8], ray.ray.origin);
    const auto hit = first_hit(scene, InstanceBvh<double>(), scene.rays[0]);
    ASSERT_TRUE(hit);
    EXPECT_NEAR(hit->point.x, -1.0, 1e-12);
    points.push_back(hit->point);
    AppState s;
    s.editor.reset(scene);
    frame_scene(s);
    for (const Vec3d& p : points) {
        const auto q = s.camera.project(p, s.viewport.width, s.viewport.height);
        ASSERT_TRUE(q);
        EXPECT_GE(q->x, 0.0);
        EXPECT_LE(q->x, s.viewport.width);
        EXPECT_GE(q->y, 0.0);
        EXPECT_LE(q->y, s.viewport.height);
    }
}

TEST(Framing, ARayFromAfarFramesItsApproachNotItsOrigin) {
    // assets/mesh_model_files.json: a ray from y = 100 onto a roof a few units high. Framing its
    // origin would make the scene a speck; its approach is framed instead, and the ball stays big.
    Scene scene = ball_scene();
    SceneRay ray;
    ray.name = "from_afar";
    ray.ray.origin = Vec3d(0.0, 100.0, 0.0);
    ray.ray.direction = Vec3d(0.0, -1.0, 0.0);
    scene.rays.push_back(ray);
    SceneRay past;  // passes the ball by, far away: nothing of it is framed
    past.ray.origin = Vec3d(500.0, 0.0, 0.0);
    past.ray.direction = Vec3d(0.0, 0.0, 1.0);
    scene.rays.push_back(past);
    const std::vector<Vec3d> points = framing_points(scene);
    ASSERT_EQ(points.size(), 8u + 1u);
    const double size = std::sqrt(12.0);  // the ball's bounds' diagonal
    EXPECT_NEAR(points[8].y, 1.0 + 0.5 * size, 1e-12) << "half the objects' size above where it reaches them";
    EXPECT_EQ(points[8].x, 0.0);
    AppState s;
    s.editor.reset(scene);
    frame_scene(s);
    const auto box = s.camera.project_box(bounds(scene.shapes[0].shape), s.viewport.width, s.viewport.height);
    ASSERT_TRUE(box);
    EXPECT_GT(box->y1 - box->y0, 0.3 * s.viewport.height) << "the ball is no speck";
}

TEST(Framing, ProjectedBoundsAndPixelSizeAgreeWithTheProjection) {
    Camera c;
    c.look_at(Vec3d(0.0, 0.0, 10.0), Vec3d(0.0));
    const auto box = c.project_box({Vec3d(-1.0), Vec3d(1.0)}, 800.0, 600.0);
    ASSERT_TRUE(box);
    EXPECT_NEAR(box->x0 + box->x1, 800.0, 1e-9);  // centred
    EXPECT_NEAR(box->y0 + box->y1, 600.0, 1e-9);
    // A 1-unit step at the target's depth spans 1 / pixel_size pixels.
    const auto a = c.project(Vec3d(0.0), 800.0, 600.0), b = c.project(Vec3d(1.0, 0.0, 0.0), 800.0, 600.0);
    EXPECT_NEAR((b->x - a->x) * c.pixel_size(Vec3d(0.0), 600.0), 1.0, 1e-9);
    // A box around the eye has a corner behind it: no bounds.
    EXPECT_FALSE(c.project_box({Vec3d(-1.0, -1.0, 9.0), Vec3d(1.0, 1.0, 11.0)}, 800.0, 600.0));
}

TEST(LabelLayout, AFailedExpectationsLabelIsWrappedWithoutSplittingNumbers) {
    const std::string text =
        "forward\n#3: t_near expected 0.79275634765625, got 0.7927563476562501; n_near expected (0, 0, -1), got [0, 0, 1]";
    const std::string wrapped = wrap_label(text, 40);
    std::size_t start = 0;
    while (start < wrapped.size()) {
        const std::size_t end = std::min(wrapped.find('\n', start), wrapped.size());
        EXPECT_LE(end - start, 40u) << wrapped;
        start = end + 1;
    }
    // Every number whole on one line.
    for (const char* number : {"0.79275634765625", "0.7927563476562501", "(0, 0, -1)", "[0, 0, 1]"})
        EXPECT_NE(wrapped.find(number), std::string::npos) << number << " split in\n" << wrapped;
    EXPECT_EQ(wrapped.substr(0, 8), "forward\n");
    EXPECT_EQ(wrap_label("short", 40), "short");
    // Placed inside the view even when the anchor is at its right edge.
    const ViewRect view{260, 20, 700, 678};
    std::vector<ScreenLabel> labels{{950.0, 300.0, 40 * 7.0, 5 * 13.0, wrapped}};
    const LabelBox b = layout_labels(labels, view)[0];
    EXPECT_GE(b.x, view.x);
    EXPECT_LE(b.x + labels[0].width, view.x + view.width);
}

TEST(LabelLayout, ARayFromOutsideTheViewIsLabelledWhereItComesIn) {
    Camera c;
    c.look_at(Vec3d(0.0, 0.0, 10.0), Vec3d(0.0));
    // The origin in view: the label is there.
    const Ray<double> near{Vec3d(1.0, 0.5, 0.0), Vec3d(-1.0, 0.0, 0.0)};
    const auto a = ray_label_anchor(c, near, 0.0, 1.0, 800.0, 600.0);
    ASSERT_TRUE(a);
    EXPECT_FALSE(a->from_outside);
    const auto o = c.project(near.origin, 800.0, 600.0);
    EXPECT_NEAR(a->x, o->x, 1e-9);
    // From far above, down onto the origin: labelled at the view's top edge, above the target.
    const Ray<double> down{Vec3d(0.0, 100.0, 0.0), Vec3d(0.0, -1.0, 0.0)};
    const auto b = ray_label_anchor(c, down, 0.0, 100.0, 800.0, 600.0);
    ASSERT_TRUE(b);
    EXPECT_TRUE(b->from_outside);
    EXPECT_NEAR(b->y, 0.0, 1e-3);
    EXPECT_NEAR(b->x, 400.0, 1e-6);
    // A ray that never shows: no label.
    const Ray<double> away{Vec3d(0.0, 100.0, 0.0), Vec3d(0.0, 1.0, 0.0)};
    EXPECT_FALSE(ray_label_anchor(c, away, 0.0, 50.0, 800.0, 600.0));
}
