#include "harness/HarnessLoop.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <numeric>

#include <glad/gl.h>
#include <GLFW/glfw3.h>

#include "app/App.h"
#include "app/RunControl.h"

namespace raypick::app {

void BenchOrbit::before_frame(AppState& s, Cursor& cursor) {
    const double f = static_cast<double>(s.stats.frames);
    const ViewRect& v = s.viewport;
    cursor.x = v.x + v.width * (0.5 + 0.4 * std::sin(f * 0.047));
    cursor.y = v.y + v.height * (0.5 + 0.4 * std::sin(f * 0.031));
    cursor.ui_wants = false;
    s.camera.orbit(2.0, 1.5 * std::cos(f * 0.02));  // about a degree a frame around, a little up and down
}

void HarnessLoop::started(App& app, GLFWwindow* window) {
    app.state().view.panels.cover_view = opt_.cover_view;
    idle_start_ = std::chrono::steady_clock::now();
    if (opt_.edits.actions > 0) {
        edits_ = std::make_unique<RandomEdits>(opt_.edits, app.state());
        app.set_driver(edits_.get());
    } else if (opt_.bench_orbit) {
        app.set_driver(&orbit_);
    }
    if (opt_.bench_frames > 0) {
        int w = 0, h = 0;
        glfwGetWindowSize(window, &w, &h);
        glfwSetCursorPos(window, w * 0.5, h * 0.5);  // the mouse ray through the middle
    }
}

bool HarnessLoop::after_render(App& app, int fb_width, int fb_height) {
    ++frame_;
    if (opt_.raycast_check_shift != 0) {
        exit_code_ = report_raycast_check(app, opt_.raycast_check_shift, opt_.demo.screenshot_file);
        return false;  // one check, then exit
    }
    if (edits_) return random_edits_after_render(fb_width, fb_height);
    return true;
}

bool HarnessLoop::random_edits_after_render(int fb_width, int fb_height) {
    // Every frame must draw without a GL error (degenerate and huge shapes included).
    for (GLenum e = glGetError(), n = 0; e != GL_NO_ERROR && n < 8; e = glGetError(), ++n) edits_->note_gl_error(e);
    if (!edits_->done()) return true;
    if (!opt_.demo.screenshot_file.empty()) write_screenshot(opt_.demo.screenshot_file, fb_width, fb_height);
    for (const std::string& m : edits_->mismatches()) std::printf("%s\n", m.c_str());
    std::printf("%s", edits_->summary().c_str());
    std::fflush(stdout);
    exit_code_ = edits_->exit_code();
    return false;
}

bool HarnessLoop::idle_wake(App& app) {
    (void)app;
    return opt_.idle_seconds <= 0 || std::chrono::steady_clock::now() - idle_start_ < std::chrono::seconds(opt_.idle_seconds);
}

bool HarnessLoop::after_swap(App& app) {
    if (opt_.idle_seconds > 0) return idle_wake(app);
    if (opt_.bench_frames <= 0) return true;
    glFinish();  // count the GPU's (llvmpipe's) work in the frame that caused it
    const auto now = std::chrono::steady_clock::now();
    if (frame_ > kBenchWarmup) bench_ms_.push_back(std::chrono::duration<double, std::milli>(now - frame_start_).count());
    frame_start_ = now;
    // The process's CPU time, all threads (the software renderer's included), over the timed frames.
    if (frame_ == kBenchWarmup) bench_cpu_start_ = std::clock();
    if (static_cast<int>(bench_ms_.size()) >= opt_.bench_frames) {
        bench_cpu_ms_ = 1000.0 * double(std::clock() - bench_cpu_start_) / CLOCKS_PER_SEC;
        return false;
    }
    return true;
}

void HarnessLoop::finished(App& app) {
    if (!opt_.layout_report.empty()) {
        std::ofstream out(opt_.layout_report);
        out << app.layout_report();
        if (!out) {
            std::fprintf(stderr, "raypick_harness: cannot write %s\n", opt_.layout_report.c_str());
            exit_code_ = 1;
        }
    }
    if (opt_.idle_seconds > 0) {
        const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - idle_start_).count();
        std::printf("raypick idle: %d frames in %.1f s\n", frame_, s);
    }
    if (bench_ms_.empty()) return;
    std::vector<double> sorted = bench_ms_;
    std::sort(sorted.begin(), sorted.end());
    const double mean = std::accumulate(sorted.begin(), sorted.end(), 0.0) / static_cast<double>(sorted.size());
    const AppState& st = app.state();
    std::printf("raypick bench: %zu shapes, %zu frames at %d x %d: mean %.2f ms, median %.2f ms, worst %.2f ms, "
                "cpu %.2f ms a frame (all threads), last pick %.1f us, %zu wire vertices, %zu scene uploads\n",
                st.scene().shapes.size(), sorted.size(), opt_.demo.width, opt_.demo.height, mean,
                sorted[sorted.size() / 2], sorted.back(), bench_cpu_ms_ / double(sorted.size()), st.stats.pick_us,
                app.renderer().scene_line_vertices(), app.renderer().scene_rebuilds());
}

}  // namespace raypick::app
