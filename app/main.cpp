// raypick: the interactive picking demo. The frame loop (app/DemoLoop.cpp) follows Dear ImGui's
// example_glfw_opengl3.
#include <cstdio>
#include <string>
#include <vector>

#include "app/CommandLine.h"
#include "app/DemoLoop.h"

int main(int argc, char** argv) {
    using namespace raypick::app;
    const ParseResult parsed = parse_command_line(std::vector<std::string>(argv, argv + argc));
    if (!parsed.error.empty()) {
        std::fprintf(stderr, "raypick: %s (see --help)\n", parsed.error.c_str());
        return 2;
    }
    if (parsed.options.help) {
        std::printf("%s", usage().c_str());
        return 0;
    }
    LoopHooks none;
    return run_demo(parsed.options, none, "raypick");
}
