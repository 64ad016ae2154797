// The app's file actions: a bad file keeps the current scene and says what is wrong; a good one
// replaces it (undoably); save then open gives the same scene.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>

#include "app/AppState.h"
#include "app/SceneEdit.h"
#include "app/Showcase.h"

using namespace raypick;
using namespace raypick::app;
namespace fs = std::filesystem;

namespace {
fs::path temp(const std::string& name) {
    const fs::path dir = fs::temp_directory_path() / "raypick_app_state_test";
    fs::create_directories(dir);
    return dir / name;
}
}  // namespace

TEST(AppState, ABadFileKeepsTheSceneAndNamesTheProblem) {
    AppState s;
    s.editor.reset(showcase_scene());
    const Scene before = s.scene();
    const fs::path bad = temp("bad_radius.json");
    std::ofstream(bad) << "{\"shapes\": [{\"type\": \"sphere\", \"center\": [0, 0, 0], \"radius\": -1}]}";
    EXPECT_FALSE(open_scene(s, bad.string()));
    EXPECT_TRUE(s.scene() == before);
    EXPECT_NE(s.error_message.find("bad_radius.json"), std::string::npos) << s.error_message;
    EXPECT_NE(s.error_message.find("radius"), std::string::npos) << s.error_message;
    EXPECT_FALSE(s.editor.can_undo());

    s.error_message.clear();
    const fs::path syntax = temp("syntax.json");
    std::ofstream(syntax) << "{\"shapes\": [";
    EXPECT_FALSE(open_scene(s, syntax.string()));
    EXPECT_TRUE(s.scene() == before);
    EXPECT_FALSE(s.error_message.empty());
    EXPECT_FALSE(open_scene(s, temp("missing.json").string()));
    EXPECT_TRUE(s.scene() == before);
    // A directory is not a scene file (and must not throw).
    EXPECT_FALSE(open_scene(s, fs::temp_directory_path().string()));
    EXPECT_TRUE(s.scene() == before);
    // Saving into a directory that does not exist fails with a message, not an exception.
    EXPECT_FALSE(save_scene(s, (temp("no_such_dir") / "x.json").string()));
    EXPECT_FALSE(s.error_message.empty());
}

TEST(AppState, SaveThenOpenRoundTripsAndOpeningIsUndoable) {
    AppState s;
    s.editor.reset(showcase_scene());
    s.sel.selected = 2;
    const fs::path file = temp("round_trip.json");
    EXPECT_EQ(scene_title(s), "(unsaved scene)");
    ASSERT_TRUE(save_scene(s, file.string())) << s.error_message;
    EXPECT_EQ(s.scene_path, file.string());
    EXPECT_EQ(scene_title(s), file.string());
    const Scene saved = s.scene();

    AppState t;
    t.editor.add(ShapeType::Capsule, Vec3d(0.0));
    const Scene old = t.scene();
    ASSERT_TRUE(open_scene(t, file.string())) << t.error_message;
    EXPECT_TRUE(t.scene() == saved);
    EXPECT_FALSE(t.sel.selected);
    ASSERT_TRUE(undo(t));
    EXPECT_TRUE(t.scene() == old);
    ASSERT_TRUE(redo(t));
    EXPECT_TRUE(t.scene() == saved);
}

TEST(AppState, CameraComesFromTheSceneOrFramesIt) {
    AppState s;
    s.editor.reset(showcase_scene());
    reset_camera(s);
    EXPECT_LT(glm::length(s.camera.eye() - s.scene().camera->eye), 1e-9);
    Scene without_camera = s.scene();
    without_camera.camera.reset();
    s.editor.reset(without_camera);
    reset_camera(s);
    Vec3d lo(HUGE_VAL), hi(-HUGE_VAL);  // around the shapes, the rays' origins and first hits
    for (const Vec3d& p : framing_points(s.scene())) {
        lo = glm::min(lo, p);
        hi = glm::max(hi, p);
    }
    EXPECT_LT(glm::length(s.camera.target - (lo + hi) * 0.5), 1e-12);
    s.sel.selected = 0;
    frame_selection(s);
    EXPECT_LT(glm::length(s.camera.target - shape_center(s.scene().shapes[0].shape)), 1e-12);
}

TEST(AppState, TheSceneVersionChangesWithEveryEditKindUndoRedoAndGesture) {
    AppState s;
    s.editor.reset(showcase_scene());
    auto bumps = [&](const char* what, const std::function<void()>& edit) {
        SCOPED_TRACE(what);
        const std::uint64_t before = s.scene_version();
        edit();
        // Exactly once per change: one command, one bump.
        EXPECT_EQ(s.scene_version(), before + 1);
        // And a frame without an edit keeps it, during a gesture too.
        const std::uint64_t after = s.scene_version();
        EXPECT_EQ(s.scene_version(), after);
    };
    bumps("add", [&] { s.editor.add(ShapeType::Sphere, Vec3d(1.0)); });
    bumps("duplicate", [&] { EXPECT_TRUE(s.editor.duplicate(0).has_value()); });
    bumps("rename", [&] { EXPECT_TRUE(s.editor.rename(1, "renamed")); });
    bumps("delete", [&] { EXPECT_TRUE(s.editor.remove(2)); });
    bumps("undo", [&] { EXPECT_TRUE(undo(s)); });
    bumps("redo", [&] { EXPECT_TRUE(redo(s)); });
    bumps("replace (preset, new scene)", [&] { replace_scene(s, Scene{}, "", true); });
    bumps("undo the replacement", [&] { EXPECT_TRUE(undo(s)); });
    // A gesture (a drag or an Inspector slider): every frame that moves something.
    s.editor.begin_gesture();
    for (int frame = 0; frame < 3; ++frame)
        bumps("a drag's frame", [&] {
            EXPECT_FALSE(s.editor.edit_shape(0, translated(s.scene().shapes[0].shape, Vec3d(0.1, 0, 0))).has_value());
        });
    const std::uint64_t dragged = s.scene_version();
    EXPECT_TRUE(s.editor.end_gesture());
    EXPECT_EQ(s.scene_version(), dragged) << "ending a gesture records its step but changes nothing";
    bumps("an Inspector edit", [&] {
        s.editor.begin_gesture();
        Shape<double> edited = s.scene().shapes[0].shape;
        edited = translated(edited, Vec3d(0, 1, 0));
        EXPECT_FALSE(s.editor.edit_shape(0, edited).has_value());
    });
    EXPECT_TRUE(s.editor.end_gesture());
    // Nothing to undo or redo changes nothing.
    s.editor.clear_history();
    const std::uint64_t idle = s.scene_version();
    EXPECT_FALSE(undo(s));
    EXPECT_FALSE(redo(s));
    EXPECT_EQ(s.scene_version(), idle);
}

TEST(AppState, OpeningAFileChangesTheSceneVersionAndABadFileDoesNot) {
    AppState s;
    s.editor.reset(showcase_scene());
    const std::uint64_t v = s.scene_version();
    const fs::path bad = temp("bad_for_version.json");
    std::ofstream(bad) << "{\"shapes\": [";
    EXPECT_FALSE(open_scene(s, bad.string()));
    EXPECT_EQ(s.scene_version(), v);
    const fs::path good = temp("good_for_version.json");
    std::ofstream(good) << "{\"shapes\": [{\"type\": \"sphere\", \"center\": [0, 0, 0], \"radius\": 1}]}";
    ASSERT_TRUE(open_scene(s, good.string())) << s.error_message;
    EXPECT_EQ(s.scene_version(), v + 1);
}

TEST(AppState, UnsavedChangesFollowTheUndoHistory) {
    AppState s;
    s.editor.reset(showcase_scene());
    EXPECT_FALSE(has_unsaved_changes(s)) << "a fresh scene has nothing to lose";
    const fs::path file = temp("unsaved.json");
    ASSERT_TRUE(save_scene(s, file.string())) << s.error_message;
    EXPECT_FALSE(has_unsaved_changes(s));
    EXPECT_FALSE(s.editor.edit_shape(0, translated(s.scene().shapes[0].shape, Vec3d(1, 0, 0))).has_value());
    EXPECT_TRUE(has_unsaved_changes(s));
    EXPECT_TRUE(undo(s));
    EXPECT_FALSE(has_unsaved_changes(s)) << "undone back to the saved scene";
    EXPECT_TRUE(redo(s));
    EXPECT_TRUE(has_unsaved_changes(s));
    ASSERT_TRUE(save_scene(s, file.string()));
    EXPECT_FALSE(has_unsaved_changes(s));
    EXPECT_TRUE(undo(s));
    EXPECT_TRUE(has_unsaved_changes(s)) << "undone past the save";
    // A new edit after the undo: a state never saved, even though as many steps are on the stack.
    EXPECT_TRUE(s.editor.rename(0, "renamed"));
    EXPECT_TRUE(has_unsaved_changes(s));
    // A gesture in progress counts before it is recorded.
    ASSERT_TRUE(save_scene(s, file.string()));
    s.editor.begin_gesture();
    EXPECT_FALSE(s.editor.edit_shape(0, translated(s.scene().shapes[0].shape, Vec3d(0, 1, 0))).has_value());
    EXPECT_TRUE(has_unsaved_changes(s));
    EXPECT_TRUE(s.editor.end_gesture());
    EXPECT_TRUE(has_unsaved_changes(s));
    // Forgetting the history keeps the answer.
    s.editor.clear_history();
    EXPECT_TRUE(has_unsaved_changes(s));
    ASSERT_TRUE(save_scene(s, file.string()));
    s.editor.clear_history();
    EXPECT_FALSE(has_unsaved_changes(s));
    // Opening a file is a saved scene.
    EXPECT_FALSE(s.editor.edit_shape(0, translated(s.scene().shapes[0].shape, Vec3d(0, 1, 0))).has_value());
    ASSERT_TRUE(open_scene(s, file.string()));
    EXPECT_FALSE(has_unsaved_changes(s));
    EXPECT_TRUE(undo(s)) << "the open is undoable";
    EXPECT_TRUE(has_unsaved_changes(s)) << "the scene before the open was never saved as that file";
}

TEST(AppState, TheOldestForgottenUndoStepStillCountsAsAChange) {
    SceneEditor e(showcase_scene(), 2);
    EXPECT_FALSE(e.modified());
    for (int k = 0; k < 4; ++k) EXPECT_TRUE(e.rename(0, "n" + std::to_string(k)));
    while (e.undo()) {
    }
    EXPECT_TRUE(e.modified()) << "two renames were forgotten: the scene is not the one at the start";
}

TEST(AppState, ActionsThatDiscardEditsWaitForTheAnswerToTheQuestion) {
    AppState s;
    s.editor.reset(showcase_scene());
    const fs::path other = temp("other_scene.json");
    std::ofstream(other) << "{\"shapes\": [{\"name\": \"b\", \"type\": \"sphere\", \"center\": [0, 0, 0], \"radius\": 1}]}";
    // Unmodified: done at once.
    EXPECT_TRUE(request_scene_action(s, {SceneAction::Kind::Open, other.string()}));
    EXPECT_EQ(s.scene_path, other.string());
    EXPECT_FALSE(s.pending_action);
    // Modified: Quit waits; Cancel drops it and keeps the scene and its edits.
    EXPECT_FALSE(s.editor.edit_shape(0, translated(s.scene().shapes[0].shape, Vec3d(1, 0, 0))).has_value());
    const Scene edited = s.scene();
    EXPECT_FALSE(request_scene_action(s, {SceneAction::Kind::Quit, ""}));
    EXPECT_FALSE(s.quit_requested);
    ASSERT_TRUE(s.pending_action);
    EXPECT_EQ(scene_action_text(*s.pending_action), "quitting");
    EXPECT_EQ(answer_unsaved_changes(s, UnsavedChoice::Cancel), PendingOutcome::Done);
    EXPECT_FALSE(s.pending_action);
    EXPECT_FALSE(s.quit_requested);
    EXPECT_TRUE(s.scene() == edited);
    // Discard: the action is done, the edits are gone.
    EXPECT_FALSE(request_scene_action(s, {SceneAction::Kind::NewScene, ""}));
    EXPECT_EQ(answer_unsaved_changes(s, UnsavedChoice::Discard), PendingOutcome::Done);
    EXPECT_TRUE(s.scene().shapes.empty());
    EXPECT_FALSE(has_unsaved_changes(s));
    // Save with a file: saved there, then done.
    ASSERT_TRUE(open_scene(s, other.string()));
    EXPECT_FALSE(s.editor.edit_shape(0, translated(s.scene().shapes[0].shape, Vec3d(2, 0, 0))).has_value());
    const Scene to_save = s.scene();
    EXPECT_FALSE(request_scene_action(s, {SceneAction::Kind::Quit, ""}));
    EXPECT_EQ(answer_unsaved_changes(s, UnsavedChoice::Save), PendingOutcome::Done);
    EXPECT_TRUE(s.quit_requested);
    s.quit_requested = false;
    const auto reread = load_scene(other.string());
    ASSERT_TRUE(std::holds_alternative<Scene>(reread));
    EXPECT_TRUE(std::get<Scene>(reread) == to_save);
    // Save without a file: Save as first; the action follows a save, and is dropped without one.
    s.scene_path.clear();
    EXPECT_FALSE(s.editor.rename(0, "c") == false);
    EXPECT_FALSE(request_scene_action(s, {SceneAction::Kind::Open, other.string()}));
    EXPECT_EQ(answer_unsaved_changes(s, UnsavedChoice::Save), PendingOutcome::NeedsSaveAs);
    EXPECT_TRUE(s.pending_waits_for_save_as);
    finish_save_as(s, false);
    EXPECT_FALSE(s.pending_action);
    EXPECT_EQ(s.scene().shapes[0].name, "c") << "no save, no open";
    EXPECT_FALSE(request_scene_action(s, {SceneAction::Kind::Open, other.string()}));
    EXPECT_EQ(answer_unsaved_changes(s, UnsavedChoice::Save), PendingOutcome::NeedsSaveAs);
    ASSERT_TRUE(save_scene(s, temp("saved_as.json").string()));
    finish_save_as(s, true);
    EXPECT_FALSE(s.pending_action);
    EXPECT_EQ(s.scene_path, other.string()) << "saved, then opened";
}
