#include "app/ui/Panels.h"

#include <cstddef>

#include <imgui.h>

namespace raypick::app {

namespace {

/// The CPU ray-cast view's switch and settings, at the bottom of the Options panel.
void raycast_options(AppState& s) {
    RaycastOptions& r = s.view.raycast;
    const Stats& st = s.stats;
    ImGui::Separator();
    ImGui::Checkbox("CPU ray-cast view", &r.enabled);
    if (!r.enabled) return;
    ImGui::SameLine();
    ImGui::TextColored(kGrey, "%dx%d %.1f ms, %.2f M rays/s", st.raycast_width, st.raycast_height, st.raycast_ms,
                       st.raycast_rays_per_s * 1e-6);
    int shading = static_cast<int>(r.shading);
    ImGui::RadioButton("normal", &shading, int(RaycastShading::Normal));
    ImGui::SameLine();
    ImGui::RadioButton("depth", &shading, int(RaycastShading::Depth));
    ImGui::SameLine();
    ImGui::RadioButton("normal+depth", &shading, int(RaycastShading::NormalAndDepth));
    ImGui::SameLine();
    ImGui::RadioButton("difference", &shading, int(RaycastShading::Difference));
    r.shading = static_cast<RaycastShading>(shading);
    int placement = static_cast<int>(r.placement);
    ImGui::RadioButton("beside", &placement, int(RaycastPlacement::Beside));
    ImGui::SameLine();
    ImGui::RadioButton("over the view", &placement, int(RaycastPlacement::Over));
    r.placement = static_cast<RaycastPlacement>(placement);
    ImGui::SameLine();
    ImGui::Checkbox("half resolution", &r.half_resolution);
    if (r.placement == RaycastPlacement::Over) ImGui::SliderFloat("opacity", &r.opacity, 0.0f, 1.0f, "%.2f");
    if (r.shading == RaycastShading::Difference) {
        // Magenta: pixels where the OpenGL picture shows another object; blue: silhouettes, skipped.
        ImGui::SetNextItemWidth(60.0f);
        ImGui::SliderInt("margin", &r.margin, 1, 2, "%d px");
        ImGui::SameLine();
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
    ImGui::SameLine();
    ImGui::Checkbox("exit points", &v.show_exit);
    ImGui::SameLine();
    ImGui::Checkbox("normals", &v.show_normals);
    ImGui::Checkbox("ray", &v.show_ray);
    ImGui::SameLine();
    ImGui::Checkbox("misses", &v.show_misses);
    ImGui::SameLine();
    ImGui::Checkbox("scene rays", &v.show_scene_rays);
    ImGui::SliderFloat("normal length", &v.normal_length, 0.05f, 5.0f, "%.2f", ImGuiSliderFlags_Logarithmic);
    int mode = v.solid ? 1 : 0;
    ImGui::RadioButton("wire", &mode, 0);
    ImGui::SameLine();
    ImGui::RadioButton("solid", &mode, 1);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("surfaces coloured by their normal (W toggles)");
    v.solid = mode == 1;
    // One row with the view mode, so that the ray-cast view's switch below is in sight at 1280 x 720.
    ImGui::SameLine(0.0f, 3.0f * ImGui::GetStyle().ItemSpacing.x);
    ImGui::Checkbox("grid", &v.show_grid);
    ImGui::SameLine();
    ImGui::Checkbox("handles", &v.show_handles);
    ImGui::TextUnformatted("Compare with the textbook variant (magenta):");
    for (int t = 0, shown = 0; t < kShapeTypeCount; ++t) {
        if (!has_textbook_variant(ShapeType(t))) continue;
        if (shown++) ImGui::SameLine();
        bool on = v.compare.enabled[static_cast<std::size_t>(t)];
        if (ImGui::Checkbox(shape_type_name(ShapeType(t)), &on)) v.compare.enabled[static_cast<std::size_t>(t)] = on;
    }
    if (v.compare.enabled[std::size_t(shape_type<Sphere>)]) ImGui::Checkbox("sphere: geometric (\"Ray Against Sphere\") instead of algebraic", &v.compare.sphere_geometric);
    raycast_options(s);
    ImGui::End();
}

}  // namespace raypick::app
