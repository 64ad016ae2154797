#include "app/CommandLine.h"

#include <cmath>
#include <cstdlib>

namespace raypick::app {

const char* usage() {
    return "usage: raypick [--scene FILE] [--open FILE] [--screenshot OUT.png] [--width W] [--height H]\n"
           "               [--ray OX OY OZ DX DY DZ] [--frames N] [--bench-frames N] [--shapes N]\n"
           "               [--bench-orbit] [--no-ui] [--solid] [--compare] [--raycast MODE] [--raycast-check]\n"
           "               [--abuse N [--seed S]]\n"
           "  --scene FILE        open a scene file (default: assets/showcase.json or a built-in showcase)\n"
           "  --open FILE         after start-up, open FILE as File > Open does (errors in a message box)\n"
           "  --screenshot OUT    render once with the panels, write a PNG and exit\n"
           "  --width/--height    window (and screenshot) size, default 1280 x 720\n"
           "  --ray ...           freeze this ray (origin, direction) instead of the mouse ray\n"
           "  --frames N          exit after N frames\n"
           "  --bench-frames N    run N frames and print the mean and worst frame time\n"
           "  --bench-orbit       every frame orbits the camera a little and moves the mouse (hover pick and\n"
           "                      mouse ray) across the view, as while orbiting: the worst case to measure\n"
           "  --shapes N          a generated scene of N mixed shapes (performance)\n"
           "  --no-ui             hide the ImGui panels\n"
           "  --solid             start in solid mode (surfaces shaded by normal)\n"
           "  --compare           compare every shape type with its textbook variant\n"
           "  --raycast MODE      start with the CPU ray-cast view: normal, depth, normaldepth or difference\n"
           "  --raycast-check     after the first frame compare the CPU ray-cast picture with the OpenGL\n"
           "                      object ids at the view's size, print the figures, exit 0 if at most 0.1%\n"
           "                      of the compared pixels differ (with --screenshot: write the difference)\n"
           "  --raycast-check-shift N  test aid: shift the OpenGL ids N pixels right before comparing\n"
           "  --abuse N [--seed S] run N random edits, drags, broken files, undo/redo through the UI's code\n"
           "                      paths, check every frame against undo's model, print a summary, exit 0 or 1\n"
           "                      (with --screenshot: write the last frame)\n"
           "  --abuse-sabotage    test aid: the abuse model skips one undo (the check must fail)\n"
           "  --abuse-extreme     --abuse also types +-DBL_MAX into fields\n";
}

namespace {
bool to_double(const std::string& s, double& out) {
    if (s.empty()) return false;
    char* end = nullptr;
    out = std::strtod(s.c_str(), &end);
    return end && *end == '\0' && std::isfinite(out);
}
bool to_int(const std::string& s, int& out, int lo, int hi) {
    if (s.empty()) return false;
    char* end = nullptr;
    const long v = std::strtol(s.c_str(), &end, 10);
    if (!end || *end != '\0' || v < lo || v > hi) return false;
    out = static_cast<int>(v);
    return true;
}
}  // namespace

ParseResult parse_command_line(const std::vector<std::string>& args) {
    ParseResult r;
    CommandLine& o = r.options;
    for (std::size_t i = 1; i < args.size(); ++i) {
        const std::string& a = args[i];
        auto need = [&](std::size_t n) {
            if (i + n >= args.size()) {
                r.error = a + " needs " + std::to_string(n) + (n == 1 ? " value" : " values");
                return false;
            }
            return true;
        };
        auto int_arg = [&](int& out, int lo, int hi) {
            if (!need(1)) return false;
            if (!to_int(args[++i], out, lo, hi)) {
                r.error = a + ": expected an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) +
                          "], got '" + args[i] + "'";
                return false;
            }
            return true;
        };
        if (a == "--help" || a == "-h") {
            o.help = true;
        } else if (a == "--scene") {
            if (!need(1)) return r;
            o.scene_file = args[++i];
        } else if (a == "--open") {
            if (!need(1)) return r;
            o.open_file = args[++i];
        } else if (a == "--screenshot") {
            if (!need(1)) return r;
            o.screenshot_file = args[++i];
        } else if (a == "--width") {
            if (!int_arg(o.width, 64, 8192)) return r;
        } else if (a == "--height") {
            if (!int_arg(o.height, 64, 8192)) return r;
        } else if (a == "--frames") {
            if (!int_arg(o.frames, 1, 100000000)) return r;
        } else if (a == "--bench-frames") {
            if (!int_arg(o.bench_frames, 1, 100000000)) return r;
        } else if (a == "--shapes") {
            if (!int_arg(o.generated_shapes, 0, 100000)) return r;
        } else if (a == "--ray") {
            if (!need(6)) return r;
            double v[6];
            for (int k = 0; k < 6; ++k)
                if (!to_double(args[i + 1 + k], v[k])) {
                    r.error = "--ray: expected 6 finite numbers, got '" + args[i + 1 + k] + "'";
                    return r;
                }
            i += 6;
            Ray<double> ray;
            ray.origin = {v[0], v[1], v[2]};
            ray.direction = {v[3], v[4], v[5]};
            if (!is_valid(ray)) {
                r.error = "--ray: the direction must be non-zero";
                return r;
            }
            o.ray = ray;
        } else if (a == "--raycast") {
            if (!need(1)) return r;
            RaycastShading shading = RaycastShading::Normal;
            if (!parse_raycast_shading(args[++i], shading)) {
                r.error = "--raycast: expected normal, depth, normaldepth or difference, got '" + args[i] + "'";
                return r;
            }
            o.raycast = shading;
        } else if (a == "--raycast-check") {
            o.raycast_check = true;
        } else if (a == "--raycast-check-shift") {
            if (!int_arg(o.raycast_check_shift, -1000, 1000)) return r;
        } else if (a == "--abuse") {
            if (!int_arg(o.abuse, 1, 1000000)) return r;
        } else if (a == "--seed") {
            int seed = 0;
            if (!int_arg(seed, 0, 2147483647)) return r;
            o.seed = seed;
        } else if (a == "--abuse-sabotage") {
            o.abuse_sabotage = true;
        } else if (a == "--abuse-extreme") {
            o.abuse_extreme = true;
        } else if (a == "--bench-orbit") {
            o.bench_orbit = true;
        } else if (a == "--no-ui") {
            o.no_ui = true;
        } else if (a == "--solid") {
            o.solid = true;
        } else if (a == "--compare") {
            o.compare = true;
        } else {
            r.error = "unknown argument '" + a + "'";
            return r;
        }
    }
    return r;
}

}  // namespace raypick::app
