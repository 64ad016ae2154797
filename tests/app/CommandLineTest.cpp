// Command-line parsing: every option, and bad input refused with a message (never a crash).
#include <gtest/gtest.h>

#include "app/CommandLine.h"

using raypick::app::parse_command_line;

TEST(CommandLine, ParsesEveryOption) {
    const auto r = parse_command_line({"raypick", "--scene", "a.json", "--screenshot", "out.png", "--width", "640",
                                       "--height", "480", "--ray", "1", "2", "3", "0", "0", "-1", "--frames", "5",
                                       "--no-ui", "--solid", "--compare"});
    ASSERT_EQ(r.error, "");
    EXPECT_EQ(r.options.scene_file, "a.json");
    EXPECT_EQ(r.options.screenshot_file, "out.png");
    EXPECT_EQ(r.options.width, 640);
    EXPECT_EQ(r.options.height, 480);
    ASSERT_TRUE(r.options.ray);
    EXPECT_EQ(r.options.ray->origin, glm::dvec3(1, 2, 3));
    EXPECT_EQ(r.options.ray->direction, glm::dvec3(0, 0, -1));
    EXPECT_EQ(r.options.frames, 5);
    EXPECT_TRUE(r.options.no_ui);
    EXPECT_TRUE(r.options.solid);
    EXPECT_TRUE(r.options.compare);
    EXPECT_EQ(parse_command_line({"raypick", "--shapes", "1000"}).options.generated_shapes, 1000);
    EXPECT_EQ(parse_command_line({"raypick", "--open", "b.json"}).options.open_file, "b.json");
    EXPECT_FALSE(parse_command_line({"raypick"}).options.open_dialog);
    EXPECT_EQ(parse_command_line({"raypick", "--open-dialog", "scenes"}).options.open_dialog, "scenes");
    EXPECT_NE(parse_command_line({"raypick", "--open-dialog"}).error, "");
}

TEST(CommandLine, TheDemoHasNoTestOrBenchmarkDrivers) {
    // They belong to raypick_harness (harness/HarnessOptions.h): the user's program refuses them
    // and its help does not mention them.
    for (const char* driver : {"--random-edits", "--seed", "--sabotage-model", "--extreme-values",
                               "--raycast-check-shift", "--bench-frames", "--bench-orbit", "--idle-seconds", "--abuse"}) {
        EXPECT_NE(parse_command_line({"raypick", driver, "5"}).error, "") << driver;
        EXPECT_EQ(raypick::app::usage().find(driver), std::string::npos) << driver;
    }
}

TEST(CommandLine, RefusesBadInput) {
    EXPECT_NE(parse_command_line({"raypick", "--width"}).error, "");
    EXPECT_NE(parse_command_line({"raypick", "--width", "abc"}).error, "");
    EXPECT_NE(parse_command_line({"raypick", "--width", "-5"}).error, "");
    EXPECT_NE(parse_command_line({"raypick", "--ray", "1", "2", "3"}).error, "");
    EXPECT_NE(parse_command_line({"raypick", "--ray", "0", "0", "0", "0", "0", "0"}).error, "");  // zero direction
    EXPECT_NE(parse_command_line({"raypick", "--ray", "0", "0", "nan", "0", "0", "1"}).error, "");
    EXPECT_NE(parse_command_line({"raypick", "--bogus"}).error, "");
    EXPECT_NE(parse_command_line({"raypick", "--shapes", "100000000"}).error, "");  // bounded memory
    EXPECT_TRUE(parse_command_line({"raypick", "--help"}).options.help);
}
