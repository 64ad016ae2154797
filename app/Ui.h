// raypick demo: the Dear ImGui panels — menu, Scene, Inspector, Ray, Options, Stats, Test cases,
// error messages and the status bar.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "app/AppState.h"

namespace raypick::app {

/// A docked panel's rectangle (window coordinates, y down) and its opaque background colour.
/// ImGui draws no background for these panels: the renderer fills the rectangles, as flat
/// opaque clears, before ImGui draws the panels' contents over them.
struct PanelBackground {
    float x = 0.0f, y = 0.0f, width = 0.0f, height = 0.0f;
    glm::vec4 color{0.0f};
};

/// Expected-versus-got text of a failed expectation, drawn beside its ray in the 3D view.
struct CaseLabel {
    Vec3d anchor{0.0};
    std::string text;
};

class Ui {
public:
    /// Draws every panel; edits go through `s` (with undo steps). `line_vertices` is for Stats.
    void draw(AppState& s, std::size_t line_vertices);

    void request_open() { open_popup_ = Popup::Open; }
    void request_save_as() { open_popup_ = Popup::SaveAs; }

    /// Failed expectations of the current scene (for labels) and which rays have one.
    const std::vector<CaseLabel>& case_failures() const { return case_labels_; }
    const std::vector<bool>& failing_rays() const { return failing_rays_; }
    /// The scene ray of the expectation selected in the Test cases panel, if any.
    std::optional<std::size_t> selected_case_ray() const { return selected_case_ray_; }
    /// This frame's docked panels (after draw()), for the renderer to fill.
    const std::vector<PanelBackground>& panel_backgrounds() const { return panel_backgrounds_; }

private:
    enum class Popup { None, Open, SaveAs };

    /// ImGui::Begin for a docked panel (placed by draw()): the window draws no background and its
    /// rectangle goes to panel_backgrounds(). Pair with ImGui::End() as usual.
    bool begin_panel(const char* name, int flags = 0);
    void menu(AppState& s);
    void scene_panel(AppState& s);
    void inspector_panel(AppState& s);
    void ray_panel(AppState& s);
    void options_panel(AppState& s);
    void raycast_options(AppState& s);
    void stats_panel(AppState& s, std::size_t line_vertices);
    void cases_panel(AppState& s);
    void popups(AppState& s);
    void status_bar(AppState& s);
    void update_case_report(const AppState& s);
    /// Applies an edited copy of the selected shape: validated, one undo step per gesture.
    void apply_edit(AppState& s, std::size_t index, const Shape<double>& candidate);

    Popup open_popup_ = Popup::None;
    std::vector<PanelBackground> panel_backgrounds_;
    char path_buf_[1024] = "";
    char rename_buf_[256] = "";
    std::optional<std::size_t> rename_for_;
    std::string refusal_;                 ///< last refused edit ("radius must be ...")
    std::optional<std::size_t> refusal_for_;
    std::string ray_refusal_;
    // An Inspector field in text entry (Ctrl+click on a drag field): the shape as typed so far,
    // applied when the entry ends (Enter, Escape, focus loss), not keystroke by keystroke.
    std::optional<std::size_t> typed_for_;
    Shape<double> typed_{};
    // Euler angles shown for the selected OBB, kept while they still produce its rotation so that
    // dragging an angle does not jump between equivalent triples.
    std::optional<std::size_t> euler_for_;
    Vec3d euler_{0.0};
    Mat3<double> euler_rotation_{1.0};

    // Test cases: the current scene's report, recomputed when the scene changes.
    std::uint64_t case_version_ = 0;  // AppState::scene_version the report is for
    bool case_valid_ = false;
    bool show_cases_ = false;
    std::optional<std::string> cases_shown_for_;  ///< scene path the panel visibility was decided for
    bool case_double_ = false;
    bool case_double_used_ = false;
    std::vector<CaseLabel> case_labels_;
    std::vector<bool> failing_rays_;
    std::vector<std::string> case_lines_;
    std::vector<bool> case_line_failed_;
    std::vector<std::size_t> case_line_ray_;
    std::optional<std::size_t> selected_case_;
    std::optional<std::size_t> selected_case_ray_;
    std::size_t case_passed_ = 0, case_failed_ = 0;
    std::array<float, 120> frame_history_{};  ///< Stats plot
    std::size_t frame_history_next_ = 0;
};

}  // namespace raypick::app
