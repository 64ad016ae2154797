#include "app/Ui.h"

#include <algorithm>

#include <imgui.h>

#include "app/ViewLayout.h"

namespace raypick::app {

namespace {
/// A column's panels, top to bottom, as stack_panels() sees them this frame.
StackedPanel stacked(const char* name, float weight, bool fitted) {
    StackedPanel p;
    p.collapsed = panel_collapsed(name);
    p.weight = weight;
    if (fitted) p.fit = panel_content_height(name);
    return p;
}
}  // namespace

// The panels are docked in the columns ViewLayout.h describes, stacked to fill them: a collapsed
// panel keeps its title bar, the others share the column (see stack_panels()). The 3D view is
// what the columns leave, so no panel covers it.
void Ui::draw(AppState& s, std::size_t line_vertices) {
    const ImVec2 display = ImGui::GetIO().DisplaySize;
    const PanelLayout& layout = s.view.panels;
    const float top = kMenuBarHeight, bottom = display.y - kStatusBarHeight;
    const float title = ImGui::GetFrameHeight();
    panel_backgrounds_.clear();
    draw_menu_bar(s, files_);
    const ViewRect free = free_region(display.x, display.y, layout);
    const float left_width = float(layout.left_in(display.x)), right_width = float(layout.right_in(display.x));
    if (layout.left && free.x > 0.0) {
        const std::vector<float> h = stack_panels({stacked("Scene", 0.45f, false), stacked("Inspector", 0.55f, false)},
                                                  bottom - top, title);
        place(0, top, left_width, h[0]);
        scene_.draw(s, panel_backgrounds_);
        place(0, top + h[0], left_width, h[1]);
        inspector_.draw(s, panel_backgrounds_);
    }
    if (layout.right && free.x + free.width < display.x) {
        const float x = display.x - right_width;
        // The Ray panel's contents grow and shrink as the mouse ray hits and misses: its column
        // keeps the most it needed for this scene, so the panels do not jump while the mouse moves.
        if (ray_need_for_ != s.scene_path) ray_need_ = 0.0f;
        ray_need_for_ = s.scene_path;
        StackedPanel ray = stacked("Ray", 1.4f, true);
        ray_need_ = std::max(ray_need_, ray.fit);
        ray.fit = ray_need_;
        const std::vector<float> h = stack_panels({stacked("Case", 1.0f, true), ray, stacked("Options", 0.8f, true),
                                                   stacked("Stats", 1.0f, true)},
                                                  bottom - top, title);
        float y = top;
        place(x, y, right_width, h[0]);
        cases_.draw(s, panel_backgrounds_);
        place(x, y += h[0], right_width, h[1]);
        ray_.draw(s, panel_backgrounds_);
        place(x, y += h[1], right_width, h[2]);
        draw_options_panel(s, panel_backgrounds_);
        place(x, y += h[2], right_width, h[3]);
        ImGui::SetNextWindowCollapsed(true, ImGuiCond_FirstUseEver);  // Stats starts as its title bar
        stats_.draw(s, line_vertices, panel_backgrounds_);
    } else {
        cases_.update(s);  // the view's labels need the report also when the panel is not drawn
    }
    if (layout.cover_view) {
        // The test aid: a window over the middle of the 3D view.
        const ViewRect& v = s.viewport;
        place(float(v.x + v.width * 0.3), float(v.y + v.height * 0.3), float(v.width * 0.4), float(v.height * 0.4));
        if (ImGui::Begin("Covering panel")) hint("A test aid (--cover-view): this window covers the view.");
        ImGui::End();
    }
    files_.draw(s);
    draw_status_bar(s, panel_backgrounds_);
}

}  // namespace raypick::app
