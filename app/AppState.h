// raypick demo: the application's state (no GL) and the actions the UI and the keyboard share:
// open/save/replace the scene, undo/redo, camera reset/framing, freezing the ray.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "app/Camera.h"
#include "app/Commands.h"
#include "app/Interaction.h"
#include "app/MeshPicking.h"
#include "app/ViewLayout.h"
#include "app/Picking.h"
#include "app/RaycastView.h"

namespace raypick::app {

struct ViewOptions {
    bool show_entry = true;
    bool show_exit = true;
    bool show_normals = true;
    bool show_ray = true;
    bool show_misses = false;  ///< list missed shapes in the Ray panel; draw the ray even on a miss
    bool show_scene_rays = true;  ///< the scene file's own rays (test cases), green with blue hits
    bool show_handles = true;
    bool show_grid = true;
    bool solid = false;
    bool scene_ray_details = false;  ///< scene rays also show exit points and both normals, like the ray
    bool ray_labels = true;          ///< scene rays carry their names in the view
    PanelLayout panels;              ///< which panels are shown (F1: all of them)
    bool normals_in_pixels = true;   ///< normal arrows a fixed length on screen, else in world units
    float normal_pixels = 40.0f;
    float normal_length = 0.6f;      ///< world units
    CompareOptions compare;
    RaycastOptions raycast;  ///< the CPU ray-cast view
};

/// The ray whose results are shown: the mouse ray every frame, or a frozen one.
struct RayState {
    bool frozen = false;
    Ray<double> ray;
    bool valid = false;  ///< a ray has been cast at least once
};

struct Stats {
    double frame_ms = 0.0;      ///< last frame, CPU time between frames
    double frame_ms_avg = 0.0;  ///< exponential average
    double pick_us = 0.0;       ///< last cast of the ray against every shape
    double bvh_pick_us = 0.0;   ///< last hover/click pick through the hierarchy
    std::size_t bvh_rebuilds = 0, bvh_refits = 0;
    std::size_t instance_rebuilds = 0, instance_refits = 0;  ///< the mesh instances' hierarchy
    double raycast_ms = 0.0;           ///< last full cast of the ray-cast view (0: never)
    double raycast_rays_per_s = 0.0;
    int raycast_width = 0, raycast_height = 0;
    std::size_t raycast_compared = 0, raycast_differing = 0;  ///< difference mode
    std::size_t frames = 0;
};

/// One case file of assets/ for the Case panel.
struct CaseFile {
    std::string path;
    std::string name;
    std::string error;  ///< load error, empty when loaded
    std::size_t expectations = 0;
    std::size_t failed_float = 0, failed_double = 0;
};

/// An action that replaces or closes the scene, and so would discard unsaved edits.
struct SceneAction {
    enum class Kind { Quit, Open, NewScene, BuiltInShowcase };
    Kind kind = Kind::Quit;
    std::string path;  ///< Open: the file
};

struct AppState {
    /// The scene, its undo history and its change log: every edit is one of its commands.
    SceneEditor editor;
    const Scene& scene() const { return editor.scene(); }
    /// Bumped once by every change of the scene (SceneEditor::version()).
    std::uint64_t scene_version() const { return editor.version(); }
    std::string scene_path;  ///< where the scene came from / is saved to; empty: not saved yet
    std::string made_from;   ///< the model file an unsaved scene was opened from (never saved over)
    Selection sel;
    Camera camera;
    ViewOptions view;
    RayState ray;
    PickResult result;
    std::optional<TriangleReadout> triangle;  ///< the ray's nearest mesh instance triangle
    Stats stats;
    int window_width = 1280, window_height = 720;
    ViewRect viewport = view_rect(1280, 720, PanelLayout{});  ///< the 3D view inside the window
    double view_aspect() const { return viewport.width / viewport.height; }

    std::string error_title;    ///< shown in a modal when non-empty
    std::string error_message;
    std::string status;         ///< one line in the status bar

    bool screenshot_requested = false;
    std::string screenshot_path;
    bool quit_requested = false;

    /// Files opened or saved, most recent first, absolute (File > Open's list; remembered
    /// between runs by the demo).
    std::vector<std::string> recent_files;
    std::string last_dir;  ///< the folder the file dialog showed last (remembered between runs)

    std::vector<CaseFile> case_files;
    bool case_files_scanned = false;

    /// An action waiting for the answer to "save the unsaved changes?" (Save / Discard / Cancel).
    std::optional<SceneAction> pending_action;
    /// The answer was Save and the scene has no file yet: the action waits for Save as.
    bool pending_waits_for_save_as = false;
};

/// A model file (.obj, .gltf, .glb) as a scene: one mesh naming the file (its absolute path) and
/// one instance of it at identity; or ModelLoadError::what().
std::variant<Scene, std::string> scene_of_model_file(const std::string& path);
/// Loads a scene file, or a model file as scene_of_model_file() does; the error text names the
/// file and the place (never throws, also for a directory or an unreadable path).
std::variant<Scene, std::string> load_scene(const std::string& path);

/// Replaces the scene (undoable when `record_history`, else the history starts over), resets
/// selection and camera.
void replace_scene(AppState& s, Scene scene, const std::string& path, bool record_history);
/// What the menu bar names the scene by: its file, else "(unsaved scene)", with the model it was
/// opened from.
std::string scene_title(const AppState& s);
/// Loads `path` (a scene or a model file); on failure keeps the current scene and sets the error
/// message. True on success (`path` then heads the recent files).
bool open_scene(AppState& s, const std::string& path);
/// Saves to `path` (atomically); sets the status or the error message. True on success (`path`
/// then heads the recent files).
bool save_scene(AppState& s, const std::string& path);
/// Whether the scene has edits that are not saved (SceneEditor::modified()).
bool has_unsaved_changes(const AppState& s);
/// Quit, File > Open, New, a preset, a case file: done at once when the scene has no unsaved
/// changes (true; false if an open failed), else kept in s.pending_action for the question.
bool request_scene_action(AppState& s, SceneAction action);
/// Does `action` whatever the scene's changes (Open: open_scene(); New and the showcase: the scene
/// replaced and unmodified). False if an open failed (the message is set, the scene kept).
bool perform_scene_action(AppState& s, const SceneAction& action);
/// The answer to the unsaved-changes question.
enum class UnsavedChoice { Save, Discard, Cancel };
/// What answering did.
enum class PendingOutcome {
    Done,       ///< the action was done (or dropped on Cancel); nothing is pending
    NeedsSaveAs,///< Save without a file: ask for one (Save as), then call finish_save_as()
    Failed,     ///< the save failed (the message is set): the action is dropped, the scene kept
};
/// Answers the question about s.pending_action: Save saves to the scene's file first (none:
/// NeedsSaveAs), Discard does the action, Cancel drops it.
PendingOutcome answer_unsaved_changes(AppState& s, UnsavedChoice choice);
/// After the Save as dialog that answer_unsaved_changes() asked for closed: `saved` does the
/// waiting action, else drops it.
void finish_save_as(AppState& s, bool saved);
/// A short name of an action for the question ("quitting", "opening x.json").
std::string scene_action_text(const SceneAction& action);
bool undo(AppState& s);
bool redo(AppState& s);
/// The scene file's camera when it shows every shape inside the 3D view (at its aspect), else
/// the camera framing the scene (frame_scene()).
void reset_camera(AppState& s);
/// Frames every shape and mesh instance and the scene rays' origins and first hits in the 3D view.
void frame_scene(AppState& s);
/// Frames the selected shape or instance (or the whole scene, as frame_scene(), when nothing is
/// selected).
void frame_selection(AppState& s);
/// Freezes the current ray (or unfreezes).
void set_frozen(AppState& s, bool frozen);
/// Bounds of every shape and mesh instance (a unit box around the origin for an empty scene).
Aabb<double> scene_bounds(const Scene& scene);
/// What framing the scene shows: the corners of every shape's and mesh instance's bounds (so also
/// every point where a ray meets them; the corners of a unit box around the origin when there is
/// none), and every scene ray's origin that lies within 1.5 times their size of them; a farther
/// origin is replaced by the point half their size before the ray reaches their bounds (nothing
/// when it passes them by), so a ray from afar does not make the scene a speck.
std::vector<Vec3d> framing_points(const Scene& scene);
/// The first surface `ray` meets within its [t_min, t_max] among the scene's shapes and its mesh
/// instances (`instances`: the scene's, placed by place_meshes()), by nearer_side(): the smaller
/// t, a shape at equal t. A triangle's hit is never an exit. Empty when nothing is hit.
std::optional<SurfaceHit<double>> first_hit(const Scene& scene, const InstanceBvh<double>& instances,
                                            const SceneRay& ray);
/// Whether `camera` shows every shape's and mesh instance's bounds whole on a width x height view (in front of the
/// near plane, inside the picture).
bool shows_every_shape(const Camera& camera, const Scene& scene, double width, double height);

/// Where the demo looks for the assets/ directory (case files, showcase.json): data_dirs("assets"),
/// then assets/ in the working directory.
std::vector<std::string> asset_dirs();
/// The default scene: assets/showcase.json if found and valid, else the built-in showcase.
Scene default_scene(std::string& path_out);
/// Scans the asset directory for case files and checks them (Case panel).
void scan_case_files(AppState& s);

}  // namespace raypick::app
