// Undo/redo: one step per gesture, redo cleared by a new edit, no step for a gesture that changed
// nothing, bounded depth.
#include <gtest/gtest.h>

#include "app/History.h"
#include "app/SceneEdit.h"

using namespace raypick;
using namespace raypick::app;

namespace {
double radius(const Scene& s, std::size_t i) { return std::get<Sphere<double>>(s.shapes[i].shape).radius; }
void set_radius(Scene& s, std::size_t i, double r) { std::get<Sphere<double>>(s.shapes[i].shape).radius = r; }
}  // namespace

TEST(History, UndoAndRedoOneShotEdits) {
    Scene s;
    History h;
    EXPECT_FALSE(h.undo(s));
    Scene before = s;
    add_shape(s, ShapeType::Sphere, Vec3d(0.0));
    h.record(before);
    before = s;
    add_shape(s, ShapeType::Capsule, Vec3d(1.0));
    h.record(before);
    ASSERT_EQ(s.shapes.size(), 2u);

    ASSERT_TRUE(h.undo(s));
    EXPECT_EQ(s.shapes.size(), 1u);
    ASSERT_TRUE(h.undo(s));
    EXPECT_EQ(s.shapes.size(), 0u);
    EXPECT_FALSE(h.undo(s));
    ASSERT_TRUE(h.redo(s));
    ASSERT_TRUE(h.redo(s));
    ASSERT_EQ(s.shapes.size(), 2u);
    EXPECT_EQ(type_of(s.shapes[1].shape), ShapeType::Capsule);
    EXPECT_FALSE(h.redo(s));
}

TEST(History, AGestureIsOneStep) {
    Scene s;
    add_shape(s, ShapeType::Sphere, Vec3d(0.0));
    History h;
    h.begin(s);
    for (int k = 1; k <= 50; ++k) {  // a drag: many intermediate values
        h.begin(s);                  // repeated begins inside the gesture are ignored
        set_radius(s, 0, 1.0 + k * 0.1);
    }
    EXPECT_TRUE(h.end(s));
    EXPECT_EQ(h.undo_count(), 1u);
    ASSERT_TRUE(h.undo(s));
    EXPECT_EQ(radius(s, 0), 1.0);
    ASSERT_TRUE(h.redo(s));
    EXPECT_DOUBLE_EQ(radius(s, 0), 6.0);
}

TEST(History, AGestureThatChangesNothingIsNoStep) {
    Scene s;
    add_shape(s, ShapeType::Sphere, Vec3d(0.0));
    History h;
    h.begin(s);
    set_radius(s, 0, 2.0);
    set_radius(s, 0, 1.0);  // back where it started
    EXPECT_FALSE(h.end(s));
    EXPECT_FALSE(h.can_undo());
}

TEST(History, ANewEditClearsRedo) {
    Scene s;
    add_shape(s, ShapeType::Sphere, Vec3d(0.0));
    History h;
    Scene before = s;
    set_radius(s, 0, 2.0);
    h.record(before);
    ASSERT_TRUE(h.undo(s));
    EXPECT_TRUE(h.can_redo());
    before = s;
    set_radius(s, 0, 3.0);
    h.record(before);
    EXPECT_FALSE(h.can_redo());
    ASSERT_TRUE(h.undo(s));
    EXPECT_EQ(radius(s, 0), 1.0);
}

TEST(History, UndoDuringAGestureFirstFinishesIt) {
    Scene s;
    add_shape(s, ShapeType::Sphere, Vec3d(0.0));
    History h;
    h.begin(s);
    set_radius(s, 0, 4.0);
    ASSERT_TRUE(h.undo(s));
    EXPECT_FALSE(h.in_gesture());
    EXPECT_EQ(radius(s, 0), 1.0);
}

TEST(History, DepthIsBounded) {
    Scene s;
    add_shape(s, ShapeType::Sphere, Vec3d(0.0));
    History h(3);
    for (int k = 0; k < 10; ++k) {
        const Scene before = s;
        set_radius(s, 0, 10.0 + k);
        h.record(before);
    }
    EXPECT_EQ(h.undo_count(), 3u);
    while (h.undo(s)) {
    }
    EXPECT_EQ(radius(s, 0), 16.0);  // the oldest steps were dropped
}

TEST(History, SameSceneComparesEveryParameter) {
    Scene a;
    add_shape(a, ShapeType::Obb, Vec3d(0.0));
    Scene b = a;
    EXPECT_TRUE(same_scene(a, b));
    std::get<Obb<double>>(b.shapes[0].shape).rotation[1][2] += 1e-15;
    EXPECT_FALSE(same_scene(a, b));
    b = a;
    b.shapes[0].name = "other";
    EXPECT_FALSE(same_scene(a, b));
}

TEST(History, CountsEveryChangeItMakesOrRecords) {
    History h;
    Scene s;
    EXPECT_EQ(h.changes(), 0u);
    EXPECT_FALSE(h.undo(s));
    EXPECT_EQ(h.changes(), 0u) << "nothing to undo changes nothing";
    h.record(s);
    EXPECT_EQ(h.changes(), 1u);
    EXPECT_TRUE(h.undo(s));
    EXPECT_EQ(h.changes(), 2u);
    EXPECT_TRUE(h.redo(s));
    EXPECT_EQ(h.changes(), 3u);
    EXPECT_FALSE(h.redo(s));
    h.begin(s);
    EXPECT_FALSE(h.end(s)) << "a gesture that changed nothing";
    EXPECT_EQ(h.changes(), 3u);
    h.begin(s);
    s.shapes.push_back({"x", Sphere<double>{Vec3d(0.0), 1.0}, ""});
    EXPECT_TRUE(h.end(s));
    EXPECT_EQ(h.changes(), 4u);
}
