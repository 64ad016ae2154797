// raypick: replacing a file atomically. Header-only, shared by the scene and model writers.
#pragma once

#include <cerrno>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace raypick {

/// Writes `data` to a temporary file in the directory of `path`, flushes it to disk and renames it
/// over `path`, so `path` is either the old file or the complete new one. Keeps the permissions of
/// the file being replaced (a new file gets rw-r--r--). Returns "cannot save PATH: REASON", or
/// nullopt on success; on failure the temporary file is removed.
inline std::optional<std::string> write_file_atomically(const std::string& path, std::string_view data) {
    std::string tmpl = path + ".tmp-XXXXXX";
    std::vector<char> name(tmpl.begin(), tmpl.end());
    name.push_back('\0');
    const int fd = ::mkstemp(name.data());
    if (fd < 0) return "cannot save " + path + ": cannot create a temporary file next to it: " + std::strerror(errno);
    const std::string tmp(name.data());
    auto give_up = [&](const char* what) {
        const std::string msg = "cannot save " + path + ": " + what + ": " + std::strerror(errno);
        ::close(fd);
        ::unlink(tmp.c_str());
        return msg;
    };
    struct stat st{};
    const mode_t mode = ::stat(path.c_str(), &st) == 0 ? (st.st_mode & 07777) : 0644;
    if (::fchmod(fd, mode) != 0) return give_up("cannot set permissions");
    std::size_t done = 0;
    while (done < data.size()) {
        const ssize_t n = ::write(fd, data.data() + done, data.size() - done);
        if (n < 0) {
            if (errno == EINTR) continue;
            return give_up("write failed");
        }
        done += std::size_t(n);
    }
    if (::fsync(fd) != 0) return give_up("fsync failed");
    if (::close(fd) != 0) {
        const std::string msg = "cannot save " + path + ": close failed: " + std::strerror(errno);
        ::unlink(tmp.c_str());
        return msg;
    }
    if (::rename(tmp.c_str(), path.c_str()) != 0) {
        const std::string msg = "cannot save " + path + ": rename failed: " + std::strerror(errno);
        ::unlink(tmp.c_str());
        return msg;
    }
    return std::nullopt;
}

}  // namespace raypick
