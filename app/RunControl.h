// raypick demo: what happens around each frame besides drawing — screenshots (--screenshot, F12 / P),
// frame limits (--frames), the benchmark (--bench-frames), --raycast-check and quitting. Keeps
// main's loop short.
#pragma once

#include <chrono>
#include <ctime>
#include <string>
#include <vector>

#include "app/CommandLine.h"

namespace raypick::app {

class Abuse;
class App;

class RunControl {
public:
    explicit RunControl(const CommandLine& options) : opt_(options) {}

    /// After rendering, before the buffers swap: writes a requested screenshot (reads the back
    /// buffer). Returns false when the loop should stop now (screenshot mode is done).
    bool after_render(App& app, int fb_width, int fb_height);
    /// After the swap: frame limits, benchmark timing, quit requests. False: stop.
    bool after_swap(App& app);
    /// Prints the benchmark figures (if any) to stdout.
    void report(const App& app) const;
    int exit_code() const { return exit_code_; }

    static constexpr int kScreenshotFrame = 4;  ///< ImGui sizes its windows during the first frames
    static constexpr int kBenchWarmup = 10;

private:
    /// --raycast-check: prints the figures, sets the exit code, writes the difference picture to
    /// --screenshot's path if given. Always false (the run ends).
    bool raycast_check(App& app);
    /// --abuse: hands the frame's GL errors to the driver; when it is done, writes --screenshot's
    /// picture (the last frame), prints the mismatches and the summary, sets the exit code. False: stop.
    bool abuse_after_render(Abuse& abuse, int fb_width, int fb_height);

    CommandLine opt_;
    int frame_ = 0;
    int exit_code_ = 0;
    std::vector<double> bench_ms_;
    std::clock_t bench_cpu_start_ = 0;
    double bench_cpu_ms_ = 0.0;  ///< process CPU time over the timed frames
    std::chrono::steady_clock::time_point frame_start_ = std::chrono::steady_clock::now();
};

}  // namespace raypick::app
