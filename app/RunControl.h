// raypick demo: what happens around each frame besides drawing — screenshots (--screenshot, F12 / P),
// frame limits (--frames), --raycast-check and quitting. Keeps the frame loop short.
#pragma once

#include <string>

#include "app/CommandLine.h"

namespace raypick::app {

class App;

class RunControl {
public:
    explicit RunControl(const CommandLine& options) : opt_(options) {}

    /// After rendering, before the buffers swap: writes a requested screenshot (reads the back
    /// buffer). Returns false when the loop should stop now (screenshot mode is done).
    bool after_render(App& app, int fb_width, int fb_height);
    /// After the swap: frame limits, quit requests. False: stop.
    bool after_swap(App& app);
    int exit_code() const { return exit_code_; }
    /// Frames rendered so far.
    int frame() const { return frame_; }

    static constexpr int kScreenshotFrame = 4;  ///< ImGui sizes its windows during the first frames

private:
    CommandLine opt_;
    int frame_ = 0;
    int exit_code_ = 0;
};

/// --raycast-check: compares the pictures (the OpenGL ids shifted `shift` pixels right, a test aid
/// of the harness), prints the figures, writes the difference picture to `png_path` if not empty.
/// Returns the exit code: 0 if the check passed.
int report_raycast_check(App& app, int shift, const std::string& png_path);

/// Writes the current back buffer to `path` and says so on stdout (or the error on stderr).
/// Returns false on error.
bool write_screenshot(const std::string& path, int fb_width, int fb_height);

}  // namespace raypick::app
