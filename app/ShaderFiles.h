// raypick demo: finding and compiling the GLSL files of shaders/ at run time.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "app/GlResources.h"

namespace raypick::app {

/// Start-up failure with a message for the user (file name, compiler log, ...).
struct StartupError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

/// Directories searched for shaders, in order: $RAYPICK_SHADER_DIR, <exe dir>/shaders,
/// <exe dir>/../share/raypick/shaders.
std::vector<std::string> shader_search_dirs();

/// Loads <dir>/<vertex_file> and <dir>/<fragment_file> from the first search directory that has
/// both, compiles and links them. Throws StartupError naming the file and the compiler's (or
/// linker's) log on failure, or listing the directories searched when the files are missing.
gl::Program load_program(const std::string& vertex_file, const std::string& fragment_file);

}  // namespace raypick::app
