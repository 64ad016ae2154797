#include "app/History.h"

#include <utility>

namespace raypick::app {

void History::begin(const Scene& current) {
    if (!pending_) pending_ = current;
}

bool History::end(const Scene& current) {
    if (!pending_) return false;
    Scene before = std::move(*pending_);
    pending_.reset();
    if (same_scene(before, current)) return false;
    record(before);
    return true;
}

void History::record(const Scene& before) {
    undo_.push_back(before);
    while (undo_.size() > max_steps_) undo_.pop_front();
    redo_.clear();
    ++changes_;
}

bool History::undo(Scene& current) {
    if (pending_) end(current);  // an unfinished gesture becomes a step first
    if (undo_.empty()) return false;
    redo_.push_back(std::move(current));
    current = std::move(undo_.back());
    undo_.pop_back();
    ++changes_;
    return true;
}

bool History::redo(Scene& current) {
    if (pending_) end(current);
    if (redo_.empty()) return false;
    undo_.push_back(std::move(current));
    current = std::move(redo_.back());
    redo_.pop_back();
    ++changes_;
    return true;
}

void History::clear() {
    undo_.clear();
    redo_.clear();
    pending_.reset();
}

namespace {
bool eq(const Sphere<double>& a, const Sphere<double>& b) { return a.center == b.center && a.radius == b.radius; }
bool eq(const Aabb<double>& a, const Aabb<double>& b) { return a.min == b.min && a.max == b.max; }
bool eq(const Obb<double>& a, const Obb<double>& b) {
    return a.center == b.center && a.rotation == b.rotation && a.half_extents == b.half_extents;
}
bool eq(const Capsule<double>& a, const Capsule<double>& b) {
    return a.a == b.a && a.b == b.b && a.radius == b.radius;
}
bool eq(const Ray<double>& a, const Ray<double>& b) { return a.origin == b.origin && a.direction == b.direction; }
}  // namespace

bool same_shape(const Shape<double>& a, const Shape<double>& b) {
    if (a.index() != b.index()) return false;
    return std::visit(
        [&](const auto& x) {
            using S = std::decay_t<decltype(x)>;
            return eq(x, std::get<S>(b));
        },
        a);
}

bool same_scene(const Scene& a, const Scene& b) {
    if (a.shapes.size() != b.shapes.size() || a.rays.size() != b.rays.size()) return false;
    for (std::size_t i = 0; i < a.shapes.size(); ++i)
        if (a.shapes[i].name != b.shapes[i].name || !same_shape(a.shapes[i].shape, b.shapes[i].shape))
            return false;
    for (std::size_t i = 0; i < a.rays.size(); ++i)
        if (a.rays[i].name != b.rays[i].name || !eq(a.rays[i].ray, b.rays[i].ray) ||
            a.rays[i].t_min != b.rays[i].t_min || a.rays[i].t_max != b.rays[i].t_max)
            return false;
    if (a.camera.has_value() != b.camera.has_value()) return false;
    if (a.camera && (a.camera->eye != b.camera->eye || a.camera->target != b.camera->target ||
                     a.camera->fov_y_degrees != b.camera->fov_y_degrees))
        return false;
    return true;
}

}  // namespace raypick::app
