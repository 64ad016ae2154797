// The demo's window-free core takes a shape type added from outside raypick (tests/toy/Disk.h)
// with no change: the editor's commands, handles and moves, picking through its hierarchy, and
// the wireframe, solid and instance a type without its own look gets (its bounding box).
#include <gtest/gtest.h>

#include <string>

#include "app/Commands.h"
#include "app/Picking.h"
#include "app/SceneEdit.h"
#include "app/ShapeMeshes.h"

namespace raypick::app {
namespace {

const ShapeType kDisk = shape_type<Disk>;

TEST(ToyShapeApp, TheEditorAddsMovesAndUndoesDisks) {
    SceneEditor editor;
    const std::size_t i = editor.add(kDisk, Vec3d(1, 2, 3));
    EXPECT_EQ(editor.scene().shapes[i].name, "disk 1");
    ASSERT_TRUE(std::holds_alternative<Disk<double>>(editor.scene().shapes[i].shape));
    EXPECT_EQ(shape_center(editor.scene().shapes[i].shape), Vec3d(1, 2, 3));
    // One handle, its one Point field; moving it moves the disk.
    const auto hs = handles(editor.scene().shapes[i].shape);
    ASSERT_EQ(hs.size(), 1u);
    EXPECT_STREQ(hs[0].label, "center");
    EXPECT_FALSE(editor.edit_shape(i, move_handle(editor.scene().shapes[i].shape, 0, Vec3d(4, 5, 6))).has_value());
    EXPECT_EQ(std::get<Disk<double>>(editor.scene().shapes[i].shape).center, Vec3d(4, 5, 6));
    // Translation moves the Point field only; the normal stays.
    const Shape<double> moved = translated(editor.scene().shapes[i].shape, Vec3d(1, 0, 0));
    EXPECT_EQ(std::get<Disk<double>>(moved).center, Vec3d(5, 5, 6));
    EXPECT_EQ(std::get<Disk<double>>(moved).normal, Vec3d(0, 1, 0));
    // Validation refuses a zero normal, naming it.
    Disk<double> bad = std::get<Disk<double>>(editor.scene().shapes[i].shape);
    bad.normal = Vec3d(0.0);
    const auto refusal = editor.edit_shape(i, bad);
    ASSERT_TRUE(refusal.has_value());
    EXPECT_NE(refusal->find("normal"), std::string::npos) << *refusal;
    // Radius 0 is noted as degenerate.
    Disk<double> point = std::get<Disk<double>>(editor.scene().shapes[i].shape);
    point.radius = 0.0;
    EXPECT_EQ(degeneracies(point), std::vector<std::string>{"radius 0"});
    ASSERT_TRUE(editor.duplicate(i).has_value());
    EXPECT_EQ(editor.scene().shapes.size(), 2u);
    ASSERT_TRUE(editor.undo());
    ASSERT_TRUE(editor.undo());
    EXPECT_EQ(std::get<Disk<double>>(editor.scene().shapes[i].shape).center, Vec3d(1, 2, 3));
}

TEST(ToyShapeApp, PickingFindsDisksThroughTheHierarchy) {
    SceneEditor editor;
    const std::size_t ball = editor.add(ShapeType::Sphere, Vec3d(0, 0, -5));
    const std::size_t disk = editor.add(kDisk, Vec3d(0, 0, 0));
    Disk<double> facing = std::get<Disk<double>>(editor.scene().shapes[disk].shape);
    facing.normal = Vec3d(0, 0, 1);
    ASSERT_FALSE(editor.edit_shape(disk, facing).has_value());
    ScenePicker picker;
    const Ray<double> ray{{0.2, 0.1, 10}, {0, 0, -1}};
    EXPECT_EQ(picker.pick(editor, ray), disk);
    EXPECT_EQ(pick_nearest(editor.scene(), ray), disk);
    PickResult r;
    picker.cast_all(editor, ray, CompareOptions{}, r);
    ASSERT_TRUE(r.shapes[disk].surface.has_value());
    EXPECT_EQ(r.shapes[disk].surface->t, 10.0);
    EXPECT_EQ(r.shapes[disk].surface->normal, Vec3d(0, 0, 1));
    ASSERT_TRUE(r.shapes[ball].surface.has_value());
    // Moving the disk aside refits; the ray then picks the ball behind it.
    ASSERT_FALSE(editor.edit_shape(disk, translated(editor.scene().shapes[disk].shape, Vec3d(5, 0, 0))).has_value());
    EXPECT_EQ(picker.pick(editor, ray), ball);
    EXPECT_GE(picker.refits(), 1u);
    // Comparing with textbook variants: a disk has none.
    CompareOptions compare;
    compare.enabled.fill(true);
    cast_all(editor.scene(), ray, compare, r);
    EXPECT_FALSE(r.shapes[disk].variant.has_value());
    EXPECT_TRUE(r.shapes[ball].variant.has_value());
}

TEST(ToyShapeApp, ADiskIsDrawnAsItsBoundingBox) {
    const Disk<double> d{{1, 2, 3}, {0, 1, 0}, 2};
    const Aabb<double> b = bounds(d);
    LineList lines;
    append_wireframe(lines, d, palette::shape);
    ASSERT_EQ(lines.vertices.size(), 24u);  // the 12 edges of the box
    for (const LineVertex& v : lines.vertices)
        for (int a = 0; a < 3; ++a) {
            EXPECT_TRUE(std::abs(v.position[a] - float(b.min[a])) < 1e-5f || std::abs(v.position[a] - float(b.max[a])) < 1e-5f);
        }
    std::vector<SolidVertex> solid;
    append_solid(solid, d);
    EXPECT_EQ(solid.size(), 36u);  // six faces, two triangles each
    const PlacedInstance p = wireframe_instance(d, palette::shape);
    EXPECT_EQ(p.mesh, UnitMesh::Box);
    const glm::vec3 corner = instance_point(p.instance, UnitVertex{glm::vec3(1.0f), 0.0f});
    for (int a = 0; a < 3; ++a) EXPECT_NEAR(corner[a], float(b.max[a]), 1e-5f);
}

}  // namespace
}  // namespace raypick::app
