// raypick harness: its command line — the demo's options (app/CommandLine.h) plus the test and
// benchmark drivers, which the user's `raypick` does not have. No GL.
#pragma once

#include <string>
#include <vector>

#include "app/CommandLine.h"
#include "harness/RandomEdits.h"

namespace raypick::app {

struct HarnessOptions {
    CommandLine demo;              ///< the demo's own options
    RandomEditsOptions edits;      ///< --random-edits N, --seed S, --sabotage-model, --extreme-values
    int raycast_check_shift = 0;   ///< --raycast-check-shift N: the OpenGL ids shifted N pixels (implies --raycast-check)
    int bench_frames = 0;          ///< --bench-frames N: run N frames, print frame times, exit
    bool bench_orbit = false;      ///< --bench-orbit: every frame orbits the camera and moves the mouse
    std::string layout_report;     ///< --layout-report FILE: at exit, App::layout_report() written to FILE
    bool cover_view = false;       ///< --cover-view: a panel over the 3D view (PanelLayout::cover_view)
    int idle_seconds = 0;          ///< --idle-seconds S: run as a user would, untouched for S seconds, count the frames
};

struct HarnessParseResult {
    HarnessOptions options;
    std::string error;  ///< empty on success
};
HarnessParseResult parse_harness_command_line(const std::vector<std::string>& args);

std::string harness_usage();

}  // namespace raypick::app
