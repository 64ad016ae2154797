// raypick demo: the Dear ImGui panels and bars, one .cpp each in app/ui/, with the state each
// keeps between frames. Ui (app/Ui.h) places them and draws them every frame; edits go through
// the command layer (AppState::editor).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "app/AppState.h"
#include "app/FileBrowser.h"
#include "app/ui/Widgets.h"

namespace raypick::app {

/// File > Open... and Save as...: a file browser (the folder's scene files and sub-folders, a path
/// field, the recent files; Save as asks before overwriting), errors shown in the dialog with the
/// scene kept; and the message box. Esc closes either.
class FilePopups {
public:
    /// Opens the Open dialog on `dir` (empty: the folder used last, else the scene's, else the
    /// working directory).
    void request_open(const std::string& dir = "") { request_ = Request{FileBrowser::Mode::Open, dir}; }
    void request_save_as() { request_ = Request{FileBrowser::Mode::SaveAs, ""}; }
    void draw(AppState& s);

private:
    /// The dialog's contents; false when it closed.
    bool draw_browser(AppState& s);
    /// Acts on the chosen path: opens or saves (true: done, the dialog closes) or asks to confirm.
    bool act(AppState& s, FileBrowser::Action action);

    struct Request {
        FileBrowser::Mode mode;
        std::string dir;
    };
    std::optional<Request> request_;
    FileBrowser browser_;
    char path_buf_[1024] = "";
    std::string confirm_overwrite_;  ///< the existing file Save as waits to replace; empty: none
};

/// The main menu (File, Edit, View, Presets, Help). `show_test_cases`: View > Test cases panel.
void draw_menu_bar(AppState& s, FilePopups& files, bool& show_test_cases);

/// One line at the bottom: ray mode, shapes, undo/redo steps, the status text.
void draw_status_bar(AppState& s, PanelBackgrounds& backgrounds);

/// Add, Duplicate, Delete, Frame, the selected shape's name, the list of shapes.
class ScenePanel {
public:
    void draw(AppState& s, PanelBackgrounds& backgrounds);

private:
    char rename_buf_[256] = "";
    std::optional<std::size_t> rename_for_;
};

/// The selected shape's parameters, validated edits (one undo step per gesture), degeneracies,
/// handles.
class InspectorPanel {
public:
    void draw(AppState& s, PanelBackgrounds& backgrounds);

private:
    /// Applies an edited copy of the selected shape: validated, one undo step per gesture.
    void apply_edit(AppState& s, std::size_t index, const Shape<double>& candidate);
    /// The selected mesh instance: translation, Euler angles and scale, edited through
    /// SceneEditor::edit_instance (one undo step per gesture; invalid values refused).
    void draw_instance(AppState& s, std::size_t index);

    std::string refusal_;  ///< last refused edit ("radius must be ...")
    std::optional<std::size_t> refusal_for_;
    // A field in text entry (Ctrl+click on a drag field): the shape as typed so far, applied when
    // the entry ends (Enter, Escape, focus loss), not keystroke by keystroke.
    std::optional<std::size_t> typed_for_;
    Shape<double> typed_{};
    // Euler angles shown for the selected OBB, kept while they still produce its rotation so that
    // dragging an angle does not jump between equivalent triples.
    std::optional<std::size_t> euler_for_;
    Vec3d euler_{0.0};
    Mat3<double> euler_rotation_{1.0};
};

/// The ray (frozen or the mouse's), its fields, the shapes it hits and one shape's details.
class RayPanel {
public:
    void draw(AppState& s, PanelBackgrounds& backgrounds);

private:
    std::string ray_refusal_;
};

/// What the view shows, the textbook comparison, the CPU ray-cast view's settings.
void draw_options_panel(AppState& s, PanelBackgrounds& backgrounds);

/// Frame time (with a plot of the last 120 frames), pick times, counts.
class StatsPanel {
public:
    void draw(AppState& s, std::size_t line_vertices, PanelBackgrounds& backgrounds);

private:
    std::array<float, 120> frame_history_{};
    std::size_t frame_history_next_ = 0;
};

/// Expected-versus-got text of a failed expectation, drawn beside its ray in the 3D view.
struct CaseLabel {
    Vec3d anchor{0.0};
    std::string text;
};

/// The case files of assets/ and the current scene's expectations, checked; opens by itself for
/// a scene with expectations. The failures are also labelled in the view (by the App).
class TestCasesPanel {
public:
    /// Updates the report (also when the panel is closed) and draws the panel when shown.
    void draw(AppState& s);
    bool& shown() { return show_; }

    const std::vector<CaseLabel>& failures() const { return labels_; }
    const std::vector<bool>& failing_rays() const { return failing_rays_; }
    /// The scene ray of the expectation selected in the panel, if any.
    std::optional<std::size_t> selected_ray() const { return selected_ray_; }

private:
    void update_report(const AppState& s);

    std::uint64_t version_ = 0;  ///< AppState::scene_version() the report is for
    bool valid_ = false;
    bool show_ = false;
    std::optional<std::string> shown_for_;  ///< scene path the panel's visibility was decided for
    bool double_ = false;
    bool double_used_ = false;
    std::vector<CaseLabel> labels_;
    std::vector<bool> failing_rays_;
    std::vector<std::string> lines_;
    std::vector<bool> line_failed_;
    std::vector<std::size_t> line_ray_;
    std::optional<std::size_t> selected_;
    std::optional<std::size_t> selected_ray_;
    std::size_t passed_ = 0, failed_ = 0;
};

}  // namespace raypick::app
