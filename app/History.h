// raypick demo: the undo history — a bounded stack of commands, each holding what it needs to be
// applied again or reverted. Only the command layer (app/Commands.h) uses it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include <raypick/scene/Scene.h>

namespace raypick::app {

/// One shape's geometry before and after an edit.
struct ShapeChange {
    std::size_t index = 0;
    Shape<double> before, after;
};

/// One mesh instance's placement before and after an edit.
struct InstanceChange {
    std::size_t index = 0;
    SceneInstance before, after;
};

/// One undoable edit of a scene, reversible from its own data.
struct Command {
    enum class Kind {
        AddShape,     ///< `shape` inserted at `index`
        RemoveShape,  ///< `shape` removed from `index`; the expectations changed with it
        Rename,       ///< shape `index` renamed from `name_before` to `shape.name`
        EditShapes,   ///< shapes (`edits`) and instances (`instance_edits`) changed in place: a one-shot edit or a whole gesture
        Replace,      ///< the whole scene replaced (file open, presets, new scene)
        AddInstance,     ///< `instance` inserted at `index`
        RemoveInstance,  ///< `instance` removed from `index`
        EditInstances,   ///< instances' placements changed in place (`instance_edits`)
    };
    Kind kind = Kind::EditShapes;
    std::size_t index = 0;
    SceneShape shape;
    std::string name_before;
    std::vector<SceneExpectation> expectations_before, expectations_after;
    std::vector<ShapeChange> edits;
    SceneInstance instance;
    std::vector<InstanceChange> instance_edits;
    std::shared_ptr<const Scene> scene_before, scene_after;
    std::uint64_t serial = 0;  ///< set by History::record(): names the state this command leads to
};

/// Undo/redo stacks of commands, at most `max_steps` undo steps (the oldest are forgotten).
class History {
public:
    explicit History(std::size_t max_steps = 256) : max_steps_(max_steps) {}

    /// A finished command: becomes the last undo step; the redo steps are dropped.
    void record(Command command);
    /// The last undo step, moved to the redo stack (null if none): the caller reverts it.
    const Command* undo();
    /// The last redo step, moved to the undo stack (null if none): the caller applies it again.
    const Command* redo();

    bool can_undo() const { return !undo_.empty(); }
    bool can_redo() const { return !redo_.empty(); }
    std::size_t undo_count() const { return undo_.size(); }
    std::size_t redo_count() const { return redo_.size(); }
    std::size_t max_steps() const { return max_steps_; }
    /// Forgets every step; the scene's state from then on is a new one (state()).
    void clear();
    /// Names the scene's state the history stands at: the last undo step's serial (unique per
    /// recorded command), or what the oldest kept step was applied to. Equal states are the same
    /// scene; a new command, or clear(), gives a state never seen before.
    std::uint64_t state() const { return undo_.empty() ? base_state_ : undo_.back().serial; }

private:
    std::size_t max_steps_;
    std::uint64_t next_serial_ = 1;
    std::uint64_t base_state_ = 0;  ///< the state under the oldest undo step
    std::deque<Command> undo_;
    std::deque<Command> redo_;
};

}  // namespace raypick::app
