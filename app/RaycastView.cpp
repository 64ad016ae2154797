#include "app/RaycastView.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <string>

#include <glm/gtc/constants.hpp>
#include <glm/trigonometric.hpp>

namespace raypick::app {

namespace {

bool same_camera(const Camera& a, const Camera& b) {
    return a.target == b.target && a.distance == b.distance && a.yaw == b.yaw && a.pitch == b.pitch &&
           a.fov_y_degrees == b.fov_y_degrees;
}

/// Difference mode: the normal picture dimmed, with the comparison's colours blended over it.
std::vector<std::uint8_t> compose_difference(const raycast::Image& image, const raycast::Comparison& c) {
    std::vector<std::uint8_t> out = raycast::shade(image, raycast::Shading::Normal);
    if (c.rgba.size() != out.size()) return out;
    for (std::size_t i = 0; i < out.size(); i += 4) {
        const float a = c.rgba[i + 3] / 255.0f;
        for (std::size_t k = 0; k < 3; ++k)
            out[i + k] = static_cast<std::uint8_t>(std::lround(out[i + k] * 0.4f * (1.0f - a) + c.rgba[i + k] * a));
    }
    return out;
}

}  // namespace

bool parse_raycast_shading(const std::string& name, RaycastShading& out) {
    if (name == "normal") out = RaycastShading::Normal;
    else if (name == "depth") out = RaycastShading::Depth;
    else if (name == "normaldepth") out = RaycastShading::NormalAndDepth;
    else if (name == "difference") out = RaycastShading::Difference;
    else return false;
    return true;
}

const char* raycast_shading_name(RaycastShading shading) {
    switch (shading) {
        case RaycastShading::Normal: return "normal";
        case RaycastShading::Depth: return "depth";
        case RaycastShading::NormalAndDepth: return "normaldepth";
        case RaycastShading::Difference: return "difference";
    }
    return "normal";
}

PictureSize raycast_picture_size(double view_width, double view_height, bool half_resolution) {
    if (!(view_width >= 1.0) || !(view_height >= 1.0) || !std::isfinite(view_width) || !std::isfinite(view_height))
        return {};
    const double k = half_resolution ? 0.5 : 1.0;
    return {std::max(1, static_cast<int>(std::lround(view_width * k))),
            std::max(1, static_cast<int>(std::lround(view_height * k)))};
}

ViewRays::ViewRays(const Camera& camera, PictureSize picture, double view_width, double view_height) {
    view_w_ = view_width > 0.0 ? view_width : 1.0;
    view_h_ = view_height > 0.0 ? view_height : 1.0;
    step_x_ = picture.width > 0 ? view_w_ / picture.width : 1.0;
    step_y_ = picture.height > 0 ? view_h_ / picture.height : 1.0;
    // The same frame and formula as Camera::ray_from_pixel, evaluated once.
    const double tan_half = std::tan(glm::radians(camera.fov_y_degrees) * 0.5);
    eye_ = camera.eye();
    forward_ = camera.forward();
    right_ = tan_half * (view_w_ / view_h_) * camera.right();
    up_ = tan_half * camera.up();
}

Ray<float> ViewRays::operator()(int x, int y) const {
    const double vx = (x + 0.5) * step_x_, vy = (y + 0.5) * step_y_;  // in the view's pixels
    const double ndc_x = 2.0 * vx / view_w_ - 1.0;
    const double ndc_y = 1.0 - 2.0 * vy / view_h_;
    Ray<double> r;
    r.origin = eye_;
    r.direction = glm::normalize(forward_ + ndc_x * right_ + ndc_y * up_);
    return convert<float>(r);
}

void compare_normals(const raycast::Image& image, const std::vector<std::uint8_t>& other_rgba, int margin,
                     PictureComparison& c) {
    const int w = image.width, h = image.height;
    const std::size_t n = std::size_t(w) * std::size_t(h);
    if (other_rgba.size() != n * 4 || image.normal.size() != n || image.shape.size() != n || c.rgba.size() != n * 4) return;
    margin = std::max(0, margin);
    const double cos_tol = std::cos(glm::radians(kNormalToleranceDegrees));
    auto other_normal = [&](std::size_t i) -> std::optional<glm::dvec3> {
        const std::uint8_t* px = &other_rgba[i * 4];
        if (px[3] == 0) return std::nullopt;
        const glm::dvec3 v(px[0] / 127.5 - 1.0, px[1] / 127.5 - 1.0, px[2] / 127.5 - 1.0);
        const double len = glm::length(v);
        if (!(len > 0.5)) return std::nullopt;
        return v / len;
    };
    auto cpu_normal = [&](std::size_t i) -> std::optional<glm::dvec3> {
        const glm::dvec3 v(image.normal[i]);
        const double len = glm::length(v);
        if (image.shape[i] == raycast::kBackground || !(len > 0.5)) return std::nullopt;
        return v / len;
    };
    auto close = [&](const glm::dvec3& a, const glm::dvec3& b) { return glm::dot(a, b) >= cos_tol; };
    // On a crease when some pixel within `margin` has a normal beyond the tolerance (or none).
    auto on_crease = [&](const auto& normal_of, const glm::dvec3& here, int x, int y) {
        for (int dy = -margin; dy <= margin; ++dy)
            for (int dx = -margin; dx <= margin; ++dx) {
                const int xx = x + dx, yy = y + dy;
                if (xx < 0 || yy < 0 || xx >= w || yy >= h) continue;
                const auto there = normal_of(std::size_t(yy) * std::size_t(w) + std::size_t(xx));
                if (!there || !close(*there, here)) return true;
            }
        return false;
    };
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            const std::size_t i = std::size_t(y) * std::size_t(w) + std::size_t(x);
            if (c.rgba[i * 4 + 3] != 0) continue;  // skipped near a silhouette, or already differing
            const auto cpu = cpu_normal(i);
            const auto gl = other_normal(i);
            if (!cpu || !gl) continue;
            if (on_crease(cpu_normal, *cpu, x, y) || on_crease(other_normal, *gl, x, y)) continue;
            ++c.normals_compared;
            if (close(*cpu, *gl)) continue;
            ++c.normals_differing;
            ++c.differing;
            std::uint8_t* px = &c.rgba[i * 4];
            px[0] = 255; px[1] = 0; px[2] = 255; px[3] = 255;
        }
}

std::vector<std::uint32_t> shift_ids(const std::vector<std::uint32_t>& ids, int width, int height, int shift) {
    std::vector<std::uint32_t> out(ids.size(), raycast::kBackground);
    if (width <= 0 || height <= 0 || ids.size() != std::size_t(width) * std::size_t(height)) return out;
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x) {
            const int from = x - shift;
            if (from < 0 || from >= width) continue;
            out[std::size_t(y) * std::size_t(width) + std::size_t(x)] = ids[std::size_t(y) * std::size_t(width) + std::size_t(from)];
        }
    return out;
}

void RaycastView::sync(const SceneEditor& editor) {
    if (synced_version_ == editor.version()) return;
    const ChangeSet changes = editor.changes_since(synced_version_);
    const Scene& scene = editor.scene();
    synced_version_ = editor.version();
    if (instances_.sync(editor)) scene_changed_ = true;
    if (changes.structure || changes.instance_structure)
        instance_ids_ = instances_.object_ids(scene.shapes.size());
    if (changes.structure || bvh_.size() != scene.shapes.size()) {
        std::vector<Shape<float>> shapes;
        shapes.reserve(scene.shapes.size());
        for (const SceneShape& s : scene.shapes) shapes.push_back(convert<float>(s.shape));
        bvh_.build(shapes);
        scene_changed_ = true;
        ++rebuilds_;
        return;
    }
    for (const std::size_t i : changes.modified) {
        bvh_.update(static_cast<std::uint32_t>(i), convert<float>(scene.shapes[i].shape));
        scene_changed_ = true;
    }
}

bool RaycastView::update(const SceneEditor& editor, const Camera& camera, double view_width, double view_height,
                         const RaycastOptions& options, const IdPicture& other_ids) {
    sync(editor);
    const PictureSize picture = raycast_picture_size(view_width, view_height, options.half_resolution);
    if (picture.empty()) return false;  // minimised or a zero-size view: keep the last picture
    const bool recast = !have_picture_ || scene_changed_ || !same_camera(camera, camera_) ||
                        view_width != view_w_ || view_height != view_h_ || picture != picture_;
    const bool difference = options.shading == RaycastShading::Difference;
    const bool reshade = recast || options.shading != shading_ || (difference && options.margin != margin_);
    if (!reshade) return false;

    if (recast) {
        const ViewRays rays(camera, picture, view_width, view_height);
        const auto start = std::chrono::steady_clock::now();
        raycast::render(bvh_, raycast::MeshObjects{&instances_.bvh(), &instance_ids_}, picture.width, picture.height,
                        rays, image_);
        cast_ms_ = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
        ++casts_;
        camera_ = camera;
        view_w_ = view_width;
        view_h_ = view_height;
        picture_ = picture;
        scene_changed_ = false;
        have_picture_ = true;
    }
    shading_ = options.shading;
    margin_ = options.margin;
    comparison_ = PictureComparison{};
    switch (options.shading) {
        case RaycastShading::Normal: rgba_ = raycast::shade(image_, raycast::Shading::Normal); break;
        case RaycastShading::Depth: rgba_ = raycast::shade(image_, raycast::Shading::Depth); break;
        case RaycastShading::NormalAndDepth: rgba_ = raycast::shade(image_, raycast::Shading::NormalAndDepth); break;
        case RaycastShading::Difference: {
            const OtherPicture other = other_ids ? other_ids(picture) : OtherPicture{};
            static_cast<raycast::Comparison&>(comparison_) = raycast::compare_ids(image_, other.ids, options.margin);
            compare_normals(image_, other.normal_rgba, options.margin, comparison_);
            rgba_ = compose_difference(image_, comparison_);
            break;
        }
    }
    return true;
}

double RaycastView::rays_per_second() const {
    const double rays = double(image_.width) * double(image_.height);
    return cast_ms_ > 0.0 ? rays / (cast_ms_ * 1e-3) : 0.0;
}

}  // namespace raypick::app
