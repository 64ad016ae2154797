#include "app/Commands.h"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <utility>

#include "app/SceneEdit.h"
#include <raypick/scene/SceneMeshes.h>

namespace raypick::app {

// ---- ChangeSet and Selection ---------------------------------------------------------------------

void ChangeSet::merge(const ChangeSet& later) {
    added.insert(added.end(), later.added.begin(), later.added.end());
    removed.insert(removed.end(), later.removed.begin(), later.removed.end());
    std::vector<std::size_t> both;
    std::set_union(modified.begin(), modified.end(), later.modified.begin(), later.modified.end(),
                   std::back_inserter(both));
    modified = std::move(both);
    std::vector<std::size_t> moved;
    std::set_union(instances_modified.begin(), instances_modified.end(), later.instances_modified.begin(),
                   later.instances_modified.end(), std::back_inserter(moved));
    instances_modified = std::move(moved);
    instance_structure = instance_structure || later.instance_structure;
    structure = structure || later.structure;
    names = names || later.names;
    replaced = replaced || later.replaced;
}

ChangeSet ChangeSet::everything() {
    ChangeSet c;
    c.structure = true;
    c.names = true;
    c.replaced = true;
    c.instance_structure = true;
    return c;
}

void Selection::clamp(std::size_t n) {
    if (selected && *selected >= n) selected.reset();
    if (hovered && *hovered >= n) hovered.reset();
    if (!selected) hovered_handle = -1;
}

void Selection::clamp(std::size_t shape_count, std::size_t instance_count) {
    clamp(shape_count);
    if (selected_instance && *selected_instance >= instance_count) selected_instance.reset();
    if (hovered_instance && *hovered_instance >= instance_count) hovered_instance.reset();
}

void Selection::select_instance(std::size_t i) {
    selected.reset();
    hovered_handle = -1;
    selected_instance = i;
}

namespace {

/// Why `inst` cannot be placed in `scene`, or nothing: every value finite, no zero scale, and each
/// of its mesh's placements an invertible map (what InstanceBvh accepts).
std::optional<std::string> instance_error(const Scene& scene, const SceneInstance& inst) {
    for (int a = 0; a < 3; ++a) {
        if (!std::isfinite(inst.translation[a]) || !std::isfinite(inst.euler_degrees[a]) || !std::isfinite(inst.scale[a]))
            return std::string("translation, Euler angles and scale must be finite");
        if (inst.scale[a] == 0.0) return std::string("a scale of 0 flattens the mesh: use a non-zero scale");
    }
    const glm::dmat4 world = instance_matrix(inst);
    if (auto err = validate(affine_of<double>(world))) return "transform: " + err->message;
    if (inst.mesh < scene.meshes.size())
        for (const ModelInstance& mi : scene.meshes[inst.mesh].model.instances)
            if (auto err = validate(affine_of<double>(world * mi.transform)))
                return "placement '" + mi.name + "': " + err->message;
    return std::nullopt;
}

}  // namespace

// ---- SceneEditor -----------------------------------------------------------------------------------

SceneEditor::SceneEditor(Scene scene, std::size_t max_undo_steps)
    : scene_(std::move(scene)), history_(max_undo_steps) {}

void SceneEditor::changed(ChangeSet c) {
    if (c.empty()) return;
    ++version_;
    log_.push_back(std::move(c));
    while (log_.size() > kLogSize) log_.pop_front();
}

const ChangeSet& SceneEditor::last_change() const {
    static const ChangeSet none;
    return log_.empty() ? none : log_.back();
}

ChangeSet SceneEditor::changes_since(std::optional<std::uint64_t> version) const {
    if (!version || *version > version_ || version_ - *version > log_.size()) return ChangeSet::everything();
    ChangeSet out;
    for (std::size_t k = log_.size() - static_cast<std::size_t>(version_ - *version); k < log_.size(); ++k)
        out.merge(log_[k]);
    return out;
}

ChangeSet SceneEditor::apply(const Command& c, bool forward) {
    ChangeSet out;
    auto& shapes = scene_.shapes;
    const auto at = shapes.begin() + static_cast<std::ptrdiff_t>(c.index);
    switch (c.kind) {
        case Command::Kind::AddShape:
        case Command::Kind::RemoveShape: {
            const bool insert = (c.kind == Command::Kind::AddShape) == forward;
            if (insert) {
                shapes.insert(at, c.shape);
                out.added.push_back(c.index);
            } else {
                shapes.erase(at);
                out.removed.push_back(c.index);
            }
            if (c.kind == Command::Kind::RemoveShape)
                scene_.expectations = forward ? c.expectations_after : c.expectations_before;
            out.structure = true;
            break;
        }
        case Command::Kind::Rename:
            shapes[c.index].name = forward ? c.shape.name : c.name_before;
            out.names = true;
            break;
        case Command::Kind::EditShapes:
        case Command::Kind::EditInstances:
            // A gesture may have moved shapes and instances: both lists apply.
            for (const ShapeChange& e : c.edits) {
                const Shape<double>& to = forward ? e.after : e.before;
                if (shapes[e.index].shape.index() != to.index()) out.structure = true;
                shapes[e.index].shape = to;
                out.modified.push_back(e.index);
            }
            std::sort(out.modified.begin(), out.modified.end());
            for (const InstanceChange& e : c.instance_edits) {
                scene_.instances[e.index] = forward ? e.after : e.before;
                out.instances_modified.push_back(e.index);
            }
            std::sort(out.instances_modified.begin(), out.instances_modified.end());
            break;
        case Command::Kind::Replace:
            scene_ = forward ? *c.scene_after : *c.scene_before;
            out = ChangeSet::everything();
            break;
        case Command::Kind::AddInstance:
        case Command::Kind::RemoveInstance: {
            auto& instances = scene_.instances;
            const auto where = instances.begin() + static_cast<std::ptrdiff_t>(c.index);
            if ((c.kind == Command::Kind::AddInstance) == forward) instances.insert(where, c.instance);
            else instances.erase(where);
            out.instance_structure = true;
            break;
        }
    }
    return out;
}

std::size_t SceneEditor::add(ShapeType type, const Vec3d& at) {
    end_gesture();
    Command c;
    c.kind = Command::Kind::AddShape;
    c.index = scene_.shapes.size();
    c.shape.name = unique_name(scene_, shape_type_name(type));
    c.shape.shape = make_shape(type, at);
    changed(apply(c, true));
    history_.record(std::move(c));
    return scene_.shapes.size() - 1;
}

std::optional<std::size_t> SceneEditor::duplicate(std::size_t i) {
    if (i >= scene_.shapes.size()) return std::nullopt;
    end_gesture();
    Command c;
    c.kind = Command::Kind::AddShape;
    c.index = scene_.shapes.size();
    c.shape = scene_.shapes[i];
    c.shape.name = unique_name(scene_, scene_.shapes[i].name + " copy");
    c.shape.shape = translated(c.shape.shape, kDuplicateOffset);
    changed(apply(c, true));
    history_.record(std::move(c));
    return scene_.shapes.size() - 1;
}

bool SceneEditor::remove(std::size_t i) {
    if (i >= scene_.shapes.size()) return false;
    end_gesture();
    Command c;
    c.kind = Command::Kind::RemoveShape;
    c.index = i;
    c.shape = scene_.shapes[i];
    c.expectations_before = scene_.expectations;
    // The expectations as delete_shape() leaves them (those about the shape go, the others follow
    // their shapes' new indices), computed on a scene of the expectations alone.
    Scene rest;
    rest.shapes.resize(scene_.shapes.size());
    rest.expectations = scene_.expectations;
    delete_shape(rest, i);
    c.expectations_after = std::move(rest.expectations);
    changed(apply(c, true));
    history_.record(std::move(c));
    return true;
}

bool SceneEditor::rename(std::size_t i, const std::string& name) {
    if (i >= scene_.shapes.size() || name.empty()) return false;
    if (scene_.shapes[i].name == name) return true;
    for (std::size_t k = 0; k < scene_.shapes.size(); ++k)
        if (k != i && scene_.shapes[k].name == name) return false;  // names identify shapes in files
    end_gesture();
    Command c;
    c.kind = Command::Kind::Rename;
    c.index = i;
    c.name_before = scene_.shapes[i].name;
    c.shape.name = name;
    changed(apply(c, true));
    history_.record(std::move(c));
    return true;
}

std::optional<std::string> SceneEditor::edit_shape(std::size_t i, const Shape<double>& candidate) {
    if (i >= scene_.shapes.size()) return std::string("no such shape");
    if (auto err = validate(candidate)) return err->message;
    if (same_shape(scene_.shapes[i].shape, candidate)) return std::nullopt;
    Command c;
    c.kind = Command::Kind::EditShapes;
    c.edits.push_back({i, scene_.shapes[i].shape, candidate});
    if (gesture_) gesture_before_.emplace(i, scene_.shapes[i].shape);  // keeps the first
    changed(apply(c, true));
    if (!gesture_) history_.record(std::move(c));
    return std::nullopt;
}

std::optional<std::string> SceneEditor::edit_instance(std::size_t i, const SceneInstance& candidate) {
    if (i >= scene_.instances.size()) return std::string("no such instance");
    SceneInstance after = scene_.instances[i];
    after.translation = candidate.translation;
    after.euler_degrees = candidate.euler_degrees;
    after.scale = candidate.scale;
    if (auto err = instance_error(scene_, after)) return err;
    if (after == scene_.instances[i]) return std::nullopt;
    Command c;
    c.kind = Command::Kind::EditInstances;
    c.instance_edits.push_back({i, scene_.instances[i], after});
    if (gesture_) gesture_instances_before_.emplace(i, scene_.instances[i]);  // keeps the first
    changed(apply(c, true));
    if (!gesture_) history_.record(std::move(c));
    return std::nullopt;
}

std::optional<std::size_t> SceneEditor::duplicate_instance(std::size_t i) {
    if (i >= scene_.instances.size()) return std::nullopt;
    end_gesture();
    Command c;
    c.kind = Command::Kind::AddInstance;
    c.index = scene_.instances.size();
    c.instance = scene_.instances[i];
    c.instance.name = unique_name(scene_, scene_.instances[i].name + " copy");
    c.instance.translation += kDuplicateOffset;
    changed(apply(c, true));
    history_.record(std::move(c));
    return scene_.instances.size() - 1;
}

bool SceneEditor::remove_instance(std::size_t i) {
    if (i >= scene_.instances.size()) return false;
    end_gesture();
    Command c;
    c.kind = Command::Kind::RemoveInstance;
    c.index = i;
    c.instance = scene_.instances[i];
    changed(apply(c, true));
    history_.record(std::move(c));
    return true;
}

void SceneEditor::replace(Scene scene) {
    end_gesture();
    Command c;
    c.kind = Command::Kind::Replace;
    c.scene_before = std::make_shared<const Scene>(std::move(scene_));
    c.scene_after = std::make_shared<const Scene>(std::move(scene));
    changed(apply(c, true));
    history_.record(std::move(c));
}

void SceneEditor::reset(Scene scene) {
    gesture_ = false;
    gesture_before_.clear();
    gesture_instances_before_.clear();
    history_.clear();
    scene_ = std::move(scene);
    changed(ChangeSet::everything());
    mark_saved();  // a fresh start: nothing edited yet
}

void SceneEditor::begin_gesture() { gesture_ = true; }

bool SceneEditor::gesture_changed() const {
    for (const auto& [i, before] : gesture_before_)
        if (i < scene_.shapes.size() && !same_shape(before, scene_.shapes[i].shape)) return true;
    for (const auto& [i, before] : gesture_instances_before_)
        if (i < scene_.instances.size() && before != scene_.instances[i]) return true;
    return false;
}

bool SceneEditor::end_gesture() {
    if (!gesture_) return false;
    gesture_ = false;
    Command c;
    c.kind = Command::Kind::EditShapes;
    for (auto& [i, before] : gesture_before_)
        if (!same_shape(before, scene_.shapes[i].shape)) c.edits.push_back({i, std::move(before), scene_.shapes[i].shape});
    gesture_before_.clear();
    for (auto& [i, before] : gesture_instances_before_)
        if (before != scene_.instances[i]) c.instance_edits.push_back({i, std::move(before), scene_.instances[i]});
    gesture_instances_before_.clear();
    if (c.edits.empty() && c.instance_edits.empty()) return false;
    history_.record(std::move(c));
    return true;
}

bool SceneEditor::undo() { return step(false); }

bool SceneEditor::redo() { return step(true); }

bool SceneEditor::step(bool forward) {
    end_gesture();
    const Command* c = forward ? history_.redo() : history_.undo();
    if (!c) return false;
    changed(apply(*c, forward));
    return true;
}

void SceneEditor::clear_history() {
    end_gesture();
    const bool saved = history_.state() == saved_state_;
    history_.clear();
    if (saved) mark_saved();  // the same scene as before, saved or not as before
}

// ---- selection-aware actions ---------------------------------------------------------------------

void add_and_select(SceneEditor& editor, Selection& sel, ShapeType type, const Vec3d& at) {
    sel.selected = editor.add(type, at);
}

bool duplicate_selected(SceneEditor& editor, Selection& sel) {
    if (sel.selected_instance) {
        const auto i = editor.duplicate_instance(*sel.selected_instance);
        if (i) sel.select_instance(*i);
        return i.has_value();
    }
    if (!sel.selected) return false;
    const auto i = editor.duplicate(*sel.selected);
    if (i) sel.selected = *i;
    return i.has_value();
}

bool delete_selected(SceneEditor& editor, Selection& sel) {
    if (sel.selected_instance) {
        const bool removed = editor.remove_instance(*sel.selected_instance);
        sel.selected_instance.reset();
        sel.clamp(editor.scene().shapes.size(), editor.scene().instances.size());
        return removed;
    }
    if (!sel.selected) return false;
    const bool removed = editor.remove(*sel.selected);
    sel.selected.reset();
    sel.clamp(editor.scene().shapes.size());
    return removed;
}

}  // namespace raypick::app
