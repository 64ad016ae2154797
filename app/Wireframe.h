// raypick demo: line and triangle geometry generated from exactly the parameters the core uses.
// CPU only (float vertices for the GPU); the Renderer uploads the lists.
#pragma once

#include <vector>

#include <glm/glm.hpp>

#include "geometry/Shape.h"

namespace raypick::app {

using Color = glm::vec4;

/// The demo's palette. The seed sample's convention: shapes red, rays green, hits blue.
namespace palette {
inline const Color background{0.11f, 0.12f, 0.14f, 1.0f};
inline const Color shape{0.90f, 0.20f, 0.20f, 1.0f};
inline const Color hovered{1.00f, 0.60f, 0.10f, 1.0f};
inline const Color selected{1.00f, 0.95f, 0.30f, 1.0f};
inline const Color handle{1.00f, 1.00f, 1.00f, 1.0f};
inline const Color ray{0.55f, 1.00f, 0.35f, 1.0f};        ///< the current (mouse or frozen) ray
inline const Color ray_miss{0.35f, 0.55f, 0.38f, 1.0f};   ///< the current ray when it hits nothing
inline const Color scene_ray{0.15f, 0.65f, 0.25f, 1.0f};  ///< a scene file's rays
inline const Color failed{1.00f, 0.55f, 0.00f, 1.0f};     ///< a scene ray with a failed expectation
inline const Color entry{0.10f, 0.35f, 1.00f, 1.0f};
inline const Color exit{0.00f, 0.80f, 1.00f, 1.0f};
inline const Color normal{1.00f, 0.85f, 0.20f, 1.0f};
inline const Color variant{1.00f, 0.20f, 1.00f, 1.0f};
inline const Color grid{0.26f, 0.27f, 0.30f, 1.0f};
inline const Color axis_x{0.75f, 0.30f, 0.30f, 1.0f};
inline const Color axis_y{0.30f, 0.70f, 0.30f, 1.0f};
inline const Color axis_z{0.30f, 0.40f, 0.80f, 1.0f};
}  // namespace palette

struct LineVertex {
    glm::vec3 position;
    Color color;
};

struct SolidVertex {
    glm::vec3 position;
    glm::vec3 normal;
};

/// GL_LINES vertex list (two vertices per segment).
struct LineList {
    std::vector<LineVertex> vertices;
    void clear() { vertices.clear(); }
    void line(const glm::dvec3& a, const glm::dvec3& b, const Color& c);
    /// Circle of `radius` around `center` in the plane spanned by unit vectors u and v.
    void circle(const glm::dvec3& center, const glm::dvec3& u, const glm::dvec3& v, double radius,
                const Color& c, int segments);
    /// Half circle: from +u through +v to -u.
    void arc(const glm::dvec3& center, const glm::dvec3& u, const glm::dvec3& v, double radius,
             const Color& c, int segments);
    /// Arrow from `from` along `dir` (any length), with a small head.
    void arrow(const glm::dvec3& from, const glm::dvec3& dir, const Color& c);
    /// Small 3D cross (three axis-aligned segments) of half-size `size`.
    void cross(const glm::dvec3& at, double size, const Color& c);
};

/// Segments per full circle of the wireframes.
inline constexpr int kCircleSegments = 32;

/// Sphere: three great circles (the planes x, y, z through the centre) — so the silhouette seen
/// along any axis is drawn exactly. Box: its 12 edges. Oriented box: its 12 rotated edges.
/// Capsule: 4 lines along the cylinder, the rings at a and b, and two half circles per end
/// (the hemispheres); a == b is drawn as the sphere it is, radius 0 as the segment.
void append_wireframe(LineList& out, const Shape<double>& shape, const Color& color,
                      int segments = kCircleSegments);

/// Triangles with outward normals, for the solid (shaded by normal) mode.
void append_solid(std::vector<SolidVertex>& out, const Shape<double>& shape, int segments = kCircleSegments);

/// Ground grid on y = 0 (lines every `step` up to +-half_size) and the three axes.
void append_grid(LineList& out, double half_size, double step);

/// Two unit vectors perpendicular to `axis` (and to each other); any `axis`, even zero.
void perpendicular_frame(const glm::dvec3& axis, glm::dvec3& u, glm::dvec3& v);

}  // namespace raypick::app
