#include "app/RunControl.h"

#include <cstdio>

#include <glad/gl.h>

#include "app/App.h"
#include "app/Screenshot.h"

namespace raypick::app {

bool RunControl::after_render(App& app, int fb_width, int fb_height) {
    ++frame_;
    if (opt_.raycast_check) {
        exit_code_ = report_raycast_check(app, 0, opt_.screenshot_file);
        return false;  // one check, then exit
    }
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

bool RunControl::after_swap(App& app) {
    if (opt_.frames > 0 && frame_ >= opt_.frames) return false;
    return !app.state().quit_requested;
}

int report_raycast_check(App& app, int shift, const std::string& png_path) {
    glFinish();  // the software renderer's threads are idle while the CPU picture is timed
    const RaycastCheck c = app.raycast_check(shift);
    const double percent = c.compared ? 100.0 * double(c.differing) / double(c.compared) : 0.0;
    std::printf("raycast-check: %d x %d, compared %zu, differing %zu (%.4f%%), skipped %zu, cpu %.1f ms; "
                "normals compared %zu, differing %zu\n",
                c.size.width, c.size.height, c.compared, c.differing, percent, c.skipped, c.cpu_ms, c.normals_compared,
                c.normals_differing);
    int code = c.passed() ? 0 : 1;
    if (!png_path.empty()) {
        if (auto err = save_png(png_path, c.size.width, c.size.height, c.rgba)) {
            std::fprintf(stderr, "raypick: %s\n", err->c_str());
            code = 1;
        } else {
            std::printf("raypick: wrote %s (%d x %d, the difference picture)\n", png_path.c_str(), c.size.width,
                        c.size.height);
        }
    }
    return code;
}

bool write_screenshot(const std::string& path, int fb_width, int fb_height) {
    if (auto err = save_screenshot(path, fb_width, fb_height)) {
        std::fprintf(stderr, "raypick: %s\n", err->c_str());
        return false;
    }
    std::printf("raypick: wrote %s (%d x %d)\n", path.c_str(), fb_width, fb_height);
    return true;
}

}  // namespace raypick::app
