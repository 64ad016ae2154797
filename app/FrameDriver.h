// raypick demo: a hook for programs that drive the demo's frames instead of a user (the harness's
// random-edit driver and benchmark orbit). The demo itself runs without one. No GL.
#pragma once

#include "app/AppState.h"
#include "app/Interaction.h"

namespace raypick::app {

/// The cursor for one frame, in window coordinates.
struct Cursor {
    double x = 0.0, y = 0.0;
    bool ui_wants = false;  ///< ImGui owns the mouse
};

class FrameDriver {
public:
    virtual ~FrameDriver() = default;
    /// Before the frame's picks: may replace the cursor (ImGui's on entry) and move the camera.
    virtual void before_frame(AppState& s, Cursor& cursor) {
        (void)s;
        (void)cursor;
    }
    /// True if interact() takes the place of the mouse: the real cursor is then ignored.
    virtual bool replaces_mouse() const { return false; }
    /// The frame's interaction instead of the mouse's (only when replaces_mouse()).
    virtual void interact(AppState& s, Interaction& interaction) {
        (void)s;
        (void)interaction;
    }
};

}  // namespace raypick::app
