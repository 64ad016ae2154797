#include "app/ui/Panels.h"

#include <cstddef>

#include <imgui.h>

#include "app/ViewLayout.h"

namespace raypick::app {

void draw_status_bar(AppState& s, PanelBackgrounds& backgrounds) {
    const ImVec2 display = ImGui::GetIO().DisplaySize;
    ImGui::SetNextWindowPos(ImVec2(0, display.y - kStatusBarHeight));
    ImGui::SetNextWindowSize(ImVec2(display.x, kStatusBarHeight));
    ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(6, 3));
    if (begin_panel("##status", backgrounds,
                     ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoInputs | ImGuiWindowFlags_NoSavedSettings |
                         ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoBringToFrontOnFocus)) {
        const std::size_t shapes = s.scene().shapes.size(), instances = s.scene().instances.size();
        ImGui::Text("%s ray | %zu shape%s, %zu mesh instance%s | undo %zu / redo %zu | %s",
                    s.ray.frozen ? "frozen" : "mouse", shapes, shapes == 1 ? "" : "s", instances,
                    instances == 1 ? "" : "s", s.editor.undo_count(), s.editor.redo_count(), s.status.c_str());
    }
    ImGui::End();
    ImGui::PopStyleVar();
}

}  // namespace raypick::app
