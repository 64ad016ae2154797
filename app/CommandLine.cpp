#include "app/CommandLine.h"

#include <cmath>
#include <cstdlib>

namespace raypick::app {

std::string usage(const std::string& program) {
    const std::string pad(program.size(), ' ');
    return "usage: " + program + " [--scene FILE] [--open FILE] [--open-dialog DIR] [--screenshot OUT.png]\n" +
           "       " + pad + " [--width W] [--height H]\n" +
           "       " + pad + " [--ray OX OY OZ DX DY DZ] [--frames N] [--shapes N]\n" +
           "       " + pad + " [--no-ui] [--solid] [--compare] [--raycast MODE] [--raycast-check]\n" +
           "  --scene FILE        open a scene file (default: assets/showcase.json or a built-in showcase)\n"
           "  --open FILE         after start-up, open FILE as File > Open does (errors in a message box)\n"
           "  --open-dialog DIR   start with File > Open's dialog showing the folder DIR\n"
           "  --screenshot OUT    render once with the panels, write a PNG and exit\n"
           "  --width/--height    window (and screenshot) size, default 1280 x 720\n"
           "  --ray ...           freeze this ray (origin, direction) instead of the mouse ray\n"
           "  --frames N          exit after N frames\n"
           "  --shapes N          a generated scene of N mixed shapes (performance)\n"
           "  --no-ui             hide the ImGui panels\n"
           "  --solid             start in solid mode (surfaces shaded by normal)\n"
           "  --compare           compare every shape type with its textbook variant\n"
           "  --raycast MODE      start with the CPU ray-cast view: normal, depth, normaldepth or difference\n"
           "  --raycast-check     after the first frame compare the CPU ray-cast picture with the OpenGL\n"
           "                      object ids and solid-mode normals at the view's size, print the figures,\n"
           "                      exit 0 if at most 0.1% of the compared pixels differ (with --screenshot:\n"
           "                      write the difference)\n";
}

bool parse_double(const std::string& s, double& out) {
    if (s.empty()) return false;
    char* end = nullptr;
    out = std::strtod(s.c_str(), &end);
    return end && *end == '\0' && std::isfinite(out);
}
bool parse_int(const std::string& s, int& out, int lo, int hi) {
    if (s.empty()) return false;
    char* end = nullptr;
    const long v = std::strtol(s.c_str(), &end, 10);
    if (!end || *end != '\0' || v < lo || v > hi) return false;
    out = static_cast<int>(v);
    return true;
}

ParseResult parse_command_line(const std::vector<std::string>& args, const ExtraOption& extra) {
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
            if (!parse_int(args[++i], out, lo, hi)) {
                r.error = a + ": expected an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) +
                          "], got '" + args[i] + "'";
                return false;
            }
            return true;
        };
        if (extra) {
            const std::size_t taken = extra(args, i, r.error);
            if (!r.error.empty()) return r;
            if (taken > 0) {
                i += taken - 1;
                continue;
            }
        }
        if (a == "--help" || a == "-h") {
            o.help = true;
        } else if (a == "--scene") {
            if (!need(1)) return r;
            o.scene_file = args[++i];
        } else if (a == "--open") {
            if (!need(1)) return r;
            o.open_file = args[++i];
        } else if (a == "--open-dialog") {
            if (!need(1)) return r;
            o.open_dialog = args[++i];
        } else if (a == "--screenshot") {
            if (!need(1)) return r;
            o.screenshot_file = args[++i];
        } else if (a == "--width") {
            if (!int_arg(o.width, 64, 8192)) return r;
        } else if (a == "--height") {
            if (!int_arg(o.height, 64, 8192)) return r;
        } else if (a == "--frames") {
            if (!int_arg(o.frames, 1, 100000000)) return r;
        } else if (a == "--shapes") {
            if (!int_arg(o.generated_shapes, 0, 100000)) return r;
        } else if (a == "--ray") {
            if (!need(6)) return r;
            double v[6];
            for (int k = 0; k < 6; ++k)
                if (!parse_double(args[i + 1 + k], v[k])) {
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
