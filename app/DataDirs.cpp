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

std::string resolved_path(const std::string& path) {
    std::error_code ec;
    const fs::path p = fs::weakly_canonical(fs::absolute(path, ec), ec);
    return ec || p.empty() ? path : p.string();
}

std::vector<std::string> data_dirs(const std::string& name, const std::string& exe_dir) {
    const fs::path exe = exe_dir;
    return {resolved_path((exe / name).string()),
            resolved_path((exe / ".." / "share" / "raypick" / name).lexically_normal().string())};
}

std::vector<std::string> data_dirs(const std::string& name) { return data_dirs(name, executable_dir()); }

}  // namespace raypick::app
