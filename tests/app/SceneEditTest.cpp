// Scene editing: validated edits (invalid refused, degenerate accepted and flagged), handles that
// squeeze shapes to zero size.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "app/Commands.h"
#include "app/SceneEdit.h"
#include <raypick/scene/Euler.h>
#include <raypick/scene/SceneFile.h>

using namespace raypick;
using namespace raypick::app;

TEST(SceneEdit, AddDuplicateRenameDelete) {
    SceneEditor e;
    const Scene& s = e.scene();
    EXPECT_EQ(e.add(ShapeType::Sphere, Vec3d(1, 2, 3)), 0u);
    EXPECT_EQ(e.add(ShapeType::Sphere, Vec3d(0.0)), 1u);
    EXPECT_EQ(s.shapes[0].name, "sphere 1");
    EXPECT_EQ(s.shapes[1].name, "sphere 2");
    EXPECT_EQ(std::get<Sphere<double>>(s.shapes[0].shape).center, Vec3d(1, 2, 3));
    const auto d = e.duplicate(0);  // kDuplicateOffset = (0.5, 0, 0.5)
    ASSERT_TRUE(d);
    EXPECT_EQ(std::get<Sphere<double>>(s.shapes[*d].shape).center, Vec3d(1.5, 2, 3.5));
    EXPECT_NE(s.shapes[*d].name, s.shapes[0].name);
    EXPECT_FALSE(e.duplicate(99));
    EXPECT_TRUE(e.rename(1, "ball"));
    EXPECT_EQ(s.shapes[1].name, "ball");
    EXPECT_FALSE(e.rename(1, ""));
    EXPECT_FALSE(e.rename(1, s.shapes[0].name));  // names must stay unique (files refer to them)
    EXPECT_EQ(s.shapes[1].name, "ball");
    EXPECT_TRUE(e.rename(1, "ball"));             // its own name is fine
    EXPECT_TRUE(e.remove(0));
    EXPECT_EQ(s.shapes.size(), 2u);
    EXPECT_EQ(s.shapes[0].name, "ball");
    EXPECT_FALSE(e.remove(5));
    for (int t = 0; t < kShapeTypeCount; ++t) EXPECT_TRUE(is_valid(make_shape(ShapeType(t), Vec3d(0.5))));
}

TEST(SceneEdit, InvalidValuesAreRefusedAndTheLastValidValueKept) {
    SceneEditor e;
    const Scene& s = e.scene();
    e.add(ShapeType::Sphere, Vec3d(0.0));
    Sphere<double> bad = std::get<Sphere<double>>(s.shapes[0].shape);
    bad.radius = -1.0;
    const auto err = e.edit_shape(0, bad);
    ASSERT_TRUE(err);
    EXPECT_NE(err->find("radius"), std::string::npos);
    EXPECT_EQ(std::get<Sphere<double>>(s.shapes[0].shape).radius, 1.0);

    bad.radius = std::numeric_limits<double>::quiet_NaN();
    EXPECT_TRUE(e.edit_shape(0, bad));
    bad.radius = 1.0;
    bad.center.y = std::numeric_limits<double>::quiet_NaN();
    EXPECT_TRUE(e.edit_shape(0, bad));
    EXPECT_EQ(std::get<Sphere<double>>(s.shapes[0].shape).center, Vec3d(0.0));

    e.add(ShapeType::Aabb, Vec3d(0.0));
    Aabb<double> box = std::get<Aabb<double>>(s.shapes[1].shape);
    box.min.x = box.max.x + 1.0;  // min > max
    EXPECT_TRUE(e.edit_shape(1, box));
    EXPECT_TRUE(is_valid(s.shapes[1].shape));
}

TEST(SceneEdit, DegenerateValuesAreAcceptedAndFlagged) {
    SceneEditor e;
    const Scene& s = e.scene();
    e.add(ShapeType::Sphere, Vec3d(0.0));
    Sphere<double> point = std::get<Sphere<double>>(s.shapes[0].shape);
    point.radius = 0.0;
    EXPECT_FALSE(e.edit_shape(0, point));
    ASSERT_EQ(degeneracies(s.shapes[0].shape).size(), 1u);

    Capsule<double> c;
    c.a = c.b = Vec3d(1, 2, 3);
    c.radius = 0.0;
    const auto notes = degeneracies(c);
    EXPECT_EQ(notes.size(), 2u);  // a == b and radius 0
    EXPECT_TRUE(degeneracies(Capsule<double>{}).empty());

    EXPECT_TRUE(degeneracies(Triangle<double>{}).empty());
    for (const Triangle<double>& zero : {Triangle<double>{Vec3d(1, 2, 3), Vec3d(1, 2, 3), Vec3d(0, 0, 0)},
                                         Triangle<double>{Vec3d(0, 0, 0), Vec3d(1, 1, 1), Vec3d(2, 2, 2)}}) {
        const auto t = degeneracies(zero);
        ASSERT_EQ(t.size(), 1u);
        EXPECT_EQ(t[0], "zero area: no ray hits it");
    }
}

TEST(SceneEdit, TriangleVertexHandlesMoveOneVertexEach) {
    const Triangle<double> tri{Vec3d(0, 0, 0), Vec3d(1, 0, 0), Vec3d(0, 1, 0)};
    const auto h = handles(tri);
    ASSERT_EQ(h.size(), 3u);
    EXPECT_EQ(h[0].position, tri.a);
    EXPECT_EQ(h[1].position, tri.b);
    EXPECT_EQ(h[2].position, tri.c);
    const auto moved = std::get<Triangle<double>>(move_handle(tri, 2, Vec3d(5, 6, 7)));
    EXPECT_EQ(moved.a, tri.a);
    EXPECT_EQ(moved.b, tri.b);
    EXPECT_EQ(moved.c, Vec3d(5, 6, 7));
    EXPECT_EQ(shape_center(tri), Vec3d(1.0 / 3.0, 1.0 / 3.0, 0.0));
}

TEST(SceneEdit, BoxCornerHandleSqueezesToZeroSize) {
    Aabb<double> box;
    box.min = Vec3d(-1, -2, -3);
    box.max = Vec3d(1, 2, 3);
    const auto hs = handles(Shape<double>(box));
    ASSERT_EQ(hs.size(), 8u);
    // Drag the +++ corner (id 7) onto the --- corner: the box becomes a point, still valid.
    const Shape<double> squeezed = move_handle(box, 7, Vec3d(-1, -2, -3));
    EXPECT_TRUE(is_valid(squeezed));
    const auto& b = std::get<Aabb<double>>(squeezed);
    EXPECT_EQ(b.min, b.max);
    EXPECT_FALSE(degeneracies(squeezed).empty());
    // Dragging past the opposite corner swaps min and max instead of making an invalid box.
    const Shape<double> flipped = move_handle(box, 7, Vec3d(-5, 0, 0));
    EXPECT_TRUE(is_valid(flipped));
    EXPECT_EQ(std::get<Aabb<double>>(flipped).min, Vec3d(-5, -2, -3));
    // Non-finite positions are ignored.
    EXPECT_TRUE(is_valid(move_handle(box, 7, Vec3d(std::numeric_limits<double>::infinity()))));
}

TEST(SceneEdit, ObbCornerHandleKeepsTheOppositeCorner) {
    Obb<double> box;
    box.center = Vec3d(1, 1, 1);
    box.rotation = rotation_from_euler_degrees(Vec3d(10, 20, 30));
    box.half_extents = Vec3d(1, 0.5, 0.25);
    const auto before = handles(Shape<double>(box));
    const Vec3d opposite = before[0].position;  // corner ---
    const Vec3d moved = before[7].position + box.rotation[0] * 0.5;
    const Shape<double> s = move_handle(box, 7, moved);
    ASSERT_TRUE(is_valid(s));
    const auto after = handles(s);
    EXPECT_LT(glm::length(after[0].position - opposite), 1e-12);
    EXPECT_LT(glm::length(after[7].position - moved), 1e-12);
    // Onto the opposite corner: zero extents.
    const Shape<double> squeezed = move_handle(box, 7, opposite);
    const auto& z = std::get<Obb<double>>(squeezed);
    EXPECT_LT(glm::length(z.half_extents), 1e-12);
}

TEST(SceneEdit, CapsuleEndHandlesCanMeet) {
    Capsule<double> c;
    const Shape<double> s = move_handle(c, 0, c.b);
    const auto& m = std::get<Capsule<double>>(s);
    EXPECT_EQ(m.a, m.b);
    EXPECT_TRUE(is_valid(s));
    ASSERT_FALSE(degeneracies(s).empty());
    // Sphere radius handle.
    Sphere<double> sp;
    const Shape<double> r = move_handle(sp, 0, Vec3d(0, 3, 4));
    EXPECT_DOUBLE_EQ(std::get<Sphere<double>>(r).radius, 5.0);
}

TEST(SceneEdit, TranslatedMovesEveryType) {
    const Vec3d d(1, -2, 0.5);
    for (int t = 0; t < kShapeTypeCount; ++t) {
        const Shape<double> s = make_shape(ShapeType(t), Vec3d(0.0));
        const Shape<double> m = translated(s, d);
        EXPECT_LT(glm::length(shape_center(m) - shape_center(s) - d), 1e-15);
    }
}

// Deleting a shape keeps the scene's expectations consistent, so it can still be saved: those about
// the deleted shape go, the others follow their shapes to their new indices.
TEST(SceneEdit, DeleteKeepsExpectationsPointingAtTheRightShapes) {
    using namespace raypick;
    Scene scene;
    for (int i = 0; i < 3; ++i)
        scene.shapes.push_back({"s" + std::to_string(i), Sphere<double>{{double(i) * 3, 0, 0}, 1}, ""});
    scene.rays.push_back({"r", Ray<double>{{-5, 0, 0}, {1, 0, 0}}, 0.0, infinity<double>(), ""});
    SceneExpectation on0, on1, on2, picks1, picks2, picks_none;
    on0.shape = 0; on0.hit = true;
    on1.shape = 1; on1.hit = true;
    on2.shape = 2; on2.hit = true;
    picks1.picked = 1;
    picks2.picked = 2;
    scene.expectations = {on0, on1, on2, picks1, picks2, picks_none};
    ASSERT_TRUE(raypick::app::delete_shape(scene, 1));
    ASSERT_EQ(scene.expectations.size(), 4u);  // on1 and picks1 are gone
    EXPECT_EQ(scene.expectations[0].shape, std::optional<std::size_t>(0));
    EXPECT_EQ(scene.expectations[1].shape, std::optional<std::size_t>(1));   // was 2
    EXPECT_EQ(scene.expectations[2].picked, std::optional<std::size_t>(1));  // was 2
    EXPECT_FALSE(scene.expectations[3].picked.has_value());                  // "nothing picked" stays
}

// The scene queries' expectations follow too: one that names the deleted shape in "contained_by"
// goes, the others' shape indices move down.
TEST(SceneEdit, DeleteKeepsQueryExpectationsConsistent) {
    using namespace raypick;
    Scene scene;
    for (int i = 0; i < 3; ++i)
        scene.shapes.push_back({"s" + std::to_string(i), Sphere<double>{{double(i) * 3, 0, 0}, 1}, ""});
    scene.points.push_back({"p", {0, 0, 0}, ""});
    SceneExpectation held_by1, held_by0and2, crossings_of2;
    held_by1.point = 0;
    held_by1.contained_by = std::vector<SceneObjectRef>{SceneObjectRef::shape(1)};
    held_by0and2.point = 0;
    held_by0and2.contained_by = std::vector<SceneObjectRef>{SceneObjectRef::shape(0), SceneObjectRef::shape(2)};
    crossings_of2.shape = 2;
    crossings_of2.crossing_count = 0;
    scene.rays.push_back({"r", Ray<double>{{-5, 0, 0}, {1, 0, 0}}, 0.0, infinity<double>(), ""});
    scene.expectations = {held_by1, held_by0and2, crossings_of2};
    ASSERT_TRUE(raypick::app::delete_shape(scene, 1));
    ASSERT_EQ(scene.expectations.size(), 2u);
    EXPECT_EQ(*scene.expectations[0].contained_by,
              (std::vector<SceneObjectRef>{SceneObjectRef::shape(0), SceneObjectRef::shape(1)}));
    EXPECT_EQ(scene.expectations[1].shape, std::optional<std::size_t>(1));
    EXPECT_FALSE(validate_scene(scene)) << validate_scene(scene)->what();
}
