// raypick demo: the application — owns the state, the renderer, the panels and the interaction,
// and runs one frame at a time for main.cpp's loop.
#pragma once

#include <chrono>
#include <memory>

#include "app/Abuse.h"
#include "app/AppState.h"
#include "app/CommandLine.h"
#include "app/RaycastView.h"
#include "app/Renderer.h"
#include "app/Ui.h"

struct GLFWwindow;

namespace raypick::app {

/// The figures of --raycast-check: the CPU picture against the OpenGL ids at the view's size.
struct RaycastCheck {
    PictureSize size;
    std::size_t compared = 0, differing = 0, skipped = 0;
    double cpu_ms = 0.0;
    std::vector<std::uint8_t> rgba;  ///< the difference picture, row 0 at the top
    bool passed() const { return double(differing) <= 0.001 * double(compared); }
};

class App {
public:
    /// Sets up the state from the command line (scene file, frozen ray, options) and creates the
    /// renderer. Throws StartupError (shader missing or not compiling, unreadable --scene file).
    App(const CommandLine& options, GLFWwindow* window);

    /// Input, interaction, picking and panels. Call between ImGui::NewFrame() and ImGui::Render().
    void update();
    /// Draws the 3D view into the current framebuffer. Call before rendering ImGui's draw data.
    void render(int fb_width, int fb_height);

    AppState& state() { return state_; }
    const AppState& state() const { return state_; }
    const Renderer& renderer() const { return renderer_; }
    /// The --abuse driver, if running (null otherwise).
    Abuse* abuse() { return abuse_.get(); }

    /// Compares a fresh full-size CPU ray-cast picture with the OpenGL object ids (margin 2),
    /// the ids shifted right by `shift` pixels (a test aid; 0 normally). Needs the GL context.
    RaycastCheck raycast_check(int shift);

private:
    void handle_keys();
    void cast_ray();
    void build_overlay();
    void draw_case_labels();
    void draw_raycast_view();
    void update_raycast(const glm::dmat4& view_projection);
    /// The cursor for this frame: ImGui's, or with --bench-orbit a path across the view (the camera
    /// is orbited a step too), so the hover pick and the mouse ray move every frame.
    void update_mouse();

    /// The cursor this frame, in window coordinates.
    struct Mouse {
        double x = 0.0, y = 0.0;
        bool ui_wants = false;  ///< ImGui owns the mouse
    };

    GLFWwindow* window_;
    AppState state_;
    Renderer renderer_;
    Ui ui_;
    Interaction interaction_;
    Overlay overlay_;
    RaycastView raycast_;
    std::chrono::steady_clock::time_point last_frame_;
    bool first_frame_ = true;
    bool ignore_mouse_ = false;
    bool was_busy_ = false;  ///< screenshot mode: the picture must not depend on the cursor
    bool bench_orbit_ = false;
    Mouse mouse_;
    std::unique_ptr<Abuse> abuse_;  ///< --abuse: drives the interaction instead of the mouse
};

}  // namespace raypick::app
