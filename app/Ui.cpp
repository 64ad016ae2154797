#include "app/Ui.h"

#include <algorithm>

#include <imgui.h>

#include "app/ViewLayout.h"

namespace raypick::app {

// The column panels keep their place (the 3D view is the rectangle between the columns, see
// ViewLayout.h); floating panels (Test cases) start at a place and can be moved.
void Ui::draw(AppState& s, std::size_t line_vertices) {
    const ImVec2 display = ImGui::GetIO().DisplaySize;
    const float top = kMenuBarHeight, bottom = display.y - kStatusBarHeight;
    const float right = std::max(display.x - kRightPanelWidth, kLeftPanelWidth + 20.0f);
    const float mid = top + (bottom - top) * 0.45f;
    panel_backgrounds_.clear();
    draw_menu_bar(s, files_, cases_.shown());
    place(0, top, kLeftPanelWidth, mid - top);
    scene_.draw(s, panel_backgrounds_);
    place(0, mid, kLeftPanelWidth, bottom - mid);
    inspector_.draw(s, panel_backgrounds_);
    place(right, top, kRightPanelWidth, mid - top);
    ray_.draw(s, panel_backgrounds_);
    const float options_height = s.view.raycast.enabled ? 262.0f : 200.0f;  // room for the ray-cast lines
    place(right, mid, kRightPanelWidth, options_height);
    draw_options_panel(s, panel_backgrounds_);
    place(right, mid + options_height, kRightPanelWidth, std::max(bottom - mid - options_height, 80.0f));
    stats_.draw(s, line_vertices, panel_backgrounds_);
    place(kLeftPanelWidth + 10, std::max(bottom - 200, top + 20), std::max(right - kLeftPanelWidth - 20, 200.0f), 200,
          ImGuiCond_FirstUseEver);
    cases_.draw(s);
    files_.draw(s);
    draw_status_bar(s, panel_backgrounds_);
}

}  // namespace raypick::app
