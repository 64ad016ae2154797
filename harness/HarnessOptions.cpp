#include "harness/HarnessOptions.h"

namespace raypick::app {

std::string harness_usage() {
    return usage("raypick_harness") +
           "test and benchmark drivers:\n"
           "  --random-edits N    run N random edits, drags, broken files, undo/redo through the demo's commands,\n"
           "                      check every frame against undo's model, print a summary, exit 0 or 1\n"
           "                      (with --screenshot: write the last frame)\n"
           "  --seed S            the random edits' seed (default 1)\n"
           "  --sabotage-model    test aid: the random edits' model skips one undo (the check must fail)\n"
           "  --extreme-values    the random edits also type +-DBL_MAX into fields\n"
           "  --raycast-check-shift N  --raycast-check with the OpenGL ids shifted N pixels right (must fail)\n"
           "  --bench-frames N    run N frames and print the mean and worst frame time\n"
           "  --bench-orbit       every frame orbits the camera a little and moves the mouse (hover pick and\n"
           "                      mouse ray) across the view, as while orbiting: the worst case to measure\n"
           "  --layout-report F   at exit write where the last frame put the view, every panel and every\n"
           "                      shape's projected bounds to F (with --screenshot: the screenshot's frame)\n"
           "  --cover-view        test aid: a panel over the middle of the view (the layout check must fail)\n"
           "  --idle-seconds S    run as the demo does for a user (waiting for input when idle), untouched, for\n"
           "                      S seconds, then print how many frames were drawn and exit\n";
}

HarnessParseResult parse_harness_command_line(const std::vector<std::string>& args) {
    HarnessParseResult r;
    HarnessOptions& o = r.options;
    const ExtraOption harness_option = [&](const std::vector<std::string>& a, std::size_t i, std::string& error) -> std::size_t {
        auto int_value = [&](int& out, int lo, int hi) -> std::size_t {
            if (i + 1 >= a.size()) {
                error = a[i] + " needs 1 value";
                return 0;
            }
            if (!parse_int(a[i + 1], out, lo, hi)) {
                error = a[i] + ": expected an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) +
                        "], got '" + a[i + 1] + "'";
                return 0;
            }
            return 2;
        };
        const std::string& arg = a[i];
        if (arg == "--random-edits") return int_value(o.edits.actions, 1, 1000000);
        if (arg == "--seed") {
            int seed = 0;
            const std::size_t n = int_value(seed, 0, 2147483647);
            o.edits.seed = static_cast<std::uint64_t>(seed);
            return n;
        }
        if (arg == "--sabotage-model") {
            o.edits.sabotage = true;
            return 1;
        }
        if (arg == "--extreme-values") {
            o.edits.extreme = true;
            return 1;
        }
        if (arg == "--raycast-check-shift") return int_value(o.raycast_check_shift, -1000, 1000);
        if (arg == "--bench-frames") return int_value(o.bench_frames, 1, 100000000);
        if (arg == "--idle-seconds") return int_value(o.idle_seconds, 1, 3600);
        if (arg == "--bench-orbit") {
            o.bench_orbit = true;
            return 1;
        }
        if (arg == "--layout-report") {
            if (i + 1 >= a.size()) {
                error = arg + " needs 1 value";
                return 0;
            }
            o.layout_report = a[i + 1];
            return 2;
        }
        if (arg == "--cover-view") {
            o.cover_view = true;
            return 1;
        }
        return 0;
    };
    ParseResult demo = parse_command_line(args, harness_option);
    r.error = demo.error;
    o.demo = demo.options;
    if (o.raycast_check_shift != 0) o.demo.raycast_check = true;
    return r;
}

}  // namespace raypick::app
