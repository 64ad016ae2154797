// Undo/redo through the command layer: one step per gesture, redo cleared by a new edit, no step
// for a gesture that changed nothing, bounded depth, one version bump per change.
#include <gtest/gtest.h>

#include "app/Commands.h"
#include "app/SceneEdit.h"

using namespace raypick;
using namespace raypick::app;

namespace {
double radius(const Scene& s, std::size_t i) { return std::get<Sphere<double>>(s.shapes[i].shape).radius; }
void set_radius(SceneEditor& e, std::size_t i, double r) {
    Sphere<double> s = std::get<Sphere<double>>(e.scene().shapes[i].shape);
    s.radius = r;
    ASSERT_FALSE(e.edit_shape(i, s).has_value());
}
}  // namespace

TEST(History, UndoAndRedoOneShotEdits) {
    SceneEditor h;
    const Scene& s = h.scene();
    EXPECT_FALSE(h.undo());
    h.add(ShapeType::Sphere, Vec3d(0.0));
    h.add(ShapeType::Capsule, Vec3d(1.0));
    ASSERT_EQ(s.shapes.size(), 2u);

    ASSERT_TRUE(h.undo());
    EXPECT_EQ(s.shapes.size(), 1u);
    ASSERT_TRUE(h.undo());
    EXPECT_EQ(s.shapes.size(), 0u);
    EXPECT_FALSE(h.undo());
    ASSERT_TRUE(h.redo());
    ASSERT_TRUE(h.redo());
    ASSERT_EQ(s.shapes.size(), 2u);
    EXPECT_EQ(type_of(s.shapes[1].shape), ShapeType::Capsule);
    EXPECT_FALSE(h.redo());
}

TEST(History, AGestureIsOneStep) {
    SceneEditor h;
    const Scene& s = h.scene();
    h.add(ShapeType::Sphere, Vec3d(0.0));
    h.clear_history();
    h.begin_gesture();
    for (int k = 1; k <= 50; ++k) {  // a drag: many intermediate values
        h.begin_gesture();           // repeated begins inside the gesture are ignored
        set_radius(h, 0, 1.0 + k * 0.1);
    }
    EXPECT_TRUE(h.end_gesture());
    EXPECT_EQ(h.undo_count(), 1u);
    ASSERT_TRUE(h.undo());
    EXPECT_EQ(radius(s, 0), 1.0);
    ASSERT_TRUE(h.redo());
    EXPECT_DOUBLE_EQ(radius(s, 0), 6.0);
}

TEST(History, AGestureThatChangesNothingIsNoStep) {
    SceneEditor h;
    h.add(ShapeType::Sphere, Vec3d(0.0));
    h.clear_history();
    h.begin_gesture();
    set_radius(h, 0, 2.0);
    set_radius(h, 0, 1.0);  // back where it started
    EXPECT_FALSE(h.end_gesture());
    EXPECT_FALSE(h.can_undo());
}

TEST(History, ANewEditClearsRedo) {
    SceneEditor h;
    const Scene& s = h.scene();
    h.add(ShapeType::Sphere, Vec3d(0.0));
    set_radius(h, 0, 2.0);
    ASSERT_TRUE(h.undo());
    EXPECT_TRUE(h.can_redo());
    set_radius(h, 0, 3.0);
    EXPECT_FALSE(h.can_redo());
    ASSERT_TRUE(h.undo());
    EXPECT_EQ(radius(s, 0), 1.0);
}

TEST(History, UndoDuringAGestureFirstFinishesIt) {
    SceneEditor h;
    const Scene& s = h.scene();
    h.add(ShapeType::Sphere, Vec3d(0.0));
    h.clear_history();
    h.begin_gesture();
    set_radius(h, 0, 4.0);
    ASSERT_TRUE(h.undo());
    EXPECT_FALSE(h.in_gesture());
    EXPECT_EQ(radius(s, 0), 1.0);
}

TEST(History, DepthIsBounded) {
    SceneEditor h(Scene{}, 3);
    const Scene& s = h.scene();
    h.add(ShapeType::Sphere, Vec3d(0.0));
    for (int k = 0; k < 10; ++k) set_radius(h, 0, 10.0 + k);
    EXPECT_EQ(h.undo_count(), 3u);
    while (h.undo()) {
    }
    EXPECT_EQ(radius(s, 0), 16.0);  // the oldest steps were dropped
}

TEST(History, SameSceneComparesEveryParameter) {
    // The scene's own equality (scene/Scene.h) is the one undo and the random-edit driver use.
    SceneEditor e;
    e.add(ShapeType::Obb, Vec3d(0.0));
    const Scene a = e.scene();
    Scene b = a;
    EXPECT_TRUE(a == b);
    std::get<Obb<double>>(b.shapes[0].shape).rotation[1][2] += 1e-15;
    EXPECT_FALSE(a == b);
    EXPECT_FALSE(same_shape(a.shapes[0].shape, b.shapes[0].shape));
    b = a;
    b.shapes[0].name = "other";
    EXPECT_FALSE(a == b);
    EXPECT_TRUE(same_shape(a.shapes[0].shape, b.shapes[0].shape));
}

TEST(History, CountsEveryChangeItMakesOrRecords) {
    SceneEditor h;
    EXPECT_EQ(h.version(), 0u);
    EXPECT_FALSE(h.undo());
    EXPECT_EQ(h.version(), 0u) << "nothing to undo changes nothing";
    h.add(ShapeType::Sphere, Vec3d(0.0));
    EXPECT_EQ(h.version(), 1u);
    EXPECT_TRUE(h.undo());
    EXPECT_EQ(h.version(), 2u);
    EXPECT_TRUE(h.redo());
    EXPECT_EQ(h.version(), 3u);
    EXPECT_FALSE(h.redo());
    h.begin_gesture();
    EXPECT_FALSE(h.end_gesture()) << "a gesture that changed nothing";
    EXPECT_EQ(h.version(), 3u);
    h.begin_gesture();
    set_radius(h, 0, 2.0);
    EXPECT_TRUE(h.end_gesture());
    EXPECT_EQ(h.version(), 4u);
}
