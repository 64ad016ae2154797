#include "app/ui/Widgets.h"

#include "app/LabelLayout.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <initializer_list>

#include <imgui_internal.h>  // ImGui::GetActiveID: which field of a value is being edited

#include "app/Picking.h"  // full()
#include "app/ShapeMeshes.h"  // palette
#include <raypick/scene/NumberText.h>

namespace raypick::app {

namespace {

/// The printf format of a drag field showing `values`: every digit of each (the shortest text that
/// reads back as it, as in the Ray panel), and at least 9 significant, since ImGui rounds a dragged
/// value to its format's precision. A fixed "%.9g" would show a centre of -1.5000000000000004 as
/// -1.5, and its Ctrl+click text would hold 9 digits, so editing one digit would drop the others.
struct DragFormat {
    char text[16];  // "%.17g" at most; room for any int, so no truncation warning
    explicit DragFormat(std::initializer_list<double> values) {
        int digits = 9;
        for (double v : values) digits = std::max(digits, significant_digits(v));
        std::snprintf(text, sizeof text, "%%.%dg", digits);
    }
};
/// The layout of a value's three fields (x, y, z): side by side in the item width, as ImGui's
/// DragScalarN and InputScalarN lay them out, while the widest text fits a third of it; otherwise
/// one field a line at the whole width, each followed by its axis name, under the value's label.
/// Side by side, a long value would be cut at the field's edge (a centre of -1.5000000000000004
/// reading "-1.500000", a direction "0.011511835396618(") with nothing showing the rest. The fields' ids are
/// the same either way, and the layout is kept while one of them is active, so a drag or a text
/// entry that makes the text longer or shorter carries on in place. Pushes the label's id for the
/// fields (field(k) around each); the destructor writes the label and pops it.
class Fields3 {
public:
    Fields3(const char* label, const char* const text[3]) : label_(label) {
        ImGui::PushID(label);
        const ImGuiStyle& st = ImGui::GetStyle();
        spacing_ = st.ItemInnerSpacing.x;
        whole_ = ImGui::CalcItemWidth();
        third_ = std::max(1.0f, (whole_ - 2.0f * spacing_) / 3.0f);
        float widest = 0.0f;
        for (int k = 0; k < 3; ++k) widest = std::max(widest, ImGui::CalcTextSize(text[k]).x + 2.0f * st.FramePadding.x);
        const ImGuiID key = ImGui::GetID("##layout");
        ImGuiStorage* kept = ImGui::GetStateStorage();
        bool active = false;
        for (int k = 0; k < 3; ++k) {
            ImGui::PushID(k);
            active |= ImGui::GetActiveID() == ImGui::GetID("##v");
            ImGui::PopID();
        }
        stacked_ = active ? kept->GetBool(key, false) : widest > third_;
        kept->SetBool(key, stacked_);
        // Stacked, each field leaves room for its axis name.
        if (stacked_) whole_ = std::max(1.0f, whole_ - spacing_ - ImGui::CalcTextSize("x").x);
        if (stacked_ && visible_end(label) != label) ImGui::TextUnformatted(label, visible_end(label));
    }
    ~Fields3() {
        if (!stacked_ && visible_end(label_) != label_) {
            ImGui::SameLine(0.0f, spacing_);
            ImGui::TextUnformatted(label_, visible_end(label_));
        }
        ImGui::PopID();
    }
    Fields3(const Fields3&) = delete;
    Fields3& operator=(const Fields3&) = delete;
    /// Lays out field k (0, 1, 2) and calls draw(), which draws it with the id "##v" and returns
    /// whether it changed the value; returns that.
    template <typename Draw> bool field(int k, const Draw& draw) {
        ImGui::PushID(k);
        if (k > 0 && !stacked_) ImGui::SameLine(0.0f, spacing_);
        ImGui::SetNextItemWidth(stacked_ ? whole_ : third_);
        const bool changed = draw();
        if (stacked_) {
            ImGui::SameLine(0.0f, spacing_);
            ImGui::TextUnformatted(k == 0 ? "x" : k == 1 ? "y" : "z");
        }
        ImGui::PopID();
        return changed;
    }

private:
    static const char* visible_end(const char* label) {
        const char* hidden = std::strstr(label, "##");
        return hidden ? hidden : label + std::strlen(label);
    }
    const char* label_;
    float spacing_ = 0.0f, whole_ = 0.0f, third_ = 0.0f;
    bool stacked_ = false;
};

}  // namespace

/// `format`: a fixed printf format instead (for values derived for display, such as Euler angles,
/// whose last digits are rounding noise: 29.999999999999996 reads 30).
bool drag3(const char* label, Vec3d& v, float speed, const char* format) {
    const DragFormat f{v.x, v.y, v.z};
    const char* fmt = format ? format : f.text;
    char text[3][64];
    for (int k = 0; k < 3; ++k) std::snprintf(text[k], sizeof text[k], fmt, v[k]);
    const char* const texts[3] = {text[0], text[1], text[2]};
    Fields3 fields(label, texts);
    bool changed = false;
    for (int k = 0; k < 3; ++k)
        changed |= fields.field(k, [&] {
            return ImGui::DragScalar("##v", ImGuiDataType_Double, &v[k], speed, nullptr, nullptr, fmt);
        });
    return changed;
}
bool drag1(const char* label, double& v, float speed) {
    const DragFormat f{v};
    return ImGui::DragScalar(label, ImGuiDataType_Double, &v, speed, nullptr, nullptr, f.text);
}
/// A greyed hint that wraps at the panel's edge (TextDisabled cuts a long one off in a narrow column).
std::string words_for_width(const char* text, float width) {
    const float avail = width < 0.0f ? ImGui::GetContentRegionAvail().x : width;
    const float char_width = std::max(1.0f, ImGui::CalcTextSize("0").x);  // the default font is monospaced
    return wrap_text(text, static_cast<std::size_t>(std::max(1.0f, avail / char_width)));
}

void text_words(const char* text, float width) { ImGui::TextUnformatted(words_for_width(text, width).c_str()); }

void hint(const char* text) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyle().Colors[ImGuiCol_TextDisabled]);
    text_words(text);
    ImGui::PopStyleColor();
}
// Numbers shown in full: the shortest text that reads back as the same double (full(), Picking.h).
void text_full(const char* label, double v) { text_words((std::string(label) + " " + full(v)).c_str()); }
void text_full(const char* label, const Vec3d& v) { text_words((std::string(label) + " " + full(v)).c_str()); }

/// Three doubles side by side, as InputScalarN lays them out, each shown as full() shows it (0.15
/// reads "0.15", not "0.14999999999999999"). A value is taken when its text is committed (Enter,
/// or the field losing focus), not keystroke by keystroke: typing 1e999 does not set 1e9 and
/// 1e99 on the way. Text that is not a whole number ("1e", "") leaves the value as it was.
/// Returns whether a value changed.
bool input_full3(const char* id, Vec3d& v) {
    char text[3][64];
    for (int k = 0; k < 3; ++k) std::snprintf(text[k], sizeof text[k], "%s", full(v[k]).c_str());
    const char* const texts[3] = {text[0], text[1], text[2]};
    Fields3 fields(id, texts);
    bool changed = false;
    for (int k = 0; k < 3; ++k)
        changed |= fields.field(k, [&] {
            char* buf = text[k];
            const bool entered = ImGui::InputText("##v", buf, sizeof text[k],
                                                  ImGuiInputTextFlags_CharsScientific | ImGuiInputTextFlags_EnterReturnsTrue);
            if (!entered && !ImGui::IsItemDeactivatedAfterEdit()) return false;
            char* end = nullptr;
            const double x = std::strtod(buf, &end);
            if (end == buf || *end != '\0' || x == v[k]) return false;
            v[k] = x;
            return true;
        });
    return changed;
}

void place(float x, float y, float w, float h, int cond) {
    ImGui::SetNextWindowPos(ImVec2(x, y), cond);
    ImGui::SetNextWindowSize(ImVec2(w, h), cond);
}

bool panel_collapsed(const char* name) {
    const ImGuiWindow* w = ImGui::FindWindowByName(name);
    return w && w->Collapsed;
}

float panel_content_height(const char* name) {
    const ImGuiWindow* w = ImGui::FindWindowByName(name);
    if (!w || w->ContentSize.y <= 0.0f) return 0.0f;
    return w->ContentSize.y + 2.0f * w->WindowPadding.y + w->TitleBarHeight();
}

// No ImGuiSelectableFlags_AllowItemOverlap: with it a row counts as hovered only if it (or nothing)
// was hovered the frame before, so a click that arrives with the pointer's move onto the row (a
// quick click, or one that wakes an idle demo) would be lost. The text drawn over it takes no input.
bool wrapped_selectable(const char* id, const char* text, bool selected, const ImVec4& colour) {
    const std::string lines = words_for_width(text);
    const ImVec2 size = ImGui::CalcTextSize(lines.c_str());
    const ImVec2 start = ImGui::GetCursorPos();
    const bool clicked = ImGui::Selectable(id, selected, 0, ImVec2(0.0f, size.y));
    const ImVec2 after = ImGui::GetCursorPos();
    ImGui::SetCursorPos(start);
    ImGui::PushStyleColor(ImGuiCol_Text, colour);
    ImGui::TextUnformatted(lines.c_str());
    ImGui::PopStyleColor();
    ImGui::SetCursorPos(after);
    return clicked;
}

void flow(const char* label, bool button) {
    const ImGuiStyle& st = ImGui::GetStyle();
    const float text = ImGui::CalcTextSize(label, nullptr, true).x;
    const float width = button ? text + 2.0f * st.FramePadding.x : ImGui::GetFrameHeight() + st.ItemInnerSpacing.x + text;
    const float right = ImGui::GetItemRectMax().x + st.ItemSpacing.x + width;
    if (right <= ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x) ImGui::SameLine();
}

void text_fitted(const char* text, float width) {
    const float avail = width < 0.0f ? ImGui::GetContentRegionAvail().x : width;
    if (ImGui::CalcTextSize(text).x <= avail) {
        ImGui::TextUnformatted(text);
        return;
    }
    if (ImGui::GetCurrentTable()) {
        // A table's column fits the whole text (a column narrower than what it holds was narrowed
        // by the user): the column clips it.
        ImGui::TextUnformatted(text);
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", text);
        return;
    }
    // The longest start of the text that fits with "..." after it.
    const float dots = ImGui::CalcTextSize("...").x;
    std::size_t n = std::strlen(text);
    while (n > 0 && ImGui::CalcTextSize(text, text + n).x + dots > avail) --n;
    ImGui::Text("%.*s...", static_cast<int>(n), text);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", text);
}

bool begin_panel(const char* name, PanelBackgrounds& backgrounds, int flags) {
    // A software renderer (Mesa's llvmpipe under Xvfb) samples the font texture and blends for
    // each of the half million pixels the panel columns cover at 1280 x 720: 2-4 ms a frame on two
    // cores. The colour ImGui would blend (its window background over the cleared background)
    // is filled opaque by the renderer instead.
    const ImVec4 bg = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];
    ImGui::PushStyleColor(ImGuiCol_WindowBg, ImVec4(bg.x, bg.y, bg.z, 0.0f));
    // Docked: the layout places and sizes it every frame, so it offers no grip to move or resize it.
    const bool open = ImGui::Begin(name, nullptr, flags | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize);
    ImGui::PopStyleColor();
    const ImVec2 pos = ImGui::GetWindowPos(), size = ImGui::GetWindowSize();
    const glm::vec4 under = palette::background;
    const glm::vec3 blended = glm::vec3(bg.x, bg.y, bg.z) * bg.w + glm::vec3(under) * (1.0f - bg.w);
    backgrounds.push_back({pos.x, pos.y, size.x, size.y, glm::vec4(blended, 1.0f)});
    return open;
}

}  // namespace raypick::app
