#include "app/ui/Panels.h"

#include <cstdio>
#include <string>

#include <imgui.h>

#include "app/Commands.h"
#include "app/SceneEdit.h"

namespace raypick::app {

void ScenePanel::draw(AppState& s, PanelBackgrounds& backgrounds) {
    if (!begin_panel("Scene", backgrounds)) {
        ImGui::End();
        return;
    }
    ImGui::TextUnformatted("Add:");
    for (int t = 0; t < kShapeTypeCount; ++t) {
        flow(shape_type_name(ShapeType(t)), true);  // on the next line when the panel is too narrow
        if (ImGui::SmallButton(shape_type_name(ShapeType(t)))) add_and_select(s.editor, s.sel, ShapeType(t), s.camera.target);
    }
    const bool has = (s.sel.selected && *s.sel.selected < s.scene().shapes.size()) ||
                     (s.sel.selected_instance && *s.sel.selected_instance < s.scene().instances.size());
    if (!has) ImGui::BeginDisabled();
    if (ImGui::Button("Duplicate")) duplicate_selected(s.editor, s.sel);
    ImGui::SameLine();
    if (ImGui::Button("Delete")) delete_selected(s.editor, s.sel);
    ImGui::SameLine();
    if (ImGui::Button("Frame")) frame_selection(s);
    if (!has) ImGui::EndDisabled();

    const bool sel_ok = s.sel.selected && *s.sel.selected < s.scene().shapes.size();
    if (sel_ok) {
        const std::size_t i = *s.sel.selected;
        if (rename_for_ != i) {
            std::snprintf(rename_buf_, sizeof rename_buf_, "%s", s.scene().shapes[i].name.c_str());
            rename_for_ = i;
        }
        ImGui::InputText("Name", rename_buf_, sizeof rename_buf_);
        if (ImGui::IsItemDeactivatedAfterEdit()) {
            if (s.scene().shapes[i].name != rename_buf_) {
                if (!s.editor.rename(i, rename_buf_)) {
                    s.status = rename_buf_[0] ? "another shape is already called that: kept the old name"
                                              : "a shape needs a name: kept the old one";
                    std::snprintf(rename_buf_, sizeof rename_buf_, "%s", s.scene().shapes[i].name.c_str());
                }
            }
        }
    } else {
        rename_for_.reset();
    }

    ImGui::Separator();
    ImGui::BeginChild("shapes");
    ImGuiListClipper clipper;
    // The shapes, then the mesh instances.
    const std::size_t shape_rows = s.scene().shapes.size();
    clipper.Begin(static_cast<int>(shape_rows + s.scene().instances.size()));
    while (clipper.Step()) {
        for (int row = clipper.DisplayStart; row < clipper.DisplayEnd; ++row) {
            if (static_cast<std::size_t>(row) >= shape_rows) {
                const std::size_t i = static_cast<std::size_t>(row) - shape_rows;
                const SceneInstance& inst = s.scene().instances[i];
                char label[320];
                std::snprintf(label, sizeof label, "%s %s##instance%zu", s.triangle && s.triangle->instance == i ? "*" : " ",
                              inst.name.c_str(), i);
                if (ImGui::Selectable(label, s.sel.selected_instance == i)) s.sel.select_instance(i);
                if (ImGui::IsItemHovered()) s.sel.hovered_instance = i;
                ImGui::SameLine(ImGui::GetWindowContentRegionMax().x - ImGui::CalcTextSize("mesh").x);
                ImGui::TextDisabled("mesh");
                continue;
            }
            const std::size_t i = static_cast<std::size_t>(row);
            const SceneShape& sh = s.scene().shapes[i];
            const bool hit = i < s.result.shapes.size() && s.result.shapes[i].hit.has_value();
            // The name (cut with a tooltip when long), "deg" for a degenerate shape and the type at
            // the right edge.
            const char* type = shape_type_name(type_of(sh.shape));
            const bool degenerate = !degeneracies(sh.shape).empty();
            const ImGuiStyle& st = ImGui::GetStyle();
            const float type_x = ImGui::GetWindowContentRegionMax().x - ImGui::CalcTextSize(type).x;
            const float deg_x = type_x - st.ItemSpacing.x - ImGui::CalcTextSize("deg").x;
            const float name_x = ImGui::GetCursorPosX();
            ImGui::PushID(row);
            if (ImGui::Selectable("##shape", s.sel.selected == i)) {
                s.sel.selected = i;
                s.sel.selected_instance.reset();
            }
            if (ImGui::IsItemHovered()) s.sel.hovered = i;
            ImGui::PopID();
            ImGui::SameLine(name_x);
            text_fitted(((hit ? "* " : "  ") + sh.name).c_str(), (degenerate ? deg_x : type_x) - st.ItemSpacing.x - name_x);
            if (degenerate) {
                ImGui::SameLine(deg_x);
                ImGui::TextColored(kYellow, "deg");
                if (ImGui::IsItemHovered()) ImGui::SetTooltip("degenerate (valid): see the Inspector");
            }
            ImGui::SameLine(type_x);
            ImGui::TextDisabled("%s", type);
        }
    }
    ImGui::EndChild();
    ImGui::End();
}

}  // namespace raypick::app
