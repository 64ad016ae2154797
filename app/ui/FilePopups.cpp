#include "app/ui/Panels.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <string>

#include <GLFW/glfw3.h>
#include <imgui.h>

namespace raypick::app {

namespace fs = std::filesystem;

namespace {

constexpr const char* kOpenTitle = "Open scene";
constexpr const char* kSaveTitle = "Save scene as";
constexpr const char* kUnsavedTitle = "Unsaved changes";

bool escape_pressed() { return ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape), false); }

/// "12.3 KB" and the like.
std::string size_text(std::uintmax_t bytes) {
    char buf[32];
    if (bytes < 1024) std::snprintf(buf, sizeof buf, "%ju B", bytes);
    else if (bytes < 1024 * 1024) std::snprintf(buf, sizeof buf, "%.1f KB", double(bytes) / 1024.0);
    else std::snprintf(buf, sizeof buf, "%.1f MB", double(bytes) / (1024.0 * 1024.0));
    return buf;
}

}  // namespace

bool FilePopups::act(AppState& s, FileBrowser::Action action) {
    const std::string path = browser_.chosen_path();
    if (action == FileBrowser::Action::ConfirmOverwrite) {
        confirm_overwrite_ = path;
        return false;
    }
    if (action != FileBrowser::Action::Open && action != FileBrowser::Action::Save) return false;
    if (action == FileBrowser::Action::Open && has_unsaved_changes(s)) {
        // The dialog closes and the question about the unsaved edits takes its place.
        request_scene_action(s, {SceneAction::Kind::Open, path});
        s.last_dir = browser_.listing().dir;
        return true;
    }
    const bool ok = action == FileBrowser::Action::Open ? open_scene(s, path) : save_scene(s, path);
    if (!ok) {
        // The message goes into the dialog, not a second modal; the scene is unchanged.
        browser_.set_error(s.error_message);
        s.error_title.clear();
        s.error_message.clear();
        browser_.refresh();
        return false;
    }
    s.last_dir = browser_.listing().dir;
    if (action == FileBrowser::Action::Save) finish_save_as(s, true);  // an action waiting for this save
    return true;
}

bool FilePopups::draw_browser(AppState& s) {
    const bool open_mode = browser_.mode() == FileBrowser::Mode::Open;
    if (escape_pressed()) {
        if (confirm_overwrite_.empty()) return false;
        confirm_overwrite_.clear();  // Esc first leaves the question, then the dialog
    }
    // Folder line: up, the folder shown.
    if (ImGui::Button("Up")) browser_.go_up();
    ImGui::SameLine();
    if (ImGui::Button("Refresh")) browser_.refresh();
    ImGui::SameLine();
    ImGui::TextDisabled("%s", browser_.listing().dir.c_str());

    // Left: recent files; right: the folder's listing.
    const float message_height =
        ImGui::CalcTextSize(browser_.error().c_str(), nullptr, false, ImGui::GetContentRegionAvail().x).y;
    const float list_height = ImGui::GetContentRegionAvail().y - ImGui::GetFrameHeightWithSpacing() * 2.6f -
                              std::max(message_height, ImGui::GetTextLineHeight()) - 8.0f;
    FileBrowser::Action action = FileBrowser::Action::None;
    ImGui::BeginChild("##recent", ImVec2(250.0f, list_height), true);
    ImGui::TextDisabled("Recent files");
    if (s.recent_files.empty()) ImGui::TextDisabled("(none yet)");
    for (std::size_t i = 0; i < s.recent_files.size(); ++i) {
        const std::string& r = s.recent_files[i];
        const std::string label = fs::path(r).filename().string() + "##recent" + std::to_string(i);
        if (ImGui::Selectable(label.c_str(), false, ImGuiSelectableFlags_AllowDoubleClick)) {
            browser_.go_to(fs::path(r).parent_path().string());
            browser_.path_text() = r;
            if (ImGui::IsMouseDoubleClicked(0)) action = browser_.choose();
        }
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", r.c_str());
    }
    ImGui::EndChild();
    ImGui::SameLine();
    ImGui::BeginChild("##listing", ImVec2(0.0f, list_height), true);
    const DirListing& listing = browser_.listing();
    if (listing.entries.empty()) ImGui::TextDisabled("no folders or scene files here");
    std::optional<DirEntry> clicked;
    bool double_clicked = false;
    for (const DirEntry& e : listing.entries) {
        const std::string label = (e.is_dir ? "[dir]  " + e.name + "/" : "       " + e.name) + "##" + e.name;
        const bool selected = !e.is_dir && browser_.path_text() == e.name;
        if (ImGui::Selectable(label.c_str(), selected, ImGuiSelectableFlags_AllowDoubleClick)) {
            clicked = e;
            double_clicked = ImGui::IsMouseDoubleClicked(0);
        }
        if (!e.is_dir) {
            ImGui::SameLine(ImGui::GetWindowContentRegionMax().x - 80.0f);
            ImGui::TextDisabled("%s", size_text(e.size).c_str());
        }
    }
    ImGui::EndChild();
    if (clicked) {  // after the loop: entering a folder replaces the listing being drawn
        action = browser_.click(*clicked, double_clicked);
        confirm_overwrite_.clear();
    }

    // The path field: a name in the folder, or a path.
    std::snprintf(path_buf_, sizeof path_buf_, "%s", browser_.path_text().c_str());
    ImGui::TextUnformatted(open_mode ? "File:" : "Save as:");
    ImGui::SameLine();
    ImGui::SetNextItemWidth(-1.0f);
    if (!open_mode && ImGui::IsWindowAppearing()) ImGui::SetKeyboardFocusHere();
    const bool enter = ImGui::InputText("##path", path_buf_, sizeof path_buf_, ImGuiInputTextFlags_EnterReturnsTrue);
    if (browser_.path_text() != path_buf_) confirm_overwrite_.clear();
    browser_.path_text() = path_buf_;

    if (!browser_.error().empty()) {
        ImGui::PushStyleColor(ImGuiCol_Text, kRed);
        ImGui::TextWrapped("%s", browser_.error().c_str());
        ImGui::PopStyleColor();
    } else ImGui::TextDisabled("%s", open_mode ? "click a file, double-click to open; Esc: cancel"
                                             : "a name without extension gets .json; Esc: cancel");

    if (!confirm_overwrite_.empty()) {
        ImGui::TextColored(kYellow, "%s exists.", fs::path(confirm_overwrite_).filename().string().c_str());
        ImGui::SameLine();
        if (ImGui::Button("Replace it")) {
            confirm_overwrite_.clear();
            return !act(s, FileBrowser::Action::Save);
        }
        ImGui::SameLine();
        if (ImGui::Button("Keep it")) confirm_overwrite_.clear();
        return true;
    }
    if (ImGui::Button(open_mode ? "Open" : "Save") || enter) action = browser_.choose();
    ImGui::SameLine();
    if (ImGui::Button("Cancel")) return false;
    return !act(s, action);
}

void FilePopups::draw_unsaved_question(AppState& s) {
    if (s.pending_action && !s.pending_waits_for_save_as && !ImGui::IsPopupOpen(kUnsavedTitle))
        ImGui::OpenPopup(kUnsavedTitle);
    if (!ImGui::BeginPopupModal(kUnsavedTitle, nullptr, ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoSavedSettings))
        return;
    if (!s.pending_action) {  // answered elsewhere
        ImGui::CloseCurrentPopup();
        ImGui::EndPopup();
        return;
    }
    ImGui::TextColored(kYellow, "The scene has unsaved changes.");
    ImGui::TextUnformatted(scene_title(s).c_str());
    ImGui::Text("Save them before %s?", scene_action_text(*s.pending_action).c_str());
    ImGui::Spacing();
    std::optional<UnsavedChoice> choice;
    if (ImGui::Button(s.scene_path.empty() ? "Save as... (Enter)" : "Save (Enter)") ||
        ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Enter), false))
        choice = UnsavedChoice::Save;
    ImGui::SameLine();
    if (ImGui::Button("Discard (D)") || ImGui::IsKeyPressed(GLFW_KEY_D, false)) choice = UnsavedChoice::Discard;
    ImGui::SameLine();
    if (ImGui::Button("Cancel (Esc)") || escape_pressed()) choice = UnsavedChoice::Cancel;
    if (choice) {
        ImGui::CloseCurrentPopup();
        if (answer_unsaved_changes(s, *choice) == PendingOutcome::NeedsSaveAs) request_save_as();
    }
    ImGui::EndPopup();
}

void FilePopups::draw(AppState& s) {
    if (request_) {
        const bool open_mode = request_->mode == FileBrowser::Mode::Open;
        const fs::path scene(s.scene_path);
        std::string dir = request_->dir;
        if (dir.empty()) dir = open_mode && !s.last_dir.empty() ? s.last_dir : scene.parent_path().string();
        if (dir.empty()) dir = s.last_dir;
        const std::string name = open_mode ? "" : scene.empty() ? "scene.json" : scene.filename().string();
        browser_.start(request_->mode, dir, name);
        confirm_overwrite_.clear();
        ImGui::OpenPopup(open_mode ? kOpenTitle : kSaveTitle);
        request_.reset();
    }
    for (const char* title : {kOpenTitle, kSaveTitle}) {
        const ImVec2 display = ImGui::GetIO().DisplaySize;
        ImGui::SetNextWindowPos(ImVec2(display.x * 0.5f, display.y * 0.5f), ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
        ImGui::SetNextWindowSize(ImVec2(std::min(760.0f, display.x - 40.0f), std::min(480.0f, display.y - 60.0f)),
                                 ImGuiCond_Appearing);
        if (!ImGui::BeginPopupModal(title, nullptr, ImGuiWindowFlags_NoSavedSettings)) continue;
        if (!draw_browser(s)) {
            ImGui::CloseCurrentPopup();
            finish_save_as(s, false);  // closed without saving: an action waiting for it is dropped
        }
        ImGui::EndPopup();
    }
    draw_unsaved_question(s);
    if (!s.error_title.empty() && !ImGui::IsPopupOpen("Error")) ImGui::OpenPopup("Error");
    if (ImGui::BeginPopupModal("Error", nullptr, ImGuiWindowFlags_AlwaysAutoResize)) {
        ImGui::TextColored(kRed, "%s", s.error_title.c_str());
        ImGui::PushTextWrapPos(640.0f);
        ImGui::TextUnformatted(s.error_message.c_str());
        ImGui::PopTextWrapPos();
        if (ImGui::Button("OK") || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Enter)) || escape_pressed()) {
            s.error_title.clear();
            ImGui::CloseCurrentPopup();
        }
        ImGui::EndPopup();
    }
}

}  // namespace raypick::app
