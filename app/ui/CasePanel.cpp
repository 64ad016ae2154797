#include "app/ui/Panels.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include <imgui.h>

#include <raypick/scene/CaseCheck.h>

namespace raypick::app {

void CasePanel::update_report(const AppState& s) {
    if (valid_ && double_used_ == double_ && version_ == s.scene_version()) return;
    // Not while a drag or slider is moving: a large case file takes a while to check; the report
    // follows when the gesture ends.
    if (valid_ && s.editor.in_gesture()) return;
    version_ = s.scene_version();
    valid_ = true;
    double_used_ = double_;
    labels_.clear();
    expectations_.clear();
    selected_.reset();
    selected_ray_.reset();
    failing_rays_.assign(s.scene().rays.size(), false);
    const CaseReport report = check_case(s.scene(), double_ ? Precision::Double : Precision::Float);
    passed_ = report.passed;
    failed_ = report.failed;
    for (const ExpectationResult& r : report.results) {
        Line line;
        line.ray = r.ray;
        line.failed = !r.passed;
        line.text = r.passed ? "pass  " + r.label + ": " + r.got : r.summary();
        expectations_.push_back(std::move(line));
        if (r.passed || r.ray >= s.scene().rays.size()) continue;
        failing_rays_[r.ray] = true;
        // One label a ray: a line per failed expectation, each failed field's expected and got.
        std::string text = "#" + std::to_string(r.index) + ":";
        const char* separator = " ";
        for (const FieldCheck& f : r.fields) {
            if (f.passed) continue;
            text += separator + f.field + " expected " + f.expected + ", got " + f.got;
            separator = "; ";
        }
        CaseLabel* label = nullptr;
        for (CaseLabel& l : labels_)
            if (l.ray == r.ray) label = &l;
        if (label) label->text += "\n" + text;
        else labels_.push_back({r.ray, std::move(text)});
    }
}

void CasePanel::select(std::optional<std::size_t> expectation, std::optional<std::size_t> ray) {
    const bool same = selected_ == expectation && selected_ray_ == ray;
    selected_ = same ? std::nullopt : expectation;
    selected_ray_ = same ? std::nullopt : ray;
}

void CasePanel::draw(AppState& s, PanelBackgrounds& backgrounds) {
    update_report(s);  // labels in the view even when the panel is collapsed
    if (!begin_panel("Case", backgrounds)) {
        ImGui::End();
        return;
    }
    // A newly opened case starts at the top, its description in view (not where the list of case
    // files was scrolled to when it was chosen).
    if (shown_version_ != s.scene_version() && s.editor.changes_since(shown_version_).replaced) ImGui::SetScrollY(0.0f);
    shown_version_ = s.scene_version();
    const Scene& scene = s.scene();
    if (!scene.description.empty()) {
        // Wrapped between words; a long one scrolls in a box of its own, so the rays stay in sight
        // below it. The box holds whole lines: the last one is never cut in half.
        const float line = ImGui::GetTextLineHeight();
        const std::string lines = words_for_width(scene.description.c_str(),
                                                  ImGui::GetContentRegionAvail().x - ImGui::GetStyle().ScrollbarSize);
        const float need = ImGui::CalcTextSize(lines.c_str()).y;
        const float room = std::max(4.0f * line, 0.6f * ImGui::GetContentRegionAvail().y);
        if (need > room + 0.5f) {
            ImGui::BeginChild("description", ImVec2(0.0f, std::floor(room / line) * line));
            ImGui::TextUnformatted(lines.c_str());
            ImGui::EndChild();
        } else {
            ImGui::TextUnformatted(lines.c_str());
        }
        ImGui::Separator();
    }
    if (scene.rays.empty() && scene.expectations.empty()) hint("This scene has no rays and no expectations.");
    if (!scene.expectations.empty()) {
        char summary[96];
        std::snprintf(summary, sizeof summary, "%zu expectations: %zu passed, %zu failed", expectations_.size(), passed_,
                      failed_);
        ImGui::PushStyleColor(ImGuiCol_Text, failed_ ? kRed : kGreen);
        text_words(summary);
        ImGui::PopStyleColor();
        flow("double core");
        ImGui::Checkbox("double core", &double_);
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("check with the double-precision core (CI checks float)");
    }
    // The rays by name, each with its expectations; selecting one highlights the ray in the view.
    for (std::size_t i = 0; i < scene.rays.size() && i < 2000; ++i) {
        const bool failing = i < failing_rays_.size() && failing_rays_[i];
        const std::string name = scene.rays[i].name.empty() ? "#" + std::to_string(i) : scene.rays[i].name;
        ImGui::PushID(static_cast<int>(i));
        const std::string row = (failing ? "FAIL  ray " : "ray ") + name;
        if (wrapped_selectable("##ray", row.c_str(), selected_ray_ == i && !selected_, failing ? kFailed : kGreen))
            select(std::nullopt, i);
        if (!scene.rays[i].description.empty() && ImGui::IsItemHovered())
            ImGui::SetTooltip("%s", scene.rays[i].description.c_str());
        ImGui::Indent();
        for (std::size_t k = 0; k < expectations_.size(); ++k) {
            const Line& e = expectations_[k];
            if (e.ray != i) continue;
            ImGui::PushID(static_cast<int>(k));
            if (wrapped_selectable("##exp", e.text.c_str(), selected_ == k, e.failed ? kFailed : kGreen)) select(k, i);
            ImGui::PopID();
        }
        ImGui::Unindent();
        ImGui::PopID();
    }
    // Point expectations (containment) belong to no ray: listed after the rays.
    bool points_heading = false;
    for (std::size_t k = 0; k < expectations_.size(); ++k) {
        const Line& e = expectations_[k];
        if (e.ray != kNoRay) continue;
        if (!points_heading) ImGui::TextUnformatted("points");
        points_heading = true;
        ImGui::Indent();
        ImGui::PushID(static_cast<int>(k));
        if (wrapped_selectable("##point", e.text.c_str(), selected_ == k, e.failed ? kFailed : kGreen))
            select(k, std::nullopt);
        ImGui::PopID();
        ImGui::Unindent();
    }
    // Every case file of assets/, to open one.
    if (ImGui::CollapsingHeader("Case files in assets/")) {
        if (!s.case_files_scanned) scan_case_files(s);
        if (ImGui::Button("Rescan")) scan_case_files(s);
        if (s.case_files.empty()) hint("No case files found (assets/*.json).");
        for (const CaseFile& c : s.case_files) {
            const bool failed = !c.error.empty() || (double_ ? c.failed_double : c.failed_float) > 0;
            const std::string text = std::string(failed ? "FAIL " : "pass ") + c.name;
            ImGui::PushID(c.path.c_str());
            if (wrapped_selectable("##file", text.c_str(), s.scene_path == c.path, failed ? kRed : kGreen))
                request_scene_action(s, {SceneAction::Kind::Open, c.path});
            if (ImGui::IsItemHovered()) {
                if (!c.error.empty()) ImGui::SetTooltip("%s", c.error.c_str());
                else ImGui::SetTooltip("%zu expectations, failed: float %zu, double %zu", c.expectations, c.failed_float,
                                       c.failed_double);
            }
            ImGui::PopID();
        }
    }
    ImGui::End();
}

}  // namespace raypick::app
