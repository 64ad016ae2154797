// raypick demo: where its data (shaders, case files) is found at run time, relative to the
// executable, so a built or installed demo runs from any directory and no source path is compiled in.
#pragma once

#include <string>
#include <vector>

namespace raypick::app {

/// The directory of the running executable (from /proc/self/exe), or "." when unknown.
std::string executable_dir();

/// The directories that may hold the data folder `name` ("shaders", "assets"), in search order:
/// <exe dir>/<name> (the build tree) and <exe dir>/../share/raypick/<name> (an installation),
/// with symbolic links resolved: the build tree's assets/ is a link to the source tree's, so files
/// opened from it are named (and saved) by their place in the source tree.
std::vector<std::string> data_dirs(const std::string& name);
/// The same for an executable in `exe_dir`.
std::vector<std::string> data_dirs(const std::string& name, const std::string& exe_dir);
/// `path` made absolute with its symbolic links resolved as far as it exists (`path` itself when
/// that fails).
std::string resolved_path(const std::string& path);

}  // namespace raypick::app
