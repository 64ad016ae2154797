#include "app/Ui.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <type_traits>
#include <utility>
#include <vector>

#include <imgui.h>
#include <imgui_internal.h>  // ImGuiContext::TempInputId: a drag field in text entry

#include "app/SceneEdit.h"
#include "app/Wireframe.h"
#include "scene/Euler.h"

#include "scene/CaseCheck.h"
#include "scene/NumberText.h"

namespace raypick::app {

namespace {

const ImVec4 kRed(1.0f, 0.45f, 0.4f, 1.0f);
const ImVec4 kYellow(1.0f, 0.85f, 0.3f, 1.0f);
const ImVec4 kGreen(0.45f, 0.9f, 0.5f, 1.0f);
const ImVec4 kMagenta(1.0f, 0.45f, 1.0f, 1.0f);
const ImVec4 kGrey(0.6f, 0.6f, 0.6f, 1.0f);

/// The printf format of a drag field showing `values`: every digit of each (the shortest text that
/// reads back as it, as in the Ray panel), and at least 9 significant, since ImGui rounds a dragged
/// value to its format's precision. With a fixed "%.9g" a centre of -1.5000000000000004 read -1.5,
/// and its Ctrl+click text held 9 digits, so editing one digit dropped the others.
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
/// Side by side, a long value was cut at the field's edge (a centre of -1.5000000000000004 read
/// "-1.500000", a direction "0.011511835396618(") and nothing showed the rest. The fields' ids are
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

/// `format`: a fixed printf format instead (for values derived for display, such as Euler angles,
/// whose last digits are rounding noise: 29.999999999999996 reads 30).
bool drag3(const char* label, Vec3d& v, float speed = 0.01f, const char* format = nullptr) {
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
bool drag1(const char* label, double& v, float speed = 0.01f) {
    const DragFormat f{v};
    return ImGui::DragScalar(label, ImGuiDataType_Double, &v, speed, nullptr, nullptr, f.text);
}
/// A greyed hint that wraps at the panel's edge (TextDisabled cuts a long one off in a narrow column).
void hint(const char* text) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyle().Colors[ImGuiCol_TextDisabled]);
    ImGui::TextWrapped("%s", text);
    ImGui::PopStyleColor();
}
// Numbers shown in full: the shortest text that reads back as the same double (full(), Picking.h).
void text_full(const char* label, double v) { ImGui::Text("%s %s", label, full(v).c_str()); }
void text_full(const char* label, const Vec3d& v) { ImGui::Text("%s %s", label, full(v).c_str()); }

/// Three doubles side by side, as InputScalarN lays them out, each shown as full() shows it (0.15
/// reads "0.15", not "0.14999999999999999"). A value is taken when its text is committed (Enter,
/// or the field losing focus), not keystroke by keystroke: typing 1e999 no longer set 1e9 and
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

// The column panels keep their place (the 3D view is the rectangle between the columns, see
// ViewLayout.h); floating panels (Test cases) start at a place and can be moved.
// Mouse and keyboard controls, for the Help menu (and the README).
const std::vector<std::pair<const char*, const char*>>& controls() {
    static const std::vector<std::pair<const char*, const char*>> list = {
        {"left click", "pick the nearest shape along the mouse ray (empty space: deselect)"},
        {"left drag on a shape", "move it on the camera-facing plane through the grab point"},
        {"  + hold X / Y / Z", "move along that world axis only"},
        {"left drag a white handle", "move a capsule end point / box corner / sphere radius point"},
        {"left drag on empty space", "orbit"},
        {"right drag", "orbit (Shift + right drag: pan)"},
        {"middle drag", "pan"},
        {"mouse wheel", "zoom"},
        {"F", "frame the selection (nothing selected: the scene)"},
        {"R / Home", "reset the camera (the scene file's camera)"},
        {"Space", "freeze / unfreeze the ray"},
        {"Ctrl+Z", "undo"},
        {"Ctrl+Shift+Z / Ctrl+Y", "redo"},
        {"Ctrl+D", "duplicate the selected shape"},
        {"Delete", "delete the selected shape"},
        {"Esc", "deselect"},
        {"W", "wire / solid (surfaces coloured by normal)"},
        {"F1", "hide / show the panels"},
        {"F12 / P", "save a screenshot (raypick-<time>.png)"},
        {"Ctrl+O / Ctrl+S", "open / save a scene file"},
        {"Ctrl+Q", "quit"},
    };
    return list;
}

void place(float x, float y, float w, float h, ImGuiCond cond = ImGuiCond_Always) {
    ImGui::SetNextWindowPos(ImVec2(x, y), cond);
    ImGui::SetNextWindowSize(ImVec2(w, h), cond);
}

}  // namespace

void Ui::draw(AppState& s, std::size_t line_vertices) {
    const ImVec2 display = ImGui::GetIO().DisplaySize;
    const float top = kMenuBarHeight, bottom = display.y - kStatusBarHeight;
    const float right = std::max(display.x - kRightPanelWidth, kLeftPanelWidth + 20.0f);
    const float mid = top + (bottom - top) * 0.45f;
    panel_backgrounds_.clear();
    menu(s);
    place(0, top, kLeftPanelWidth, mid - top);
    scene_panel(s);
    place(0, mid, kLeftPanelWidth, bottom - mid);
    inspector_panel(s);
    place(right, top, kRightPanelWidth, mid - top);
    ray_panel(s);
    const float options_height = s.view.raycast.enabled ? 262.0f : 200.0f;  // room for the ray-cast lines
    place(right, mid, kRightPanelWidth, options_height);
    options_panel(s);
    place(right, mid + options_height, kRightPanelWidth, std::max(bottom - mid - options_height, 80.0f));
    stats_panel(s, line_vertices);
    // Opens by itself for a scene with expectations (a case file); View > Test cases toggles it.
    if (cases_shown_for_ != s.scene_path) {
        cases_shown_for_ = s.scene_path;
        show_cases_ = !s.scene().expectations.empty();
    }
    place(kLeftPanelWidth + 10, std::max(bottom - 200, top + 20), std::max(right - kLeftPanelWidth - 20, 200.0f), 200,
          ImGuiCond_FirstUseEver);
    cases_panel(s);
    popups(s);
    status_bar(s);
}

bool Ui::begin_panel(const char* name, int flags) {
    // A software renderer (Mesa's llvmpipe under Xvfb) samples the font texture and blends for
    // each of the half million pixels the panel columns cover at 1280 x 720: 2-4 ms a frame on two
    // cores. The colour ImGui would blend (its window background over the cleared background)
    // is filled opaque by the renderer instead.
    const ImVec4 bg = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];
    ImGui::PushStyleColor(ImGuiCol_WindowBg, ImVec4(bg.x, bg.y, bg.z, 0.0f));
    const bool open = ImGui::Begin(name, nullptr, flags);
    ImGui::PopStyleColor();
    const ImVec2 pos = ImGui::GetWindowPos(), size = ImGui::GetWindowSize();
    const glm::vec4 under = palette::background;
    const glm::vec3 blended = glm::vec3(bg.x, bg.y, bg.z) * bg.w + glm::vec3(under) * (1.0f - bg.w);
    panel_backgrounds_.push_back({pos.x, pos.y, size.x, size.y, glm::vec4(blended, 1.0f)});
    return open;
}

// ---- menu and popups ---------------------------------------------------------------------------

void Ui::menu(AppState& s) {
    if (!ImGui::BeginMainMenuBar()) return;
    if (ImGui::BeginMenu("File")) {
        if (ImGui::MenuItem("New empty scene")) replace_scene(s, Scene{}, "", true);
        if (ImGui::MenuItem("Open...", "Ctrl+O")) request_open();
        if (ImGui::MenuItem("Save", "Ctrl+S", false, true)) {
            if (s.scene_path.empty()) request_save_as();
            else save_scene(s, s.scene_path);
        }
        if (ImGui::MenuItem("Save as...")) request_save_as();
        ImGui::Separator();
        if (ImGui::MenuItem("Screenshot", "F12 / P")) {
            s.screenshot_path = "raypick-screenshot.png";
            s.screenshot_requested = true;
        }
        if (ImGui::MenuItem("Quit", "Ctrl+Q")) s.quit_requested = true;
        ImGui::EndMenu();
    }
    if (ImGui::BeginMenu("Edit")) {
        if (ImGui::MenuItem("Undo", "Ctrl+Z", false, s.editor.can_undo())) undo(s);
        if (ImGui::MenuItem("Redo", "Ctrl+Shift+Z", false, s.editor.can_redo())) redo(s);
        ImGui::Separator();
        const bool sel = s.sel.selected.has_value();
        if (ImGui::MenuItem("Duplicate", "Ctrl+D", false, sel)) duplicate_selected(s.editor, s.sel);
        if (ImGui::MenuItem("Delete", "Del", false, sel)) delete_selected(s.editor, s.sel);
        ImGui::EndMenu();
    }
    if (ImGui::BeginMenu("View")) {
        if (ImGui::MenuItem("Frame selection", "F")) frame_selection(s);
        if (ImGui::MenuItem("Reset camera", "Home / R")) reset_camera(s);
        ImGui::MenuItem("Solid (shaded by normal)", "W", &s.view.solid);
        ImGui::MenuItem("Panels", "F1", &s.view.show_ui);
        if (ImGui::MenuItem("Freeze ray", "Space", s.ray.frozen)) set_frozen(s, !s.ray.frozen);
        ImGui::MenuItem("Test cases panel", nullptr, &show_cases_);
        ImGui::EndMenu();
    }
    if (ImGui::BeginMenu("Presets")) {
        if (!s.case_files_scanned) scan_case_files(s);
        if (ImGui::MenuItem("Built-in showcase")) {
            std::string p;
            replace_scene(s, default_scene(p), p, true);
        }
        if (s.case_files.empty()) ImGui::TextDisabled("no case files found in assets/");
        for (const CaseFile& c : s.case_files)
            if (ImGui::MenuItem(c.name.c_str())) open_scene(s, c.path);
        ImGui::EndMenu();
    }
    if (ImGui::BeginMenu("Help")) {
        for (const auto& [keys, what] : controls()) {
            ImGui::TextUnformatted(keys);
            ImGui::SameLine(190);
            ImGui::TextDisabled("%s", what);
        }
        ImGui::EndMenu();
    }
    ImGui::TextDisabled("| %s", s.scene_path.empty() ? "(built-in scene)" : s.scene_path.c_str());
    ImGui::EndMainMenuBar();
}

void Ui::popups(AppState& s) {
    if (open_popup_ != Popup::None) {
        const std::string init = s.scene_path.empty() ? std::string("scene.json") : s.scene_path;
        std::snprintf(path_buf_, sizeof path_buf_, "%s", init.c_str());
        ImGui::OpenPopup(open_popup_ == Popup::Open ? "Open scene" : "Save scene as");
        open_popup_ = Popup::None;
    }
    for (const char* title : {"Open scene", "Save scene as"}) {
        if (!ImGui::BeginPopupModal(title, nullptr, ImGuiWindowFlags_AlwaysAutoResize)) continue;
        const bool open = std::strcmp(title, "Open scene") == 0;
        ImGui::Text("%s", open ? "Scene file to open (JSON):" : "Save the scene to (JSON):");
        ImGui::SetNextItemWidth(480);
        if (ImGui::IsWindowAppearing()) ImGui::SetKeyboardFocusHere();
        const bool enter = ImGui::InputText("##path", path_buf_, sizeof path_buf_, ImGuiInputTextFlags_EnterReturnsTrue);
        if (ImGui::Button(open ? "Open" : "Save") || enter) {
            if (open) open_scene(s, path_buf_);
            else save_scene(s, path_buf_);
            ImGui::CloseCurrentPopup();
        }
        ImGui::SameLine();
        if (ImGui::Button("Cancel")) ImGui::CloseCurrentPopup();
        ImGui::EndPopup();
    }
    if (!s.error_title.empty() && !ImGui::IsPopupOpen("Error")) ImGui::OpenPopup("Error");
    if (ImGui::BeginPopupModal("Error", nullptr, ImGuiWindowFlags_AlwaysAutoResize)) {
        ImGui::TextColored(kRed, "%s", s.error_title.c_str());
        ImGui::PushTextWrapPos(640.0f);
        ImGui::TextUnformatted(s.error_message.c_str());
        ImGui::PopTextWrapPos();
        if (ImGui::Button("OK") || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Enter))) {
            s.error_title.clear();
            ImGui::CloseCurrentPopup();
        }
        ImGui::EndPopup();
    }
}

void Ui::status_bar(AppState& s) {
    const ImVec2 display = ImGui::GetIO().DisplaySize;
    ImGui::SetNextWindowPos(ImVec2(0, display.y - kStatusBarHeight));
    ImGui::SetNextWindowSize(ImVec2(display.x, kStatusBarHeight));
    ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(6, 3));
    if (begin_panel("##status",
                     ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoInputs | ImGuiWindowFlags_NoSavedSettings |
                         ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoBringToFrontOnFocus)) {
        ImGui::Text("%s ray | %zu shapes | undo %zu / redo %zu | %s", s.ray.frozen ? "frozen" : "mouse",
                    s.scene().shapes.size(), s.editor.undo_count(), s.editor.redo_count(), s.status.c_str());
    }
    ImGui::End();
    ImGui::PopStyleVar();
}

// ---- Scene -------------------------------------------------------------------------------------

void Ui::scene_panel(AppState& s) {
    if (!begin_panel("Scene")) {
        ImGui::End();
        return;
    }
    ImGui::TextUnformatted("Add:");
    for (int t = 0; t < kShapeTypeCount; ++t) {
        ImGui::SameLine();
        if (ImGui::SmallButton(shape_type_name(ShapeType(t)))) add_and_select(s.editor, s.sel, ShapeType(t), s.camera.target);
    }
    const bool has = s.sel.selected && *s.sel.selected < s.scene().shapes.size();
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
    clipper.Begin(static_cast<int>(s.scene().shapes.size()));
    while (clipper.Step()) {
        for (int row = clipper.DisplayStart; row < clipper.DisplayEnd; ++row) {
            const std::size_t i = static_cast<std::size_t>(row);
            const SceneShape& sh = s.scene().shapes[i];
            const bool hit = i < s.result.shapes.size() && s.result.shapes[i].hit.has_value();
            char label[320];
            std::snprintf(label, sizeof label, "%s %s##%zu", hit ? "*" : " ", sh.name.c_str(), i);
            if (ImGui::Selectable(label, s.sel.selected == i)) s.sel.selected = i;
            if (ImGui::IsItemHovered()) s.sel.hovered = i;
            if (!degeneracies(sh.shape).empty()) {
                ImGui::SameLine(185);
                ImGui::TextColored(kYellow, "deg");
                if (ImGui::IsItemHovered()) ImGui::SetTooltip("degenerate (valid): see the Inspector");
            }
            ImGui::SameLine(220);
            ImGui::TextDisabled("%s", shape_type_name(type_of(sh.shape)));
        }
    }
    ImGui::EndChild();
    ImGui::End();
}

// ---- Inspector ---------------------------------------------------------------------------------

void Ui::apply_edit(AppState& s, std::size_t index, const Shape<double>& candidate) {
    if (same_geometry(candidate, s.scene().shapes[index].shape)) return;
    s.editor.begin_gesture();  // ended by App::update when no field is active any more
    if (auto err = s.editor.edit_shape(index, candidate)) {
        refusal_ = "refused: " + *err + "; kept the last valid value";
        refusal_for_ = index;
        euler_for_.reset();  // an OBB's angles are shown again from the rotation kept
    } else if (refusal_for_ == index) {
        refusal_.clear();
    }
}

void Ui::inspector_panel(AppState& s) {
    if (!begin_panel("Inspector")) {
        ImGui::End();
        return;
    }
    if (!s.sel.selected || *s.sel.selected >= s.scene().shapes.size()) {
        hint("Click a shape (or pick one in the Scene list).");
        ImGui::End();
        return;
    }
    const std::size_t i = *s.sel.selected;
    if (refusal_for_ && refusal_for_ != i) refusal_.clear();
    ImGui::Text("%s  (%s)", s.scene().shapes[i].name.c_str(), shape_type_name(type_of(s.scene().shapes[i].shape)));
    Shape<double> edit = s.scene().shapes[i].shape;
    bool touched = false;  // some field reported a value this frame
    std::visit(
        [&](auto& x) {
            using S = std::decay_t<decltype(x)>;
            if constexpr (std::is_same_v<S, Sphere<double>>) {
                touched |= drag3("center", x.center);
                touched |= drag1("radius", x.radius);
            } else if constexpr (std::is_same_v<S, Aabb<double>>) {
                touched |= drag3("min", x.min);
                touched |= drag3("max", x.max);
                Vec3d c = (x.min + x.max) * 0.5, size = x.max - x.min;
                if (drag3("center##aabb", c)) {
                    touched = true;
                    x.min = c - size * 0.5;
                    x.max = c + size * 0.5;
                }
                ImGui::TextDisabled("size (%.6g, %.6g, %.6g)", size.x, size.y, size.z);
            } else if constexpr (std::is_same_v<S, Obb<double>>) {
                touched |= drag3("center", x.center);
                touched |= drag3("half extents", x.half_extents);
                if (euler_for_ != i || euler_rotation_ != x.rotation) {
                    euler_ = euler_degrees_from_rotation(x.rotation);
                    euler_for_ = i;
                }
                Vec3d e = euler_;
                if (drag3("rotation (deg)", e, 0.5f, "%.9g")) {
                    touched = true;
                    // Shown until the edit is taken, or refused (then recomputed): non-finite
                    // angles give a NaN rotation, which validation refuses as any other field's.
                    euler_ = e;
                    x.rotation = rotation_from_euler_degrees(e);
                    euler_rotation_ = x.rotation;
                }
                ImGui::TextDisabled("R = Rz * Ry * Rx (about world X, then Y, then Z)");
                if (ImGui::TreeNode("rotation matrix (columns = box axes)")) {
                    for (int r = 0; r < 3; ++r)
                        ImGui::Text("% .9f % .9f % .9f", x.rotation[0][r], x.rotation[1][r], x.rotation[2][r]);
                    ImGui::Text("orthonormality error %.3g", orthonormality_error(x.rotation));
                    ImGui::TreePop();
                }
            } else {
                touched |= drag3("a", x.a);
                touched |= drag3("b", x.b);
                touched |= drag1("radius", x.radius);
                ImGui::TextDisabled("length |b - a| = %.6g", glm::length(x.b - x.a));
            }
        },
        edit);
    // A field in text entry: keep what is typed until the entry ends (ImGui's drag fields apply
    // their text keystroke by keystroke: typing 1e999 into a radius set 1e9 and 1e99 on the way,
    // and the refusal then kept 1e99). Escape puts the field's first text back, which lands here
    // too, so the entry then changes nothing.
    const ImGuiContext& g = *ImGui::GetCurrentContext();
    const bool typing = g.TempInputId != 0 && g.TempInputId == g.ActiveId;
    if (typed_for_ && (*typed_for_ != i || typed_.index() != edit.index())) typed_for_.reset();
    if (typing) {
        if (touched) {
            typed_ = edit;
            typed_for_ = i;
        }
    } else if (typed_for_) {  // the entry ended this frame: what was typed (this frame's edit is the old shape)
        apply_edit(s, i, typed_);
        typed_for_.reset();
    } else {
        apply_edit(s, i, edit);
    }
    euler_rotation_ = std::holds_alternative<Obb<double>>(s.scene().shapes[i].shape)
                          ? std::get<Obb<double>>(s.scene().shapes[i].shape).rotation
                          : euler_rotation_;

    if (!refusal_.empty()) {
        ImGui::PushTextWrapPos(0.0f);
        ImGui::TextColored(kRed, "%s", refusal_.c_str());
        ImGui::PopTextWrapPos();
    }
    const auto notes = degeneracies(s.scene().shapes[i].shape);
    for (const std::string& n : notes) ImGui::TextColored(kYellow, "degenerate: %s", n.c_str());
    if (notes.empty()) ImGui::TextColored(kGreen, "valid, not degenerate");

    ImGui::Separator();
    hint("Handles (drag the white squares in the view):");
    for (const Handle& h : handles(s.scene().shapes[i].shape))
        ImGui::TextDisabled("  %s (%.4g, %.4g, %.4g)", h.label, h.position.x, h.position.y, h.position.z);
    ImGui::End();
}

// ---- Ray ---------------------------------------------------------------------------------------

void Ui::ray_panel(AppState& s) {
    if (!begin_panel("Ray")) {
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
                ImGui::TextColored(sr.hit ? kGreen : kGrey, "%s", sr.hit ? "hit" : "miss");
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

// ---- Options and Stats -------------------------------------------------------------------------

void Ui::options_panel(AppState& s) {
    if (!begin_panel("Options")) {
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
    for (int t = 0; t < kShapeTypeCount; ++t) {
        if (t) ImGui::SameLine();
        bool on = v.compare.enabled[static_cast<std::size_t>(t)];
        if (ImGui::Checkbox(shape_type_name(ShapeType(t)), &on)) v.compare.enabled[static_cast<std::size_t>(t)] = on;
    }
    if (v.compare.enabled[0]) ImGui::Checkbox("sphere: geometric (tutorial) instead of algebraic", &v.compare.sphere_geometric);
    raycast_options(s);
    ImGui::End();
}

void Ui::raycast_options(AppState& s) {
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

void Ui::stats_panel(AppState& s, std::size_t line_vertices) {
    if (!begin_panel("Stats")) {
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
    ImGui::End();
}

// ---- Test cases --------------------------------------------------------------------------------

void Ui::update_case_report(const AppState& s) {
    if (case_valid_ && case_double_used_ == case_double_ && case_version_ == s.scene_version()) return;
    // Not while a drag or slider is moving: a large case file takes a while to check; the report
    // follows when the gesture ends.
    if (case_valid_ && s.editor.in_gesture()) return;
    case_version_ = s.scene_version();
    case_valid_ = true;
    case_double_used_ = case_double_;
    case_labels_.clear();
    case_lines_.clear();
    case_line_failed_.clear();
    case_line_ray_.clear();
    selected_case_.reset();
    selected_case_ray_.reset();
    failing_rays_.assign(s.scene().rays.size(), false);
    const CaseReport report = check_case(s.scene(), case_double_ ? Precision::Double : Precision::Float);
    case_passed_ = report.passed;
    case_failed_ = report.failed;
    for (const ExpectationResult& r : report.results) {
        case_lines_.push_back(r.passed ? "pass  " + r.label + ": " + r.got : r.summary());
        case_line_failed_.push_back(!r.passed);
        case_line_ray_.push_back(r.ray);
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
        case_labels_.push_back(std::move(label));
    }
}

void Ui::cases_panel(AppState& s) {
    update_case_report(s);  // labels in the view even when the panel is closed
    if (!show_cases_) return;
    const bool open = ImGui::Begin("Test cases", &show_cases_);
    if (!open) {
        ImGui::End();
        return;
    }
    if (!s.case_files_scanned) scan_case_files(s);
    if (ImGui::Button("Rescan assets/")) scan_case_files(s);
    ImGui::SameLine();
    ImGui::Checkbox("double core (CI checks float)", &case_double_);
    ImGui::BeginChild("files", ImVec2(0, 100), true);
    for (const CaseFile& c : s.case_files) {
        const bool failed = !c.error.empty() || (case_double_ ? c.failed_double : c.failed_float) > 0;
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
    ImGui::Text("This scene: %zu expectations, %zu passed, %zu failed (%s core)", case_lines_.size(), case_passed_,
                case_failed_, case_double_ ? "double" : "float");
    ImGui::BeginChild("expectations");
    for (std::size_t k = 0; k < case_lines_.size(); ++k) {
        // Selecting an expectation highlights its ray in the view.
        ImGui::PushStyleColor(ImGuiCol_Text, case_line_failed_[k] ? ImVec4(1.0f, 0.55f, 0.0f, 1.0f) : kGreen);
        char label[64];
        std::snprintf(label, sizeof label, "##case%zu", k);
        if (ImGui::Selectable(label, selected_case_ == k, ImGuiSelectableFlags_AllowItemOverlap)) {
            selected_case_ = selected_case_ == k ? std::nullopt : std::optional<std::size_t>(k);
            selected_case_ray_ = selected_case_ ? std::optional<std::size_t>(case_line_ray_[k]) : std::nullopt;
        }
        ImGui::SameLine(0.0f, 0.0f);
        ImGui::TextUnformatted(case_lines_[k].c_str());
        ImGui::PopStyleColor();
    }
    ImGui::EndChild();
    ImGui::End();
}

}  // namespace raypick::app
