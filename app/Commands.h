// raypick demo: the command layer — the only way the scene changes. The panels, the keyboard and
// the menu, mouse drags and handle moves, file loads, presets and the random-edit driver all call
// SceneEditor; each command records its undo step and yields a ChangeSet, from which the picking
// hierarchy, the renderer's instances and the CPU ray-cast view update themselves. No GL.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "app/Camera.h"  // Vec3d
#include "app/History.h"
#include <raypick/scene/Scene.h>

namespace raypick::app {

/// What one or more commands changed in the scene.
struct ChangeSet {
    std::vector<std::size_t> added;     ///< shapes inserted (indices after the change)
    std::vector<std::size_t> removed;   ///< shapes removed (indices before the change)
    std::vector<std::size_t> modified;  ///< shapes whose geometry changed in place, ascending
    /// The shapes' count, order or types changed: whatever is kept per shape index is rebuilt.
    /// Without it only the `modified` shapes' parameters changed (a refit is enough).
    bool structure = false;
    bool names = false;     ///< a shape was renamed
    bool replaced = false;  ///< the whole scene (shapes, rays, expectations, camera) was replaced
    /// Mesh instances added or removed, or meshes changed: whatever is kept per instance is rebuilt.
    bool instance_structure = false;
    std::vector<std::size_t> instances_modified;  ///< instances moved in place (a refit is enough), ascending

    bool empty() const {
        return added.empty() && removed.empty() && modified.empty() && !structure && !names && !replaced &&
               !instance_structure && instances_modified.empty();
    }
    /// Appends `later` (applied after this one).
    void merge(const ChangeSet& later);
    /// Everything changed: what a consumer that never saw the scene needs.
    static ChangeSet everything();
};

/// Selected, hovered and handle-hovered shapes (indices into the scene), and the selected and
/// hovered mesh instance (indices into Scene::instances). At most one of `selected` and
/// `selected_instance` is set, and of `hovered` and `hovered_instance`.
struct Selection {
    std::optional<std::size_t> selected;
    std::optional<std::size_t> hovered;
    int hovered_handle = -1;  ///< a handle of the selected shape under the cursor
    std::optional<std::size_t> selected_instance;
    std::optional<std::size_t> hovered_instance;
    /// Drops shape indices that no longer exist (after delete, undo, load).
    void clamp(std::size_t shape_count);
    /// Drops shape and instance indices that no longer exist.
    void clamp(std::size_t shape_count, std::size_t instance_count);
    /// Selects instance i (nothing else selected).
    void select_instance(std::size_t i);
};

/// Where Duplicate puts the copy, relative to the original.
inline const Vec3d kDuplicateOffset{0.5, 0.0, 0.5};

/// The scene, its undo history and its change log. Every method that changes the scene is a
/// command: it records one undo step (a gesture records one step for all its edits) and bumps
/// version() exactly once for each change it makes.
class SceneEditor {
public:
    explicit SceneEditor(Scene scene = {}, std::size_t max_undo_steps = 256);
    SceneEditor(const SceneEditor&) = delete;
    SceneEditor& operator=(const SceneEditor&) = delete;

    const Scene& scene() const { return scene_; }

    // ---- commands ----
    /// Appends a new shape of `type` centred at `at` (named "sphere 3" etc.); returns its index.
    std::size_t add(ShapeType type, const Vec3d& at);
    /// Appends a copy of shape i shifted by kDuplicateOffset, named "<name> copy N"; its index.
    std::optional<std::size_t> duplicate(std::size_t i);
    /// Removes shape i (and the expectations about it). False if there is no shape i.
    bool remove(std::size_t i);
    /// Renames shape i; an empty name or another shape's name is refused (false, nothing changes).
    bool rename(std::size_t i, const std::string& name);
    /// Replaces shape i's geometry by `candidate` if raypick::validate() accepts it; otherwise
    /// returns the refusal message and changes nothing. Inside a gesture the edit joins the
    /// gesture's undo step; otherwise it is a step of its own. An unchanged shape is no change.
    std::optional<std::string> edit_shape(std::size_t i, const Shape<double>& candidate);
    /// Replaces instance i's placement (translation, Euler angles, scale; its mesh and name are
    /// kept) by `candidate`'s if it is valid: finite values, no zero scale. Otherwise returns the
    /// refusal message and changes nothing. Joins a running gesture's undo step as edit_shape().
    std::optional<std::string> edit_instance(std::size_t i, const SceneInstance& candidate);
    /// Appends a copy of instance i shifted by kDuplicateOffset, named "<name> copy N"; its index.
    std::optional<std::size_t> duplicate_instance(std::size_t i);
    /// Removes instance i (its mesh stays in the scene). False if there is no instance i.
    bool remove_instance(std::size_t i);
    /// Replaces the whole scene (one undo step).
    void replace(Scene scene);
    /// Starts over with `scene`: not undoable, the history is cleared.
    void reset(Scene scene);

    // ---- gestures: a drag or a slider, many edits, one undo step ----
    void begin_gesture();
    /// Ends the gesture; records its step if some shape really changed. True if recorded.
    bool end_gesture();
    bool in_gesture() const { return gesture_; }

    // ---- undo / redo (an unfinished gesture becomes a step first) ----
    bool undo();
    bool redo();
    bool can_undo() const { return history_.can_undo() || gesture_changed(); }
    bool can_redo() const { return history_.can_redo(); }
    std::size_t undo_count() const { return history_.undo_count(); }
    std::size_t redo_count() const { return history_.redo_count(); }
    std::size_t max_undo_steps() const { return history_.max_steps(); }
    void clear_history();

    // ---- saved or not ----
    /// Records the scene as it is now as saved (after a save, an open, a new scene).
    void mark_saved() { saved_state_ = history_.state(); }
    /// Whether the scene differs from the one last marked saved: edited since (a gesture in
    /// progress included), or undone or redone to another state. Undoing back to the saved scene
    /// makes it unmodified again.
    bool modified() const { return gesture_changed() || history_.state() != saved_state_; }

    // ---- what changed ----
    /// Counts the changes: bumped once by every change of the scene, never otherwise.
    std::uint64_t version() const { return version_; }
    /// The changes from `version` to version(): empty when they are equal; everything when
    /// `version` is unknown (none) or older than the log keeps.
    ChangeSet changes_since(std::optional<std::uint64_t> version) const;
    /// The change set of the last change (empty before the first).
    const ChangeSet& last_change() const;

    static constexpr std::size_t kLogSize = 64;

private:
    /// Applies `c` forwards or backwards to the scene; returns what changed.
    ChangeSet apply(const Command& c, bool forward);
    /// Redo (forward) or undo: the history's next command applied or reverted.
    bool step(bool forward);
    void changed(ChangeSet c);
    bool gesture_changed() const;

    Scene scene_;
    History history_;
    std::uint64_t saved_state_ = 0;  ///< history_.state() when the scene was last marked saved
    std::uint64_t version_ = 0;
    std::deque<ChangeSet> log_;  ///< log_.back() took the scene to version_, the one before to version_ - 1, ...
    bool gesture_ = false;
    std::map<std::size_t, Shape<double>> gesture_before_;  ///< shapes the gesture touched, as they were
    std::map<std::size_t, SceneInstance> gesture_instances_before_;  ///< instances the gesture moved, as they were
};


// ---- the actions of the panels, menus and keys that also move the selection ----

/// Scene panel > Add: a new shape at `at`, selected.
void add_and_select(SceneEditor& editor, Selection& sel, ShapeType type, const Vec3d& at);
/// Ctrl+D, Edit > Duplicate, Scene panel > Duplicate: the copy (of the selected shape or instance)
/// is selected. False if nothing is selected.
bool duplicate_selected(SceneEditor& editor, Selection& sel);
/// Delete, Edit > Delete, Scene panel > Delete: removes the selected shape or instance; nothing is
/// selected after. False if nothing is selected.
bool delete_selected(SceneEditor& editor, Selection& sel);

}  // namespace raypick::app
