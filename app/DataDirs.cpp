#include "app/DataDirs.h"

#include <filesystem>
#include <system_error>

namespace raypick::app {

namespace fs = std::filesystem;

std::string executable_dir() {
    std::error_code ec;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    if (ec || exe.empty()) return ".";
    return exe.parent_path().string();
}

std::vector<std::string> data_dirs(const std::string& name) {
    const fs::path exe = executable_dir();
    return {(exe / name).string(), (exe / ".." / "share" / "raypick" / name).lexically_normal().string()};
}

}  // namespace raypick::app
