// Shared plumbing of the tests that run the demo executable under a display: skip without one, a
// temporary folder per test, run the app and capture its output, read its PNG screenshots.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <glm/glm.hpp>

namespace raypick::app::test {

bool have_display();

#define REQUIRE_DISPLAY()                                                                                     \
    do {                                                                                                      \
        if (!::raypick::app::test::have_display())                                                            \
            GTEST_SKIP() << "no DISPLAY: run the tests under xvfb-run (as scripts/test.sh does)";             \
    } while (0)

/// RAYPICK_TEST_TMP/<current test name>, created.
std::filesystem::path tmp_dir();

/// tmp_dir()/config: the XDG_CONFIG_HOME of the apps the current test starts (set in this
/// process's environment by run_app(), run_harness() and use_test_config_home()), so that they
/// never read or write the user's real settings.
std::filesystem::path config_home();
/// Points XDG_CONFIG_HOME at config_home() for the apps this process starts from now on.
void use_test_config_home();

/// `s` in single quotes, for a shell command line.
std::string quote(const std::string& s);

struct AppRun {
    int code = -1;       ///< exit code, -1 when the app did not exit normally (crash, signal)
    std::string output;  ///< stdout and stderr together
};

/// Runs the demo with `args` (a shell command line fragment), `env` prefixed (e.g. "VAR=1"), its
/// config directory under config_home().
AppRun run_app(const std::string& args, const std::string& env = "");
/// The same with the harness (raypick_harness: the demo plus its test and benchmark drivers).
AppRun run_harness(const std::string& args, const std::string& env = "");

/// An RGB picture; empty (width 0) when the file could not be read.
struct Image {
    int width = 0, height = 0;
    std::vector<unsigned char> rgb;
    glm::ivec3 at(int x, int y) const {
        const std::size_t i = (static_cast<std::size_t>(y) * static_cast<std::size_t>(width) + static_cast<std::size_t>(x)) * 3;
        return {rgb[i], rgb[i + 1], rgb[i + 2]};
    }
};
Image load_png(const std::string& path);

}  // namespace raypick::app::test
