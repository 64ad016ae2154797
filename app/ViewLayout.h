// raypick demo: where the 3D view is in the window. The panels sit in fixed columns left and
// right (and the menu and status bars above and below); the view is the rectangle between them, so
// the camera's target is in the middle of what is visible. Shared by the app and the tests.
#pragma once

namespace raypick::app {

inline constexpr float kMenuBarHeight = 20.0f;
inline constexpr float kStatusBarHeight = 22.0f;
inline constexpr float kLeftPanelWidth = 300.0f;
inline constexpr float kRightPanelWidth = 400.0f;

/// A rectangle in window coordinates (x right, y down).
struct ViewRect {
    double x = 0.0, y = 0.0, width = 1.0, height = 1.0;
    bool contains(double px, double py) const { return px >= x && py >= y && px < x + width && py < y + height; }
};

/// The 3D view's rectangle: the whole window without panels; between the panel columns with them
/// (falls back to the whole width when the window is too narrow for the columns).
inline ViewRect view_rect(double window_width, double window_height, bool panels) {
    ViewRect r;
    r.width = window_width > 1.0 ? window_width : 1.0;
    r.height = window_height > 1.0 ? window_height : 1.0;
    if (!panels) return r;
    const double top = kMenuBarHeight, bottom = kStatusBarHeight;
    if (window_height - top - bottom >= 100.0) {
        r.y = top;
        r.height = window_height - top - bottom;
    }
    if (window_width - kLeftPanelWidth - kRightPanelWidth >= 200.0) {
        r.x = kLeftPanelWidth;
        r.width = window_width - kLeftPanelWidth - kRightPanelWidth;
    }
    return r;
}

}  // namespace raypick::app
