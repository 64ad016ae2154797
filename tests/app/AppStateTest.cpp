// The app's file actions: a bad file keeps the current scene and says what is wrong; a good one
// replaces it (undoably); save then open gives the same scene.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

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

#endif
