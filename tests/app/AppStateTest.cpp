// The app's file actions: a bad file keeps the current scene and says what is wrong; a good one
// replaces it (undoably); save then open gives the same scene.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>

#include "app/AppState.h"
#include "app/SceneEdit.h"
#include "app/Showcase.h"

using namespace raypick;
using namespace raypick::app;
namespace fs = std::filesystem;

#if RAYPICK_HAVE_SCENE_FILE

namespace {
fs::path temp(const std::string& name) {
    const fs::path dir = fs::temp_directory_path() / "raypick_app_state_test";
    fs::create_directories(dir);
    return dir / name;
}
}  // namespace

TEST(AppState, ABadFileKeepsTheSceneAndNamesTheProblem) {
    AppState s;
    s.scene = showcase_scene();
    const Scene before = s.scene;
    const fs::path bad = temp("bad_radius.json");
    std::ofstream(bad) << "{\"shapes\": [{\"type\": \"sphere\", \"center\": [0, 0, 0], \"radius\": -1}]}";
    EXPECT_FALSE(open_scene(s, bad.string()));
    EXPECT_TRUE(same_scene(s.scene, before));
    EXPECT_NE(s.error_message.find("bad_radius.json"), std::string::npos) << s.error_message;
    EXPECT_NE(s.error_message.find("radius"), std::string::npos) << s.error_message;
    EXPECT_FALSE(s.history.can_undo());

    s.error_message.clear();
    const fs::path syntax = temp("syntax.json");
    std::ofstream(syntax) << "{\"shapes\": [";
    EXPECT_FALSE(open_scene(s, syntax.string()));
    EXPECT_TRUE(same_scene(s.scene, before));
    EXPECT_FALSE(s.error_message.empty());
    EXPECT_FALSE(open_scene(s, temp("missing.json").string()));
    EXPECT_TRUE(same_scene(s.scene, before));
    // A directory is not a scene file (and must not throw).
    EXPECT_FALSE(open_scene(s, fs::temp_directory_path().string()));
    EXPECT_TRUE(same_scene(s.scene, before));
    // Saving into a directory that does not exist fails with a message, not an exception.
    EXPECT_FALSE(save_scene(s, (temp("no_such_dir") / "x.json").string()));
    EXPECT_FALSE(s.error_message.empty());
}

TEST(AppState, SaveThenOpenRoundTripsAndOpeningIsUndoable) {
    AppState s;
    s.scene = showcase_scene();
    s.sel.selected = 2;
    const fs::path file = temp("round_trip.json");
    ASSERT_TRUE(save_scene(s, file.string())) << s.error_message;
    EXPECT_EQ(s.scene_path, file.string());
    const Scene saved = s.scene;

    AppState t;
    add_shape(t.scene, ShapeType::Capsule, Vec3d(0.0));
    const Scene old = t.scene;
    ASSERT_TRUE(open_scene(t, file.string())) << t.error_message;
    EXPECT_TRUE(same_scene(t.scene, saved));
    EXPECT_FALSE(t.sel.selected);
    ASSERT_TRUE(undo(t));
    EXPECT_TRUE(same_scene(t.scene, old));
    ASSERT_TRUE(redo(t));
    EXPECT_TRUE(same_scene(t.scene, saved));
}

TEST(AppState, CameraComesFromTheSceneOrFramesIt) {
    AppState s;
    s.scene = showcase_scene();
    reset_camera(s);
    EXPECT_LT(glm::length(s.camera.eye() - s.scene.camera->eye), 1e-9);
    s.scene.camera.reset();
    reset_camera(s);
    const Aabb<double> b = scene_bounds(s.scene);
    EXPECT_LT(glm::length(s.camera.target - (b.min + b.max) * 0.5), 1e-12);
    s.sel.selected = 0;
    frame_selection(s);
    EXPECT_LT(glm::length(s.camera.target - shape_center(s.scene.shapes[0].shape)), 1e-12);
}

TEST(AppState, TheSceneVersionChangesWithEveryEditKindUndoRedoAndGesture) {
    AppState s;
    s.scene = showcase_scene();
    update_scene_version(s, false);
    auto bumps = [&](const char* what, const std::function<void()>& edit) {
        SCOPED_TRACE(what);
        const std::uint64_t before = s.scene_version;
        edit();
        update_scene_version(s, false);
        EXPECT_GT(s.scene_version, before);
        // And a frame without an edit keeps it (during a gesture every frame may move something).
        const std::uint64_t after = s.scene_version;
        update_scene_version(s, false);
        if (s.history.in_gesture()) EXPECT_GT(s.scene_version, after);
        else EXPECT_EQ(s.scene_version, after);
    };
    auto one_shot = [&](const std::function<bool(Scene&)>& edit) {
        const Scene before = s.scene;
        ASSERT_TRUE(edit(s.scene));
        s.history.record(before);
    };
    bumps("add", [&] { one_shot([](Scene& sc) { add_shape(sc, ShapeType::Sphere, Vec3d(1.0)); return true; }); });
    bumps("duplicate", [&] { one_shot([](Scene& sc) { return duplicate_shape(sc, 0, Vec3d(0.5)).has_value(); }); });
    bumps("rename", [&] { one_shot([](Scene& sc) { return rename_shape(sc, 1, "renamed"); }); });
    bumps("delete", [&] { one_shot([](Scene& sc) { return delete_shape(sc, 2); }); });
    bumps("undo", [&] { EXPECT_TRUE(undo(s)); });
    bumps("redo", [&] { EXPECT_TRUE(redo(s)); });
    bumps("replace (preset, new scene)", [&] { replace_scene(s, Scene{}, "", true); });
    bumps("undo the replacement", [&] { EXPECT_TRUE(undo(s)); });
    // A gesture (a drag or an Inspector slider): every frame while it goes on, and when it ends.
    s.history.begin(s.scene);
    for (int frame = 0; frame < 3; ++frame)
        bumps("a drag's frame", [&] { s.scene.shapes[0].shape = translated(s.scene.shapes[0].shape, Vec3d(0.1, 0, 0)); });
    bumps("the end of the drag", [&] { EXPECT_TRUE(s.history.end(s.scene)); });
    bumps("an Inspector edit", [&] {
        s.history.begin(s.scene);
        Shape<double> edited = s.scene.shapes[0].shape;
        edited = translated(edited, Vec3d(0, 1, 0));
        EXPECT_FALSE(apply_shape_edit(s.scene, 0, edited).has_value());
    });
    bumps("its end", [&] { EXPECT_TRUE(s.history.end(s.scene)); });
    // Direct edits outside the history (the abuse driver) are announced with `editing`.
    const std::uint64_t v = s.scene_version;
    update_scene_version(s, true);
    EXPECT_GT(s.scene_version, v);
    // Nothing to undo or redo changes nothing.
    s.history.clear();
    update_scene_version(s, false);
    const std::uint64_t idle = s.scene_version;
    EXPECT_FALSE(undo(s));
    EXPECT_FALSE(redo(s));
    update_scene_version(s, false);
    EXPECT_EQ(s.scene_version, idle);
}

TEST(AppState, OpeningAFileChangesTheSceneVersionAndABadFileDoesNot) {
    AppState s;
    s.scene = showcase_scene();
    update_scene_version(s, false);
    const std::uint64_t v = s.scene_version;
    const fs::path bad = temp("bad_for_version.json");
    std::ofstream(bad) << "{\"shapes\": [";
    EXPECT_FALSE(open_scene(s, bad.string()));
    update_scene_version(s, false);
    EXPECT_EQ(s.scene_version, v);
    const fs::path good = temp("good_for_version.json");
    std::ofstream(good) << "{\"shapes\": [{\"type\": \"sphere\", \"center\": [0, 0, 0], \"radius\": 1}]}";
    ASSERT_TRUE(open_scene(s, good.string())) << s.error_message;
    update_scene_version(s, false);
    EXPECT_GT(s.scene_version, v);
}

#endif
