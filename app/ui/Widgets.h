// raypick demo: what the ImGui panels share — colours, number fields that show every digit,
// hints, and docked panels whose backgrounds the renderer fills.
#pragma once

#include <string>
#include <vector>

#include <glm/glm.hpp>
#include <imgui.h>

#include "app/Camera.h"  // Vec3d

namespace raypick::app {

inline const ImVec4 kRed(1.0f, 0.45f, 0.4f, 1.0f);
inline const ImVec4 kYellow(1.0f, 0.85f, 0.3f, 1.0f);
inline const ImVec4 kGreen(0.45f, 0.9f, 0.5f, 1.0f);
inline const ImVec4 kMagenta(1.0f, 0.45f, 1.0f, 1.0f);
inline const ImVec4 kGrey(0.6f, 0.6f, 0.6f, 1.0f);
inline const ImVec4 kFailed(1.0f, 0.45f, 0.62f, 1.0f);  ///< failed expectations (palette::failed, as text)

/// A docked panel's rectangle (window coordinates, y down) and its opaque background colour.
/// ImGui draws no background for these panels: the renderer fills the rectangles, as flat
/// opaque clears, before ImGui draws the panels' contents over them.
struct PanelBackground {
    float x = 0.0f, y = 0.0f, width = 0.0f, height = 0.0f;
    glm::vec4 color{0.0f};
};
using PanelBackgrounds = std::vector<PanelBackground>;

/// ImGui::Begin for a docked panel (placed before): the window draws no background, cannot be
/// moved or resized by hand (it can be collapsed), and its rectangle goes to `backgrounds`. Pair
/// with ImGui::End() as usual.
bool begin_panel(const char* name, PanelBackgrounds& backgrounds, int flags = 0);
/// The next window's place and size.
void place(float x, float y, float w, float h, int cond = ImGuiCond_Always);
/// Whether the docked panel `name` was collapsed to its title bar in the last frame, and the
/// height its contents took then (title bar and padding included; 0 before its first frame).
bool panel_collapsed(const char* name);
float panel_content_height(const char* name);

/// A selectable row showing `text` wrapped at the panel's edge in `colour`, as tall as the wrapped
/// text. True when clicked.
bool wrapped_selectable(const char* id, const char* text, bool selected, const ImVec4& colour);
/// Puts the next checkbox or radio button (a button when `button`) labelled `label` on the
/// current line when it fits in the panel's width (call between two items), else on a line of its own.
void flow(const char* label, bool button = false);
/// `text` on a line: cut at `width` (< 0: the available width) with "..." and shown whole in a
/// tooltip when it does not fit. In a table cell the text is whole, so that a column sized to its
/// contents fits it; a column the user made narrower clips it, and the tooltip shows it whole.
void text_fitted(const char* text, float width = -1.0f);

/// Three drag fields for a value, each showing every digit (or `format`, a fixed printf format,
/// for values derived for display such as Euler angles). True if the value changed.
bool drag3(const char* label, Vec3d& v, float speed = 0.01f, const char* format = nullptr);
bool drag1(const char* label, double& v, float speed = 0.01f);
/// Three text fields for a value, each taken when its text is committed. True if it changed.
bool input_full3(const char* id, Vec3d& v);
/// `text` wrapped at the panel's edge (or `width`) between words only (wrap_text(): numbers and
/// vectors stay whole).
void text_words(const char* text, float width = -1.0f);
/// `text` as text_words() breaks it for `width` (< 0: the available width).
std::string words_for_width(const char* text, float width = -1.0f);
/// A greyed hint that wraps at the panel's edge.
void hint(const char* text);
/// "label value" with the value in full (the shortest text that reads back as the same double),
/// wrapped at the panel's edge.
void text_full(const char* label, double v);
void text_full(const char* label, const Vec3d& v);

}  // namespace raypick::app
