#include "app/App.h"

#include "app/MeshPicking.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <ctime>
#include <sstream>

#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_internal.h>  // the windows drawn this frame, for layout_report()

#include "app/LabelLayout.h"
#include "app/SceneEdit.h"
#include "app/ShaderFiles.h"
#include "app/Showcase.h"
#include "app/UserConfig.h"

namespace raypick::app {

namespace {
glm::dvec3 to_d(const Vec3<double>& v) { return v; }

/// A palette colour for text in the view, lightened a little so that it reads on a dark backdrop.
ImU32 label_colour(const Color& c) {
    const glm::vec4 light = glm::mix(c, glm::vec4(1.0f), 0.25f);
    return IM_COL32(int(light.r * 255.0f), int(light.g * 255.0f), int(light.b * 255.0f), 255);
}

/// `text` beside the pointer at (x, y) on a dark translucent backdrop, so that it reads over any
/// wireframe or surface colour.
void pointer_label(double x, double y, const std::string& text) {
    ImDrawList* dl = ImGui::GetForegroundDrawList();
    const ImVec2 at(float(x) + 14.0f, float(y) + 4.0f);
    const ImVec2 size = ImGui::CalcTextSize(text.c_str());
    dl->AddRectFilled(ImVec2(at.x - 4.0f, at.y - 2.0f), ImVec2(at.x + size.x + 4.0f, at.y + size.y + 2.0f),
                      IM_COL32(0, 0, 0, 200), 3.0f);
    dl->AddText(at, label_colour(palette::hovered), text.c_str());
}
}  // namespace

App::App(const CommandLine& options, GLFWwindow* window, const std::string& config_dir)
    : window_(window), config_dir_(config_dir) {
    if (!config_dir_.empty()) load_user_state();
    glfwGetWindowSize(window_, &state_.window_width, &state_.window_height);
    state_.view.panels.shown = !options.no_ui;
    if (options.raycast) {
        state_.view.raycast.enabled = true;
        state_.view.raycast.shading = *options.raycast;
    }
    update_viewport();  // before the camera frames the scene in it
    if (options.generated_shapes >= 0) {
        state_.editor.reset(generated_scene(static_cast<std::size_t>(options.generated_shapes)));
    } else if (!options.scene_file.empty()) {
        auto loaded = load_scene(options.scene_file);
        if (auto* err = std::get_if<std::string>(&loaded)) throw StartupError(*err);
        state_.editor.reset(std::move(std::get<Scene>(loaded)));
        // A model file opens as a new scene, which is saved elsewhere (never over the model).
        if (!model_format_of(options.scene_file)) state_.scene_path = options.scene_file;
        else state_.made_from = options.scene_file;
    } else {
        state_.editor.reset(default_scene(state_.scene_path));
    }
    reset_camera(state_);
    if (!options.open_file.empty()) open_scene(state_, options.open_file);  // keeps the scene on error
    if (options.ray) {
        state_.ray.ray = *options.ray;
        state_.ray.valid = true;
        state_.ray.frozen = true;
    }
    state_.view.solid = state_.view.solid || options.solid;
    if (options.compare) state_.view.compare.enabled.fill(true);
    if (options.open_dialog) ui_.request_open(*options.open_dialog);
    screenshot_mode_ = !options.screenshot_file.empty();
    last_frame_ = std::chrono::steady_clock::now();
}

void App::load_user_state() {
    AppState& s = state_;
    std::vector<std::string> problems;
    std::string error;
    if (const auto text = read_config_file(config_dir_, kSettingsFile, error)) {
        UserSettings base;
        base.view = s.view;
        const SettingsParse p = parse_settings(*text, base);
        s.view = p.settings.view;
        s.last_dir = p.settings.last_dir;
        s.recent_files = p.settings.recent;
        for (const std::string& m : p.problems) problems.push_back(std::string(kSettingsFile) + " " + m);
    } else if (!error.empty()) {
        problems.push_back(error);
    }
    saved_recent_ = s.recent_files;
    if (const auto ini = read_config_file(config_dir_, kImGuiIniFile, error)) ImGui::LoadIniSettingsFromMemory(ini->c_str(), ini->size());
    else if (!error.empty()) problems.push_back(error);
    if (!problems.empty())
        s.status = "settings in " + config_dir_ + " partly ignored: " + problems.front() +
                   (problems.size() > 1 ? " (and " + std::to_string(problems.size() - 1) + " more)" : "");
}

std::optional<std::string> App::save_user_state() {
    if (config_dir_.empty()) return std::nullopt;
    UserSettings settings;
    settings.view = state_.view;
    settings.last_dir = state_.last_dir;
    settings.recent = state_.recent_files;
    saved_recent_ = state_.recent_files;
    if (auto err = write_config_file(config_dir_, kSettingsFile, settings_text(settings))) return err;
    std::size_t size = 0;
    const char* ini = ImGui::SaveIniSettingsToMemory(&size);
    return write_config_file(config_dir_, kImGuiIniFile, std::string(ini, size));
}

bool App::wants_frames() const {
    const ImGuiIO& io = ImGui::GetIO();
    const bool button_held = io.MouseDown[0] || io.MouseDown[1] || io.MouseDown[2];
    return button_held || interaction_.busy() || driver_ != nullptr || state_.screenshot_requested ||
           state_.quit_requested;
}

bool App::intercept_close() {
    if (screenshot_mode_ || !has_unsaved_changes(state_)) return false;
    request_scene_action(state_, {SceneAction::Kind::Quit, ""});
    return true;
}

void App::handle_keys() {
    ImGuiIO& io = ImGui::GetIO();
    const bool ctrl = io.KeyCtrl, shift = io.KeyShift;
    auto pressed = [](int key) { return ImGui::IsKeyPressed(key, false); };
    AppState& s = state_;
    auto request_screenshot = [&] {
        char stamp[32];
        const std::time_t now = std::time(nullptr);
        std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", std::localtime(&now));
        char name[80];
        std::snprintf(name, sizeof name, "raypick-%s-%zu.png", stamp, s.stats.frames);  // unique per frame
        s.screenshot_path = name;
        s.screenshot_requested = true;
    };
    if (io.WantCaptureKeyboard) {
        // A dialog or a field has the keyboard; quitting and screenshots still work (P only when
        // no text is being typed).
        if (ctrl && pressed(GLFW_KEY_Q)) request_scene_action(s, {SceneAction::Kind::Quit, ""});
        else if (!ctrl && (pressed(GLFW_KEY_F12) || (!io.WantTextInput && pressed(GLFW_KEY_P)))) request_screenshot();
        return;
    }
    if (ctrl && pressed(GLFW_KEY_Z)) {
        if (shift) redo(s);
        else undo(s);
        interaction_.cancel();
    } else if (ctrl && pressed(GLFW_KEY_Y)) {
        redo(s);
        interaction_.cancel();
    } else if (ctrl && pressed(GLFW_KEY_D)) {
        duplicate_selected(s.editor, s.sel);
    } else if (ctrl && pressed(GLFW_KEY_S)) {
        if (!s.scene_path.empty()) save_scene(s, s.scene_path);
        else ui_.request_save_as();
    } else if (ctrl && pressed(GLFW_KEY_Q)) {
        request_scene_action(s, {SceneAction::Kind::Quit, ""});
    } else if (ctrl && pressed(GLFW_KEY_O)) {
        ui_.request_open();
    } else if (!ctrl && pressed(GLFW_KEY_DELETE)) {
        if (!interaction_.busy()) delete_selected(s.editor, s.sel);
    } else if (!ctrl && pressed(GLFW_KEY_SPACE)) {
        set_frozen(s, !s.ray.frozen);
    } else if (!ctrl && pressed(GLFW_KEY_F)) {
        frame_selection(s);
    } else if (!ctrl && (pressed(GLFW_KEY_HOME) || pressed(GLFW_KEY_R))) {
        reset_camera(s);
    } else if (!ctrl && pressed(GLFW_KEY_ESCAPE)) {
        s.sel.selected.reset();
        s.sel.selected_instance.reset();
    } else if (!ctrl && pressed(GLFW_KEY_W)) {
        s.view.solid = !s.view.solid;
    } else if (!ctrl && pressed(GLFW_KEY_F1)) {
        s.view.panels.shown = !s.view.panels.shown;
    } else if (!ctrl && (pressed(GLFW_KEY_F12) || pressed(GLFW_KEY_P))) {
        request_screenshot();
    }
}

void App::update_mouse() {
    const ImGuiIO& io = ImGui::GetIO();
    mouse_ = {io.MousePos.x, io.MousePos.y, io.WantCaptureMouse};
    if (driver_) driver_->before_frame(state_, mouse_);
}

void App::cast_ray() {
    AppState& s = state_;
    if (!s.ray.frozen && ignore_mouse()) {  // screenshot without --ray: no mouse, so no mouse ray
        clear_result(s.result, s.scene().shapes.size());
        s.triangle.reset();
        return;
    }
    if (!s.ray.frozen) {
        // The mouse ray follows the cursor every frame, unless ImGui owns the mouse or the cursor is
        // outside the 3D view: then the last ray stays (and is still cast, so edits show at once).
        const ViewRect& v = s.viewport;
        const bool inside = v.contains(mouse_.x, mouse_.y);
        if ((inside && !mouse_.ui_wants) || !s.ray.valid) {
            const double x = inside ? mouse_.x - v.x : v.width * 0.5;
            const double y = inside ? mouse_.y - v.y : v.height * 0.5;
            s.ray.ray = s.camera.ray_from_pixel(x, y, v.width, v.height);
            s.ray.valid = true;
        }
    }
    // Through the hover pick's hierarchy: only the shapes the ray reaches are cast.
    interaction_.picker().cast_all(s.editor, s.ray.ray, s.view.compare, s.result);
    s.stats.pick_us = s.result.micros;
    const double shape_t = s.result.nearest ? s.result.shapes[*s.result.nearest].surface->t : infinity<double>();
    s.triangle = triangle_readout(interaction_.instance_picker(), s.editor, s.ray.ray, shape_t);
}

void App::update() {
    AppState& s = state_;
    const auto now = std::chrono::steady_clock::now();
    const double ms = std::chrono::duration<double, std::milli>(now - last_frame_).count();
    last_frame_ = now;
    if (!skip_frame_time_) {
        s.stats.frame_ms = ms;
        s.stats.frame_ms_avg = s.stats.frames <= 1 ? ms : s.stats.frame_ms_avg * 0.95 + ms * 0.05;
    }
    skip_frame_time_ = false;
    ++s.stats.frames;
    glfwGetWindowSize(window_, &s.window_width, &s.window_height);
    update_viewport();

    handle_keys();
    update_mouse();

    const ImGuiIO& io = ImGui::GetIO();
    InputState in;
    // Window coordinates relative to the 3D view.
    in.mouse_x = mouse_.x - s.viewport.x;
    in.mouse_y = mouse_.y - s.viewport.y;
    in.width = s.viewport.width;
    in.height = s.viewport.height;
    in.left_down = io.MouseDown[0];
    in.right_down = io.MouseDown[1];
    in.middle_down = io.MouseDown[2];
    in.left_pressed = ImGui::IsMouseClicked(0);
    in.right_pressed = ImGui::IsMouseClicked(1);
    in.middle_pressed = ImGui::IsMouseClicked(2);
    in.left_released = ImGui::IsMouseReleased(0);
    in.wheel = io.MouseWheel;
    in.shift = io.KeyShift;
    const bool keys_free = !io.WantCaptureKeyboard;
    in.key_x = keys_free && ImGui::IsKeyDown(GLFW_KEY_X);
    in.key_y = keys_free && ImGui::IsKeyDown(GLFW_KEY_Y) && !io.KeyCtrl;
    in.key_z = keys_free && ImGui::IsKeyDown(GLFW_KEY_Z) && !io.KeyCtrl;
    in.ui_wants_mouse = mouse_.ui_wants;
    const bool mouse_in_view = s.viewport.contains(mouse_.x, mouse_.y) && !ignore_mouse();
    if (driver_ && driver_->replaces_mouse()) {
        driver_->interact(s, interaction_);
    } else if (mouse_in_view || interaction_.busy()) {
        interaction_.update(in, s.editor, s.sel, s.camera);
        s.stats.bvh_pick_us = interaction_.picker().last_pick_us();
        s.stats.bvh_rebuilds = interaction_.picker().rebuilds();
        s.stats.bvh_refits = interaction_.picker().refits();
        s.stats.instance_rebuilds = interaction_.instance_picker().rebuilds();
        s.stats.instance_refits = interaction_.instance_picker().refits();
    } else {  // over a panel or outside the window: nothing in the view is hovered
        s.sel.hovered.reset();
        s.sel.hovered_instance.reset();
        s.sel.hovered_handle = -1;
    }
    if (interaction_.busy()) s.status = interaction_.status(s.scene());
    else if (was_busy_) s.status.clear();  // the gesture ended
    was_busy_ = interaction_.busy();
    if (s.status.empty()) s.status = "left: pick / drag, right: orbit, middle: pan, wheel: zoom, Space: freeze ray, Help menu: all keys";

    cast_ray();
    if (s.view.panels.shown) ui_.draw(s, renderer_.scene_line_vertices());
    else {
        ui_.check_case(s);
        ui_.draw_dialogs(s);
    }
    if (!config_dir_.empty() && s.recent_files != saved_recent_) {  // remembered at once, not only on exit
        if (auto err = save_user_state()) s.status = "could not remember the recent files: " + *err;
    }
    s.sel.clamp(s.scene().shapes.size(), s.scene().instances.size());
    // A slider or text field edit ends when no item is active any more: one undo step per edit.
    if (s.editor.in_gesture() && !interaction_.busy() && !ImGui::IsAnyItemActive()) s.editor.end_gesture();
    if (s.view.show_scene_rays) draw_ray_labels();
    draw_raycast_view();
    // The hovered shape's name beside the cursor.
    if (s.sel.hovered && *s.sel.hovered < s.scene().shapes.size() && !interaction_.busy() &&
        s.viewport.contains(mouse_.x, mouse_.y) && !mouse_.ui_wants) {
        pointer_label(mouse_.x, mouse_.y, s.scene().shapes[*s.sel.hovered].name);
    }
    if (s.sel.hovered_instance && *s.sel.hovered_instance < s.scene().instances.size() && !interaction_.busy() &&
        s.viewport.contains(mouse_.x, mouse_.y) && !mouse_.ui_wants) {
        pointer_label(mouse_.x, mouse_.y, s.scene().instances[*s.sel.hovered_instance].name);
    }
}

void App::update_viewport() {
    AppState& s = state_;
    const RaycastOptions& rc = s.view.raycast;
    const bool beside = rc.enabled && rc.placement == RaycastPlacement::Beside && s.view.panels.shown;
    s.viewport = view_rect(s.window_width, s.window_height, s.view.panels, beside);
}

void App::draw_ray_labels() {
    // Each scene ray's name at its origin, with what its failed expectations expected and got;
    // laid out so that no two overlap (label_layout()) and clipped to the 3D view.
    const AppState& s = state_;
    const ViewRect& v = s.viewport;
    const auto& failures = ui_.case_failures();
    const std::optional<std::size_t> chosen = ui_.selected_case_ray();
    std::vector<ScreenLabel> labels;
    std::vector<ImU32> colours;
    const double char_width = std::max(1.0f, ImGui::CalcTextSize("0").x);
    const auto max_chars = static_cast<std::size_t>(std::clamp(0.4 * v.width, 160.0, 380.0) / char_width);
    InstancePicker& instances = interaction_.instance_picker();
    instances.sync(s.editor);
    const std::size_t n = std::min<std::size_t>(s.scene().rays.size(), 200);
    for (std::size_t i = 0; i < n; ++i) {
        const SceneRay& r = s.scene().rays[i];
        const CaseLabel* failure = nullptr;
        for (const CaseLabel& f : failures)
            if (f.ray == i) failure = &f;
        if (!s.view.ray_labels && !failure && chosen != i) continue;
        // At the origin, or where the ray comes into the view when its origin is outside it.
        double t0 = std::max(r.t_min, 0.0);
        if (!std::isfinite(t0)) t0 = 0.0;
        const std::optional<SurfaceHit<double>> best = first_hit(s.scene(), instances.bvh(), r);
        const double t1 = best ? best->t : t0 + 20.0 / glm::length(r.ray.direction);
        const auto p = ray_label_anchor(s.camera, r.ray, t0, t1, v.width, v.height);
        if (!p) continue;
        std::string text = r.name.empty() ? "#" + std::to_string(i) : r.name;
        if (p->from_outside) text += " from " + full(r.ray.at(t0));
        // A failure's expected-versus-got is wrapped to a compact box within the view.
        if (failure) text = wrap_label(text + "\n" + failure->text, max_chars);
        const ImVec2 size = ImGui::CalcTextSize(text.c_str());
        labels.push_back({p->x + v.x, p->y + v.y, size.x, size.y, std::move(text)});
        colours.push_back(label_colour(chosen == i ? palette::selected : failure ? palette::failed : palette::scene_ray));
    }
    if (labels.empty()) return;
    const std::vector<LabelBox> boxes = layout_labels(labels, v);
    ImDrawList* dl = ImGui::GetBackgroundDrawList();
    dl->PushClipRect(ImVec2(float(v.x), float(v.y)), ImVec2(float(v.x + v.width), float(v.y + v.height)), false);
    for (std::size_t k = 0; k < labels.size(); ++k) {
        const LabelBox& b = boxes[k];
        const ImVec2 at(float(b.x), float(b.y));
        if (b.moved)  // a leader line from the ray's origin to its label
            dl->AddLine(ImVec2(float(labels[k].anchor_x), float(labels[k].anchor_y)),
                        ImVec2(at.x - 2.0f, at.y + float(b.line_height) * 0.5f), IM_COL32(200, 200, 200, 160));
        // Translucent: the shapes behind stay visible.
        dl->AddRectFilled(ImVec2(at.x - 3, at.y - 2), ImVec2(at.x + float(labels[k].width) + 3, at.y + float(labels[k].height) + 2),
                          IM_COL32(0, 0, 0, 140), 3.0f);
        dl->AddText(at, colours[k], labels[k].text.c_str());
    }
    dl->PopClipRect();
}

void App::draw_raycast_view() {
    AppState& s = state_;
    RaycastOptions& o = s.view.raycast;
    const PictureSize size = raycast_.size();
    if (!o.enabled || size.empty()) return;
    const ImTextureID texture = reinterpret_cast<ImTextureID>(static_cast<std::uintptr_t>(renderer_.picture_texture()));
    ViewRect r = s.viewport;
    std::uint32_t alpha = 255;
    if (o.placement == RaycastPlacement::Over) {
        alpha = static_cast<std::uint32_t>(std::lround(std::clamp(o.opacity, 0.0f, 1.0f) * 255.0f));
    } else {
        if (!s.view.panels.shown) return;
        r = beside_rect(s.window_width, s.window_height, s.view.panels);  // the free region's right half
    }
    // Under the panels (ImGui draws after the view); beside, the picture keeps the view's aspect.
    const double scale = std::min(r.width / s.viewport.width, r.height / s.viewport.height);
    const double w = s.viewport.width * scale, h = s.viewport.height * scale;
    const double x = r.x + (r.width - w) * 0.5, y = r.y + (r.height - h) * 0.5;
    ImGui::GetBackgroundDrawList()->AddImage(texture, ImVec2(float(x), float(y)), ImVec2(float(x + w), float(y + h)),
                                             ImVec2(0, 0), ImVec2(1, 1), IM_COL32(255, 255, 255, alpha));
}

void App::update_raycast(const glm::dmat4& view_projection) {
    AppState& s = state_;
    const IdPicture gl_ids = [&](PictureSize p) {
        return OtherPicture(renderer_.render_ids(s.scene(), view_projection, p.width, p.height),
                            renderer_.render_normals(view_projection, p.width, p.height));
    };
    if (!raycast_.update(s.editor, s.camera, s.viewport.width, s.viewport.height, s.view.raycast, gl_ids)) return;
    renderer_.upload_picture(raycast_.rgba(), raycast_.size().width, raycast_.size().height);
    s.stats.raycast_ms = raycast_.cast_ms();
    s.stats.raycast_rays_per_s = raycast_.rays_per_second();
    s.stats.raycast_width = raycast_.size().width;
    s.stats.raycast_height = raycast_.size().height;
    s.stats.raycast_compared = raycast_.comparison().compared;
    s.stats.raycast_differing = raycast_.comparison().differing;
}

RaycastCheck App::raycast_check(int shift) {
    AppState& s = state_;
    renderer_.sync_scene(s.editor);
    const glm::dmat4 vp = s.camera.projection(s.view_aspect()) * s.camera.view();
    RaycastOptions options;
    options.enabled = true;
    options.shading = RaycastShading::Difference;
    options.margin = 2;
    RaycastView view;  // its own, at full size, whatever the panel's settings
    view.update(s.editor, s.camera, s.viewport.width, s.viewport.height, options, [&](PictureSize p) {
        std::vector<std::uint8_t> normals = renderer_.render_normals(vp, p.width, p.height);
        if (shift != 0) normals.clear();  // the shifted test aid compares objects only
        return OtherPicture(shift_ids(renderer_.render_ids(s.scene(), vp, p.width, p.height), p.width, p.height, shift),
                            std::move(normals));
    });
    RaycastCheck c;
    c.size = view.size();
    c.compared = view.comparison().compared;
    c.differing = view.comparison().differing;
    c.skipped = view.comparison().skipped;
    c.normals_compared = view.comparison().normals_compared;
    c.normals_differing = view.comparison().normals_differing;
    c.cpu_ms = view.cast_ms();
    c.rgba = view.rgba();
    return c;
}

void App::build_overlay() {
    const AppState& s = state_;
    const ViewOptions& v = s.view;
    overlay_.clear();
    MarkerBatch variant_markers{18.0f, {}, MarkerShape::Diamond};
    MarkerBatch exits{10.0f, {}};
    MarkerBatch entries{10.0f, {}};
    MarkerBatch case_hits{10.0f, {}};
    MarkerBatch handle_markers{8.0f, {}};
    MarkerBatch hot_handle{12.0f, {}};

    // Highlights: hovered, then selected (the selected colour wins where they coincide).
    if (s.sel.hovered && *s.sel.hovered < s.scene().shapes.size() && s.sel.hovered != s.sel.selected)
        append_wireframe(overlay_.highlight, s.scene().shapes[*s.sel.hovered].shape, palette::hovered,
                         renderer_.circle_segments());
    if (s.sel.selected && *s.sel.selected < s.scene().shapes.size()) {
        const Shape<double>& shape = s.scene().shapes[*s.sel.selected].shape;
        append_wireframe(overlay_.highlight, shape, palette::selected, renderer_.circle_segments());
        if (v.show_handles)
            for (const Handle& h : handles(shape)) {
                if (h.id == s.sel.hovered_handle) hot_handle.points.push_back({glm::vec3(h.position), palette::hovered});
                else handle_markers.points.push_back({glm::vec3(h.position), palette::handle});
            }
    }

    // Normal arrows: a fixed length on screen (at the point's depth), or in world units.
    auto normal_arrow = [&](const Vec3d& p, const Vec3d& n, const Color& c, double scale = 1.0) {
        const double len = v.normals_in_pixels ? double(v.normal_pixels) * s.camera.pixel_size(p, s.viewport.height)
                                               : double(v.normal_length);
        overlay_.annotations.arrow(p, n * (len * scale), c);
    };

    // Mesh instances: hovered, then selected.
    const std::size_t instance_count = s.scene().instances.size();
    if (s.sel.hovered_instance && *s.sel.hovered_instance < instance_count && s.sel.hovered_instance != s.sel.selected_instance)
        overlay_.instance_highlights.emplace_back(*s.sel.hovered_instance, palette::hovered);
    if (s.sel.selected_instance && *s.sel.selected_instance < instance_count)
        overlay_.instance_highlights.emplace_back(*s.sel.selected_instance, palette::selected);
    // The ray's mesh triangle (its back marked in its own colour) and, at the hit, the face normal
    // and the interpolated normal.
    if (s.triangle && s.triangle->instance < instance_count && s.ray.valid) {
        const TriangleReadout& tr = *s.triangle;
        const Color edge = tr.hit.hit.front ? palette::triangle : palette::back_face;
        overlay_.annotations.line(tr.corners.a, tr.corners.b, edge);
        overlay_.annotations.line(tr.corners.b, tr.corners.c, edge);
        overlay_.annotations.line(tr.corners.c, tr.corners.a, edge);
        if (v.show_normals) {
            const Vec3d p = s.ray.ray.at(tr.hit.hit.t);
            normal_arrow(p, tr.hit.hit.normal, palette::normal);
            if (tr.hit.hit.shading_normal) normal_arrow(p, *tr.hit.hit.shading_normal, palette::shading_normal);
        }
    }

    // The scene's own rays (test cases): green, first hits blue, failing rays in their own colour,
    // the ray chosen in the Case panel in the selection's colour; with details, exit points and
    // both normals of every shape the ray passes through, like the current ray.
    if (v.show_scene_rays) {
        InstancePicker& instances = interaction_.instance_picker();
        instances.sync(s.editor);
        const auto& failing = ui_.failing_rays();
        const std::size_t n = std::min<std::size_t>(s.scene().rays.size(), 2000);
        for (std::size_t i = 0; i < n; ++i) {
            const SceneRay& r = s.scene().rays[i];
            if (!is_valid(r.ray)) continue;
            const bool failed = i < failing.size() && failing[i];
            const bool chosen = ui_.selected_case_ray() == i;
            const Color col = chosen ? palette::selected : failed ? palette::failed : palette::scene_ray;
            double t0 = std::max(r.t_min, 0.0), t1 = r.t_max;
            const std::optional<SurfaceHit<double>> best = first_hit(s.scene(), instances.bvh(), r);
            if (!std::isfinite(t1)) t1 = (best ? best->t : t0) + 20.0 / glm::length(r.ray.direction);
            if (!std::isfinite(t0)) t0 = 0.0;
            if (v.scene_ray_details)
                for (const SceneShape& sh : s.scene().shapes) {
                    const auto hit = cast(r.ray, sh.shape, r.t_min, r.t_max);
                    if (!hit) continue;
                    const Vec3d pn = r.ray.at(hit->t_near), pf = r.ray.at(hit->t_far);
                    case_hits.points.push_back({glm::vec3(pn), palette::scene_hit});
                    exits.points.push_back({glm::vec3(pf), palette::exit});
                    if (v.show_normals) {
                        normal_arrow(pn, to_d(hit->n_near), palette::normal);
                        normal_arrow(pf, to_d(hit->n_far), palette::normal);
                    }
                    t0 = std::min(t0, hit->t_near);
                    t1 = std::max(t1, hit->t_far);
                }
            overlay_.annotations.line(r.ray.at(t0), r.ray.at(t1), col);
            overlay_.markers.push_back({chosen ? 10.0f : 6.0f, {{glm::vec3(r.ray.origin), col}}});
            if (best) case_hits.points.push_back({glm::vec3(best->point), palette::scene_hit});
        }
        // The textbook comparison applies to these rays as to the mouse ray: the points of the
        // variants that disagree with the core (those that agree would only repeat its hits),
        // joined to the ray's origin when they lie behind it (where the textbook capsule's bug is).
        for (const VariantPoint& vp : scene_ray_variants(s.scene(), v.compare)) {
            if (!vp.differs) continue;
            variant_markers.points.push_back({glm::vec3(vp.point), palette::variant});
            const SceneRay& r = s.scene().rays[vp.ray];
            if (glm::dot(vp.point - r.ray.origin, r.ray.direction) < 0.0)
                overlay_.annotations.line(r.ray.origin, vp.point, palette::variant);
            const Vec3d& n = vp.normal;
            if (v.show_normals && std::isfinite(n.x) && std::isfinite(n.y) && std::isfinite(n.z))
                normal_arrow(vp.point, n, palette::variant, 0.8);
        }
    }

    // The current ray and its results: every shape's entry and exit, the mesh triangle's entry.
    if (s.ray.valid) {
        const Ray<double>& ray = s.ray.ray;
        const double dlen = glm::length(ray.direction);
        double t_end = 0.0;
        const bool mesh_hit = s.triangle && s.triangle->instance < instance_count;
        if (mesh_hit) {
            t_end = s.triangle->hit.hit.t;
            if (v.show_entry) entries.points.push_back({glm::vec3(ray.at(t_end)), palette::entry});
        }
        for (std::size_t i = 0; i < s.result.shapes.size() && i < s.scene().shapes.size(); ++i) {
            const ShapeResult& r = s.result.shapes[i];
            if (r.hit) {
                t_end = std::max(t_end, r.hit->t_far);
                const Vec3d pn = ray.at(r.hit->t_near), pf = ray.at(r.hit->t_far);
                if (v.show_entry) entries.points.push_back({glm::vec3(pn), palette::entry});
                if (v.show_exit) exits.points.push_back({glm::vec3(pf), palette::exit});
                if (v.show_normals) {
                    if (v.show_entry) normal_arrow(pn, to_d(r.hit->n_near), palette::normal);
                    if (v.show_exit) normal_arrow(pf, to_d(r.hit->n_far), palette::normal);
                }
            }
            if (r.variant && r.variant->hit) {
                const VariantResult& vr = *r.variant;
                auto show = [&](double t, const Vec3d& p, const Vec3d& n) {
                    if (!std::isfinite(t) || !std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.z)) return;
                    variant_markers.points.push_back({glm::vec3(p), palette::variant});
                    if (v.show_normals && std::isfinite(n.x) && std::isfinite(n.y) && std::isfinite(n.z))
                        normal_arrow(p, n, palette::variant, 0.8);
                    t_end = std::max(t_end, t);
                };
                show(vr.t, vr.point, vr.normal);
                if (vr.has_second) show(vr.t2, vr.point2, vr.normal2);
            }
        }
        const bool any_hit = s.result.hit_count > 0 || mesh_hit;
        if (v.show_ray && (any_hit || v.show_misses || s.ray.frozen)) {
            const double len = std::max(t_end * dlen * 1.25, 30.0) / dlen;
            overlay_.annotations.line(ray.origin, ray.at(len), any_hit ? palette::ray : palette::ray_miss);
            if (s.ray.frozen) overlay_.markers.push_back({8.0f, {{glm::vec3(ray.origin), palette::ray}}});
        }
    }
    // The variants' diamonds first: where one agrees with the core, the core's point shows inside it.
    overlay_.markers.push_back(std::move(variant_markers));
    overlay_.markers.push_back(std::move(handle_markers));
    overlay_.markers.push_back(std::move(hot_handle));
    overlay_.markers.push_back(std::move(case_hits));
    overlay_.markers.push_back(std::move(exits));
    overlay_.markers.push_back(std::move(entries));
}

void App::render(int fb_width, int fb_height) {
    AppState& s = state_;
    if (fb_width <= 0 || fb_height <= 0) return;  // minimised
    renderer_.sync_scene(s.editor);
    build_overlay();
    const glm::dmat4 vp = s.camera.projection(s.view_aspect()) * s.camera.view();
    // The ray-cast view, when it is visible (before the view: render_ids changes the GL state).
    const RaycastOptions& rc = s.view.raycast;
    if (rc.enabled && (rc.placement == RaycastPlacement::Over || s.view.panels.shown)) update_raycast(vp);
    // The view rectangle in framebuffer pixels (y up; the framebuffer may be scaled on HiDPI).
    const double sx = double(fb_width) / std::max(1, s.window_width), sy = double(fb_height) / std::max(1, s.window_height);
    const ViewRect& v = s.viewport;
    Viewport port;
    port.x = static_cast<int>(std::lround(v.x * sx));
    port.y = static_cast<int>(std::lround((s.window_height - v.y - v.height) * sy));
    port.width = static_cast<int>(std::lround(v.width * sx));
    port.height = static_cast<int>(std::lround(v.height * sy));
    DrawSettings settings;
    settings.solid = s.view.solid;
    settings.grid = s.view.show_grid;
    if (s.view.panels.shown) {
        for (const PanelBackground& b : ui_.panel_backgrounds()) {
            FillRect r;
            r.x = static_cast<int>(std::lround(b.x * sx));
            r.y = static_cast<int>(std::lround((s.window_height - b.y - b.height) * sy));
            r.width = static_cast<int>(std::lround((b.x + b.width) * sx)) - r.x;
            r.height = static_cast<int>(std::lround((s.window_height - b.y) * sy)) - r.y;
            r.color = b.color;
            settings.panel_fills.push_back(r);
        }
    }
    renderer_.draw(vp, fb_width, fb_height, port, overlay_, settings);
}

}  // namespace raypick::app

namespace raypick::app {

std::string App::layout_report() const {
    const AppState& s = state_;
    std::ostringstream out;
    out.precision(9);
    const ViewRect& v = s.viewport;
    out << "window " << s.window_width << ' ' << s.window_height << '\n';
    out << "view " << v.x << ' ' << v.y << ' ' << v.width << ' ' << v.height << '\n';
    // Every top-level ImGui window drawn in the last frame (panels, bars, popups, tooltips).
    for (const ImGuiWindow* w : GImGui->Windows) {
        if (!w->Active || w->Hidden || (w->Flags & ImGuiWindowFlags_ChildWindow)) continue;
        out << "panel " << w->Pos.x << ' ' << w->Pos.y << ' ' << w->Size.x << ' ' << w->Size.y << ' ' << w->Name << '\n';
    }
    // The renderer's projection: the camera's, at the 3D view's aspect, into the view's rectangle;
    // shapes, then mesh instances.
    auto shape_line = [&](const Aabb<double>& box, const std::string& name) {
        const auto b = s.camera.project_box(box, v.width, v.height);
        if (!b) out << "shape - " << name << '\n';
        else out << "shape " << b->x0 + v.x << ' ' << b->y0 + v.y << ' ' << b->x1 + v.x << ' ' << b->y1 + v.y << ' ' << name << '\n';
    };
    for (const SceneShape& sh : s.scene().shapes) shape_line(bounds(sh.shape), sh.name);
    for (std::size_t i = 0; i < s.scene().instances.size(); ++i)
        if (const auto box = instance_bounds(s.scene(), i)) shape_line(*box, s.scene().instances[i].name);
    return out.str();
}

}  // namespace raypick::app
