// raypick demo: undo/redo of scene edits as whole-scene snapshots (scenes are small values).
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <optional>
#include <string>

#include "scene/Scene.h"

namespace raypick::app {

/// Undo/redo. Every step is the scene as it was before an edit. A gesture that changes the scene
/// continuously (a drag, a slider) is one step: begin() takes the snapshot once, end() records it
/// when the scene really changed. One-shot edits (add, delete, rename) call record(before).
class History {
public:
    explicit History(std::size_t max_steps = 256) : max_steps_(max_steps) {}

    /// Starts a gesture: remembers `current` unless a gesture is already under way.
    void begin(const Scene& current);
    /// Ends the gesture: records its snapshot if `current` differs from it. Returns true if recorded.
    bool end(const Scene& current);
    bool in_gesture() const { return pending_.has_value(); }
    /// Records one finished edit whose state before was `before`.
    void record(const Scene& before);

    /// Restores the state before the last edit; `current` becomes redoable. False if none.
    bool undo(Scene& current);
    /// Re-applies the last undone edit. False if none.
    bool redo(Scene& current);

    bool can_undo() const { return !undo_.empty(); }
    bool can_redo() const { return !redo_.empty(); }
    std::size_t undo_count() const { return undo_.size(); }
    /// Counts the steps recorded, undone and redone: it changes whenever a finished edit, an undo or
    /// a redo changed the scene (gestures in progress are seen by in_gesture()).
    std::uint64_t changes() const { return changes_; }
    std::size_t redo_count() const { return redo_.size(); }
    void clear();

private:
    std::size_t max_steps_;
    std::deque<Scene> undo_;
    std::deque<Scene> redo_;
    std::optional<Scene> pending_;
    std::uint64_t changes_ = 0;
};

/// Exact equality of two scenes (names, shape types and every parameter, rays, camera).
bool same_scene(const Scene& a, const Scene& b);
bool same_shape(const Shape<double>& a, const Shape<double>& b);

}  // namespace raypick::app
