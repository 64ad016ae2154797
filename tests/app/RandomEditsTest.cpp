// The demo under the random-edit driver (`raypick_harness --random-edits N --seed S`,
// harness/RandomEdits.h): random edits, NaN and infinities typed into fields, drags of shapes and
// handles to zero size, broken files, save and reopen, undo and redo, all through the demo's
// command layer, with every frame drawn and the scene checked against the stack of scenes undo
// must restore. And the checker can fail: with the test aid --sabotage-model its model skips one
// undo, which must be reported.
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include "AppRunner.h"

namespace fs = std::filesystem;
using namespace raypick::app::test;

namespace {

struct Summary {
    bool found = false;
    long actions = 0, undos = 0, redos = 0, refused = 0, bad_kept = 0, mismatches = -1;
    std::map<std::string, long> kinds;
};

Summary parse_summary(const std::string& out) {
    Summary s;
    std::smatch m;
    const std::regex line(
        R"(random-edits: (\d+) actions, (\d+) undos, (\d+) redos, (\d+) refused edits, (\d+) bad files kept, (\d+) mismatches)");
    if (!std::regex_search(out, m, line)) return s;
    s.found = true;
    s.actions = std::stol(m[1]);
    s.undos = std::stol(m[2]);
    s.redos = std::stol(m[3]);
    s.refused = std::stol(m[4]);
    s.bad_kept = std::stol(m[5]);
    s.mismatches = std::stol(m[6]);
    const std::regex kinds_line(R"(random-edits: kinds:([^\n]*))");
    if (std::regex_search(out, m, kinds_line)) {
        const std::string kinds = m[1];
        const std::regex kv(R"((\w+)=(\d+))");
        for (auto it = std::sregex_iterator(kinds.begin(), kinds.end(), kv); it != std::sregex_iterator(); ++it)
            s.kinds[(*it)[1]] = std::stol((*it)[2]);
    }
    return s;
}

void expect_clean_run(int actions, int seed) {
    const fs::path shot = tmp_dir() / "last_frame.png";
    const AppRun r = run_harness("--random-edits " + std::to_string(actions) + " --seed " + std::to_string(seed) + " --screenshot '" +
                          shot.string() + "'");
    SCOPED_TRACE(r.output);
    EXPECT_EQ(r.code, 0);
    const Summary s = parse_summary(r.output);
    ASSERT_TRUE(s.found) << "no summary line";
    EXPECT_EQ(s.actions, actions);
    EXPECT_EQ(s.mismatches, 0);
    EXPECT_EQ(r.output.find("mismatch at"), std::string::npos);
    EXPECT_GT(s.undos, 0);
    EXPECT_GT(s.redos, 0);
    EXPECT_GT(s.refused, 0);
    EXPECT_GT(s.bad_kept, 0);
    // Every kind of action happened, and handles were snapped onto degenerate shapes.
    for (const char* kind : {"add", "duplicate", "delete", "rename", "edit", "drag", "drag_handle", "drag_undo",
                             "camera", "bad_file", "save_reopen", "undo", "redo", "view", "snapped"}) {
        EXPECT_GT(s.kinds.count(kind) ? s.kinds.at(kind) : 0, 0) << kind;
    }
    // The last frame was drawn: a full-size picture with the panels and the view (not one colour).
    const Image img = load_png(shot.string());
    ASSERT_GT(img.width, 0) << "no screenshot of the last frame";
    EXPECT_EQ(img.width, 1280);
    EXPECT_EQ(img.height, 720);
    std::set<int> colours;
    for (std::size_t i = 0; i < img.rgb.size() / 3; i += 97)
        colours.insert(img.rgb[3 * i] << 16 | img.rgb[3 * i + 1] << 8 | img.rgb[3 * i + 2]);
    EXPECT_GT(colours.size(), 5u);
}

}  // namespace

TEST(AppRandomEdits, FourHundredRandomActionsSeed1KeepTheSceneWhatUndoSays) {
    REQUIRE_DISPLAY();
    expect_clean_run(400, 1);
}

TEST(AppRandomEdits, FourHundredRandomActionsSeed7KeepTheSceneWhatUndoSays) {
    REQUIRE_DISPLAY();
    expect_clean_run(400, 7);
}

TEST(AppRandomEdits, TheCheckerFailsWhenItsModelSkipsAnUndo) {
    // Negative control: --sabotage-model (a test aid) makes the model forget one undo that changed
    // the scene; the run must report the mismatch and exit 1.
    REQUIRE_DISPLAY();
    const AppRun r = run_harness("--random-edits 200 --seed 1 --sabotage-model");
    SCOPED_TRACE(r.output);
    EXPECT_EQ(r.code, 1);
    EXPECT_NE(r.output.find("random-edits: mismatch at action"), std::string::npos);
    EXPECT_NE(r.output.find("after undo"), std::string::npos);
    const Summary s = parse_summary(r.output);
    ASSERT_TRUE(s.found);
    EXPECT_GT(s.mismatches, 0);
}

TEST(AppRandomEdits, ExtremeValuesNearDblMaxDoNotCrash) {
    // Regression: valid shapes at +-DBL_MAX made Bvh<double>::build index a bin with int(NaN)
    // (centroid sums overflowed to inf, inf - inf) and crash; fixed in geometry/Bvh.h.
    REQUIRE_DISPLAY();
    const AppRun r = run_harness("--random-edits 400 --seed 1 --extreme-values");
    SCOPED_TRACE(r.output);
    EXPECT_EQ(r.code, 0);
    EXPECT_NE(r.output.find(", 0 mismatches"), std::string::npos);
}
