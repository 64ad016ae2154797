#include "app/ShapeMeshes.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <type_traits>

#include <glm/gtc/constants.hpp>

namespace raypick::app {

using glm::dvec3;

void LineList::line(const dvec3& a, const dvec3& b, const Color& c) {
    vertices.push_back({glm::vec3(a), c});
    vertices.push_back({glm::vec3(b), c});
}

void LineList::circle(const dvec3& center, const dvec3& u, const dvec3& v, double r, const Color& c, int n) {
    dvec3 prev = center + r * u;
    for (int i = 1; i <= n; ++i) {
        const double a = glm::two_pi<double>() * i / n;
        const dvec3 p = center + r * (std::cos(a) * u + std::sin(a) * v);
        line(prev, p, c);
        prev = p;
    }
}

void LineList::arc(const dvec3& center, const dvec3& u, const dvec3& v, double r, const Color& c, int n) {
    dvec3 prev = center + r * u;
    for (int i = 1; i <= n; ++i) {
        const double a = glm::pi<double>() * i / n;
        const dvec3 p = center + r * (std::cos(a) * u + std::sin(a) * v);
        line(prev, p, c);
        prev = p;
    }
}

void LineList::arrow(const dvec3& from, const dvec3& dir, const Color& c) {
    const dvec3 to = from + dir;
    line(from, to, c);
    const double len = glm::length(dir);
    if (!(len > 0.0)) return;
    dvec3 u, v;
    perpendicular_frame(dir / len, u, v);
    const dvec3 back = to - dir * 0.2;
    line(to, back + u * (len * 0.08), c);
    line(to, back - u * (len * 0.08), c);
    line(to, back + v * (len * 0.08), c);
    line(to, back - v * (len * 0.08), c);
}

void LineList::cross(const dvec3& at, double s, const Color& c) {
    line(at - dvec3(s, 0, 0), at + dvec3(s, 0, 0), c);
    line(at - dvec3(0, s, 0), at + dvec3(0, s, 0), c);
    line(at - dvec3(0, 0, s), at + dvec3(0, 0, s), c);
}

void perpendicular_frame(const dvec3& axis, dvec3& u, dvec3& v) {
    const double len = glm::length(axis);
    const dvec3 a = len > 0.0 && std::isfinite(len) ? axis / len : dvec3(0, 1, 0);
    const dvec3 helper = std::abs(a.x) < 0.9 ? dvec3(1, 0, 0) : dvec3(0, 1, 0);
    u = glm::normalize(glm::cross(a, helper));
    v = glm::cross(a, u);
}

namespace {

void box_edges(LineList& out, const dvec3& c, const dvec3 axes[3], const dvec3& h, const Color& col) {
    auto corner = [&](int k) {
        return c + axes[0] * ((k & 1) ? h.x : -h.x) + axes[1] * ((k & 2) ? h.y : -h.y) +
               axes[2] * ((k & 4) ? h.z : -h.z);
    };
    for (int k = 0; k < 8; ++k)
        for (int bit = 1; bit < 8; bit <<= 1)
            if (!(k & bit)) out.line(corner(k), corner(k | bit), col);
}

void sphere_lines(LineList& out, const dvec3& c, double r, const Color& col, int n) {
    const dvec3 x(1, 0, 0), y(0, 1, 0), z(0, 0, 1);
    out.circle(c, x, y, r, col, n);
    out.circle(c, y, z, r, col, n);
    out.circle(c, z, x, r, col, n);
}

// ---- solids ------------------------------------------------------------------------------------

void tri(std::vector<SolidVertex>& out, const dvec3& a, const dvec3& b, const dvec3& c, const dvec3& na,
         const dvec3& nb, const dvec3& nc) {
    out.push_back({glm::vec3(a), glm::vec3(na)});
    out.push_back({glm::vec3(b), glm::vec3(nb)});
    out.push_back({glm::vec3(c), glm::vec3(nc)});
}

// Part of a sphere around c: polar angle from theta0 to theta1 measured from `pole`, u/v span the
// equator. Normals are the exact outward directions.
void sphere_zone(std::vector<SolidVertex>& out, const dvec3& c, double r, const dvec3& pole, const dvec3& u,
                 const dvec3& v, double theta0, double theta1, int n) {
    const int rings = n / 4 > 1 ? n / 4 : 2;
    auto dir = [&](double th, double ph) {
        return std::cos(th) * pole + std::sin(th) * (std::cos(ph) * u + std::sin(ph) * v);
    };
    for (int i = 0; i < rings; ++i) {
        const double t0 = theta0 + (theta1 - theta0) * i / rings;
        const double t1 = theta0 + (theta1 - theta0) * (i + 1) / rings;
        for (int j = 0; j < n; ++j) {
            const double p0 = glm::two_pi<double>() * j / n, p1 = glm::two_pi<double>() * (j + 1) / n;
            const dvec3 a = dir(t0, p0), b = dir(t1, p0), d = dir(t0, p1), e = dir(t1, p1);
            tri(out, c + r * a, c + r * b, c + r * e, a, b, e);
            tri(out, c + r * a, c + r * e, c + r * d, a, e, d);
        }
    }
}

void box_solid(std::vector<SolidVertex>& out, const dvec3& c, const dvec3 axes[3], const dvec3& h) {
    for (int k = 0; k < 3; ++k)
        for (int s = -1; s <= 1; s += 2) {
            const dvec3 n = axes[k] * double(s);
            const dvec3 fc = c + n * h[k];
            const dvec3 a = axes[(k + 1) % 3] * h[(k + 1) % 3], b = axes[(k + 2) % 3] * h[(k + 2) % 3];
            const dvec3 p0 = fc - a - b, p1 = fc + a - b, p2 = fc + a + b, p3 = fc - a + b;
            tri(out, p0, p1, p2, n, n, n);
            tri(out, p0, p2, p3, n, n, n);
        }
}

}  // namespace

namespace {

// ---- each type's wireframe and solid; a type without its own is drawn as its bounding box --------

template <typename S> void wireframe_of(LineList& out, const S& s, const Color& col, int) {
    const Aabb<double> b = bounds(s);
    const dvec3 axes[3] = {dvec3(1, 0, 0), dvec3(0, 1, 0), dvec3(0, 0, 1)};
    box_edges(out, (b.min + b.max) * 0.5, axes, (b.max - b.min) * 0.5, col);
}
void wireframe_of(LineList& out, const Sphere<double>& s, const Color& col, int n) {
    if (s.radius == 0.0) out.cross(s.center, 0.05, col);
    else sphere_lines(out, s.center, s.radius, col, n);
}
void wireframe_of(LineList& out, const Aabb<double>& s, const Color& col, int) {
    const dvec3 axes[3] = {dvec3(1, 0, 0), dvec3(0, 1, 0), dvec3(0, 0, 1)};
    box_edges(out, (s.min + s.max) * 0.5, axes, (s.max - s.min) * 0.5, col);
}
void wireframe_of(LineList& out, const Obb<double>& s, const Color& col, int) {
    const dvec3 axes[3] = {s.rotation[0], s.rotation[1], s.rotation[2]};
    box_edges(out, s.center, axes, s.half_extents, col);
}
void wireframe_of(LineList& out, const Capsule<double>& s, const Color& col, int n) {
    const dvec3 ab = s.b - s.a;
    const double len = glm::length(ab);
    if (!(len > 0.0)) {  // a == b: exactly the sphere the core casts against
        if (s.radius == 0.0) out.cross(s.a, 0.05, col);
        else sphere_lines(out, s.a, s.radius, col, n);
        return;
    }
    if (s.radius == 0.0) {  // a segment
        out.line(s.a, s.b, col);
        return;
    }
    const dvec3 axis = ab / len;
    dvec3 u, v;
    perpendicular_frame(axis, u, v);
    const double r = s.radius;
    for (const dvec3& off : {u * r, -u * r, v * r, -v * r}) out.line(s.a + off, s.b + off, col);
    out.circle(s.a, u, v, r, col, n);
    out.circle(s.b, u, v, r, col, n);
    // Hemispheres: half circles bulging away from the segment.
    out.arc(s.a, u, -axis, r, col, n / 2);
    out.arc(s.a, v, -axis, r, col, n / 2);
    out.arc(s.b, u, axis, r, col, n / 2);
    out.arc(s.b, v, axis, r, col, n / 2);
}

void wireframe_of(LineList& out, const Triangle<double>& s, const Color& col, int) {
    out.line(s.a, s.b, col);
    out.line(s.b, s.c, col);
    out.line(s.c, s.a, col);
}

template <typename S> void solid_of(std::vector<SolidVertex>& out, const S& s, int) {
    const Aabb<double> b = bounds(s);
    const dvec3 axes[3] = {dvec3(1, 0, 0), dvec3(0, 1, 0), dvec3(0, 0, 1)};
    box_solid(out, (b.min + b.max) * 0.5, axes, (b.max - b.min) * 0.5);
}
void solid_of(std::vector<SolidVertex>& out, const Sphere<double>& s, int n) {
    sphere_zone(out, s.center, s.radius, dvec3(0, 1, 0), dvec3(0, 0, 1), dvec3(1, 0, 0), 0.0, glm::pi<double>(), n);
}
void solid_of(std::vector<SolidVertex>& out, const Aabb<double>& s, int) {
    const dvec3 axes[3] = {dvec3(1, 0, 0), dvec3(0, 1, 0), dvec3(0, 0, 1)};
    box_solid(out, (s.min + s.max) * 0.5, axes, (s.max - s.min) * 0.5);
}
void solid_of(std::vector<SolidVertex>& out, const Obb<double>& s, int) {
    const dvec3 axes[3] = {s.rotation[0], s.rotation[1], s.rotation[2]};
    box_solid(out, s.center, axes, s.half_extents);
}
void solid_of(std::vector<SolidVertex>& out, const Capsule<double>& s, int n) {
    const dvec3 x(1, 0, 0), y(0, 1, 0), z(0, 0, 1);
    const dvec3 ab = s.b - s.a;
    const double len = glm::length(ab);
    if (!(len > 0.0)) {
        sphere_zone(out, s.a, s.radius, y, z, x, 0.0, glm::pi<double>(), n);
        return;
    }
    const dvec3 axis = ab / len;
    dvec3 u, v;
    perpendicular_frame(axis, u, v);
    const double r = s.radius;
    for (int j = 0; j < n; ++j) {
        const double p0 = glm::two_pi<double>() * j / n, p1 = glm::two_pi<double>() * (j + 1) / n;
        const dvec3 n0 = std::cos(p0) * u + std::sin(p0) * v, n1 = std::cos(p1) * u + std::sin(p1) * v;
        tri(out, s.a + r * n0, s.b + r * n0, s.b + r * n1, n0, n0, n1);
        tri(out, s.a + r * n0, s.b + r * n1, s.a + r * n1, n0, n1, n1);
    }
    sphere_zone(out, s.b, r, axis, u, v, 0.0, glm::half_pi<double>(), n);
    sphere_zone(out, s.a, r, -axis, v, u, 0.0, glm::half_pi<double>(), n);
}

void solid_of(std::vector<SolidVertex>& out, const Triangle<double>& s, int) {
    // Both faces, each with the normal out of it (the core's triangles are two-sided).
    const dvec3 n = normalize_or(glm::cross(s.b - s.a, s.c - s.a), dvec3(0, 1, 0));
    tri(out, s.a, s.b, s.c, n, n, n);
    tri(out, s.a, s.c, s.b, -n, -n, -n);
}

}  // namespace

void append_wireframe(LineList& out, const Shape<double>& shape, const Color& col, int n) {
    std::visit([&](const auto& s) { wireframe_of(out, s, col, n); }, shape);
}

void append_solid(std::vector<SolidVertex>& out, const Shape<double>& shape, int n) {
    std::visit([&](const auto& s) { solid_of(out, s, n); }, shape);
}

void append_grid(LineList& out, double half, double step) {
    const int n = static_cast<int>(half / step);
    for (int i = -n; i <= n; ++i) {
        const double p = i * step;
        if (i != 0) {
            out.line(dvec3(p, 0, -half), dvec3(p, 0, half), palette::grid);
            out.line(dvec3(-half, 0, p), dvec3(half, 0, p), palette::grid);
        } else {
            out.line(dvec3(-half, 0, 0), dvec3(0, 0, 0), palette::grid);
            out.line(dvec3(0, 0, -half), dvec3(0, 0, 0), palette::grid);
        }
    }
    out.line(dvec3(0, 0, 0), dvec3(half, 0, 0), palette::axis_x);
    out.line(dvec3(0, 0, 0), dvec3(0, half * 0.25, 0), palette::axis_y);
    out.line(dvec3(0, 0, 0), dvec3(0, 0, half), palette::axis_z);
}

// ---- instanced wireframes ------------------------------------------------------------------------

namespace {

struct UnitBuilder {
    UnitLines& out;
    std::uint32_t add(const dvec3& p, float far) {
        out.vertices.push_back({glm::vec3(p), far});
        return static_cast<std::uint32_t>(out.vertices.size() - 1);
    }
    void line(std::uint32_t a, std::uint32_t b) {
        out.indices.push_back(a);
        out.indices.push_back(b);
    }
    // As LineList::circle around the origin: n segments, the last back to the first vertex.
    void circle(const dvec3& u, const dvec3& v, int n, float far) {
        const std::uint32_t first = add(u, far);
        std::uint32_t prev = first;
        for (int i = 1; i <= n; ++i) {
            const double a = glm::two_pi<double>() * i / n;
            const std::uint32_t cur = i == n ? first : add(std::cos(a) * u + std::sin(a) * v, far);
            line(prev, cur);
            prev = cur;
        }
    }
    // As LineList::arc around the origin: n segments from +u through +v to -u.
    void arc(const dvec3& u, const dvec3& v, int n, float far) {
        std::uint32_t prev = add(u, far);
        for (int i = 1; i <= n; ++i) {
            const double a = glm::pi<double>() * i / n;
            const std::uint32_t cur = add(std::cos(a) * u + std::sin(a) * v, far);
            line(prev, cur);
            prev = cur;
        }
    }
};

glm::mat4 frame_matrix(const dvec3& x, const dvec3& y, const dvec3& z, const dvec3& origin) {
    return glm::mat4(glm::vec4(glm::vec3(x), 0.0f), glm::vec4(glm::vec3(y), 0.0f), glm::vec4(glm::vec3(z), 0.0f),
                     glm::vec4(glm::vec3(origin), 1.0f));
}

constexpr double kCrossSize = 0.05;  // half-size of the mark of a point (as append_wireframe's)

PlacedInstance sphere_instance(const dvec3& c, double r, const Color& col) {
    PlacedInstance p;
    p.instance.color = col;
    if (r == 0.0) {
        p.mesh = UnitMesh::Cross;
        r = kCrossSize;
    } else {
        p.mesh = UnitMesh::Rings;
    }
    p.instance.transform = frame_matrix(dvec3(r, 0, 0), dvec3(0, r, 0), dvec3(0, 0, r), c);
    return p;
}

}  // namespace

UnitLines unit_wireframe(UnitMesh kind, int n) {
    UnitLines out;
    UnitBuilder b{out};
    const dvec3 x(1, 0, 0), y(0, 1, 0), z(0, 0, 1);
    switch (kind) {
    case UnitMesh::Rings:
        b.circle(x, y, n, 0.0f);
        b.circle(y, z, n, 0.0f);
        b.circle(z, x, n, 0.0f);
        break;
    case UnitMesh::Cross:
        for (const dvec3& a : {x, y, z}) b.line(b.add(-a, 0.0f), b.add(a, 0.0f));
        break;
    case UnitMesh::Box: {
        std::uint32_t corner[8];
        for (int k = 0; k < 8; ++k)
            corner[k] = b.add(dvec3((k & 1) ? 1 : -1, (k & 2) ? 1 : -1, (k & 4) ? 1 : -1), 0.0f);
        for (int k = 0; k < 8; ++k)
            for (int bit = 1; bit < 8; bit <<= 1)
                if (!(k & bit)) b.line(corner[k], corner[k | bit]);
        break;
    }
    case UnitMesh::Segment:
        b.line(b.add(dvec3(0.0), 0.0f), b.add(dvec3(0.0), 1.0f));
        break;
    case UnitMesh::Triangle: {
        const std::uint32_t o = b.add(dvec3(0.0), 0.0f), ex = b.add(x, 0.0f), ey = b.add(y, 0.0f);
        b.line(o, ex);
        b.line(ex, ey);
        b.line(ey, o);
        break;
    }
    case UnitMesh::Capsule:
        // In the capsule's frame: x = u, y = v, z = the axis from a to b; radius 1.
        for (const dvec3& off : {x, -x, y, -y}) b.line(b.add(off, 0.0f), b.add(off, 1.0f));
        b.circle(x, y, n, 0.0f);
        b.circle(x, y, n, 1.0f);
        b.arc(x, -z, n / 2, 0.0f);
        b.arc(y, -z, n / 2, 0.0f);
        b.arc(x, z, n / 2, 1.0f);
        b.arc(y, z, n / 2, 1.0f);
        break;
    }
    return out;
}

namespace {

// ---- each type's instance; a type without its own is drawn as its bounding box -------------------

PlacedInstance box_instance(const dvec3& c, const dvec3& x, const dvec3& y, const dvec3& z, const Color& col) {
    PlacedInstance p;
    p.instance.color = col;
    p.mesh = UnitMesh::Box;
    p.instance.transform = frame_matrix(x, y, z, c);
    return p;
}
template <typename S> PlacedInstance instance_of(const S& s, const Color& col) {
    const Aabb<double> b = bounds(s);
    const dvec3 h = (b.max - b.min) * 0.5;
    return box_instance((b.min + b.max) * 0.5, dvec3(h.x, 0, 0), dvec3(0, h.y, 0), dvec3(0, 0, h.z), col);
}
PlacedInstance instance_of(const Sphere<double>& s, const Color& col) { return sphere_instance(s.center, s.radius, col); }
PlacedInstance instance_of(const Aabb<double>& s, const Color& col) {
    const dvec3 h = (s.max - s.min) * 0.5;
    return box_instance((s.min + s.max) * 0.5, dvec3(h.x, 0, 0), dvec3(0, h.y, 0), dvec3(0, 0, h.z), col);
}
PlacedInstance instance_of(const Obb<double>& s, const Color& col) {
    const dvec3& h = s.half_extents;
    return box_instance(s.center, dvec3(s.rotation[0]) * h.x, dvec3(s.rotation[1]) * h.y, dvec3(s.rotation[2]) * h.z,
                        col);
}
PlacedInstance instance_of(const Capsule<double>& s, const Color& col) {
    PlacedInstance p;
    p.instance.color = col;
    const dvec3 ab = s.b - s.a;
    const double len = glm::length(ab);
    if (!(len > 0.0)) return sphere_instance(s.a, s.radius, col);  // a == b: the sphere it is
    if (s.radius == 0.0) {                                          // a segment
        p.mesh = UnitMesh::Segment;
        p.instance.transform = frame_matrix(dvec3(0.0), dvec3(0.0), dvec3(0.0), s.a);
        p.instance.offset = glm::vec4(glm::vec3(ab), 0.0f);
        return p;
    }
    const dvec3 axis = ab / len;
    dvec3 u, v;
    perpendicular_frame(axis, u, v);
    const double r = s.radius;
    p.mesh = UnitMesh::Capsule;
    p.instance.transform = frame_matrix(u * r, v * r, axis * r, s.a);
    p.instance.offset = glm::vec4(glm::vec3(ab), 0.0f);
    return p;
}

PlacedInstance instance_of(const Triangle<double>& s, const Color& col) {
    PlacedInstance p;
    p.instance.color = col;
    p.mesh = UnitMesh::Triangle;  // the unit triangle's x and y edges become b - a and c - a
    p.instance.transform = frame_matrix(s.b - s.a, s.c - s.a, dvec3(0.0), s.a);
    return p;
}

}  // namespace

PlacedInstance wireframe_instance(const Shape<double>& shape, const Color& col) {
    return std::visit([&](const auto& s) { return instance_of(s, col); }, shape);
}

int lod_segments(double radius_pixels) {
    // The sagitta (largest gap between the chord and the circle) r (1 - cos(pi / n)) at most
    // kMaxSagittaPixels: the polygon is within a third of a pixel of the true circle.
    for (int n = kLodSegments.front(); n < kLodSegments.back(); n *= 2)
        if (radius_pixels * (1.0 - std::cos(glm::pi<double>() / n)) <= kMaxSagittaPixels) return n;
    return kLodSegments.back();
}

namespace {
/// A sphere around everything an instance draws: around the mid point of a and b (the centre for
/// the other kinds), its radius in `r`.
glm::vec3 bounding_sphere(const ShapeInstance& in, float& r) {
    const glm::vec3 c0(in.transform[3]), c1 = c0 + glm::vec3(in.offset);
    r = glm::length(glm::vec3(in.transform[0])) + glm::length(glm::vec3(in.transform[1])) +
        glm::length(glm::vec3(in.transform[2])) + 0.5f * glm::length(glm::vec3(in.offset));
    return 0.5f * (c0 + c1);
}
}  // namespace

int instance_level(UnitMesh mesh, const ShapeInstance& in, const glm::mat4& vp, int view_width, int view_height) {
    // Clip-space rows: a point is in the view when |x|, |y| <= w. Moving it by at most R changes
    // x by at most R |row x.xyz| (likewise y, w), which bounds a sphere of radius R.
    const glm::vec4 rx(vp[0][0], vp[1][0], vp[2][0], vp[3][0]), ry(vp[0][1], vp[1][1], vp[2][1], vp[3][1]);
    const glm::vec4 rw(vp[0][3], vp[1][3], vp[2][3], vp[3][3]);
    const float lx = glm::length(glm::vec3(rx)), ly = glm::length(glm::vec3(ry)), lw = glm::length(glm::vec3(rw));
    const glm::vec3 c0(in.transform[3]), c1 = c0 + glm::vec3(in.offset);
    float r = 0.0f;
    const glm::vec3 c = bounding_sphere(in, r);
    const glm::vec4 p(c, 1.0f);
    const float x = glm::dot(rx, p), y = glm::dot(ry, p), w = glm::dot(rw, p);
    if (std::isfinite(r) && std::isfinite(x) && std::isfinite(y) && std::isfinite(w)) {
        const float wr = w + r * lw;  // the largest w in the sphere
        if (wr < 0.0f || x - r * lx > wr || x + r * lx < -wr || y - r * ly > wr || y + r * ly < -wr) return -1;
    }
    if (mesh != UnitMesh::Rings && mesh != UnitMesh::Capsule) return 0;
    // Moving a point q by d moves x/w on screen by (rx.d - (x/w) rw.d) / w: at most
    // |d| (lx + |x/w| lw) / w_q (likewise y). The circles' radius in pixels is bounded with the
    // nearest w_q and the largest |x/w|, |y/w| of the bounding sphere (at most 1 in the view).
    const float circle = glm::length(glm::vec3(in.transform[0]));
    const float w0 = glm::dot(rw, glm::vec4(c0, 1.0f)), w1 = glm::dot(rw, glm::vec4(c1, 1.0f));
    const float near_w = std::min(w0, w1) - circle * lw;
    const float sphere_near_w = w - r * lw;
    const float ax = sphere_near_w > 0.0f ? std::min(1.0f, (std::abs(x) + r * lx) / sphere_near_w) : 1.0f;
    const float ay = sphere_near_w > 0.0f ? std::min(1.0f, (std::abs(y) + r * ly) / sphere_near_w) : 1.0f;
    const float pixels_per_unit =
        0.5f * std::max((lx + ax * lw) * float(view_width), (ly + ay * lw) * float(view_height));
    const double pixels = near_w > 0.0f ? double(circle) * pixels_per_unit / near_w : HUGE_VAL;
    const int segments = lod_segments(pixels);
    int level = 0;
    while (level + 1 < int(kLodSegments.size()) && kLodSegments[std::size_t(level)] < segments) ++level;
    return level;
}

glm::vec3 instance_point(const ShapeInstance& in, const UnitVertex& v) {
    return glm::vec3(in.transform * glm::vec4(v.position, 1.0f)) + v.far * glm::vec3(in.offset);
}

GpuInstance gpu_instance(const ShapeInstance& in) {
    const glm::mat4 rows = glm::transpose(in.transform);
    return GpuInstance{{rows[0], rows[1], rows[2]}, in.offset};
}

glm::vec3 gpu_instance_point(const GpuInstance& in, const UnitVertex& v) {
    const glm::mat4 transform = glm::transpose(glm::mat4(in.rows[0], in.rows[1], in.rows[2], glm::vec4(0, 0, 0, 1)));
    return glm::vec3(transform * glm::vec4(v.position, 1.0f)) + v.far * glm::vec3(in.offset);
}

DrawLists build_draw_lists(const std::vector<UnitMesh>& kinds, const std::vector<ShapeInstance>& instances,
                           const glm::mat4& vp, int view_width, int view_height) {
    DrawLists out;
    const std::size_t n = std::min(kinds.size(), instances.size());
    // Counting sort by bucket: stable, so each bucket keeps the shapes in ascending order.
    std::vector<std::uint8_t> bucket_of(n);
    std::array<std::int32_t, kLodBuckets + 1> start{};
    constexpr std::uint8_t kCulled = 0xff;
    static_assert(kLodBuckets < kCulled, "bucket numbers fit a byte");
    for (std::size_t i = 0; i < n; ++i) {
        const int level = instance_level(kinds[i], instances[i], vp, view_width, view_height);
        if (level < 0) {  // outside the view
            bucket_of[i] = kCulled;
            continue;
        }
        const std::size_t b = std::size_t(kinds[i]) * kLodSegments.size() + std::size_t(level);
        bucket_of[i] = static_cast<std::uint8_t>(b);
        ++start[b + 1];
        if (out.solid_cull && kinds[i] != UnitMesh::Cross && kinds[i] != UnitMesh::Segment)
            out.solid_cull = solid_cullable(kinds[i], instances[i], vp);
    }
    for (std::size_t b = 0; b < kLodBuckets; ++b) {
        if (start[b + 1] > 0) out.draws.push_back({b, start[b], start[b + 1]});
        start[b + 1] += start[b];
    }
    out.order.resize(std::size_t(start[kLodBuckets]));
    std::array<std::int32_t, kLodBuckets> next{};
    std::copy(start.begin(), start.end() - 1, next.begin());
    for (std::size_t i = 0; i < n; ++i)
        if (bucket_of[i] != kCulled) out.order[std::size_t(next[bucket_of[i]]++)] = static_cast<std::int32_t>(i);
    return out;
}

// ---- instanced solids ----------------------------------------------------------------------------

namespace {

struct SolidBuilder {
    UnitTriangles& out;
    std::uint32_t add(const dvec3& p, float far, const dvec3& n) {
        out.vertices.push_back({{glm::vec3(p), far}, glm::vec3(n)});
        return static_cast<std::uint32_t>(out.vertices.size() - 1);
    }
    void tri(std::uint32_t a, std::uint32_t b, std::uint32_t c) {
        if (a == b || b == c || a == c) return;  // a pole's collapsed corner
        out.indices.insert(out.indices.end(), {a, b, c});
    }
    void quad(std::uint32_t a, std::uint32_t b, std::uint32_t c, std::uint32_t d) {  // a b c d around
        tri(a, b, c);
        tri(a, c, d);
    }
    /// Rings of `n` vertices at polar angles theta0 + (theta1 - theta0) * i / rings, i = 0..rings,
    /// around `pole` (u, v span the equator; u x v = pole), unit radius, normal = position. A ring at
    /// polar angle 0 or pi is one vertex. Returns each ring's indices (a pole's: one, n times).
    std::vector<std::vector<std::uint32_t>> zone(const dvec3& pole, const dvec3& u, const dvec3& v, double theta0,
                                                 double theta1, int rings, int n, float far) {
        std::vector<std::vector<std::uint32_t>> ring_ids;
        for (int i = 0; i <= rings; ++i) {
            const double th = theta0 + (theta1 - theta0) * i / rings;
            const double sin_th = std::sin(th), cos_th = std::cos(th);
            std::vector<std::uint32_t> ids;
            if (std::abs(sin_th) < 1e-12) {
                const dvec3 p = (cos_th > 0.0 ? 1.0 : -1.0) * pole;
                ids.assign(std::size_t(n), add(p, far, p));
            } else {
                for (int j = 0; j < n; ++j) {
                    const double ph = glm::two_pi<double>() * j / n;
                    const dvec3 p = cos_th * pole + sin_th * (std::cos(ph) * u + std::sin(ph) * v);
                    ids.push_back(add(p, far, p));
                }
            }
            ring_ids.push_back(std::move(ids));
        }
        for (std::size_t i = 0; i + 1 < ring_ids.size(); ++i) band(ring_ids[i], ring_ids[i + 1]);
        return ring_ids;
    }
    /// Quads between two rings of as many vertices, outward and counter-clockwise when `upper` is
    /// the one nearer the pole the azimuth turns around counter-clockwise.
    void band(const std::vector<std::uint32_t>& upper, const std::vector<std::uint32_t>& lower) {
        const std::size_t n = upper.size();
        for (std::size_t j = 0; j < n; ++j) quad(upper[j], lower[j], lower[(j + 1) % n], upper[(j + 1) % n]);
    }
};

}  // namespace

UnitTriangles unit_solid(UnitMesh kind, int n) {
    UnitTriangles out;
    SolidBuilder b{out};
    const dvec3 x(1, 0, 0), y(0, 1, 0), z(0, 0, 1);
    const int quarter = std::max(1, n / 8);  // rings from a pole to the equator
    switch (kind) {
    case UnitMesh::Rings:
        // As append_solid: the pole on +y, the azimuth from +z towards +x.
        b.zone(y, z, x, 0.0, glm::pi<double>(), 2 * quarter, n, 0.0f);
        break;
    case UnitMesh::Box:
        for (int k = 0; k < 3; ++k)
            for (int s = -1; s <= 1; s += 2) {
                const dvec3 axes[3] = {x, y, z};
                const dvec3 nrm = axes[k] * double(s);
                const dvec3 a = axes[(k + 1) % 3], c = axes[(k + 2) % 3];
                const std::uint32_t p0 = b.add(nrm - a - c, 0.0f, nrm), p1 = b.add(nrm + a - c, 0.0f, nrm);
                const std::uint32_t p2 = b.add(nrm + a + c, 0.0f, nrm), p3 = b.add(nrm - a + c, 0.0f, nrm);
                if (s > 0) b.quad(p0, p1, p2, p3);  // a x c = +axis: counter-clockwise seen from outside
                else b.quad(p0, p3, p2, p1);
            }
        break;
    case UnitMesh::Capsule: {
        // In the capsule's frame (x = u, y = v, z = the axis, radius 1); the b end's vertices flagged.
        const auto cap_b = b.zone(z, x, y, 0.0, glm::half_pi<double>(), quarter, n, 1.0f);
        std::vector<std::uint32_t> ring_a;
        for (int j = 0; j < n; ++j) {
            const double ph = glm::two_pi<double>() * j / n;
            const dvec3 p = std::cos(ph) * x + std::sin(ph) * y;
            ring_a.push_back(b.add(p, 0.0f, p));
        }
        // The cylinder, from b's equator to a's (outward: b's ring is nearer b's pole).
        b.band(cap_b.back(), ring_a);
        // a's hemisphere around -z, from its pole to its equator.
        // (Its own copy of a's ring: the same unit positions, so the same placed points, no crack.)
        b.zone(-z, y, x, 0.0, glm::half_pi<double>(), quarter, n, 0.0f);
        break;
    }
    case UnitMesh::Triangle: {
        // Both faces: the front (counter-clockwise seen from +z, normal +z) and the back.
        const dvec3 o(0.0);
        b.tri(b.add(o, 0.0f, z), b.add(x, 0.0f, z), b.add(y, 0.0f, z));
        b.tri(b.add(o, 0.0f, -z), b.add(y, 0.0f, -z), b.add(x, 0.0f, -z));
        break;
    }
    case UnitMesh::Cross:
    case UnitMesh::Segment:
        break;
    }
    return out;
}

bool solid_cullable(UnitMesh mesh, const ShapeInstance& in, const glm::mat4& vp) {
    if (mesh != UnitMesh::Rings && mesh != UnitMesh::Capsule && mesh != UnitMesh::Box) return false;
    if (mesh == UnitMesh::Box)  // a flat box: two faces in one plane, no inside
        for (int i = 0; i < 3; ++i)
            if (glm::vec3(in.transform[i]) == glm::vec3(0.0f)) return false;
    // In front of the near plane (clip z > -w) is the half-space dot(row z + row w, p) > 0, which
    // the eye (w = 0) is not in; moving p by at most R changes that by at most R |(row z + row w).xyz|.
    const glm::vec4 rn(vp[0][2] + vp[0][3], vp[1][2] + vp[1][3], vp[2][2] + vp[2][3], vp[3][2] + vp[3][3]);
    float r = 0.0f;
    const glm::vec3 c = bounding_sphere(in, r);
    const float margin = glm::dot(rn, glm::vec4(c, 1.0f)) - r * glm::length(glm::vec3(rn));
    return std::isfinite(margin) && margin > 0.0f;
}

glm::vec3 instance_normal(const ShapeInstance& in, const glm::vec3& unit_normal) {
    glm::vec3 a[3];
    for (int i = 0; i < 3; ++i) {
        const glm::vec3 m(in.transform[i]);
        const float big = std::max(std::max(std::abs(m.x), std::abs(m.y)), std::abs(m.z));
        a[i] = big > 0.0f ? glm::normalize(m / big) : glm::vec3(0.0f);
    }
    const glm::mat3 cofactor(glm::cross(a[1], a[2]), glm::cross(a[2], a[0]), glm::cross(a[0], a[1]));
    const glm::vec3 n = cofactor * unit_normal;
    const float len = glm::length(n);
    return len > 0.0f ? n / len : glm::vec3(0.0f);
}

bool solid_one_sided(const ShapeInstance& in) {
    for (int i = 0; i < 3; ++i)
        if (glm::vec3(in.transform[i]) == glm::vec3(0.0f)) return true;
    return false;
}

}  // namespace raypick::app
