#include "app/ui/Panels.h"

#include <algorithm>
#include <cstdio>
#include <optional>
#include <vector>

#include <imgui.h>

#include "app/Picking.h"

namespace raypick::app {

void RayPanel::draw(AppState& s, PanelBackgrounds& backgrounds) {
    if (!begin_panel("Ray", backgrounds)) {
        ImGui::End();
        return;
    }
    bool frozen = s.ray.frozen;
    if (ImGui::Checkbox("Freeze ray (Space)", &frozen)) set_frozen(s, frozen);
    ImGui::SameLine();
    if (ImGui::Button("Look at ray")) {  // orbit around the ray's first hit (or a point along it)
        const double t = s.result.nearest ? s.result.shapes[*s.result.nearest].surface->t
                                          : 5.0 / std::max(glm::length(s.ray.ray.direction), 1e-300);
        s.camera.look_at(s.camera.eye(), s.ray.ray.at(t));
    }
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("turn the camera to the ray's first hit and orbit around it");
    ImGui::SameLine();
    if (ImGui::Button("Copy as text"))
        ImGui::SetClipboardText(format_result(s.scene(), s.result, s.view.show_misses).c_str());

    if (!s.ray.valid) {
        hint("No ray yet: move the mouse over the view (or start with --ray).");
        ImGui::End();
        return;
    }
    Ray<double> r = s.ray.ray;
    if (!s.ray.frozen) ImGui::BeginDisabled();
    ImGui::TextUnformatted("origin");
    ImGui::SetNextItemWidth(-1);
    bool changed = input_full3("##origin", r.origin);
    ImGui::TextUnformatted("direction");
    ImGui::SetNextItemWidth(-1);
    changed |= input_full3("##direction", r.direction);
    if (!s.ray.frozen) ImGui::EndDisabled();
    if (changed && s.ray.frozen) {
        if (auto err = validate(r)) {
            ray_refusal_ = "refused: " + err->message + "; kept the last valid ray";
        } else {
            s.ray.ray = r;
            ray_refusal_.clear();
        }
    }
    if (!ray_refusal_.empty()) ImGui::TextColored(kRed, "%s", ray_refusal_.c_str());
    if (!s.ray.frozen) hint("The ray through the mouse. Freeze it to edit it and orbit around it.");

    const PickResult& res = s.result;
    if (res.nearest && *res.nearest < s.scene().shapes.size())
        ImGui::TextColored(kGreen, "picked: %s at t = %s", s.scene().shapes[*res.nearest].name.c_str(),
                           full(res.shapes[*res.nearest].surface->t).c_str());
    else
        ImGui::TextDisabled("picked: nothing");
    ImGui::Text("%zu of %zu shapes hit", res.hit_count, s.scene().shapes.size());

    // One row per shape that is hit (every shape with "show misses"); details below for one shape.
    std::vector<std::size_t> rows;
    for (std::size_t i = 0; i < res.shapes.size() && i < s.scene().shapes.size(); ++i) {
        const ShapeResult& sr = res.shapes[i];
        if (sr.hit || s.view.show_misses || (sr.variant && sr.variant->hit)) rows.push_back(i);
    }
    const bool compare = std::any_of(s.view.compare.enabled.begin(), s.view.compare.enabled.end(), [](bool b) { return b; });
    const int columns = compare ? 6 : 5;
    const float table_h = std::min(ImGui::GetTextLineHeightWithSpacing() * (rows.size() + 1.5f), 170.0f);
    if (ImGui::BeginTable("hits", columns,
                          ImGuiTableFlags_ScrollY | ImGuiTableFlags_RowBg | ImGuiTableFlags_Borders |
                              ImGuiTableFlags_Resizable,
                          ImVec2(0, table_h))) {
        ImGui::TableSetupScrollFreeze(0, 1);
        ImGui::TableSetupColumn("shape");
        ImGui::TableSetupColumn("hit");
        ImGui::TableSetupColumn("t_near");
        ImGui::TableSetupColumn("t_far");
        ImGui::TableSetupColumn("inside");
        if (compare) ImGui::TableSetupColumn("textbook");
        ImGui::TableHeadersRow();
        ImGuiListClipper clipper;
        clipper.Begin(static_cast<int>(rows.size()));
        while (clipper.Step())
            for (int k = clipper.DisplayStart; k < clipper.DisplayEnd; ++k) {
                const std::size_t i = rows[static_cast<std::size_t>(k)];
                const ShapeResult& sr = res.shapes[i];
                ImGui::TableNextRow();
                ImGui::TableNextColumn();
                char label[300];
                std::snprintf(label, sizeof label, "%s##hit%zu", s.scene().shapes[i].name.c_str(), i);
                if (ImGui::Selectable(label, s.sel.selected == i, ImGuiSelectableFlags_SpanAllColumns))
                    s.sel.selected = i;
                ImGui::TableNextColumn();
                const auto th = sr.hit ? triangle_hit(s.scene().shapes[i].shape, s.ray.ray) : std::nullopt;
                ImGui::TextColored(sr.hit ? kGreen : kGrey, "%s",
                                   th ? (th->front ? "hit front" : "hit back") : sr.hit ? "hit" : "miss");
                ImGui::TableNextColumn();
                if (sr.hit) ImGui::TextUnformatted(full(sr.hit->t_near).c_str());
                ImGui::TableNextColumn();
                if (sr.hit) ImGui::TextUnformatted(full(sr.hit->t_far).c_str());
                ImGui::TableNextColumn();
                if (sr.hit) ImGui::TextUnformatted(sr.hit->origin_inside ? "inside" : "-");
                if (compare) {
                    ImGui::TableNextColumn();
                    if (sr.variant) {
                        if (sr.variant->differs) ImGui::TextColored(kMagenta, "DIFFERS");
                        else ImGui::TextColored(kGrey, "agrees");
                    }
                }
            }
        ImGui::EndTable();
    }

    // Details: the selected shape if it is in the list, else the picked one.
    std::optional<std::size_t> detail;
    if (s.sel.selected && *s.sel.selected < res.shapes.size()) detail = s.sel.selected;
    else if (res.nearest) detail = res.nearest;
    else if (!rows.empty()) detail = rows.front();
    if (detail) {
        const std::size_t i = *detail;
        const ShapeResult& sr = res.shapes[i];
        ImGui::Separator();
        ImGui::Text("%s:", s.scene().shapes[i].name.c_str());
        ImGui::BeginChild("detail");
        if (sr.variant) ImGui::Columns(2, "cmp", true);
        ImGui::TextColored(kGreen, "raypick core (double)");
        if (!sr.hit) {
            ImGui::TextUnformatted("miss");
        } else {
            text_full("t_near", sr.hit->t_near);
            text_full("t_far ", sr.hit->t_far);
            text_full("p_near", s.ray.ray.at(sr.hit->t_near));
            text_full("p_far ", s.ray.ray.at(sr.hit->t_far));
            text_full("n_near", sr.hit->n_near);
            text_full("n_far ", sr.hit->n_far);
            ImGui::Text("inside %s", sr.hit->origin_inside ? "true" : "false");
            if (const auto th = triangle_hit(s.scene().shapes[i].shape, s.ray.ray))
                ImGui::TextUnformatted(format_triangle_hit(*th).c_str());
            if (sr.surface)
                ImGui::Text("first surface: %s at t = %s", sr.surface->is_exit ? "exit" : "entry", full(sr.surface->t).c_str());
        }
        if (sr.variant) {
            const VariantResult& v = *sr.variant;
            ImGui::NextColumn();
            ImGui::TextColored(kMagenta, "%s", v.name);
            if (!v.hit) {
                ImGui::TextUnformatted("miss");
            } else {
                text_full(v.has_second ? "t1" : "t ", v.t);
                text_full(v.has_second ? "p1" : "p ", v.point);
                text_full(v.has_second ? "n1" : "n ", v.normal);
                if (v.has_second) {
                    text_full("t2", v.t2);
                    text_full("p2", v.point2);
                    text_full("n2", v.normal2);
                }
            }
            if (v.differs) ImGui::TextColored(kMagenta, "DIFFERS: %s", v.difference.c_str());
            else ImGui::TextColored(kGrey, "agrees with the core");
            ImGui::Columns(1);
        }
        ImGui::EndChild();
    }
    ImGui::End();
}

}  // namespace raypick::app
