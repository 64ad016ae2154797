#include "app/AppState.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <variant>

#include "app/DataDirs.h"
#include "app/FileBrowser.h"
#include "app/MeshPicking.h"
#include "app/SceneEdit.h"
#include "app/Showcase.h"

#include <raypick/scene/CaseCheck.h>
#include <raypick/scene/SceneFile.h>

namespace raypick::app {

namespace fs = std::filesystem;

Aabb<double> scene_bounds(const Scene& scene) {
    std::optional<Aabb<double>> b;
    for (const SceneShape& s : scene.shapes) b = b ? merge(*b, bounds(s.shape)) : bounds(s.shape);
    for (std::size_t i = 0; i < scene.instances.size(); ++i)
        if (const auto ib = instance_bounds(scene, i)) b = b ? merge(*b, *ib) : *ib;
    return b ? *b : Aabb<double>{Vec3d(-1.0), Vec3d(1.0)};
}

std::optional<SurfaceHit<double>> first_hit(const Scene& scene, const InstanceBvh<double>& instances,
                                            const SceneRay& ray) {
    std::optional<SurfaceHit<double>> best;
    for (const SceneShape& sh : scene.shapes) {
        const auto h = pick(ray.ray, sh.shape, ray.t_min, ray.t_max);
        if (h && (!best || h->t < best->t)) best = h;
    }
    // Only instances up to the shape's hit, inclusive: nearer_side() keeps the shape at equal t.
    const auto m = instances.pick(ray.ray, ray.t_min, best ? best->t : ray.t_max);
    const double* shape_t = best ? &best->t : nullptr;
    if (nearer_side(shape_t, m ? &m->hit.t : nullptr) == MixedSide::instance)
        best = SurfaceHit<double>{m->hit.t, ray.ray.at(m->hit.t), m->hit.normal, false};
    return best;
}

namespace {
/// A ray's origin is framed when it lies within this many times the objects' size of them.
constexpr double kNearOrigin = 1.5;
/// A farther ray is framed from this many times the objects' size before it reaches them.
constexpr double kApproach = 0.5;
}  // namespace

std::vector<Vec3d> framing_points(const Scene& scene) {
    std::vector<Vec3d> points;
    auto add = [&](const Vec3d& p) {
        if (std::isfinite(p.x) && std::isfinite(p.y) && std::isfinite(p.z)) points.push_back(p);
    };
    auto add_box = [&](const Aabb<double>& b) {
        for (int k = 0; k < 8; ++k)
            add({(k & 1) ? b.max.x : b.min.x, (k & 2) ? b.max.y : b.min.y, (k & 4) ? b.max.z : b.min.z});
    };
    for (const SceneShape& sh : scene.shapes) add_box(bounds(sh.shape));
    for (std::size_t i = 0; i < scene.instances.size(); ++i)
        if (const auto b = instance_bounds(scene, i)) add_box(*b);
    // A ray's hits lie on shapes and instances, inside the bounds above: its origin is what adds,
    // when it is near them. A far origin would make the scene a speck: the ray's approach is
    // framed instead, from kApproach times the objects' size before it reaches their bounds (the
    // label at the view's edge says where it comes from).
    std::optional<Aabb<double>> objects;
    for (const Vec3d& p : points) objects = objects ? merge(*objects, Aabb<double>{p, p}) : Aabb<double>{p, p};
    const double size = objects ? glm::length(objects->max - objects->min) : 0.0;
    for (const SceneRay& r : scene.rays) {
        if (!is_valid(r.ray)) continue;
        if (!objects || glm::length(glm::max(glm::max(objects->min - r.ray.origin, r.ray.origin - objects->max), Vec3d(0.0))) <=
                            kNearOrigin * std::max(size, 1e-300)) {
            add(r.ray.origin);
            continue;
        }
        const auto passage = cast(Ray<double>{r.ray.origin, r.ray.direction}, *objects);
        if (!passage) continue;  // it passes the objects by: nothing of it matters to the view
        const Vec3d unit = glm::normalize(r.ray.direction);
        add(r.ray.at(std::max(passage->t_near, 0.0)) - unit * (kApproach * size));
    }
    if (points.empty())
        for (int k = 0; k < 8; ++k) points.emplace_back((k & 1) ? 1.0 : -1.0, (k & 2) ? 1.0 : -1.0, (k & 4) ? 1.0 : -1.0);
    return points;
}

bool shows_every_shape(const Camera& camera, const Scene& scene, double width, double height) {
    auto inside = [&](const Aabb<double>& b) {
        const auto box = camera.project_box(b, width, height);
        return box && box->x0 >= 0.0 && box->y0 >= 0.0 && box->x1 <= width && box->y1 <= height;
    };
    for (const SceneShape& sh : scene.shapes)
        if (!inside(bounds(sh.shape))) return false;
    for (std::size_t i = 0; i < scene.instances.size(); ++i)
        if (const auto b = instance_bounds(scene, i); b && !inside(*b)) return false;
    return true;
}

void reset_camera(AppState& s) {
    Camera c;  // framing keeps the file camera's direction and field of view
    if (s.scene().camera) {
        c.fov_y_degrees = s.scene().camera->fov_y_degrees;
        c.look_at(s.scene().camera->eye, s.scene().camera->target);
        if (shows_every_shape(c, s.scene(), s.viewport.width, s.viewport.height)) {
            s.camera = c;
            return;
        }
    }
    s.camera = c;
    frame_scene(s);
}

void frame_scene(AppState& s) { s.camera.frame(framing_points(s.scene()), s.view_aspect()); }

void frame_selection(AppState& s) {
    if (s.sel.selected && *s.sel.selected < s.scene().shapes.size())
        s.camera.frame(bounds(s.scene().shapes[*s.sel.selected].shape), s.view_aspect());
    else if (const auto b = s.sel.selected_instance ? instance_bounds(s.scene(), *s.sel.selected_instance) : std::nullopt)
        s.camera.frame(*b, s.view_aspect());
    else
        frame_scene(s);
}

void replace_scene(AppState& s, Scene scene, const std::string& path, bool record_history) {
    if (record_history) s.editor.replace(std::move(scene));
    else s.editor.reset(std::move(scene));
    s.scene_path = path;
    s.made_from.clear();
    s.sel = Selection{};
    reset_camera(s);
}

std::string scene_title(const AppState& s) {
    if (!s.scene_path.empty()) return s.scene_path;
    return s.made_from.empty() ? "(unsaved scene)" : "(unsaved scene from " + s.made_from + ")";
}

std::variant<Scene, std::string> scene_of_model_file(const std::string& path) {
    auto loaded = load_model(path);
    if (auto* err = std::get_if<ModelLoadError>(&loaded)) return err->what();
    Scene scene;
    SceneMesh mesh;
    mesh.name = fs::path(path).stem().string();
    if (mesh.name.empty()) mesh.name = "model";
    // The absolute path: the scene may be saved anywhere, and a scene file names its models
    // relative to its own folder.
    std::error_code ec;
    const fs::path absolute = fs::absolute(path, ec);
    mesh.file = ec ? path : absolute.lexically_normal().string();
    mesh.model = std::move(std::get<Model>(loaded));
    SceneInstance instance;
    instance.name = mesh.name;
    instance.mesh = 0;
    scene.meshes.push_back(std::move(mesh));
    scene.instances.push_back(std::move(instance));
    return scene;
}

std::variant<Scene, std::string> load_scene(const std::string& path) {
    std::error_code ec;
    if (fs::is_directory(path, ec)) return path + ": is a directory, not a scene file";
    try {
        if (model_format_of(path)) return scene_of_model_file(path);
        auto loaded = load_scene_file(path);
        if (auto* err = std::get_if<SceneLoadError>(&loaded)) return err->what();
        return std::move(std::get<Scene>(loaded));
    } catch (const std::exception& e) {
        return path + ": " + e.what();
    }
}

bool open_scene(AppState& s, const std::string& path) {
    auto loaded = load_scene(path);
    if (auto* err = std::get_if<std::string>(&loaded)) {
        s.error_title = "Could not open the scene";
        s.error_message = *err + "\n\nThe current scene is unchanged.";
        return false;
    }
    // A model becomes a new scene: saving it must not write scene JSON over the model file.
    const bool model = model_format_of(path).has_value();
    replace_scene(s, std::move(std::get<Scene>(loaded)), model ? std::string() : path, true);
    s.editor.mark_saved();  // as the file (or the model) has it
    if (model) s.made_from = path;
    add_recent_file(s.recent_files, path);
    s.status = "opened " + path;
    return true;
}

bool save_scene(AppState& s, const std::string& path) {
    std::optional<std::string> err;
    try {
        if (model_format_of(path))
            err = path + ": scenes are saved as JSON (.json); this name is a model file's";
        else
            err = save_scene_file(path, s.scene());
    } catch (const std::exception& e) {
        err = path + ": " + e.what();
    }
    if (err) {
        s.error_title = "Could not save the scene";
        s.error_message = *err;
        return false;
    }
    s.scene_path = path;
    s.editor.mark_saved();
    add_recent_file(s.recent_files, path);
    s.status = "saved " + path;
    return true;
}

bool has_unsaved_changes(const AppState& s) { return s.editor.modified(); }

bool perform_scene_action(AppState& s, const SceneAction& action) {
    switch (action.kind) {
        case SceneAction::Kind::Quit: s.quit_requested = true; return true;
        case SceneAction::Kind::Open: return open_scene(s, action.path);
        case SceneAction::Kind::NewScene:
            replace_scene(s, Scene{}, "", true);
            s.editor.mark_saved();
            return true;
        case SceneAction::Kind::BuiltInShowcase: {
            std::string path;
            Scene scene = default_scene(path);
            replace_scene(s, std::move(scene), path, true);
            s.editor.mark_saved();
            return true;
        }
    }
    return false;
}

bool request_scene_action(AppState& s, SceneAction action) {
    if (!has_unsaved_changes(s)) {
        s.pending_action.reset();
        s.pending_waits_for_save_as = false;
        return perform_scene_action(s, action);
    }
    s.pending_action = std::move(action);
    s.pending_waits_for_save_as = false;
    return false;
}

PendingOutcome answer_unsaved_changes(AppState& s, UnsavedChoice choice) {
    if (!s.pending_action) return PendingOutcome::Done;
    const SceneAction action = *s.pending_action;
    if (choice == UnsavedChoice::Cancel) {
        s.pending_action.reset();
        s.status = "kept the scene";
        return PendingOutcome::Done;
    }
    if (choice == UnsavedChoice::Save) {
        if (s.scene_path.empty()) {
            s.pending_waits_for_save_as = true;
            return PendingOutcome::NeedsSaveAs;
        }
        if (!save_scene(s, s.scene_path)) {
            s.pending_action.reset();
            return PendingOutcome::Failed;
        }
    }
    s.pending_action.reset();
    perform_scene_action(s, action);
    return PendingOutcome::Done;
}

void finish_save_as(AppState& s, bool saved) {
    if (!s.pending_action || !s.pending_waits_for_save_as) return;
    const SceneAction action = *s.pending_action;
    s.pending_action.reset();
    s.pending_waits_for_save_as = false;
    if (saved) perform_scene_action(s, action);
}

std::string scene_action_text(const SceneAction& action) {
    switch (action.kind) {
        case SceneAction::Kind::Quit: return "quitting";
        case SceneAction::Kind::Open: return "opening " + fs::path(action.path).filename().string();
        case SceneAction::Kind::NewScene: return "starting a new scene";
        case SceneAction::Kind::BuiltInShowcase: return "opening the built-in showcase";
    }
    return "going on";
}

bool undo(AppState& s) {
    const bool ok = s.editor.undo();
    s.sel.clamp(s.scene().shapes.size(), s.scene().instances.size());
    s.status = ok ? "undo" : "nothing to undo";
    return ok;
}

bool redo(AppState& s) {
    const bool ok = s.editor.redo();
    s.sel.clamp(s.scene().shapes.size(), s.scene().instances.size());
    s.status = ok ? "redo" : "nothing to redo";
    return ok;
}

void set_frozen(AppState& s, bool frozen) {
    s.ray.frozen = frozen && s.ray.valid;
    s.status = s.ray.frozen ? "ray frozen: orbit around it; edit it in the Ray panel" : "ray follows the mouse";
}

std::vector<std::string> asset_dirs() {
    std::vector<std::string> dirs = data_dirs("assets");
    dirs.push_back(resolved_path("assets"));
    return dirs;
}

Scene default_scene(std::string& path_out) {
    path_out.clear();
    for (const std::string& dir : asset_dirs()) {
        const fs::path p = fs::path(dir) / "showcase.json";
        std::error_code ec;
        if (!fs::exists(p, ec)) continue;
        auto loaded = load_scene(p.string());
        if (auto* scene = std::get_if<Scene>(&loaded)) {
            path_out = p.string();
            return std::move(*scene);
        }
    }
    return showcase_scene();
}

void scan_case_files(AppState& s) {
    s.case_files.clear();
    s.case_files_scanned = true;
    for (const std::string& dir : asset_dirs()) {
        std::error_code ec;
        if (!fs::is_directory(dir, ec)) continue;
        std::vector<fs::path> files;
        for (const auto& e : fs::recursive_directory_iterator(dir, ec))
            if (e.path().extension() == ".json") files.push_back(e.path());
        std::sort(files.begin(), files.end());
        for (const fs::path& p : files) {
            CaseFile c;
            c.path = p.string();
            c.name = fs::relative(p, dir, ec).string();
            auto loaded = load_scene(c.path);
            if (auto* err = std::get_if<std::string>(&loaded)) {
                c.error = *err;
            } else {
                const Scene& scene = std::get<Scene>(loaded);
                c.expectations = scene.expectations.size();
                c.failed_float = check_case(scene, Precision::Float).failed;
                c.failed_double = check_case(scene, Precision::Double).failed;
            }
            s.case_files.push_back(std::move(c));
        }
        if (!files.empty()) break;  // the first directory that has case files
    }
}

}  // namespace raypick::app
