#include "app/DemoLoop.h"

#include <cstdio>
#include <memory>

#include <glad/gl.h>
#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#include "app/App.h"
#include "app/InputQueue.h"
#include "app/RunControl.h"
#include "app/ShaderFiles.h"
#include "app/UserConfig.h"

namespace raypick::app {

namespace {
void glfw_error(int code, const char* message) { std::fprintf(stderr, "raypick: GLFW error %d: %s\n", code, message); }

/// The window's events between frames: whether any arrived since the flag was last cleared (read by
/// the loop to decide whether to wait), and the input events queued for ImGui, handed to its
/// backend a frame at a time (InputQueue: a tap shorter than a frame is still seen).
struct WindowEvents {
    bool any = true;
    InputQueue input;
};
WindowEvents& events_of(GLFWwindow* window) { return *static_cast<WindowEvents*>(glfwGetWindowUserPointer(window)); }
void mark_event(GLFWwindow* window) { events_of(window).any = true; }
void queue_event(GLFWwindow* window, const InputEvent& e) {
    events_of(window).any = true;
    events_of(window).input.push(e);
}
static_assert(InputEvent::kPress == GLFW_PRESS && InputEvent::kRelease == GLFW_RELEASE && InputEvent::kRepeat == GLFW_REPEAT);

/// Installs the window's callbacks (ImGui's backend is initialised without its own, which these
/// replace: it receives the queued events from hand_on_input()).
void watch_events(GLFWwindow* window, WindowEvents& events) {
    glfwSetWindowUserPointer(window, &events);
    glfwSetCursorPosCallback(window, [](GLFWwindow* w, double, double) { mark_event(w); });
    glfwSetCursorEnterCallback(window, [](GLFWwindow* w, int entered) {
        InputEvent e;
        e.kind = InputEvent::Kind::CursorEnter;
        e.code = entered;
        queue_event(w, e);
    });
    glfwSetMouseButtonCallback(window, [](GLFWwindow* w, int button, int action, int mods) {
        InputEvent e;
        e.kind = InputEvent::Kind::MouseButton;
        e.code = button;
        e.action = action;
        e.mods = mods;
        queue_event(w, e);
    });
    glfwSetScrollCallback(window, [](GLFWwindow* w, double x, double y) {
        InputEvent e;
        e.kind = InputEvent::Kind::Scroll;
        e.x = x;
        e.y = y;
        queue_event(w, e);
    });
    glfwSetKeyCallback(window, [](GLFWwindow* w, int key, int scancode, int action, int mods) {
        InputEvent e;
        e.kind = InputEvent::Kind::Key;
        e.code = key;
        e.scancode = scancode;
        e.action = action;
        e.mods = mods;
        queue_event(w, e);
    });
    glfwSetCharCallback(window, [](GLFWwindow* w, unsigned int c) {
        InputEvent e;
        e.kind = InputEvent::Kind::Char;
        e.code = static_cast<int>(c);
        queue_event(w, e);
    });
    glfwSetWindowFocusCallback(window, [](GLFWwindow* w, int focused) {
        InputEvent e;
        e.kind = InputEvent::Kind::Focus;
        e.code = focused;
        queue_event(w, e);
    });
    glfwSetWindowSizeCallback(window, [](GLFWwindow* w, int, int) { mark_event(w); });
    glfwSetFramebufferSizeCallback(window, [](GLFWwindow* w, int, int) { mark_event(w); });
    glfwSetWindowRefreshCallback(window, [](GLFWwindow* w) { mark_event(w); });
}

/// Hands this frame's share of the queued input to ImGui's GLFW backend (before its NewFrame).
void hand_on_input(GLFWwindow* window, InputQueue& input) {
    for (const InputEvent& e : input.take_frame()) {
        switch (e.kind) {
            case InputEvent::Kind::Key: ImGui_ImplGlfw_KeyCallback(window, e.code, e.scancode, e.action, e.mods); break;
            case InputEvent::Kind::Char: ImGui_ImplGlfw_CharCallback(window, static_cast<unsigned int>(e.code)); break;
            case InputEvent::Kind::MouseButton: ImGui_ImplGlfw_MouseButtonCallback(window, e.code, e.action, e.mods); break;
            case InputEvent::Kind::Scroll: ImGui_ImplGlfw_ScrollCallback(window, e.x, e.y); break;
            case InputEvent::Kind::CursorEnter: ImGui_ImplGlfw_CursorEnterCallback(window, e.code); break;
            case InputEvent::Kind::Focus: ImGui_ImplGlfw_WindowFocusCallback(window, e.code); break;
        }
    }
}

/// Frames still drawn after the last event, so that ImGui settles (hover, popups sizing themselves).
constexpr int kSettleFrames = 4;
/// How long an idle demo sleeps at a time before asking the hooks whether to go on.
constexpr double kIdleWakeSeconds = 1.0;
}  // namespace

int run_demo(const CommandLine& opt, LoopHooks& hooks, const char* program) {
    const bool screenshot_mode = !opt.screenshot_file.empty();
    const bool timed = screenshot_mode || opt.frames > 0 || hooks.timed();

    // 1. Window with an OpenGL 3.3 core context.
    glfwSetErrorCallback(glfw_error);
    if (!glfwInit()) {
        std::fprintf(stderr, "%s: cannot initialise GLFW (no display? try xvfb-run)\n", program);
        return 1;
    }
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
    glfwWindowHint(GLFW_RESIZABLE, screenshot_mode ? GLFW_FALSE : GLFW_TRUE);
    GLFWwindow* window = glfwCreateWindow(opt.width, opt.height, "raypick", nullptr, nullptr);
    if (!window) {
        std::fprintf(stderr, "%s: cannot create an OpenGL 3.3 core window\n", program);
        glfwTerminate();
        return 1;
    }
    glfwMakeContextCurrent(window);
    glfwSwapInterval(timed ? 0 : 1);

    // 2. OpenGL functions (glad, generated at build time).
    if (!gladLoadGL(glfwGetProcAddress)) {
        std::fprintf(stderr, "%s: cannot load the OpenGL 3.3 functions\n", program);
        glfwDestroyWindow(window);
        glfwTerminate();
        return 1;
    }

    // 3. Dear ImGui with its GLFW and OpenGL 3 backends.
    // An interactive run waits for input when nothing moves; timed runs draw every frame.
    WindowEvents events;
    watch_events(window, events);
    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGui::GetIO().IniFilename = nullptr;  // never the working directory: the App keeps the layout
    ImGui::StyleColorsDark();
    ImGui_ImplGlfw_InitForOpenGL(window, false);  // its input comes from the queue (hand_on_input)
    ImGui_ImplOpenGL3_Init("#version 330 core");

    int exit_code = 0;
    {
        // 4. The application (state, renderer, panels). Stops here on a shader or scene error.
        std::unique_ptr<App> app;
        try {
            // Interactive runs remember their state; timed ones (screenshots, benchmarks, tests'
            // drivers) neither read nor write it, so their pictures depend on the command line alone.
            const bool remember = !timed && !opt.raycast_check;
            app = std::make_unique<App>(opt, window, remember ? config_dir() : std::string());
        } catch (const StartupError& e) {
            std::fprintf(stderr, "%s: %s\n", program, e.what());
            exit_code = 1;
        }
        if (app) hooks.started(*app, window);

        // 5. Main loop.
        RunControl run(opt);
        int settle = kSettleFrames;
        while (app && !glfwWindowShouldClose(window)) {
            // 5a. Events: when idle, sleep until one arrives, drawing nothing meanwhile.
            glfwPollEvents();
            if (!timed && settle <= 0 && !events.any && !app->wants_frames()) {
                bool stop = false;
                while (!events.any && !glfwWindowShouldClose(window) && !stop) {
                    glfwWaitEventsTimeout(kIdleWakeSeconds);
                    stop = !events.any && !hooks.idle_wake(*app);
                }
                if (stop) break;
                app->slept();
            }
            // The close button: unsaved edits are asked about first (the window stays open).
            if (glfwWindowShouldClose(window)) {
                if (!app->intercept_close()) break;
                glfwSetWindowShouldClose(window, GLFW_FALSE);
                events.any = true;
            }
            if (events.any) settle = kSettleFrames;
            events.any = false;
            if (settle > 0) --settle;
            // 5b. New ImGui frame, with this frame's share of the input (the rest keeps it awake).
            hand_on_input(window, events.input);
            if (!events.input.empty()) events.any = true;
            ImGui_ImplOpenGL3_NewFrame();
            ImGui_ImplGlfw_NewFrame();
            ImGui::NewFrame();
            // 5c. Input, interaction, the ray through the core, panels.
            app->update();
            // 5d. Render: the 3D view, then the panels on top.
            ImGui::Render();
            int fb_w = 0, fb_h = 0;
            glfwGetFramebufferSize(window, &fb_w, &fb_h);
            app->render(fb_w, fb_h);
            ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
            // 5e. Screenshots, read before the buffers swap.
            if (!hooks.after_render(*app, fb_w, fb_h) || !run.after_render(*app, fb_w, fb_h)) break;
            glfwSwapBuffers(window);
            // 5f. Frame limits, quit.
            if (!hooks.after_swap(*app) || !run.after_swap(*app)) break;
        }
        if (app) {
            hooks.finished(*app);
            if (auto err = app->save_user_state()) std::fprintf(stderr, "%s: could not remember the settings: %s\n", program, err->c_str());
        }
        if (run.exit_code() != 0) exit_code = run.exit_code();
        if (hooks.exit_code() != 0) exit_code = hooks.exit_code();
        // 6. The app's GL objects go first, while the context is current.
    }

    // 7. Cleanup.
    ImGui_ImplOpenGL3_Shutdown();
    ImGui_ImplGlfw_Shutdown();
    ImGui::DestroyContext();
    glfwDestroyWindow(window);
    glfwTerminate();
    return exit_code;
}

}  // namespace raypick::app
