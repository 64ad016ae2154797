// raypick demo: where the 3D view is in the window. The panels are docked in two columns at the
// window's left and right edges (and the menu and status bars above and below); each column can be
// hidden, each panel collapsed to its title bar. What the panels leave is the free region: the 3D
// view fills it (or its left half, with the CPU ray-cast picture beside it in the right half), so
// the camera frames the scene in what is visible and the mouse over it drives the view. Shared by
// the app and the tests; no GL, no ImGui.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

namespace raypick::app {

inline constexpr float kMenuBarHeight = 20.0f;
inline constexpr float kStatusBarHeight = 22.0f;
inline constexpr float kLeftPanelWidth = 260.0f;   ///< Scene, Inspector
inline constexpr float kRightPanelWidth = 320.0f;  ///< Case, Ray, Options, Stats

inline constexpr float kMinLeftPanelWidth = 210.0f;   ///< the narrowest the left column gets
inline constexpr float kMinRightPanelWidth = 250.0f;  ///< the narrowest the right column gets
/// The window width at and above which the columns have their full widths.
inline constexpr double kFullColumnsWindowWidth = 1280.0;

/// A column's width in a window `window_width` wide: `width` from kFullColumnsWindowWidth up,
/// narrower in proportion below (the view keeps its share of a small window), down to `min_width`.
inline double column_width(double width, double min_width, double window_width) {
    const double k = std::clamp(window_width / kFullColumnsWindowWidth, 0.0, 1.0);
    return std::max(std::min(width, min_width), std::floor(width * k));
}

/// Which docked panels are shown and how wide their columns are (window pixels).
struct PanelLayout {
    bool shown = true;  ///< the panels and bars at all (F1)
    bool left = true;   ///< the left column: Scene, Inspector
    bool right = true;  ///< the right column: Case, Ray, Options, Stats
    float left_width = kLeftPanelWidth;    ///< at full width (column_width(): narrower in small windows)
    float right_width = kRightPanelWidth;
    double left_in(double window_width) const { return column_width(left_width, kMinLeftPanelWidth, window_width); }
    double right_in(double window_width) const { return column_width(right_width, kMinRightPanelWidth, window_width); }
    /// A test aid: a panel is drawn over the middle of the free region without the free region
    /// making room for it (the layout report's check must then fail).
    bool cover_view = false;
};

/// A rectangle in window coordinates (x right, y down).
struct ViewRect {
    double x = 0.0, y = 0.0, width = 1.0, height = 1.0;
    bool contains(double px, double py) const { return px >= x && py >= y && px < x + width && py < y + height; }
};

/// The free region: the window less the shown columns and bars. A column is left out when the
/// window is too narrow to keep 200 px for the view beside it, the bars when it is too low.
inline ViewRect free_region(double window_width, double window_height, const PanelLayout& panels) {
    ViewRect r;
    r.width = window_width > 1.0 ? window_width : 1.0;
    r.height = window_height > 1.0 ? window_height : 1.0;
    if (!panels.shown) return r;
    if (window_height - kMenuBarHeight - kStatusBarHeight >= 100.0) {
        r.y = kMenuBarHeight;
        r.height = window_height - kMenuBarHeight - kStatusBarHeight;
    }
    const double left = panels.left ? panels.left_in(window_width) : 0.0;
    const double right = panels.right ? panels.right_in(window_width) : 0.0;
    if (window_width - left - right >= 200.0) {
        r.x = left;
        r.width = window_width - left - right;
    }
    return r;
}

/// The 3D view: the free region, or its left half when the CPU ray-cast picture is `beside` it.
inline ViewRect view_rect(double window_width, double window_height, const PanelLayout& panels, bool beside = false) {
    ViewRect r = free_region(window_width, window_height, panels);
    if (beside) r.width = std::max(1.0, std::floor(r.width * 0.5));
    return r;
}

/// Where the CPU ray-cast picture goes beside the view: the free region's right half.
inline ViewRect beside_rect(double window_width, double window_height, const PanelLayout& panels) {
    const ViewRect free = free_region(window_width, window_height, panels);
    const ViewRect view = view_rect(window_width, window_height, panels, true);
    ViewRect r = free;
    r.x = view.x + view.width;
    r.width = std::max(1.0, free.width - view.width);
    return r;
}

/// One panel of a column, for stack_panels().
struct StackedPanel {
    bool collapsed = false;  ///< shows its title bar only
    float weight = 1.0f;     ///< its share of the height (of what the fitted panels leave, when not fitted)
    float fit = 0.0f;        ///< > 0: the height its contents need; it gets no more than that
};

/// The heights of a column's panels, top to bottom, filling `height`: a collapsed panel gets
/// `title` (its title bar); a fitted panel the height its contents need, but no more than its
/// weighted share of what is left; the others share the rest by weight. When only fitted panels are open,
/// what is left goes to the one whose contents are cut the most (none cut: the first open one).
inline std::vector<float> stack_panels(const std::vector<StackedPanel>& panels, float height, float title) {
    std::vector<float> h(panels.size(), title);
    float left = height, open_weight = 0.0f;
    for (const StackedPanel& p : panels) {
        if (p.collapsed) left -= title;
        else open_weight += p.weight;
    }
    // Fitted panels first, the smallest need first, each capped at its weighted share of what is left.
    std::vector<std::size_t> fitted;
    for (std::size_t i = 0; i < panels.size(); ++i)
        if (!panels[i].collapsed && panels[i].fit > 0.0f) fitted.push_back(i);
    std::sort(fitted.begin(), fitted.end(), [&](std::size_t a, std::size_t b) { return panels[a].fit < panels[b].fit; });
    for (std::size_t i : fitted) {
        const float share = open_weight > 0.0f ? left * panels[i].weight / open_weight : left;
        h[i] = std::max(title, std::min(panels[i].fit, share));
        left -= h[i];
        open_weight -= panels[i].weight;
    }
    float weights = 0.0f;
    std::size_t first_open = panels.size(), most_cut = panels.size();
    for (std::size_t i = 0; i < panels.size(); ++i) {
        if (panels[i].collapsed) continue;
        if (first_open == panels.size()) first_open = i;
        if (panels[i].fit <= 0.0f) weights += panels[i].weight;
        else if (panels[i].fit > h[i] && (most_cut == panels.size() || panels[i].fit - h[i] > panels[most_cut].fit - h[most_cut]))
            most_cut = i;
    }
    if (weights > 0.0f) {
        for (std::size_t i = 0; i < panels.size(); ++i)
            if (!panels[i].collapsed && panels[i].fit <= 0.0f) h[i] = std::max(title, left * panels[i].weight / weights);
    } else if (first_open < panels.size()) {
        h[most_cut < panels.size() ? most_cut : first_open] += std::max(0.0f, left);
    }
    return h;
}

}  // namespace raypick::app
