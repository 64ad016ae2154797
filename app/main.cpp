// raypick: the interactive picking demo. The loop follows Dear ImGui's example_glfw_opengl3.
#include <cstdio>
#include <string>
#include <vector>

#include <glad/gl.h>
#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#include <memory>

#include "app/App.h"
#include "app/CommandLine.h"
#include "app/RunControl.h"
#include "app/ShaderFiles.h"

namespace {
void glfw_error(int code, const char* message) { std::fprintf(stderr, "raypick: GLFW error %d: %s\n", code, message); }
}  // namespace

int main(int argc, char** argv) {
    using namespace raypick::app;

    // 1. Command line.
    const ParseResult parsed = parse_command_line(std::vector<std::string>(argv, argv + argc));
    if (!parsed.error.empty()) {
        std::fprintf(stderr, "raypick: %s\n%s", parsed.error.c_str(), usage());
        return 2;
    }
    const CommandLine& opt = parsed.options;
    if (opt.help) {
        std::printf("%s", usage());
        return 0;
    }
    const bool screenshot_mode = !opt.screenshot_file.empty();
    const bool timed = screenshot_mode || opt.frames > 0 || opt.bench_frames > 0;

    // 2. Window with an OpenGL 3.3 core context.
    glfwSetErrorCallback(glfw_error);
    if (!glfwInit()) {
        std::fprintf(stderr, "raypick: cannot initialise GLFW (no display? try xvfb-run)\n");
        return 1;
    }
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
    glfwWindowHint(GLFW_RESIZABLE, screenshot_mode ? GLFW_FALSE : GLFW_TRUE);
    GLFWwindow* window = glfwCreateWindow(opt.width, opt.height, "raypick", nullptr, nullptr);
    if (!window) {
        std::fprintf(stderr, "raypick: cannot create an OpenGL 3.3 core window\n");
        glfwTerminate();
        return 1;
    }
    glfwMakeContextCurrent(window);
    glfwSwapInterval(timed ? 0 : 1);

    // 3. OpenGL functions (glad, generated at build time).
    if (!gladLoadGL(glfwGetProcAddress)) {
        std::fprintf(stderr, "raypick: cannot load the OpenGL 3.3 functions\n");
        glfwDestroyWindow(window);
        glfwTerminate();
        return 1;
    }

    // 4. Dear ImGui with its GLFW and OpenGL 3 backends.
    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGui::GetIO().IniFilename = nullptr;  // no imgui.ini in the working directory
    ImGui::StyleColorsDark();
    ImGui_ImplGlfw_InitForOpenGL(window, true);
    ImGui_ImplOpenGL3_Init("#version 330 core");

    int exit_code = 0;
    {
        // 5. The application (state, renderer, panels). Stops here on a shader or scene error.
        std::unique_ptr<App> app;
        try {
            app = std::make_unique<App>(opt, window);
        } catch (const StartupError& e) {
            std::fprintf(stderr, "raypick: %s\n", e.what());
            exit_code = 1;
        }
        if (app && opt.bench_frames > 0) {
            int w = 0, h = 0;
            glfwGetWindowSize(window, &w, &h);
            glfwSetCursorPos(window, w * 0.5, h * 0.5);  // the mouse ray through the middle
        }

        // 6. Main loop.
        RunControl run(opt);
        while (app && !glfwWindowShouldClose(window)) {
            // 6a. Events.
            glfwPollEvents();
            // 6b. New ImGui frame.
            ImGui_ImplOpenGL3_NewFrame();
            ImGui_ImplGlfw_NewFrame();
            ImGui::NewFrame();
            // 6c. Input, interaction, the ray through the core, panels.
            app->update();
            // 6d. Render: the 3D view, then the panels on top.
            ImGui::Render();
            int fb_w = 0, fb_h = 0;
            glfwGetFramebufferSize(window, &fb_w, &fb_h);
            app->render(fb_w, fb_h);
            ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
            // 6e. Screenshots, read before the buffers swap.
            if (!run.after_render(*app, fb_w, fb_h)) break;
            glfwSwapBuffers(window);
            // 6f. Frame limits, benchmark, quit.
            if (!run.after_swap(*app)) break;
        }
        if (app) run.report(*app);
        if (run.exit_code() != 0) exit_code = run.exit_code();
        // 7. The app's GL objects go first, while the context is current.
    }

    // 8. Cleanup.
    ImGui_ImplOpenGL3_Shutdown();
    ImGui_ImplGlfw_Shutdown();
    ImGui::DestroyContext();
    glfwDestroyWindow(window);
    glfwTerminate();
    return exit_code;
}
