#include "app/Camera.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include <glm/gtc/matrix_transform.hpp>

namespace raypick::app {
namespace {
constexpr double kMaxPitch = 1.55;  // just under 90 degrees: the view never flips
}

void Camera::look_at(const Vec3d& new_eye, const Vec3d& new_target) {
    target = new_target;
    const Vec3d d = new_eye - new_target;
    const double len = glm::length(d);
    if (!(len > 0.0) || !std::isfinite(len)) return;
    distance = len;
    pitch = std::clamp(std::asin(std::clamp(d.y / len, -1.0, 1.0)), -kMaxPitch, kMaxPitch);
    yaw = std::atan2(d.x, d.z);
}

namespace {
// Unit vector from the target towards the eye.
Vec3d eye_direction(double yaw, double pitch) {
    return {std::cos(pitch) * std::sin(yaw), std::sin(pitch), std::cos(pitch) * std::cos(yaw)};
}
}  // namespace

Vec3d Camera::eye() const { return target + distance * eye_direction(yaw, pitch); }

// From the angles, not from target - eye(): far from the origin (|target| / distance > 2^53) the eye
// rounds onto the target, and the difference would be zero (a NaN direction, a NaN camera after a pan).
Vec3d Camera::forward() const { return -glm::normalize(eye_direction(yaw, pitch)); }
Vec3d Camera::right() const { return glm::normalize(glm::cross(forward(), Vec3d(0, 1, 0))); }
Vec3d Camera::up() const { return glm::cross(right(), forward()); }
double Camera::near_plane() const { return std::max(1e-4, distance * 0.01); }
double Camera::far_plane() const { return distance * 100.0 + 1000.0; }

glm::dmat4 Camera::view() const {
    // glm::lookAt(eye(), target, up()) with the basis from the angles (see forward()).
    const Vec3d e = eye(), f = forward(), r = right(), u = up();
    glm::dmat4 m(1.0);
    for (int k = 0; k < 3; ++k) {
        m[k][0] = r[k];
        m[k][1] = u[k];
        m[k][2] = -f[k];
    }
    m[3][0] = -glm::dot(r, e);
    m[3][1] = -glm::dot(u, e);
    m[3][2] = glm::dot(f, e);
    return m;
}

glm::dmat4 Camera::projection(double aspect) const {
    return glm::perspective(glm::radians(fov_y_degrees), aspect > 0.0 ? aspect : 1.0, near_plane(),
                            far_plane());
}

Ray<double> Camera::ray_from_pixel(double x, double y, double width, double height) const {
    const double w = width > 0.0 ? width : 1.0, h = height > 0.0 ? height : 1.0;
    const double ndc_x = 2.0 * x / w - 1.0;
    const double ndc_y = 1.0 - 2.0 * y / h;
    const double tan_half = std::tan(glm::radians(fov_y_degrees) * 0.5);
    const Vec3d dir = forward() + ndc_x * tan_half * (w / h) * right() + ndc_y * tan_half * up();
    Ray<double> r;
    r.origin = eye();
    r.direction = glm::normalize(dir);
    return r;
}

std::optional<ScreenPoint> Camera::project(const Vec3d& p, double width, double height) const {
    const glm::dvec4 clip = projection(width / height) * view() * glm::dvec4(p, 1.0);
    if (!(clip.w > 0.0)) return std::nullopt;
    const Vec3d ndc = Vec3d(clip) / clip.w;
    ScreenPoint s;
    s.x = (ndc.x + 1.0) * 0.5 * width;
    s.y = (1.0 - ndc.y) * 0.5 * height;
    s.depth = ndc.z * 0.5 + 0.5;
    return s;
}

std::optional<ScreenBox> Camera::project_box(const Aabb<double>& box, double width, double height) const {
    ScreenBox r{HUGE_VAL, HUGE_VAL, -HUGE_VAL, -HUGE_VAL};
    for (int k = 0; k < 8; ++k) {
        const Vec3d corner((k & 1) ? box.max.x : box.min.x, (k & 2) ? box.max.y : box.min.y, (k & 4) ? box.max.z : box.min.z);
        const auto p = project(corner, width, height);
        if (!p || !(p->depth >= 0.0 && p->depth <= 1.0)) return std::nullopt;
        r.x0 = std::min(r.x0, p->x);
        r.y0 = std::min(r.y0, p->y);
        r.x1 = std::max(r.x1, p->x);
        r.y1 = std::max(r.y1, p->y);
    }
    return r;
}

void Camera::orbit(double dx, double dy) {
    yaw -= dx * 0.008;
    pitch = std::clamp(pitch + dy * 0.008, -kMaxPitch, kMaxPitch);
}

double Camera::pixel_size(const Vec3d& p, double height) const {
    double depth = glm::dot(p - eye(), forward());
    if (!(depth > 0.0)) depth = distance;
    return 2.0 * depth * std::tan(glm::radians(fov_y_degrees) * 0.5) / (height > 0.0 ? height : 1.0);
}

void Camera::pan(double dx, double dy, double height) {
    // One pixel moves the target by the size of a pixel at the target's distance.
    const double per_pixel = pixel_size(target, height);
    target += (-dx * per_pixel) * right() + (dy * per_pixel) * up();
}

void Camera::zoom(double steps) { distance = std::clamp(distance * std::pow(0.88, steps), 1e-3, 1e6); }

void Camera::frame(const Aabb<double>& box, double aspect) {
    std::vector<Vec3d> corners;
    for (int k = 0; k < 8; ++k)
        corners.emplace_back((k & 1) ? box.max.x : box.min.x, (k & 2) ? box.max.y : box.min.y, (k & 4) ? box.max.z : box.min.z);
    frame(corners, aspect);
}

void Camera::frame(const std::vector<Vec3d>& points, double aspect) {
    if (points.empty()) return;
    Vec3d lo = points.front(), hi = points.front();
    for (const Vec3d& p : points) {
        if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.z)) return;
        lo = glm::min(lo, p);
        hi = glm::max(hi, p);
    }
    const Vec3d c = (lo + hi) * 0.5;
    if (!std::isfinite(c.x) || !std::isfinite(c.y) || !std::isfinite(c.z)) return;
    // The nearest eye, on the current direction through the points' centre, that keeps every point
    // inside 90 % of the picture's half-width and half-height and in front of the near plane.
    const double tan_y = std::tan(glm::radians(fov_y_degrees) * 0.5) * 0.9;
    const double tan_x = tan_y * (aspect > 0.0 ? aspect : 1.0);
    const Vec3d f = forward(), r = right(), u = up();
    double d = 0.05 / std::sin(glm::radians(fov_y_degrees) * 0.5);  // a single point: as a ball of radius 0.05
    for (const Vec3d& point : points) {
        const Vec3d p = point - c;
        const double x = std::abs(glm::dot(p, r)), y = std::abs(glm::dot(p, u)), z = glm::dot(p, f);
        // At distance d the point is d + z in front of the eye; the near plane is at d / 100.
        d = std::max({d, x / tan_x - z, y / tan_y - z, -z / 0.98});
    }
    if (!std::isfinite(d)) return;
    target = c;
    distance = d;
}

}  // namespace raypick::app
