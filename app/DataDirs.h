// raypick demo: where its data (shaders, case files) is found at run time, relative to the
// executable, so a built or installed demo runs from any directory and no source path is compiled in.
#pragma once

#include <string>
#include <vector>

namespace raypick::app {

/// The directory of the running executable (from /proc/self/exe), or "." when unknown.
std::string executable_dir();

/// The directories that may hold the data folder `name` ("shaders", "assets"), in search order:
/// <exe dir>/<name> (the build tree) and <exe dir>/../share/raypick/<name> (an installation).
std::vector<std::string> data_dirs(const std::string& name);

}  // namespace raypick::app
