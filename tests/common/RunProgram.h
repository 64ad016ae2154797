// Test helper: running a program through the shell and reading what it prints.
#pragma once

#include <cstdio>
#include <string>

#include <sys/wait.h>

namespace raypick::test {

struct ProgramRun {
    int status = -1;  ///< exit status; -1 when the program could not start or did not exit normally
    std::string out;  ///< what it wrote to stdout (stderr too when the command redirects it, "2>&1")
};

/// Runs `command` with the shell (popen) and waits for it.
inline ProgramRun run_program(const std::string& command) {
    ProgramRun r;
    FILE* p = ::popen(command.c_str(), "r");
    if (!p) return r;
    char buf[65536];
    std::size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) r.out.append(buf, n);
    const int st = ::pclose(p);
    r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    return r;
}

}  // namespace raypick::test
