#include "app/ui/Panels.h"

#include <cstdio>
#include <string>

#include <imgui.h>

#include <raypick/scene/CaseCheck.h>

namespace raypick::app {

void TestCasesPanel::update_report(const AppState& s) {
    if (valid_ && double_used_ == double_ && version_ == s.scene_version()) return;
    // Not while a drag or slider is moving: a large case file takes a while to check; the report
    // follows when the gesture ends.
    if (valid_ && s.editor.in_gesture()) return;
    version_ = s.scene_version();
    valid_ = true;
    double_used_ = double_;
    labels_.clear();
    lines_.clear();
    line_failed_.clear();
    line_ray_.clear();
    selected_.reset();
    selected_ray_.reset();
    failing_rays_.assign(s.scene().rays.size(), false);
    const CaseReport report = check_case(s.scene(), double_ ? Precision::Double : Precision::Float);
    passed_ = report.passed;
    failed_ = report.failed;
    for (const ExpectationResult& r : report.results) {
        lines_.push_back(r.passed ? "pass  " + r.label + ": " + r.got : r.summary());
        line_failed_.push_back(!r.passed);
        line_ray_.push_back(r.ray);
        if (r.passed || r.ray >= s.scene().rays.size()) continue;
        failing_rays_[r.ray] = true;
        CaseLabel label;
        const SceneRay& ray = s.scene().rays[r.ray];
        label.anchor = ray.ray.origin;
        std::optional<SurfaceHit<double>> best;
        for (const SceneShape& sh : s.scene().shapes) {
            const auto h = pick(ray.ray, sh.shape, ray.t_min, ray.t_max);
            if (h && (!best || h->t < best->t)) best = h;
        }
        if (best) label.anchor = best->point;
        label.text = "#" + std::to_string(r.index) + ":";
        for (const FieldCheck& f : r.fields)
            if (!f.passed) label.text += " " + f.field + " expected " + f.expected + ", got " + f.got;
        labels_.push_back(std::move(label));
    }
}

void TestCasesPanel::draw(AppState& s) {
    // Opens by itself for a scene with expectations (a case file); View > Test cases toggles it.
    if (shown_for_ != s.scene_path) {
        shown_for_ = s.scene_path;
        show_ = !s.scene().expectations.empty();
    }
    update_report(s);  // labels in the view even when the panel is closed
    if (!show_) return;
    const bool open = ImGui::Begin("Test cases", &show_);
    if (!open) {
        ImGui::End();
        return;
    }
    if (!s.case_files_scanned) scan_case_files(s);
    if (ImGui::Button("Rescan assets/")) scan_case_files(s);
    ImGui::SameLine();
    ImGui::Checkbox("double core (CI checks float)", &double_);
    ImGui::BeginChild("files", ImVec2(0, 100), true);
    for (const CaseFile& c : s.case_files) {
        const bool failed = !c.error.empty() || (double_ ? c.failed_double : c.failed_float) > 0;
        ImGui::PushStyleColor(ImGuiCol_Text, failed ? kRed : kGreen);
        char label[512];
        std::snprintf(label, sizeof label, "%s %s  (%zu expectations, failed: float %zu, double %zu)##%s",
                      failed ? "FAIL" : "pass", c.name.c_str(), c.expectations, c.failed_float, c.failed_double,
                      c.path.c_str());
        if (ImGui::Selectable(label, s.scene_path == c.path)) open_scene(s, c.path);
        ImGui::PopStyleColor();
        if (!c.error.empty() && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", c.error.c_str());
    }
    if (s.case_files.empty()) ImGui::TextDisabled("no case files found (assets/*.json)");
    ImGui::EndChild();
    ImGui::Text("This scene: %zu expectations, %zu passed, %zu failed (%s core)", lines_.size(), passed_,
                failed_, double_ ? "double" : "float");
    ImGui::BeginChild("expectations");
    for (std::size_t k = 0; k < lines_.size(); ++k) {
        // Selecting an expectation highlights its ray in the view.
        ImGui::PushStyleColor(ImGuiCol_Text, line_failed_[k] ? ImVec4(1.0f, 0.55f, 0.0f, 1.0f) : kGreen);
        char label[64];
        std::snprintf(label, sizeof label, "##case%zu", k);
        if (ImGui::Selectable(label, selected_ == k, ImGuiSelectableFlags_AllowItemOverlap)) {
            selected_ = selected_ == k ? std::nullopt : std::optional<std::size_t>(k);
            selected_ray_ = selected_ ? std::optional<std::size_t>(line_ray_[k]) : std::nullopt;
        }
        ImGui::SameLine(0.0f, 0.0f);
        ImGui::TextUnformatted(lines_[k].c_str());
        ImGui::PopStyleColor();
    }
    ImGui::EndChild();
    ImGui::End();
}

}  // namespace raypick::app
