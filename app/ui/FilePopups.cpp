#include "app/ui/Panels.h"

#include <cstdio>
#include <cstring>
#include <string>

#include <imgui.h>

namespace raypick::app {

void FilePopups::draw(AppState& s) {
    if (open_popup_ != Popup::None) {
        const std::string init = s.scene_path.empty() ? std::string("scene.json") : s.scene_path;
        std::snprintf(path_buf_, sizeof path_buf_, "%s", init.c_str());
        ImGui::OpenPopup(open_popup_ == Popup::Open ? "Open scene" : "Save scene as");
        open_popup_ = Popup::None;
    }
    for (const char* title : {"Open scene", "Save scene as"}) {
        if (!ImGui::BeginPopupModal(title, nullptr, ImGuiWindowFlags_AlwaysAutoResize)) continue;
        const bool open = std::strcmp(title, "Open scene") == 0;
        ImGui::Text("%s", open ? "Scene file to open (JSON):" : "Save the scene to (JSON):");
        ImGui::SetNextItemWidth(480);
        if (ImGui::IsWindowAppearing()) ImGui::SetKeyboardFocusHere();
        const bool enter = ImGui::InputText("##path", path_buf_, sizeof path_buf_, ImGuiInputTextFlags_EnterReturnsTrue);
        if (ImGui::Button(open ? "Open" : "Save") || enter) {
            if (open) open_scene(s, path_buf_);
            else save_scene(s, path_buf_);
            ImGui::CloseCurrentPopup();
        }
        ImGui::SameLine();
        if (ImGui::Button("Cancel")) ImGui::CloseCurrentPopup();
        ImGui::EndPopup();
    }
    if (!s.error_title.empty() && !ImGui::IsPopupOpen("Error")) ImGui::OpenPopup("Error");
    if (ImGui::BeginPopupModal("Error", nullptr, ImGuiWindowFlags_AlwaysAutoResize)) {
        ImGui::TextColored(kRed, "%s", s.error_title.c_str());
        ImGui::PushTextWrapPos(640.0f);
        ImGui::TextUnformatted(s.error_message.c_str());
        ImGui::PopTextWrapPos();
        if (ImGui::Button("OK") || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Enter))) {
            s.error_title.clear();
            ImGui::CloseCurrentPopup();
        }
        ImGui::EndPopup();
    }
}

}  // namespace raypick::app
