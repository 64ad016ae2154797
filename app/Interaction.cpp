#include "app/Interaction.h"

#include <cmath>

#include "app/Picking.h"

namespace raypick::app {

Vec3d closest_on_line(const Ray<double>& ray, const Vec3d& p, const Vec3d& axis) {
    const Vec3d w0 = p - ray.origin;
    const double a = glm::dot(axis, axis), b = glm::dot(axis, ray.direction), c = glm::dot(ray.direction, ray.direction);
    const double d = glm::dot(axis, w0), e = glm::dot(ray.direction, w0);
    const double denom = a * c - b * b;
    if (!(std::abs(denom) > 1e-12 * a * c)) return p;
    const double s = (b * e - c * d) / denom;
    return std::isfinite(s) ? p + s * axis : p;
}

std::optional<Vec3d> hit_plane(const Ray<double>& ray, const Vec3d& p, const Vec3d& n) {
    const double denom = glm::dot(ray.direction, n);
    if (!(std::abs(denom) > 1e-12)) return std::nullopt;
    const double t = glm::dot(p - ray.origin, n) / denom;
    if (!(t >= 0.0) || !std::isfinite(t)) return std::nullopt;
    return ray.at(t);
}

std::vector<Vec3d> snap_targets(const Shape<double>& shape, int dragged_handle) {
    std::vector<Vec3d> out;
    if (const auto* sphere = std::get_if<Sphere<double>>(&shape)) out.push_back(sphere->center);
    for (const Handle& h : handles(shape))
        if (h.id != dragged_handle) out.push_back(h.position);
    return out;
}

Vec3d Interaction::drag_target(const Ray<double>& ray, Axis axis) const {
    switch (axis) {
        case Axis::X: return closest_on_line(ray, grab_, Vec3d(1, 0, 0));
        case Axis::Y: return closest_on_line(ray, grab_, Vec3d(0, 1, 0));
        case Axis::Z: return closest_on_line(ray, grab_, Vec3d(0, 0, 1));
        case Axis::Free: break;
    }
    const auto p = hit_plane(ray, grab_, plane_normal_);
    return p ? *p : last_point_;
}

void Interaction::update(const InputState& in, SceneEditor& editor, Selection& sel, Camera& camera) {
    const Scene& scene = editor.scene();
    sel.clamp(scene.shapes.size(), scene.instances.size());
    const Ray<double> ray = camera.ray_from_pixel(in.mouse_x, in.mouse_y, in.width, in.height);
    const double dx = in.mouse_x - last_x_, dy = in.mouse_y - last_y_;
    last_x_ = in.mouse_x;
    last_y_ = in.mouse_y;
    axis_ = in.key_x ? Axis::X : in.key_y ? Axis::Y : in.key_z ? Axis::Z : Axis::Free;

    if (dragging()) {
        const std::size_t count = mode_ == Mode::DragInstance ? scene.instances.size() : scene.shapes.size();
        if (target_ >= count) {  // the shape or instance vanished (undo during a drag)
            editor.end_gesture();
            mode_ = Mode::Idle;
            return;
        }
        const Vec3d p = drag_target(ray, axis_);
        last_point_ = p;
        // Until the cursor moves, nothing moves: a click must not nudge a shape by rounding.
        const bool moved = std::abs(in.mouse_x - press_x_) + std::abs(in.mouse_y - press_y_) > 0.0;
        const Vec3d delta = moved ? p - grab_ : Vec3d(0.0);
        if (mode_ == Mode::DragInstance) {
            SceneInstance to = start_instance_;
            to.translation += delta;
            editor.edit_instance(target_, to);
        } else if (!moved) {
            editor.edit_shape(target_, start_shape_);
        } else if (mode_ == Mode::DragShape) {
            editor.edit_shape(target_, translated(start_shape_, delta));
        } else {
            for (const Handle& h : handles(start_shape_))
                if (h.id == handle_) {
                    Vec3d to = h.position + delta;
                    // Snap exactly onto another handle of the shape (or a sphere's centre) when the
                    // dragged one is drawn within the pick radius of it: that is how a capsule gets
                    // a == b or a box zero size, which the mouse alone could not hit exactly.
                    const auto at = camera.project(to, in.width, in.height);
                    double best = kHandlePickRadius;
                    std::optional<Vec3d> snap;
                    for (const Vec3d& q : snap_targets(start_shape_, handle_)) {
                        const auto sq = camera.project(q, in.width, in.height);
                        if (!at || !sq) continue;
                        const double d = std::hypot(at->x - sq->x, at->y - sq->y);
                        if (d <= best) {
                            best = d;
                            snap = q;
                        }
                    }
                    if (snap) to = *snap;
                    editor.edit_shape(target_, move_handle(start_shape_, handle_, to));
                }
        }
        if (!in.left_down) {
            editor.end_gesture();
            mode_ = Mode::Idle;
        }
        return;
    }
    if (mode_ == Mode::PressedEmpty) {
        if (!in.left_down) {  // a click on nothing clears the selection
            sel.selected.reset();
            sel.selected_instance.reset();
            mode_ = Mode::Idle;
        } else if (std::abs(in.mouse_x - press_x_) + std::abs(in.mouse_y - press_y_) > 3.0) {
            mode_ = Mode::Orbit;
        }
        return;
    }
    if (mode_ == Mode::Orbit) {
        camera.orbit(dx, dy);
        if (!in.left_down && !in.right_down) mode_ = Mode::Idle;
        return;
    }
    if (mode_ == Mode::Pan) {
        camera.pan(dx, dy, in.height);
        if (!in.middle_down && !in.right_down) mode_ = Mode::Idle;
        return;
    }

    // Idle.
    if (in.ui_wants_mouse) {
        sel.hovered.reset();
        sel.hovered_instance.reset();
        sel.hovered_handle = -1;
        return;
    }
    const auto hit = pick_scene(picker_, instances_, editor, ray);
    sel.hovered = hit ? hit->shape : std::nullopt;
    sel.hovered_instance = hit ? hit->instance : std::nullopt;
    sel.hovered_handle = -1;
    if (sel.selected) {
        double best = kHandlePickRadius;
        for (const Handle& h : handles(scene.shapes[*sel.selected].shape)) {
            const auto s = camera.project(h.position, in.width, in.height);
            if (!s) continue;
            const double d = std::hypot(s->x - in.mouse_x, s->y - in.mouse_y);
            if (d <= best) {
                best = d;
                sel.hovered_handle = h.id;
            }
        }
    }
    if (in.wheel != 0.0) camera.zoom(in.wheel);

    if (in.left_pressed) {
        press_x_ = in.mouse_x;
        press_y_ = in.mouse_y;
        plane_normal_ = camera.forward();
        if (sel.selected && sel.hovered_handle >= 0) {
            target_ = *sel.selected;
            start_shape_ = scene.shapes[target_].shape;
            handle_ = sel.hovered_handle;
            // Grab where the mouse ray meets the camera-facing plane through the handle, so the
            // handle keeps its offset from the cursor (no jump on the first motion).
            for (const Handle& h : handles(start_shape_))
                if (h.id == handle_) {
                    const auto p = hit_plane(ray, h.position, plane_normal_);
                    grab_ = p ? *p : h.position;
                }
            last_point_ = grab_;
            editor.begin_gesture();
            mode_ = Mode::DragHandle;
        } else if (sel.hovered_instance) {
            sel.select_instance(*sel.hovered_instance);
            target_ = *sel.hovered_instance;
            start_instance_ = scene.instances[target_];
            grab_ = ray.at(hit->t);
            last_point_ = grab_;
            editor.begin_gesture();
            mode_ = Mode::DragInstance;
        } else if (sel.hovered) {
            sel.selected_instance.reset();
            sel.selected = sel.hovered;
            target_ = *sel.hovered;
            start_shape_ = scene.shapes[target_].shape;
            const auto s = pick(ray, start_shape_);
            grab_ = s ? s->point : shape_center(start_shape_);
            last_point_ = grab_;
            editor.begin_gesture();
            mode_ = Mode::DragShape;
        } else {
            mode_ = Mode::PressedEmpty;
        }
    } else if (in.right_pressed) {
        mode_ = in.shift ? Mode::Pan : Mode::Orbit;
    } else if (in.middle_pressed) {
        mode_ = Mode::Pan;
    }
}

std::string Interaction::status(const Scene& scene) const {
    const char* axis = axis_ == Axis::X ? " along X" : axis_ == Axis::Y ? " along Y" : axis_ == Axis::Z ? " along Z" : "";
    switch (mode_) {
        case Mode::DragShape:
            if (target_ < scene.shapes.size()) return "moving " + scene.shapes[target_].name + axis;
            break;
        case Mode::DragHandle:
            if (target_ < scene.shapes.size()) return "dragging a handle of " + scene.shapes[target_].name + axis;
            break;
        case Mode::DragInstance:
            if (target_ < scene.instances.size()) return "moving " + scene.instances[target_].name + axis;
            break;
        case Mode::Orbit: return "orbit";
        case Mode::Pan: return "pan";
        default: break;
    }
    return "";
}

}  // namespace raypick::app
