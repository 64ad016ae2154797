// raypick_harness: the demo with its test and benchmark drivers (random edits checked against an
// undo model, frame-time benchmarks, a ray-cast check that must fail). Not for users: `raypick`
// is the demo.
#include <cstdio>
#include <string>
#include <vector>

#include "app/DemoLoop.h"
#include "harness/HarnessLoop.h"
#include "harness/HarnessOptions.h"

int main(int argc, char** argv) {
    using namespace raypick::app;
    HarnessParseResult parsed = parse_harness_command_line(std::vector<std::string>(argv, argv + argc));
    if (!parsed.error.empty()) {
        std::fprintf(stderr, "raypick_harness: %s (see --help)\n", parsed.error.c_str());
        return 2;
    }
    HarnessOptions& opt = parsed.options;
    if (opt.demo.help) {
        std::printf("%s", harness_usage().c_str());
        return 0;
    }
    HarnessLoop hooks(opt);
    // The random edits draw their own last frame: the demo's --screenshot would stop after a few.
    CommandLine demo = opt.demo;
    if (opt.edits.actions > 0) demo.screenshot_file.clear();
    return run_demo(demo, hooks, "raypick_harness");
}
