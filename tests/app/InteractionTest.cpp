// Mouse interaction without a window: hover, click-select, drag (one undo step), axis
// constraints, handle drags that make a capsule's end points meet.
#include <gtest/gtest.h>

#include "app/Interaction.h"
#include "app/SceneEdit.h"
#include <raypick/scene/ModelGenerators.h>

using namespace raypick;
using namespace raypick::app;

namespace {

constexpr double W = 800.0, H = 600.0;

struct Fixture {
    SceneEditor editor;
    Selection sel;
    Camera camera;
    Interaction ia;

    Fixture() {
        camera.look_at(Vec3d(0, 0, 10), Vec3d(0, 0, 0));
        Scene scene;
        SceneShape s;
        s.name = "ball";
        s.shape = Sphere<double>{Vec3d(0.0), 1.0};
        scene.shapes.push_back(s);
        SceneShape c;
        c.name = "pill";
        Capsule<double> cap;
        cap.a = Vec3d(2.5, -1, 0);
        cap.b = Vec3d(2.5, 1, 0);
        cap.radius = 0.3;
        c.shape = cap;
        scene.shapes.push_back(c);
        editor.reset(scene);
    }
    const Scene& scene() const { return editor.scene(); }
    ScreenPoint at(const Vec3d& p) const { return *camera.project(p, W, H); }
    void frame(double x, double y, bool down, bool pressed = false, bool key_x = false, bool key_y = false) {
        InputState in;
        in.mouse_x = x;
        in.mouse_y = y;
        in.width = W;
        in.height = H;
        in.left_down = down;
        in.left_pressed = pressed;
        in.key_x = key_x;
        in.key_y = key_y;
        ia.update(in, editor, sel, camera);
    }
    Vec3d ball() const { return std::get<Sphere<double>>(scene().shapes[0].shape).center; }
};

}  // namespace

TEST(Interaction, HoverAndClickSelectTheNearestShape) {
    Fixture f;
    f.frame(W / 2, H / 2, false);
    ASSERT_TRUE(f.sel.hovered);
    EXPECT_EQ(*f.sel.hovered, 0u);
    f.frame(W / 2, H / 2, true, true);
    f.frame(W / 2, H / 2, false);
    ASSERT_TRUE(f.sel.selected);
    EXPECT_EQ(*f.sel.selected, 0u);
    EXPECT_FALSE(f.editor.can_undo());  // a click without motion changes nothing
    EXPECT_EQ(f.ball(), Vec3d(0.0));     // not even by rounding
    // The same from an oblique view, where the grab plane's rounding is not exact.
    Fixture g;
    g.camera.look_at(Vec3d(3.3, 2.9, 7.7), Vec3d(0.1, -0.2, 0.3));
    const ScreenPoint c = g.at(Vec3d(0.0));
    for (int k = 0; k < 3; ++k) g.frame(c.x + 0.37, c.y - 0.21, k < 2, k == 0);
    ASSERT_TRUE(g.sel.selected);
    EXPECT_EQ(g.ball(), Vec3d(0.0));
    EXPECT_FALSE(g.editor.can_undo());
    // A click on empty space clears the selection.
    f.frame(5, 5, false);
    EXPECT_FALSE(f.sel.hovered);
    f.frame(5, 5, true, true);
    f.frame(5, 5, false);
    EXPECT_FALSE(f.sel.selected);
}

TEST(Interaction, DragMovesOnTheCameraPlaneAndIsOneUndoStep) {
    Fixture f;
    const ScreenPoint c = f.at(Vec3d(0, 0, 1));  // the sphere's front point (the grab point)
    f.frame(c.x, c.y, false);
    f.frame(c.x, c.y, true, true);
    const ScreenPoint target = f.at(Vec3d(1, 0.5, 1));
    f.frame((c.x + target.x) / 2, (c.y + target.y) / 2, true);
    f.frame(target.x, target.y, true);
    EXPECT_TRUE(f.ia.dragging());
    f.frame(target.x, target.y, false);
    EXPECT_FALSE(f.ia.dragging());
    EXPECT_LT(glm::length(f.ball() - Vec3d(1, 0.5, 0)), 1e-9);
    EXPECT_EQ(f.editor.undo_count(), 1u);
    ASSERT_TRUE(f.editor.undo());
    EXPECT_EQ(std::get<Sphere<double>>(f.scene().shapes[0].shape).center, Vec3d(0.0));
}

TEST(Interaction, AxisKeyConstrainsTheDrag) {
    Fixture f;
    const ScreenPoint c = f.at(Vec3d(0, 0, 1));
    f.frame(c.x, c.y, false);
    f.frame(c.x, c.y, true, true);
    const ScreenPoint target = f.at(Vec3d(1, 0.5, 1));
    f.frame(target.x, target.y, true, false, /*key_x=*/true);
    f.frame(target.x, target.y, false, false, true);
    // Only x changes: the closest point of the X axis through the grab point to the mouse ray.
    EXPECT_NEAR(f.ball().x, 1.0, 0.01);
    EXPECT_EQ(f.ball().y, 0.0);
    EXPECT_EQ(f.ball().z, 0.0);
    // With the cursor exactly over a point of that axis, the shape follows it exactly.
    Fixture g;
    g.frame(c.x, c.y, false);
    g.frame(c.x, c.y, true, true);
    const ScreenPoint on_axis = g.at(Vec3d(-2, 0, 1));
    g.frame(on_axis.x, on_axis.y, false, false, true);
    EXPECT_LT(glm::length(g.ball() - Vec3d(-2, 0, 0)), 1e-9);
}

TEST(Interaction, CapsuleEndHandleDraggedOntoTheOtherEnd) {
    Fixture f;
    f.sel.selected = 1;
    const ScreenPoint a = f.at(Vec3d(2.5, -1, 0));
    const ScreenPoint b = f.at(Vec3d(2.5, 1, 0));
    f.frame(a.x + 2, a.y - 1, false);  // within the handle radius
    EXPECT_EQ(f.sel.hovered_handle, 0);
    f.frame(a.x + 2, a.y - 1, true, true);
    f.frame(b.x + 2, b.y - 1, true);
    f.frame(b.x + 2, b.y - 1, false);
    const auto& cap = std::get<Capsule<double>>(f.scene().shapes[1].shape);
    EXPECT_EQ(cap.a, cap.b);  // snapped exactly: a degenerate capsule, which is valid
    EXPECT_TRUE(is_valid(cap));
    EXPECT_EQ(f.editor.undo_count(), 1u);
}

// A triangle's vertex handle dropped near another vertex snaps onto it exactly: the zero-area
// triangle, which no ray hits, is reachable with the mouse.
TEST(Interaction, TriangleVertexSnapsOntoAnotherForZeroArea) {
    Fixture f;
    Scene scene;
    SceneShape t;
    t.name = "tri";
    t.shape = Triangle<double>{Vec3d(-2, -1, 0), Vec3d(0, -1, 0), Vec3d(-1, 1, 0)};
    scene.shapes.push_back(t);
    f.editor.reset(scene);
    f.sel.selected = 0;
    const ScreenPoint c = f.at(Vec3d(-1, 1, 0));
    const ScreenPoint a = f.at(Vec3d(-2, -1, 0));
    f.frame(c.x + 2, c.y - 1, false);  // within the handle radius of vertex c
    EXPECT_EQ(f.sel.hovered_handle, 2);
    f.frame(c.x + 2, c.y - 1, true, true);
    f.frame(a.x + 3, a.y + 2, true);  // dropped a few pixels off vertex a
    f.frame(a.x + 3, a.y + 2, false);
    const auto& tri = std::get<Triangle<double>>(f.scene().shapes[0].shape);
    EXPECT_EQ(tri.c, tri.a);
    EXPECT_TRUE(is_degenerate(tri));
    EXPECT_TRUE(is_valid(tri));
    EXPECT_EQ(degeneracies(tri).size(), 1u);
    EXPECT_EQ(f.editor.undo_count(), 1u);
}

TEST(Interaction, HandlesSnapSoABoxCanBeSqueezedToZeroSize) {
    Fixture f;
    Aabb<double> box;
    box.min = Vec3d(-1, -1, -0.5);
    box.max = Vec3d(1, 1, 0.5);
    ASSERT_FALSE(f.editor.edit_shape(0, box).has_value());
    f.sel.selected = 0;
    // Corner +++ (id 7) dragged onto the screen position of corner --+ (id 4, the same z): a
    // few pixels off, it snaps exactly, leaving a box that is flat in x and y.
    const ScreenPoint from = f.at(Vec3d(1, 1, 0.5));
    const ScreenPoint to = f.at(Vec3d(-1, -1, 0.5));
    f.frame(from.x, from.y, false);
    ASSERT_EQ(f.sel.hovered_handle, 7);
    f.frame(from.x, from.y, true, true);
    f.frame(to.x + 3, to.y - 2, true);
    f.frame(to.x + 3, to.y - 2, false);
    const auto& b = std::get<Aabb<double>>(f.scene().shapes[0].shape);
    EXPECT_EQ(b.min.x, b.max.x);
    EXPECT_EQ(b.min.y, b.max.y);
    EXPECT_EQ(b.max.z - b.min.z, 1.0);
    EXPECT_TRUE(is_valid(b));

    // A sphere's radius handle dropped on its centre: radius exactly 0.
    Fixture g;
    g.sel.selected = 0;
    const ScreenPoint r = g.at(Vec3d(1, 0, 0));
    const ScreenPoint c = g.at(Vec3d(0, 0, 0));
    g.frame(r.x, r.y, false);
    ASSERT_EQ(g.sel.hovered_handle, 0);
    g.frame(r.x, r.y, true, true);
    g.frame(c.x + 2, c.y + 2, true);
    g.frame(c.x + 2, c.y + 2, false);
    EXPECT_EQ(std::get<Sphere<double>>(g.scene().shapes[0].shape).radius, 0.0);
}

TEST(Interaction, ClosestPointOnAnAxisAndPlaneHits) {
    Ray<double> r;
    r.origin = Vec3d(0, 0, 10);
    r.direction = Vec3d(0, 0, -1);
    EXPECT_LT(glm::length(closest_on_line(r, Vec3d(-3, 0, 0), Vec3d(1, 0, 0)) - Vec3d(0, 0, 0)), 1e-12);
    const auto p = hit_plane(r, Vec3d(0, 0, 2), Vec3d(0, 0, 1));
    ASSERT_TRUE(p);
    EXPECT_EQ(*p, Vec3d(0, 0, 2));
    EXPECT_FALSE(hit_plane(r, Vec3d(0, 0, 20), Vec3d(0, 0, 1)));  // behind
    EXPECT_FALSE(hit_plane(r, Vec3d(0, 0, 2), Vec3d(1, 0, 0)));   // parallel
    // Parallel to the axis: the grab point itself, no NaN.
    EXPECT_EQ(closest_on_line(r, Vec3d(1, 1, 1), Vec3d(0, 0, 1)), Vec3d(1, 1, 1));
}

TEST(Interaction, AMeshInstanceIsHoveredSelectedAndDraggedInOneUndoStep) {
    // The ball on the left, an instance of a unit icosphere mesh at (-3, 0, 0) on the right of it.
    Fixture f;
    Scene scene = f.scene();
    scene.meshes.push_back({"ico", "", make_icosphere(2, 1.0), ""});
    SceneInstance inst;
    inst.name = "ico";
    inst.translation = Vec3d(-3, 0, 0);
    scene.instances.push_back(inst);
    f.editor.reset(scene);

    const ScreenPoint c = f.at(Vec3d(-3, 0, 1));  // the instance's front, on the ray from the eye
    f.frame(c.x, c.y, false);
    ASSERT_TRUE(f.sel.hovered_instance);
    EXPECT_EQ(*f.sel.hovered_instance, 0u);
    EXPECT_FALSE(f.sel.hovered);
    f.frame(c.x, c.y, true, true);
    EXPECT_EQ(f.sel.selected_instance, std::optional<std::size_t>(0));
    EXPECT_FALSE(f.sel.selected);
    EXPECT_TRUE(f.ia.dragging());
    // Moved by (0, 1.5, 0) on the camera plane through the grab point.
    const Vec3d grab(-3, 0, 1);
    const ScreenPoint to = f.at(grab + Vec3d(0, 1.5, 0));
    f.frame(to.x, to.y, true);
    f.frame(to.x, to.y, false);
    EXPECT_FALSE(f.ia.dragging());
    const Vec3d moved = f.scene().instances[0].translation;
    EXPECT_NEAR(moved.x, -3.0, 0.02);
    EXPECT_NEAR(moved.y, 1.5, 0.02);
    EXPECT_NEAR(moved.z, 0.0, 1e-9);
    // The next hover picks the instance where it went, through a refitted (not rebuilt) hierarchy.
    f.frame(to.x, to.y, false);
    EXPECT_EQ(f.sel.hovered_instance, std::optional<std::size_t>(0));
    EXPECT_EQ(f.ia.instance_picker().rebuilds(), 1u);
    EXPECT_EQ(f.ia.instance_picker().refits(), 1u);
    EXPECT_EQ(f.editor.undo_count(), 1u);
    ASSERT_TRUE(f.editor.undo());
    EXPECT_EQ(f.scene().instances[0].translation, Vec3d(-3, 0, 0));
}
