// The harness's command line: the demo's options plus the test and benchmark drivers; bad input
// refused with a message. The random edits' broken files.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <variant>

#include "app/AppState.h"
#include "harness/HarnessOptions.h"

using raypick::app::harness_usage;
using raypick::app::parse_harness_command_line;

TEST(HarnessOptions, ParsesTheDriversAndTheDemosOptions) {
    const auto r = parse_harness_command_line({"raypick_harness", "--shapes", "1000", "--bench-frames", "50",
                                               "--random-edits", "400", "--seed", "7", "--sabotage-model",
                                               "--extreme-values", "--screenshot", "last.png"});
    ASSERT_EQ(r.error, "");
    EXPECT_EQ(r.options.demo.generated_shapes, 1000);
    EXPECT_EQ(r.options.demo.screenshot_file, "last.png");
    EXPECT_EQ(r.options.bench_frames, 50);
    EXPECT_EQ(r.options.edits.actions, 400);
    EXPECT_EQ(r.options.edits.seed, 7u);
    EXPECT_TRUE(r.options.edits.sabotage);
    EXPECT_TRUE(r.options.edits.extreme);
    EXPECT_FALSE(parse_harness_command_line({"raypick_harness", "--bench-frames", "50"}).options.bench_orbit);
    EXPECT_TRUE(parse_harness_command_line({"raypick_harness", "--bench-frames", "50", "--bench-orbit"}).options.bench_orbit);
    EXPECT_EQ(parse_harness_command_line({"raypick_harness", "--idle-seconds", "2"}).options.idle_seconds, 2);
    EXPECT_NE(parse_harness_command_line({"raypick_harness", "--idle-seconds", "0"}).error, "");
    const auto shifted = parse_harness_command_line({"raypick_harness", "--raycast-check-shift", "6"});
    EXPECT_EQ(shifted.options.raycast_check_shift, 6);
    EXPECT_TRUE(shifted.options.demo.raycast_check) << "a shifted check is a check";
    EXPECT_NE(harness_usage().find("--random-edits"), std::string::npos);
    EXPECT_NE(harness_usage().find("--scene"), std::string::npos);
}

TEST(HarnessOptions, RefusesBadInput) {
    EXPECT_NE(parse_harness_command_line({"raypick_harness", "--random-edits"}).error, "");
    EXPECT_NE(parse_harness_command_line({"raypick_harness", "--random-edits", "0"}).error, "");
    EXPECT_NE(parse_harness_command_line({"raypick_harness", "--seed", "-1"}).error, "");
    EXPECT_NE(parse_harness_command_line({"raypick_harness", "--bench-frames", "x"}).error, "");
    EXPECT_NE(parse_harness_command_line({"raypick_harness", "--width", "banana"}).error, "");
    EXPECT_NE(parse_harness_command_line({"raypick_harness", "--bogus"}).error, "");
}

// Each broken file the random edits open must be refused for what is wrong with it, not for an
// unknown field (a bad rotation under a key the loader does not know would never test rotations).
TEST(HarnessOptions, TheRandomEditsBrokenFilesAreRefusedForWhatIsWrongWithThem) {
    const auto dir = std::filesystem::temp_directory_path() / "raypick_broken_files_test";
    std::filesystem::create_directories(dir);
    bool rotations = false;
    for (const raypick::app::BrokenFile& f : raypick::app::broken_scene_files()) {
        SCOPED_TRACE(f.name);
        const auto path = dir / f.name;
        std::ofstream(path, std::ios::binary) << f.text;
        const auto loaded = raypick::app::load_scene(path.string());
        ASSERT_TRUE(std::holds_alternative<std::string>(loaded)) << "the broken file was opened";
        const std::string& error = std::get<std::string>(loaded);
        EXPECT_EQ(error.find("unknown field"), std::string::npos) << error;
        if (error.find("axes") != std::string::npos || error.find("euler_degrees") != std::string::npos) rotations = true;
    }
    EXPECT_TRUE(rotations) << "some broken file has a bad rotation";
}
