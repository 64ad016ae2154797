#include "app/ui/Panels.h"

#include <algorithm>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include <imgui.h>

#include "app/MeshPicking.h"
#include "app/Picking.h"
#include "app/ShapeMeshes.h"

namespace raypick::app {

namespace {

ImVec4 imgui_color(const Color& c) { return ImVec4(c.r, c.g, c.b, c.a); }

/// The ray's nearest mesh triangle: instance, triangle index, t, barycentrics, the face normal and
/// the interpolated normal in their arrows' colours, and whether the ray meets its back.
void draw_triangle_readout(const AppState& s, const TriangleReadout& tr) {
    const MeshHit<double>& h = tr.hit.hit;
    ImGui::Separator();
    ImGui::Text("mesh: %s, triangle %u%s", s.scene().instances[tr.instance].name.c_str(), h.triangle,
                tr.hidden ? " (behind the picked shape)" : "");
    if (!h.front) {
        ImGui::SameLine();
        ImGui::TextColored(imgui_color(palette::back_face), "BACK FACE");
    }
    text_full("t   ", h.t);
    text_full("bary", h.barycentric);
    ImGui::PushStyleColor(ImGuiCol_Text, imgui_color(palette::normal));
    text_full("face normal  ", h.normal);
    ImGui::PopStyleColor();
    if (h.shading_normal) {
        ImGui::PushStyleColor(ImGuiCol_Text, imgui_color(palette::shading_normal));
        text_full("interpolated ", *h.shading_normal);
        ImGui::PopStyleColor();
    } else {
        ImGui::TextDisabled("interpolated: none (the mesh has no vertex normals)");
    }
}

}  // namespace

void RayPanel::draw(AppState& s, PanelBackgrounds& backgrounds) {
    if (!begin_panel("Ray", backgrounds)) {
        ImGui::End();
        return;
    }
    bool frozen = s.ray.frozen;
    if (ImGui::Checkbox("Freeze ray (Space)", &frozen)) set_frozen(s, frozen);
    flow("Look at ray", true);
    if (ImGui::Button("Look at ray")) {  // orbit around the ray's first hit (or a point along it)
        const auto picked = picked_name(s.scene(), s.result, s.triangle ? &*s.triangle : nullptr);
        const double t = picked ? picked->t : 5.0 / std::max(glm::length(s.ray.ray.direction), 1e-300);
        s.camera.look_at(s.camera.eye(), s.ray.ray.at(t));
    }
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("turn the camera to the ray's first hit and orbit around it");
    flow("Copy as text", true);
    if (ImGui::Button("Copy as text"))
        ImGui::SetClipboardText(
            format_result(s.scene(), s.result, s.view.show_misses, s.triangle ? &*s.triangle : nullptr).c_str());

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
    if (const auto picked = picked_name(s.scene(), res, s.triangle ? &*s.triangle : nullptr)) {
        ImGui::PushStyleColor(ImGuiCol_Text, kGreen);
        text_words(("picked: " + picked->name + " at t = " + full(picked->t)).c_str());
        ImGui::PopStyleColor();
    } else {
        ImGui::TextDisabled("picked: nothing");
    }
    if (!s.scene().shapes.empty()) ImGui::Text("%zu of %zu shapes hit", res.hit_count, s.scene().shapes.size());
    if (s.triangle && s.triangle->instance < s.scene().instances.size()) draw_triangle_readout(s, *s.triangle);
    if (s.scene().shapes.empty()) {  // a scene of meshes alone: no table of shapes
        ImGui::End();
        return;
    }

    // One row per shape that is hit (every shape with "show misses"); details below for one shape.
    std::vector<std::size_t> rows;
    for (std::size_t i = 0; i < res.shapes.size() && i < s.scene().shapes.size(); ++i) {
        const ShapeResult& sr = res.shapes[i];
        if (sr.hit || s.view.show_misses || (sr.variant && sr.variant->hit)) rows.push_back(i);
    }
    const bool compare = std::any_of(s.view.compare.enabled.begin(), s.view.compare.enabled.end(), [](bool b) { return b; });
    const int columns = compare ? 6 : 5;
    const float table_h = std::min(ImGui::GetTextLineHeightWithSpacing() * (rows.size() + 1.5f), 170.0f);
    // Columns as wide as their contents (scrolling sideways when the panel is narrower); a column
    // the user narrows cuts its text with "..." and shows it whole in a tooltip.
    if (ImGui::BeginTable("hits", columns,
                          ImGuiTableFlags_ScrollX | ImGuiTableFlags_ScrollY | ImGuiTableFlags_RowBg |
                              ImGuiTableFlags_Borders | ImGuiTableFlags_Resizable | ImGuiTableFlags_SizingFixedFit,
                          ImVec2(0, table_h + ImGui::GetStyle().ScrollbarSize))) {
        ImGui::TableSetupScrollFreeze(1, 1);
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
                const std::string& name = s.scene().shapes[i].name;
                ImGui::TableNextRow();
                ImGui::TableNextColumn();
                ImGui::PushID(static_cast<int>(i));
                if (ImGui::Selectable("##hit", s.sel.selected == i, ImGuiSelectableFlags_SpanAllColumns)) {
                    s.sel.selected = i;
                    s.sel.selected_instance.reset();
                }
                ImGui::PopID();
                ImGui::SameLine(0.0f, 0.0f);
                text_fitted(name.c_str());
                ImGui::TableNextColumn();
                const auto th = sr.hit ? triangle_hit(s.scene().shapes[i].shape, s.ray.ray) : std::nullopt;
                ImGui::TextColored(sr.hit ? kGreen : kGrey, "%s",
                                   th ? (th->front ? "hit front" : "hit back") : sr.hit ? "hit" : "miss");
                ImGui::TableNextColumn();
                if (sr.hit) text_fitted(full(sr.hit->t_near).c_str());
                ImGui::TableNextColumn();
                if (sr.hit) text_fitted(full(sr.hit->t_far).c_str());
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
                text_words((std::string("first surface: ") + (sr.surface->is_exit ? "exit" : "entry") + " at t = " +
                            full(sr.surface->t)).c_str());
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
            if (v.differs) {
                ImGui::PushStyleColor(ImGuiCol_Text, kMagenta);
                text_words(("DIFFERS: " + v.difference).c_str());
                ImGui::PopStyleColor();
            }
            else ImGui::TextColored(kGrey, "agrees with the core");
            ImGui::Columns(1);
        }
    }
    ImGui::End();
}

}  // namespace raypick::app
