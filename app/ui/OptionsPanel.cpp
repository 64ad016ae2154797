#include "app/ui/Panels.h"

#include <cstddef>

#include <imgui.h>

namespace raypick::app {

namespace {

/// A checkbox that goes on the line of the previous one when it fits (flow()).
bool flow_checkbox(const char* label, bool* value) {
    flow(label);
    return ImGui::Checkbox(label, value);
}
/// A radio button that goes on the line of the previous item when it fits (flow()).
void flow_radio(const char* label, int* value, int button) {
    flow(label);
    ImGui::RadioButton(label, value, button);
}

/// The CPU ray-cast view's switch and settings, at the bottom of the Options panel.
void raycast_options(AppState& s) {
    RaycastOptions& r = s.view.raycast;
    const Stats& st = s.stats;
    ImGui::Separator();
    ImGui::Checkbox("CPU ray-cast view", &r.enabled);
    if (!r.enabled) return;
    ImGui::TextColored(kGrey, "%dx%d %.1f ms, %.2f M rays/s", st.raycast_width, st.raycast_height, st.raycast_ms,
                       st.raycast_rays_per_s * 1e-6);
    int shading = static_cast<int>(r.shading);
    ImGui::RadioButton("normal", &shading, int(RaycastShading::Normal));
    flow_radio("depth", &shading, int(RaycastShading::Depth));
    flow_radio("normal+depth", &shading, int(RaycastShading::NormalAndDepth));
    flow_radio("difference", &shading, int(RaycastShading::Difference));
    r.shading = static_cast<RaycastShading>(shading);
    int placement = static_cast<int>(r.placement);
    ImGui::RadioButton("beside", &placement, int(RaycastPlacement::Beside));
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("the view's left half OpenGL, its right half the CPU picture");
    flow_radio("over the view", &placement, int(RaycastPlacement::Over));
    r.placement = static_cast<RaycastPlacement>(placement);
    flow_checkbox("half resolution", &r.half_resolution);
    if (r.placement == RaycastPlacement::Over) ImGui::SliderFloat("opacity", &r.opacity, 0.0f, 1.0f, "%.2f");
    if (r.shading == RaycastShading::Difference) {
        // Magenta: pixels where the OpenGL picture shows another object; blue: silhouettes, skipped.
        ImGui::SetNextItemWidth(60.0f);
        ImGui::SliderInt("margin", &r.margin, 1, 2, "%d px");
        ImGui::TextColored(st.raycast_differing ? kMagenta : kGreen, "compared %zu, differing %zu",
                           st.raycast_compared, st.raycast_differing);
    }
}

}  // namespace

void draw_options_panel(AppState& s, PanelBackgrounds& backgrounds) {
    if (!begin_panel("Options", backgrounds)) {
        ImGui::End();
        return;
    }
    ViewOptions& v = s.view;
    ImGui::Checkbox("entry points", &v.show_entry);
    flow_checkbox("exit points", &v.show_exit);
    flow_checkbox("normals", &v.show_normals);
    flow_checkbox("ray", &v.show_ray);
    flow_checkbox("misses", &v.show_misses);
    ImGui::Checkbox("scene rays", &v.show_scene_rays);
    flow_checkbox("their names", &v.ray_labels);
    flow_checkbox("their exits and normals", &v.scene_ray_details);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("every shape a scene ray passes through: entry, exit and both normals");
    ImGui::Checkbox("normals in pixels", &v.normals_in_pixels);
    ImGui::SameLine();
    ImGui::SetNextItemWidth(-1.0f);
    if (v.normals_in_pixels) ImGui::SliderFloat("##normal px", &v.normal_pixels, 10.0f, 200.0f, "%.0f px");
    else ImGui::SliderFloat("##normal length", &v.normal_length, 0.05f, 5.0f, "%.2f units", ImGuiSliderFlags_Logarithmic);
    int mode = v.solid ? 1 : 0;
    ImGui::RadioButton("wire", &mode, 0);
    flow_radio("solid", &mode, 1);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("surfaces coloured by their normal (W toggles)");
    v.solid = mode == 1;
    flow_checkbox("grid", &v.show_grid);
    flow_checkbox("handles", &v.show_handles);
    ImGui::TextWrapped("Compare with the textbook variant (magenta):");
    for (int t = 0, shown = 0; t < kShapeTypeCount; ++t) {
        if (!has_textbook_variant(ShapeType(t))) continue;
        if (shown++) flow(shape_type_name(ShapeType(t)));
        bool on = v.compare.enabled[static_cast<std::size_t>(t)];
        if (ImGui::Checkbox(shape_type_name(ShapeType(t)), &on)) v.compare.enabled[static_cast<std::size_t>(t)] = on;
    }
    if (v.compare.enabled[std::size_t(shape_type<Sphere>)]) {
        ImGui::Checkbox("sphere: \"Ray Against Sphere\" test", &v.compare.sphere_geometric);
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("the geometric test of \"Ray Against Sphere\" instead of the algebraic one");
    }
    raycast_options(s);
    ImGui::End();
}

}  // namespace raypick::app
