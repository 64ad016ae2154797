// raypick demo: the window and its frame loop (GLFW, glad, Dear ImGui, the App), shared by the
// demo's main() and by programs built on the demo (the test and benchmark harness), which add to
// the loop through LoopHooks.
#pragma once

#include "app/CommandLine.h"

struct GLFWwindow;

namespace raypick::app {

class App;

/// What a program built on the demo adds to the frame loop. The demo itself adds nothing.
class LoopHooks {
public:
    virtual ~LoopHooks() = default;
    /// Whether frames are timed (no vertical sync).
    virtual bool timed() const { return false; }
    /// Once, after the App is made and before the first frame.
    virtual void started(App& app, GLFWwindow* window) {
        (void)app;
        (void)window;
    }
    /// After rendering, before the buffers swap (before the demo's own screenshots). False: stop.
    virtual bool after_render(App& app, int fb_width, int fb_height) {
        (void)app;
        (void)fb_width;
        (void)fb_height;
        return true;
    }
    /// While an idle demo sleeps for input, about once a second (no frame is drawn). False: stop.
    virtual bool idle_wake(App& app) {
        (void)app;
        return true;
    }
    /// After the swap. False: stop.
    virtual bool after_swap(App& app) {
        (void)app;
        return true;
    }
    /// Once, after the last frame, while the App still exists.
    virtual void finished(App& app) { (void)app; }
    /// The program's exit code, if not 0; else the demo's.
    virtual int exit_code() const { return 0; }
};

/// Opens the window, runs frames until the app quits or the demo or `hooks` stop it, and
/// returns the exit code. Start-up errors (no display, shaders, an unreadable --scene) are
/// printed to stderr, prefixed with `program`.
int run_demo(const CommandLine& options, LoopHooks& hooks, const char* program);

}  // namespace raypick::app
