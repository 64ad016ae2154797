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
/// scene kept; the message box; and the question before unsaved edits are discarded (Save,
/// Discard, Cancel; AppState::pending_action). Esc closes any of them.
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
    /// The question before a pending action discards unsaved edits.
    void draw_unsaved_question(AppState& s);

    struct Request {
        FileBrowser::Mode mode;
        std::string dir;
    };
    std::optional<Request> request_;
    FileBrowser browser_;
    char path_buf_[1024] = "";
    std::string confirm_overwrite_;  ///< the existing file Save as waits to replace; empty: none
};

/// The main menu (File, Edit, View, Presets, Help).
void draw_menu_bar(AppState& s, FilePopups& files);

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

/// Expected-versus-got text of a scene ray's failed expectations (a line each), drawn beside the
/// ray in the 3D view.
struct CaseLabel {
    std::size_t ray = 0;
    std::string text;
};

/// The current scene's case: its description, its rays by name with their expectations checked
/// (pass or fail), and the case files of assets/ to open. Selecting a ray or an expectation
/// highlights the ray in the view; the failures are also labelled there (by the App).
class CasePanel {
public:
    /// Updates the report (also when the panel is collapsed) and draws the panel (placed before).
    void draw(AppState& s, PanelBackgrounds& backgrounds);
    /// Checks the current scene's expectations again when the scene changed since the last check.
    void update(const AppState& s) { update_report(s); }

    const std::vector<CaseLabel>& failures() const { return labels_; }
    const std::vector<bool>& failing_rays() const { return failing_rays_; }
    /// The scene ray selected in the panel (itself or one of its expectations), if any.
    std::optional<std::size_t> selected_ray() const { return selected_ray_; }

private:
    void update_report(const AppState& s);
    /// Selects an expectation (or, with none, the ray alone); selecting the selection again clears it.
    void select(std::optional<std::size_t> expectation, std::optional<std::size_t> ray);

    struct Line {
        std::size_t ray = 0;
        bool failed = false;
        std::string text;
    };
    std::uint64_t version_ = 0;  ///< AppState::scene_version() the report is for
    std::optional<std::uint64_t> shown_version_;  ///< the scene version the panel last showed
    bool valid_ = false;
    bool double_ = false;
    bool double_used_ = false;
    std::vector<CaseLabel> labels_;
    std::vector<bool> failing_rays_;
    std::vector<Line> expectations_;
    std::optional<std::size_t> selected_;
    std::optional<std::size_t> selected_ray_;
    std::size_t passed_ = 0, failed_ = 0;
};

}  // namespace raypick::app
