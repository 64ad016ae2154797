// The command layer: the actions the panels, menus and keys call (one implementation each), the
// change set every command yields, one version bump per change, and undo/redo as commands.
#include <gtest/gtest.h>

#include "app/Commands.h"
#include "app/SceneEdit.h"

using namespace raypick;
using namespace raypick::app;

namespace {
Scene three_spheres() {
    Scene s;
    for (int i = 0; i < 3; ++i)
        s.shapes.push_back({"s" + std::to_string(i), Sphere<double>{Vec3d(double(i) * 3.0, 0.0, 0.0), 1.0}, ""});
    return s;
}
Vec3d center(const Scene& s, std::size_t i) { return std::get<Sphere<double>>(s.shapes[i].shape).center; }
}  // namespace

// What the Scene panel's buttons, the Edit menu and Ctrl+D / Delete run.
TEST(Commands, ThePanelActionsDuplicateDeleteAndAddMoveTheSelection) {
    SceneEditor e(three_spheres());
    Selection sel;
    EXPECT_FALSE(duplicate_selected(e, sel)) << "nothing selected";
    EXPECT_FALSE(delete_selected(e, sel));
    EXPECT_EQ(e.version(), 0u);

    sel.selected = 1;
    ASSERT_TRUE(duplicate_selected(e, sel));
    ASSERT_EQ(e.scene().shapes.size(), 4u);
    EXPECT_EQ(sel.selected, std::optional<std::size_t>(3)) << "the copy is selected";
    EXPECT_EQ(center(e.scene(), 3), Vec3d(3.5, 0.0, 0.5)) << "half a unit along x and z";
    EXPECT_EQ(e.scene().shapes[3].name, "s1 copy 1");
    EXPECT_EQ(e.last_change().added, std::vector<std::size_t>{3});
    EXPECT_TRUE(e.last_change().structure);

    sel.selected = 0;
    ASSERT_TRUE(delete_selected(e, sel));
    EXPECT_FALSE(sel.selected);
    ASSERT_EQ(e.scene().shapes.size(), 3u);
    EXPECT_EQ(e.scene().shapes[0].name, "s1");
    EXPECT_EQ(e.last_change().removed, std::vector<std::size_t>{0});

    add_and_select(e, sel, ShapeType::Capsule, Vec3d(1.0, 2.0, 3.0));
    EXPECT_EQ(sel.selected, std::optional<std::size_t>(3));
    EXPECT_EQ(type_of(e.scene().shapes[3].shape), ShapeType::Capsule);
    EXPECT_EQ(shape_center(e.scene().shapes[3].shape), Vec3d(1.0, 2.0, 3.0));
    EXPECT_EQ(e.version(), 3u);
    EXPECT_EQ(e.undo_count(), 3u);
}

TEST(Commands, EachCommandSaysWhatChanged) {
    SceneEditor e(three_spheres());
    const std::uint64_t v0 = e.version();

    // A parameter edit: one shape modified, no structural change.
    ASSERT_FALSE(e.edit_shape(2, Sphere<double>{Vec3d(0.0, 5.0, 0.0), 2.0}).has_value());
    EXPECT_EQ(e.last_change().modified, std::vector<std::size_t>{2});
    EXPECT_FALSE(e.last_change().structure);
    // A refused edit and an edit to the same values change nothing (no version bump).
    const std::uint64_t v1 = e.version();
    EXPECT_TRUE(e.edit_shape(2, Sphere<double>{Vec3d(0.0), -1.0}).has_value());
    EXPECT_FALSE(e.edit_shape(2, Sphere<double>{Vec3d(0.0, 5.0, 0.0), 2.0}).has_value());
    EXPECT_EQ(e.version(), v1);
    // A change of type is structural.
    Capsule<double> c;
    c.a = Vec3d(0.0);
    c.b = Vec3d(1.0);
    c.radius = 0.5;
    ASSERT_FALSE(e.edit_shape(0, c).has_value());
    EXPECT_TRUE(e.last_change().structure);
    // A rename changes names only.
    ASSERT_TRUE(e.rename(1, "middle"));
    EXPECT_TRUE(e.last_change().names);
    EXPECT_FALSE(e.last_change().structure);
    EXPECT_TRUE(e.last_change().modified.empty());
    // Replacing the scene replaces everything.
    e.replace(Scene{});
    EXPECT_TRUE(e.last_change().replaced);
    EXPECT_TRUE(e.last_change().structure);

    // The changes since a version are those changes merged; since now, none.
    const ChangeSet since = e.changes_since(v1);
    EXPECT_TRUE(since.structure);
    EXPECT_TRUE(since.names);
    EXPECT_TRUE(e.changes_since(e.version()).empty());
    const ChangeSet params = [&] {
        SceneEditor f(three_spheres());
        const std::uint64_t start = f.version();
        EXPECT_FALSE(f.edit_shape(0, Sphere<double>{Vec3d(1.0), 1.0}).has_value());
        EXPECT_FALSE(f.edit_shape(2, Sphere<double>{Vec3d(2.0), 1.0}).has_value());
        EXPECT_FALSE(f.edit_shape(0, Sphere<double>{Vec3d(3.0), 1.0}).has_value());
        return f.changes_since(start);
    }();
    EXPECT_EQ(params.modified, (std::vector<std::size_t>{0, 2}));
    EXPECT_FALSE(params.structure);
    // A version never seen, or older than the log, is everything.
    EXPECT_TRUE(e.changes_since(std::nullopt).replaced);
    EXPECT_EQ(e.version(), v0 + 4);
    for (std::size_t k = 0; k < SceneEditor::kLogSize + 1; ++k) e.add(ShapeType::Sphere, Vec3d(0.0));
    EXPECT_TRUE(e.changes_since(v1).replaced);
}

TEST(Commands, UndoAndRedoRevertEveryCommandExactly) {
    Scene start = three_spheres();
    SceneExpectation about1, about2;
    about1.shape = 1;
    about1.hit = true;
    about2.picked = 2;
    start.expectations = {about1, about2};
    SceneEditor e(start);
    std::vector<Scene> states{e.scene()};
    e.add(ShapeType::Aabb, Vec3d(1.0));
    states.push_back(e.scene());
    ASSERT_TRUE(e.duplicate(0));
    states.push_back(e.scene());
    ASSERT_TRUE(e.remove(1));  // drops about1, moves about2 to shape 1
    ASSERT_EQ(e.scene().expectations.size(), 1u);
    EXPECT_EQ(e.scene().expectations[0].picked, std::optional<std::size_t>(1));
    states.push_back(e.scene());
    ASSERT_TRUE(e.rename(0, "first"));
    states.push_back(e.scene());
    e.begin_gesture();
    for (int k = 1; k <= 5; ++k) ASSERT_FALSE(e.edit_shape(0, Sphere<double>{Vec3d(0.1 * k), 1.0}).has_value());
    ASSERT_TRUE(e.end_gesture());
    states.push_back(e.scene());
    e.replace(Scene{});
    states.push_back(e.scene());
    ASSERT_EQ(e.undo_count(), states.size() - 1);
    for (std::size_t k = states.size() - 1; k > 0; --k) {
        ASSERT_TRUE(e.undo());
        EXPECT_TRUE(e.scene() == states[k - 1]) << "undo to state " << k - 1;
    }
    EXPECT_FALSE(e.undo());
    for (std::size_t k = 1; k < states.size(); ++k) {
        ASSERT_TRUE(e.redo());
        EXPECT_TRUE(e.scene() == states[k]) << "redo to state " << k;
    }
    EXPECT_FALSE(e.redo());
}
