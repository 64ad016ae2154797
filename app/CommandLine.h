// raypick demo: command-line options. No GL.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "app/RaycastView.h"
#include "geometry/Ray.h"
#include "geometry/Validate.h"

namespace raypick::app {

struct CommandLine {
    std::string scene_file;        ///< --scene FILE
    std::string screenshot_file;   ///< --screenshot OUT.png: render, write, exit
    std::string open_file;         ///< --open FILE: after start-up, open FILE as File > Open does
    int width = 1280, height = 720;
    std::optional<Ray<double>> ray;  ///< --ray ox oy oz dx dy dz: a frozen ray
    int frames = 0;                ///< --frames N: exit after N frames (0: run until closed)
    int bench_frames = 0;          ///< --bench-frames N: run N frames, print frame times, exit
    bool bench_orbit = false;      ///< --bench-orbit: every frame orbits the camera and moves the mouse
    int generated_shapes = -1;     ///< --shapes N: a generated scene of N shapes instead of a file
    bool no_ui = false;            ///< --no-ui: hide the panels
    bool solid = false;            ///< --solid: start in solid mode
    bool compare = false;          ///< --compare: compare every shape type with its textbook variant
    std::optional<RaycastShading> raycast;  ///< --raycast MODE: the CPU ray-cast view on at start
    bool raycast_check = false;    ///< --raycast-check: compare the CPU and OpenGL pictures, exit
    int raycast_check_shift = 0;   ///< --raycast-check-shift N: test aid, shifts the OpenGL ids
    int abuse = 0;                 ///< --abuse N: N random actions checked against undo's model, exit
    long long seed = 1;            ///< --seed S: the random actions of --abuse
    bool abuse_sabotage = false;   ///< --abuse-sabotage: test aid, the model skips one undo (must fail)
    bool abuse_extreme = false;    ///< --abuse-extreme: --abuse also types +-DBL_MAX into fields
    bool help = false;
};

/// Parses argv; returns the options or a message naming the bad argument.
struct ParseResult {
    CommandLine options;
    std::string error;  ///< empty on success
};
ParseResult parse_command_line(const std::vector<std::string>& args);

const char* usage();

}  // namespace raypick::app
