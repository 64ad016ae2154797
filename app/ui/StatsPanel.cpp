#include "app/ui/Panels.h"

#include <imgui.h>

namespace raypick::app {

void StatsPanel::draw(AppState& s, std::size_t line_vertices, PanelBackgrounds& backgrounds) {
    if (!begin_panel("Stats", backgrounds)) {
        ImGui::End();
        return;
    }
    ImGui::Text("frame %.2f ms (avg %.2f ms, %.0f fps)", s.stats.frame_ms, s.stats.frame_ms_avg,
                s.stats.frame_ms_avg > 0 ? 1000.0 / s.stats.frame_ms_avg : 0.0);
    frame_history_[frame_history_next_] = static_cast<float>(s.stats.frame_ms);
    frame_history_next_ = (frame_history_next_ + 1) % frame_history_.size();
    ImGui::PlotLines("##frames", frame_history_.data(), static_cast<int>(frame_history_.size()),
                     static_cast<int>(frame_history_next_), "frame time (ms), last 120 frames", 0.0f, 50.0f,
                     ImVec2(-1, 40));
    ImGui::TextWrapped("last pick %.1f us through the hierarchy (%zu builds, %zu refits)", s.stats.bvh_pick_us,
                s.stats.bvh_rebuilds, s.stats.bvh_refits);
    ImGui::TextWrapped("ray vs every shape %.1f us (%zu shapes, double core)", s.stats.pick_us, s.scene().shapes.size());
    if (s.view.raycast.enabled)
        ImGui::TextWrapped("ray-cast view %.1f ms (%d x %d, all cores)", s.stats.raycast_ms, s.stats.raycast_width,
                    s.stats.raycast_height);
    ImGui::TextWrapped("shapes %zu, scene rays %zu, wire vertices %zu", s.scene().shapes.size(), s.scene().rays.size(), line_vertices);
    if (!s.scene().instances.empty())
        ImGui::TextWrapped("mesh instances %zu (%zu builds, %zu refits of their hierarchy)", s.scene().instances.size(),
                           s.stats.instance_rebuilds, s.stats.instance_refits);
    ImGui::End();
}

}  // namespace raypick::app
