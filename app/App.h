// raypick demo: the application — owns the state, the renderer, the panels and the interaction,
// and runs one frame at a time for main.cpp's loop.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "app/AppState.h"
#include "app/CommandLine.h"
#include "app/FrameDriver.h"
#include "app/RaycastView.h"
#include "app/Renderer.h"
#include "app/Ui.h"

struct GLFWwindow;

namespace raypick::app {

/// The figures of --raycast-check: the CPU picture against the OpenGL ids and solid-mode normals
/// at the view's size.
struct RaycastCheck {
    PictureSize size;
    std::size_t compared = 0, differing = 0, skipped = 0;
    std::size_t normals_compared = 0, normals_differing = 0;  ///< of compared: same object, normals compared
    double cpu_ms = 0.0;
    std::vector<std::uint8_t> rgba;  ///< the difference picture, row 0 at the top
    bool passed() const { return double(differing) <= 0.001 * double(compared); }
};

class App {
public:
    /// Sets up the state from the command line (scene file, frozen ray, options) and creates the
    /// renderer. With a `config_dir`, the options, recent files and window layout remembered
    /// there are read first (the command line's options win; problems go to the status bar) and
    /// written back by save_user_state(). Throws StartupError (shader missing or not compiling,
    /// unreadable --scene file).
    App(const CommandLine& options, GLFWwindow* window, const std::string& config_dir = "");

    /// Writes the remembered state to the config directory given at construction (nothing
    /// without one). Returns the error message, or nullopt.
    std::optional<std::string> save_user_state();
    /// Whether the next frame must be drawn whatever the input: a gesture in progress, a mouse
    /// button held, a frame driver, a screenshot pending.
    bool wants_frames() const;
    /// The window's close button was pressed: with unsaved edits, asks about them (as Ctrl+Q
    /// does) and returns true (the window stays open); else false.
    bool intercept_close();
    /// The time until the next frame was spent sleeping for input, not drawing: it is left out
    /// of the frame times (Stats).
    void slept() { skip_frame_time_ = true; }

    /// Input, interaction, picking and panels. Call between ImGui::NewFrame() and ImGui::Render().
    void update();
    /// Draws the 3D view into the current framebuffer. Call before rendering ImGui's draw data.
    void render(int fb_width, int fb_height);

    AppState& state() { return state_; }
    const AppState& state() const { return state_; }
    const Renderer& renderer() const { return renderer_; }
    /// Lets `driver` (owned by the caller, or null) drive the frames from now on.
    void set_driver(FrameDriver* driver) { driver_ = driver; }

    /// Compares a fresh full-size CPU ray-cast picture with the OpenGL object ids (margin 2),
    /// the ids shifted right by `shift` pixels (a test aid of the harness; 0 normally). Needs the
    /// GL context.
    RaycastCheck raycast_check(int shift = 0);

    /// What the last frame showed where, for tests (after render()): the window, the 3D view,
    /// every ImGui window drawn and every shape's and mesh instance's projected bounds, one a line:
    /// `window W H`, `view X Y W H`, `panel X Y W H NAME`, `shape X0 Y0 X1 Y1 NAME` (window
    /// coordinates; `shape - NAME` when a corner of its bounds is behind the near plane).
    std::string layout_report() const;

private:
    /// Reads settings.txt and imgui.ini from config_dir_ over the defaults.
    void load_user_state();
    void handle_keys();
    void cast_ray();
    void build_overlay();
    /// The 3D view's rectangle for this frame: the free region of the panels shown, its left
    /// half when the CPU ray-cast picture is beside it.
    void update_viewport();
    void draw_ray_labels();
    void draw_raycast_view();
    void update_raycast(const glm::dmat4& view_projection);
    /// The cursor for this frame: ImGui's, or where the frame driver puts it.
    void update_mouse();
    /// No mouse ray or mouse interaction: screenshot mode, or a driver in the mouse's place.
    bool ignore_mouse() const { return screenshot_mode_ || (driver_ && driver_->replaces_mouse()); }

    GLFWwindow* window_;
    AppState state_;
    Renderer renderer_;
    Ui ui_;
    Interaction interaction_;
    Overlay overlay_;
    RaycastView raycast_;
    std::chrono::steady_clock::time_point last_frame_;
    bool skip_frame_time_ = true;  ///< the next frame has no previous one to time against (start, sleep)
    bool screenshot_mode_ = false;  ///< the picture must not depend on the cursor
    bool was_busy_ = false;
    Cursor mouse_;
    FrameDriver* driver_ = nullptr;
    std::string config_dir_;                 ///< where the state is remembered; empty: nowhere
    std::vector<std::string> saved_recent_;  ///< the recent files as last written
};

}  // namespace raypick::app
