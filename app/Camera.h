// raypick demo: the orbit camera (perspective) and the mouse ray. No GL; double precision.
#pragma once

#include <optional>
#include <vector>

#include <glm/glm.hpp>

#include <raypick/geometry/Ray.h>
#include <raypick/geometry/Aabb.h>

namespace raypick::app {

using Vec3d = glm::dvec3;

/// A window position (x right, y down, in window coordinates: the cursor's units) and the depth
/// of the projected point in [0, 1] (OpenGL's default depth range).
struct ScreenPoint {
    double x = 0.0;
    double y = 0.0;
    double depth = 0.0;
};

/// A rectangle on screen (window coordinates: x right, y down).
struct ScreenBox {
    double x0 = 0.0, y0 = 0.0, x1 = 0.0, y1 = 0.0;
};

/// Orbit camera: looks at `target` from `distance` away, at `yaw` around +Y and `pitch` above the
/// XZ plane (radians). Y is up. Perspective with a vertical field of view.
class Camera {
public:
    Vec3d target{0.0};
    double distance = 14.0;
    double yaw = 0.6;     ///< 0 looks along -Z (eye on +Z)
    double pitch = 0.45;  ///< positive: eye above the target
    double fov_y_degrees = 45.0;

    /// Places the eye at `eye` looking at `target` (eye == target keeps the current direction).
    void look_at(const Vec3d& eye, const Vec3d& target);

    Vec3d eye() const;
    Vec3d forward() const;  ///< unit, from the eye towards the target
    Vec3d right() const;    ///< unit
    Vec3d up() const;       ///< unit, completes the right-handed frame
    double near_plane() const;
    double far_plane() const;

    glm::dmat4 view() const;
    glm::dmat4 projection(double aspect) const;

    /// The ray from the eye through window position (x, y) of a width x height window; the
    /// direction is a unit vector. Pixel (i, j)'s centre is (i + 0.5, j + 0.5).
    Ray<double> ray_from_pixel(double x, double y, double width, double height) const;
    /// Window position of a world point, or empty when it is behind the eye.
    std::optional<ScreenPoint> project(const Vec3d& p, double width, double height) const;
    /// The screen rectangle around the projections of the box's eight corners, or empty when a
    /// corner is not between the near and far planes (its projection would not bound the box's).
    std::optional<ScreenBox> project_box(const Aabb<double>& box, double width, double height) const;

    /// The world length one pixel of a view `height` pixels high spans at p's depth (at the
    /// target's depth for a point at or behind the eye).
    double pixel_size(const Vec3d& p, double height) const;

    /// Mouse gestures, in pixels (window coordinates) and wheel steps.
    void orbit(double dx, double dy);
    void pan(double dx, double dy, double height);
    void zoom(double steps);
    /// Looks at the box's centre from the nearest distance at which its eight corners fill at most
    /// 90 % of the view's width or height (a tiny box: as a ball of radius 0.05 would); keeps the
    /// direction.
    void frame(const Aabb<double>& box, double aspect);
    /// The same for a set of points (around the centre of their bounds); no change for none or
    /// for a point that is not finite.
    void frame(const std::vector<Vec3d>& points, double aspect);
};

}  // namespace raypick::app
