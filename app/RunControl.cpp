#include "app/RunControl.h"

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <numeric>

#include <glad/gl.h>

#include "app/App.h"
#include "app/Screenshot.h"

namespace raypick::app {

bool RunControl::after_render(App& app, int fb_width, int fb_height) {
    ++frame_;
    if (opt_.raycast_check) return raycast_check(app);
    if (Abuse* abuse = app.abuse()) return abuse_after_render(*abuse, fb_width, fb_height);
    AppState& st = app.state();
    const bool screenshot_mode = !opt_.screenshot_file.empty();
    if (screenshot_mode && frame_ == kScreenshotFrame) {
        st.screenshot_path = opt_.screenshot_file;
        st.screenshot_requested = true;
    }
    if (!st.screenshot_requested) return true;
    st.screenshot_requested = false;
    if (auto err = save_screenshot(st.screenshot_path, fb_width, fb_height)) {
        st.error_title = "Could not save the screenshot";
        st.error_message = *err;
        if (screenshot_mode) {
            std::fprintf(stderr, "raypick: %s\n", err->c_str());
            exit_code_ = 1;
        }
    } else {
        st.status = "saved " + st.screenshot_path;
        if (screenshot_mode) std::printf("raypick: wrote %s (%d x %d)\n", st.screenshot_path.c_str(), fb_width, fb_height);
    }
    return !screenshot_mode;
}

bool RunControl::raycast_check(App& app) {
    glFinish();  // the software renderer's threads are idle while the CPU picture is timed
    const RaycastCheck c = app.raycast_check(opt_.raycast_check_shift);
    const double percent = c.compared ? 100.0 * double(c.differing) / double(c.compared) : 0.0;
    std::printf("raycast-check: %d x %d, compared %zu, differing %zu (%.4f%%), skipped %zu, cpu %.1f ms\n",
                c.size.width, c.size.height, c.compared, c.differing, percent, c.skipped, c.cpu_ms);
    exit_code_ = c.passed() ? 0 : 1;
    if (!opt_.screenshot_file.empty()) {
        if (auto err = save_png(opt_.screenshot_file, c.size.width, c.size.height, c.rgba)) {
            std::fprintf(stderr, "raypick: %s\n", err->c_str());
            exit_code_ = 1;
        } else {
            std::printf("raypick: wrote %s (%d x %d, the difference picture)\n", opt_.screenshot_file.c_str(),
                        c.size.width, c.size.height);
        }
    }
    return false;  // one check, then exit
}

bool RunControl::abuse_after_render(Abuse& abuse, int fb_width, int fb_height) {
    // Every frame must draw without a GL error (degenerate and huge shapes included).
    for (GLenum e = glGetError(), n = 0; e != GL_NO_ERROR && n < 8; e = glGetError(), ++n) abuse.note_gl_error(e);
    if (!abuse.done()) return true;
    if (!opt_.screenshot_file.empty()) {  // the last frame, to look at
        if (auto err = save_screenshot(opt_.screenshot_file, fb_width, fb_height))
            std::fprintf(stderr, "raypick: %s\n", err->c_str());
        else
            std::printf("raypick: wrote %s (%d x %d)\n", opt_.screenshot_file.c_str(), fb_width, fb_height);
    }
    for (const std::string& m : abuse.mismatches()) std::printf("%s\n", m.c_str());
    std::printf("%s", abuse.summary().c_str());
    std::fflush(stdout);
    exit_code_ = abuse.exit_code();
    return false;
}

bool RunControl::after_swap(App& app) {
    if (opt_.bench_frames > 0) {
        glFinish();  // count the GPU's (llvmpipe's) work in the frame that caused it
        const auto now = std::chrono::steady_clock::now();
        if (frame_ > kBenchWarmup)
            bench_ms_.push_back(std::chrono::duration<double, std::milli>(now - frame_start_).count());
        frame_start_ = now;
        // The process's CPU time, all threads (the software renderer's included), over the timed frames.
        if (frame_ == kBenchWarmup) bench_cpu_start_ = std::clock();
        if (static_cast<int>(bench_ms_.size()) >= opt_.bench_frames) {
            bench_cpu_ms_ = 1000.0 * double(std::clock() - bench_cpu_start_) / CLOCKS_PER_SEC;
            return false;
        }
    }
    if (opt_.frames > 0 && frame_ >= opt_.frames) return false;
    return !app.state().quit_requested;
}

void RunControl::report(const App& app) const {
    if (bench_ms_.empty()) return;
    std::vector<double> sorted = bench_ms_;
    std::sort(sorted.begin(), sorted.end());
    const double mean = std::accumulate(sorted.begin(), sorted.end(), 0.0) / static_cast<double>(sorted.size());
    const AppState& st = app.state();
    std::printf("raypick bench: %zu shapes, %zu frames at %d x %d: mean %.2f ms, median %.2f ms, worst %.2f ms, "
                "cpu %.2f ms a frame (all threads), last pick %.1f us, %zu wire vertices, %zu scene uploads\n",
                st.scene().shapes.size(), sorted.size(), opt_.width, opt_.height, mean, sorted[sorted.size() / 2],
                sorted.back(), bench_cpu_ms_ / double(sorted.size()), st.stats.pick_us,
                app.renderer().scene_line_vertices(), app.renderer().scene_rebuilds());
}

}  // namespace raypick::app
