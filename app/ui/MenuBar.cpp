#include "app/ui/Panels.h"

#include <string>
#include <utility>
#include <vector>

#include <imgui.h>

#include "app/Commands.h"
#include "app/ShapeMeshes.h"

namespace raypick::app {

namespace {

// Mouse and keyboard controls, for the Help menu (and the README).
const std::vector<std::pair<const char*, const char*>>& controls() {
    static const std::vector<std::pair<const char*, const char*>> list = {
        {"left click", "pick the nearest shape along the mouse ray (empty space: deselect)"},
        {"left drag on a shape", "move it on the camera-facing plane through the grab point"},
        {"  + hold X / Y / Z", "move along that world axis only"},
        {"left drag a handle", "move a capsule end point / box corner / sphere radius point / triangle vertex (the squares)"},
        {"left drag on empty space", "orbit"},
        {"right drag", "orbit (Shift + right drag: pan)"},
        {"middle drag", "pan"},
        {"mouse wheel", "zoom"},
        {"F", "frame the selection (nothing selected: the scene and its rays)"},
        {"R / Home", "reset the camera (the scene file's camera)"},
        {"Space", "freeze / unfreeze the ray"},
        {"Ctrl+Z", "undo"},
        {"Ctrl+Shift+Z / Ctrl+Y", "redo"},
        {"Ctrl+D", "duplicate the selected shape"},
        {"Delete", "delete the selected shape"},
        {"Esc", "deselect"},
        {"W", "wire / solid (surfaces coloured by normal)"},
        {"F1", "hide / show all panels (View menu: each column)"},
        {"double-click a title", "collapse / expand that panel"},
        {"F12 / P", "save a screenshot (raypick-<time>.png)"},
        {"Ctrl+O / Ctrl+S", "open / save a scene file"},
        {"Ctrl+Q", "quit"},
    };
    return list;
}

}  // namespace

void draw_menu_bar(AppState& s, FilePopups& files) {
    if (!ImGui::BeginMainMenuBar()) return;
    if (ImGui::BeginMenu("File")) {
        if (ImGui::MenuItem("New empty scene")) request_scene_action(s, {SceneAction::Kind::NewScene, ""});
        if (ImGui::MenuItem("Open...", "Ctrl+O")) files.request_open();
        if (ImGui::MenuItem("Save", "Ctrl+S", false, true)) {
            if (s.scene_path.empty()) files.request_save_as();
            else save_scene(s, s.scene_path);
        }
        if (ImGui::MenuItem("Save as...")) files.request_save_as();
        ImGui::Separator();
        if (ImGui::MenuItem("Screenshot", "F12 / P")) {
            s.screenshot_path = "raypick-screenshot.png";
            s.screenshot_requested = true;
        }
        if (ImGui::MenuItem("Quit", "Ctrl+Q")) request_scene_action(s, {SceneAction::Kind::Quit, ""});
        ImGui::EndMenu();
    }
    if (ImGui::BeginMenu("Edit")) {
        if (ImGui::MenuItem("Undo", "Ctrl+Z", false, s.editor.can_undo())) undo(s);
        if (ImGui::MenuItem("Redo", "Ctrl+Shift+Z", false, s.editor.can_redo())) redo(s);
        ImGui::Separator();
        const bool sel = s.sel.selected.has_value() || s.sel.selected_instance.has_value();
        if (ImGui::MenuItem("Duplicate", "Ctrl+D", false, sel)) duplicate_selected(s.editor, s.sel);
        if (ImGui::MenuItem("Delete", "Del", false, sel)) delete_selected(s.editor, s.sel);
        ImGui::EndMenu();
    }
    if (ImGui::BeginMenu("View")) {
        if (ImGui::MenuItem("Frame selection", "F")) frame_selection(s);
        if (ImGui::MenuItem("Reset camera", "Home / R")) reset_camera(s);
        ImGui::MenuItem("Solid (shaded by normal)", "W", &s.view.solid);
        ImGui::MenuItem("Panels", "F1", &s.view.panels.shown);
        ImGui::MenuItem("Left panels (Scene, Inspector)", nullptr, &s.view.panels.left);
        ImGui::MenuItem("Right panels (Case, Ray, Options, Stats)", nullptr, &s.view.panels.right);
        if (ImGui::MenuItem("Freeze ray", "Space", s.ray.frozen)) set_frozen(s, !s.ray.frozen);
        ImGui::EndMenu();
    }
    if (ImGui::BeginMenu("Presets")) {
        if (!s.case_files_scanned) scan_case_files(s);
        if (ImGui::MenuItem("Built-in showcase")) request_scene_action(s, {SceneAction::Kind::BuiltInShowcase, ""});
        if (s.case_files.empty()) ImGui::TextDisabled("no case files found in assets/");
        for (const CaseFile& c : s.case_files)
            if (ImGui::MenuItem(c.name.c_str())) request_scene_action(s, {SceneAction::Kind::Open, c.path});
        ImGui::EndMenu();
    }
    if (ImGui::BeginMenu("Help")) {
        for (const auto& [keys, what] : controls()) {
            ImGui::TextUnformatted(keys);
            ImGui::SameLine(190);
            ImGui::TextDisabled("%s", what);
        }
        ImGui::Separator();
        ImGui::TextUnformatted("Colours");
        // A swatch per meaning of the palette (app/ShapeMeshes.h), with what it marks.
        for (const palette::LegendEntry& e : palette::legend) {
            const Color& c = *e.color;
            ImGui::ColorButton(e.what, ImVec4(c.r, c.g, c.b, 1.0f), ImGuiColorEditFlags_NoTooltip | ImGuiColorEditFlags_NoDragDrop,
                               ImVec2(28.0f, ImGui::GetTextLineHeight()));
            ImGui::SameLine(190);
            ImGui::TextDisabled("%s", e.what);
        }
        ImGui::TextDisabled("solid mode: each surface coloured by its normal (x red, y green, z blue)");
        ImGui::EndMenu();
    }
    ImGui::TextDisabled("| %s", scene_title(s).c_str());
    ImGui::EndMainMenuBar();
}

}  // namespace raypick::app
