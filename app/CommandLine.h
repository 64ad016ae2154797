// raypick demo: command-line options. No GL.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "app/RaycastView.h"
#include <raypick/geometry/Ray.h>
#include <raypick/geometry/Validate.h>

namespace raypick::app {

struct CommandLine {
    std::string scene_file;        ///< --scene FILE
    std::string screenshot_file;   ///< --screenshot OUT.png: render, write, exit
    std::string open_file;         ///< --open FILE: after start-up, open FILE as File > Open does
    std::optional<std::string> open_dialog;  ///< --open-dialog DIR: start with File > Open's dialog on DIR
    int width = 1280, height = 720;
    std::optional<Ray<double>> ray;  ///< --ray ox oy oz dx dy dz: a frozen ray
    int frames = 0;                ///< --frames N: exit after N frames (0: run until closed)
    int generated_shapes = -1;     ///< --shapes N: a generated scene of N shapes instead of a file
    bool no_ui = false;            ///< --no-ui: hide the panels
    bool solid = false;            ///< --solid: start in solid mode
    bool compare = false;          ///< --compare: compare every shape type with its textbook variant
    std::optional<RaycastShading> raycast;  ///< --raycast MODE: the CPU ray-cast view on at start
    bool raycast_check = false;    ///< --raycast-check: compare the CPU and OpenGL pictures, exit
    bool help = false;
};

/// Parses argv; returns the options or a message naming the bad argument. `extra`, if given, is
/// asked first about each argument (a program built on the demo with options of its own): it
/// returns how many arguments it took from args[i] on (0: not its option), or sets `error`.
using ExtraOption = std::function<std::size_t(const std::vector<std::string>& args, std::size_t i, std::string& error)>;
struct ParseResult {
    CommandLine options;
    std::string error;  ///< empty on success
};
ParseResult parse_command_line(const std::vector<std::string>& args, const ExtraOption& extra = {});

/// The demo's options, for --help (the first line names `program`).
std::string usage(const std::string& program = "raypick");

/// Number parsing shared with programs built on the demo: false unless the whole text is a
/// finite double / an integer in [lo, hi].
bool parse_double(const std::string& s, double& out);
bool parse_int(const std::string& s, int& out, int lo, int hi);

}  // namespace raypick::app
