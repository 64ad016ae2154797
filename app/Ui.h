// raypick demo: the Dear ImGui user interface — the menu, the docked panels (Scene, Inspector on
// the left; Case, Ray, Options, Stats on the right), file popups, the message box and the status
// bar, each in app/ui/. Ui places them and draws them every frame.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "app/AppState.h"
#include "app/ui/Panels.h"

namespace raypick::app {

class Ui {
public:
    /// Draws every panel; edits go through `s.editor` (with undo steps). `line_vertices` is for Stats.
    void draw(AppState& s, std::size_t line_vertices);

    /// Checks the scene's expectations when the panels are hidden (the view's labels need them).
    void check_case(const AppState& s) { cases_.update(s); }
    /// The dialogs alone (File > Open, Save as, the message box, the unsaved-changes question),
    /// when the panels are hidden: they still come up.
    void draw_dialogs(AppState& s) { files_.draw(s); }

    /// File > Open's dialog on `dir` (empty: the folder used last).
    void request_open(const std::string& dir = "") { files_.request_open(dir); }
    void request_save_as() { files_.request_save_as(); }

    /// Failed expectations of the current scene (for labels) and which rays have one.
    const std::vector<CaseLabel>& case_failures() const { return cases_.failures(); }
    const std::vector<bool>& failing_rays() const { return cases_.failing_rays(); }
    /// The scene ray selected in the Case panel (itself or one of its expectations), if any.
    std::optional<std::size_t> selected_case_ray() const { return cases_.selected_ray(); }
    /// This frame's docked panels (after draw()), for the renderer to fill.
    const PanelBackgrounds& panel_backgrounds() const { return panel_backgrounds_; }

private:
    PanelBackgrounds panel_backgrounds_;
    float ray_need_ = 0.0f;     ///< the most height the Ray panel needed for this scene
    std::string ray_need_for_;  ///< the scene path ray_need_ is for
    FilePopups files_;
    ScenePanel scene_;
    InspectorPanel inspector_;
    RayPanel ray_;
    StatsPanel stats_;
    CasePanel cases_;
};

}  // namespace raypick::app
