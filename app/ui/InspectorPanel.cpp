#include "app/ui/Panels.h"

#include <algorithm>
#include <string>
#include <type_traits>
#include <variant>

#include <imgui.h>
#include <imgui_internal.h>  // ImGuiContext::TempInputId: a drag field in text entry

#include "app/Commands.h"
#include "app/SceneEdit.h"
#include <raypick/scene/Euler.h>

namespace raypick::app {

namespace {

/// A field's name as the Inspector shows it: "half_extents" -> "half extents".
std::string field_label(const char* name) {
    std::string out = name;
    for (char& c : out)
        if (c == '_') c = ' ';
    return out;
}

// What a type shows below its fields; nothing for a type without its own. Returns whether a
// value was edited there.
template <typename S> bool inspector_extras(S&) { return false; }
bool inspector_extras(Aabb<double>& x) {
    bool touched = false;
    Vec3d c = (x.min + x.max) * 0.5, size = x.max - x.min;
    if (drag3("center##aabb", c)) {
        touched = true;
        x.min = c - size * 0.5;
        x.max = c + size * 0.5;
    }
    ImGui::TextDisabled("size (%.6g, %.6g, %.6g)", size.x, size.y, size.z);
    return touched;
}
bool inspector_extras(Capsule<double>& x) {
    ImGui::TextDisabled("length |b - a| = %.6g", glm::length(x.b - x.a));
    return false;
}

}  // namespace

void InspectorPanel::apply_edit(AppState& s, std::size_t index, const Shape<double>& candidate) {
    if (same_shape(candidate, s.scene().shapes[index].shape)) return;
    s.editor.begin_gesture();  // ended by App::update when no field is active any more
    if (auto err = s.editor.edit_shape(index, candidate)) {
        refusal_ = "refused: " + *err + "; kept the last valid value";
        refusal_for_ = index;
        euler_for_.reset();  // an OBB's angles are shown again from the rotation kept
    } else if (refusal_for_ == index) {
        refusal_.clear();
    }
}

void InspectorPanel::draw_instance(AppState& s, std::size_t i) {
    const SceneInstance& inst = s.scene().instances[i];
    const SceneMesh& mesh = s.scene().meshes[inst.mesh];
    ImGui::Text("%s  (instance of mesh %s)", inst.name.c_str(), mesh.name.c_str());
    if (!mesh.file.empty()) ImGui::TextDisabled("file %s", mesh.file.c_str());
    std::size_t triangles = 0;
    for (const ModelMesh& m : mesh.model.meshes) triangles += m.triangles.size() / 3;
    ImGui::TextDisabled("%zu meshes, %zu placements, %zu triangles", mesh.model.meshes.size(),
                        mesh.model.instances.size(), triangles);
    SceneInstance edit = inst;
    bool touched = drag3("translation", edit.translation);
    touched |= drag3("euler (deg)", edit.euler_degrees, 0.5f, "%.9g");
    touched |= drag3("scale", edit.scale, 0.01f);
    ImGui::TextDisabled("R = Rz * Ry * Rx; a negative scale mirrors");
    if (touched && edit != inst) {
        s.editor.begin_gesture();  // ended by App::update when no field is active any more
        if (auto err = s.editor.edit_instance(i, edit)) {
            refusal_ = "refused: " + *err + "; kept the last valid value";
            refusal_for_ = i;
        } else if (refusal_for_ == i) {
            refusal_.clear();
        }
    }
    if (!refusal_.empty() && refusal_for_ == i) {
        ImGui::PushTextWrapPos(0.0f);
        ImGui::TextColored(kRed, "%s", refusal_.c_str());
        ImGui::PopTextWrapPos();
    }
    ImGui::Separator();
    hint("Drag the mesh in the view to move it (hold X, Y or Z for one axis).");
}

void InspectorPanel::draw(AppState& s, PanelBackgrounds& backgrounds) {
    if (!begin_panel("Inspector", backgrounds)) {
        ImGui::End();
        return;
    }
    if (s.sel.selected_instance && *s.sel.selected_instance < s.scene().instances.size()) {
        draw_instance(s, *s.sel.selected_instance);
        ImGui::End();
        return;
    }
    if (!s.sel.selected || *s.sel.selected >= s.scene().shapes.size()) {
        hint("Click a shape or a mesh (or pick one in the Scene list).");
        ImGui::End();
        return;
    }
    const std::size_t i = *s.sel.selected;
    if (refusal_for_ && refusal_for_ != i) refusal_.clear();
    ImGui::Text("%s  (%s)", s.scene().shapes[i].name.c_str(), shape_type_name(type_of(s.scene().shapes[i].shape)));
    Shape<double> edit = s.scene().shapes[i].shape;
    bool touched = false;  // some field reported a value this frame
    // The fields leave room for the widest of this shape's labels beside them.
    float widest_label = 0.0f;
    std::visit([&](const auto& x) {
        for_each_field(x, [&](const auto& f, const auto& v) {
            using V = std::decay_t<decltype(v)>;
            const bool angles = !std::is_same_v<V, double> && !std::is_same_v<V, Vec3d>;
            widest_label = std::max(widest_label, ImGui::CalcTextSize((field_label(f.name) + (angles ? " (deg)" : "")).c_str()).x);
        });
    }, edit);
    ImGui::PushItemWidth(-(widest_label + ImGui::GetStyle().ItemInnerSpacing.x + 1.0f));
    // Every field by its role (ShapeTraits::fields()), then what the type shows besides.
    std::visit(
        [&](auto& x) {
            for_each_field(x, [&](const auto& f, auto& v) {
                using V = std::decay_t<decltype(v)>;
                const std::string label = field_label(f.name);
                if constexpr (std::is_same_v<V, double>) {
                    touched |= drag1(label.c_str(), v);
                } else if constexpr (std::is_same_v<V, Vec3d>) {
                    touched |= drag3(label.c_str(), v);
                } else {  // a rotation, as Euler angles (scene/Euler.h)
                    if (euler_for_ != i || euler_rotation_ != v) {
                        euler_ = euler_degrees_from_rotation(v);
                        euler_for_ = i;
                    }
                    Vec3d e = euler_;
                    if (drag3((label + " (deg)").c_str(), e, 0.5f, "%.9g")) {
                        touched = true;
                        // Shown until the edit is taken, or refused (then recomputed): non-finite
                        // angles give a NaN rotation, which validation refuses as any other field's.
                        euler_ = e;
                        v = rotation_from_euler_degrees(e);
                        euler_rotation_ = v;
                    }
                    hint("R = Rz * Ry * Rx (about world X, then Y, then Z)");
                    if (ImGui::TreeNode((label + " matrix").c_str())) {
                        hint("columns = the box's axes");
                        for (int r = 0; r < 3; ++r) ImGui::Text("% .9f % .9f % .9f", v[0][r], v[1][r], v[2][r]);
                        ImGui::Text("orthonormality error %.3g", orthonormality_error(v));
                        ImGui::TreePop();
                    }
                }
            });
            touched |= inspector_extras(x);
        },
        edit);
    ImGui::PopItemWidth();
    // A field in text entry: keep what is typed until the entry ends (ImGui's drag fields apply
    // their text keystroke by keystroke: typing 1e999 into a radius would set 1e9 and 1e99 on the
    // way, and the refusal would then keep 1e99). Escape puts the field's first text back, which lands here
    // too, so the entry then changes nothing.
    const ImGuiContext& g = *ImGui::GetCurrentContext();
    const bool typing = g.TempInputId != 0 && g.TempInputId == g.ActiveId;
    if (typed_for_ && (*typed_for_ != i || typed_.index() != edit.index())) typed_for_.reset();
    if (typing) {
        if (touched) {
            typed_ = edit;
            typed_for_ = i;
        }
    } else if (typed_for_) {  // the entry ended this frame: what was typed (this frame's edit is the old shape)
        apply_edit(s, i, typed_);
        typed_for_.reset();
    } else {
        apply_edit(s, i, edit);
    }
    std::visit([&](const auto& x) {  // the rotation kept, if the type has one
        for_each_field(x, [&](const auto&, const auto& v) {
            if constexpr (std::is_same_v<std::decay_t<decltype(v)>, Mat3<double>>) euler_rotation_ = v;
        });
    }, s.scene().shapes[i].shape);

    if (!refusal_.empty()) {
        ImGui::PushTextWrapPos(0.0f);
        ImGui::TextColored(kRed, "%s", refusal_.c_str());
        ImGui::PopTextWrapPos();
    }
    const auto notes = degeneracies(s.scene().shapes[i].shape);
    ImGui::PushStyleColor(ImGuiCol_Text, kYellow);
    for (const std::string& n : notes) text_words(("degenerate: " + n).c_str());
    ImGui::PopStyleColor();
    if (notes.empty()) ImGui::TextColored(kGreen, "valid, not degenerate");

    ImGui::Separator();
    hint("Handles (drag the white squares in the view):");
    for (const Handle& h : handles(s.scene().shapes[i].shape))
        ImGui::TextDisabled("  %s (%.4g, %.4g, %.4g)", h.label, h.position.x, h.position.y, h.position.z);
    ImGui::End();
}

}  // namespace raypick::app
