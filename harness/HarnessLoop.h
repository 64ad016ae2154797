// raypick harness: what the test and benchmark drivers add to the demo's frame loop — the random
// edits (driving every frame, GL errors checked, a summary at the end), the benchmark's frame
// timing and orbit, the idle run's frame count, and the ray-cast check against deliberately
// shifted OpenGL ids.
#pragma once

#include <chrono>
#include <ctime>
#include <memory>
#include <vector>

#include "app/DemoLoop.h"
#include "app/FrameDriver.h"
#include "harness/HarnessOptions.h"

namespace raypick::app {

/// --bench-orbit: every frame the camera orbits a step and the cursor moves across the view, so
/// the hover pick and the mouse ray change every frame.
class BenchOrbit : public FrameDriver {
public:
    void before_frame(AppState& s, Cursor& cursor) override;
};

class HarnessLoop : public LoopHooks {
public:
    explicit HarnessLoop(const HarnessOptions& options) : opt_(options) {}

    bool timed() const override { return opt_.bench_frames > 0 || opt_.edits.actions > 0; }
    void started(App& app, GLFWwindow* window) override;
    bool after_render(App& app, int fb_width, int fb_height) override;
    bool after_swap(App& app) override;
    /// --idle-seconds: false once the time is up.
    bool idle_wake(App& app) override;
    /// Prints the benchmark figures (if any) to stdout.
    void finished(App& app) override;
    int exit_code() const override { return exit_code_; }

    static constexpr int kBenchWarmup = 10;

private:
    /// The random edits' frame: GL errors to the driver; when it is done, writes the last frame's
    /// picture, prints the mismatches and the summary, sets the exit code. False: stop.
    bool random_edits_after_render(int fb_width, int fb_height);

    HarnessOptions opt_;
    std::unique_ptr<RandomEdits> edits_;
    BenchOrbit orbit_;
    int frame_ = 0;
    int exit_code_ = 0;
    std::vector<double> bench_ms_;
    std::clock_t bench_cpu_start_ = 0;
    double bench_cpu_ms_ = 0.0;  ///< process CPU time over the timed frames
    std::chrono::steady_clock::time_point frame_start_ = std::chrono::steady_clock::now();
    std::chrono::steady_clock::time_point idle_start_ = std::chrono::steady_clock::now();
};

}  // namespace raypick::app
