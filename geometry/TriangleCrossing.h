// raypick geometry: the crossing rule — which triangles of a mesh a ray crosses when it passes
// exactly through a shared edge or vertex, so that every crossing of a closed surface counts once.
//
// intersect() (RayTriangle.h) is closed: a ray through a shared edge hits both triangles, through a
// shared vertex every triangle around it. That is right for picking (nothing leaks) and wrong for
// counting. The crossing rule decides ties by symbolic perturbation (Edelsbrunner and Mücke,
// "Simulation of Simplicity", 1990): in the plane across the ray (the sheared projection of
// intersect(), or the yz-plane for contains()), the ray's point q is moved to q + (ε, ε²) for an
// infinitesimal ε > 0. An edge function e(p1, p2) = (p1 - q) x (p2 - q) is linear in q, so the
// moved point's sign is sign(e) when e != 0, else sign(p1.y - p2.y) (the ε term), else
// sign(p2.x - p1.x) (the ε² term); only an edge of zero projected length stays 0, and such a
// triangle has zero projected area and is never crossed. The moved ray is generic: it meets no edge
// and no vertex, so it lies inside exactly the triangles a ray beside the edge would, and
// - through an edge shared by two triangles wound consistently (the edge runs opposite ways in
//   them), exactly one of the two takes the crossing: the edge functions are each other's negation
//   bit for bit, and so are the ε terms;
// - through a shared vertex, exactly one triangle of a fan that covers the vertex's neighbourhood
//   in projection takes it;
// - at a contour (the surface folds back towards the ray: a silhouette edge or vertex), the moved
//   ray lies inside a front and a back triangle or inside neither: an even count, never one.
// Every sign above is exact for the values it is computed from (edge_function() is sign-exact), so
// the rule depends on nothing but those values, and the same for all triangles of one ray.
#pragma once

#include <cstdint>
#include <optional>

#include <raypick/geometry/ExactPredicates.h>
#include <raypick/geometry/RayTriangle.h>

namespace raypick {

/// Where the crossing rule has a ray cross a triangle.
template <typename T> struct TriangleCrossing {
    TriangleHit<T> hit;  ///< computed as intersect() computes its hit
    /// Whether the rule has the ray cross the triangle (always, when no edge function is zero).
    bool crosses = false;
    /// The ray passes exactly through an edge (one zero edge function) or a vertex (two) of the
    /// triangle in its projection: the crossing is shared with neighbours, which the rule declined.
    std::uint8_t zero_edges = 0;
    /// Which edge functions are zero: bit 0 for the edge opposite a (b to c), bit 1 opposite b
    /// (c to a), bit 2 opposite c (a to b).
    std::uint8_t zero_mask = 0;
};

namespace detail {

/// The sign of edge function e of projected points p1, p2 at the moved point (see the top of this
/// file): +1, -1, or 0 only for p1 == p2.
template <typename E, typename T> inline int moved_sign(E e, T p1x, T p1y, T p2x, T p2y) {
    if (e != E(0)) return e > E(0) ? 1 : -1;
    if (p1y != p2y) return p1y > p2y ? 1 : -1;
    if (p1x != p2x) return p2x > p1x ? 1 : -1;
    return 0;
}

/// The three edge functions' signs at the moved point; all equal and non-zero exactly when the
/// moved point is inside the projected triangle p0, p1, p2 (x, y taken from each).
template <typename P, typename T>
inline bool moved_inside(const P& p0, const P& p1, const P& p2, const T (&e)[3]) {
    const int s0 = moved_sign(e[0], p1.x, p1.y, p2.x, p2.y);
    const int s1 = moved_sign(e[1], p2.x, p2.y, p0.x, p0.y);
    const int s2 = moved_sign(e[2], p0.x, p0.y, p1.x, p1.y);
    return s0 != 0 && s0 == s1 && s1 == s2;
}

}  // namespace detail

/// The crossing rule for a ray and a triangle, decided by the sheared projection alone (steps 1
/// to 3 of intersect(), the same values): empty unless the ray's projected point lies in the
/// closed projected triangle (no two edge functions of opposite signs, not all zero) with t in
/// [t_min, t_max]; then `crosses` says whether the moved ray (the top of this file) lies inside
/// it, and which edge functions are zero. The hit is computed as intersect() computes it (t,
/// barycentrics, normal, face), but a line that intersect() drops for missing the triangle's bounds
/// (its step 5, a judgement of the true line where the projection rounded) is kept here: the
/// projection alone decides, so that every triangle of a ray sees the same projected mesh. Over the
/// triangles of a closed, consistently wound mesh (the same vertex values for a shared vertex),
/// a ray that crosses the surface through an edge or vertex is crossed by exactly one triangle
/// there, and one that touches it at a contour edge or vertex by none or by two facing opposite
/// ways. Zero-area triangles, invalid rays and ranges: empty.
template <typename T>
std::optional<TriangleCrossing<T>> cross(const Ray<T>& ray, const Triangle<T>& tri, T t_min = T(0),
                                         T t_max = infinity<T>()) {
    RAYPICK_NO_CONTRACTION
    std::optional<TriangleCrossing<T>> out;
    if (!every(is_valid(ray), is_valid(tri), detail::valid_range(t_min, t_max))) return out;
    using W = detail::TriangleWide<T>;
    const Vec3<W> area = detail::area_vector(tri);
    if (area == Vec3<W>(W(0))) return out;
    // The projected vertices exactly as intersect() makes them (triangle_edges()), and their
    // edge functions.
    const detail::TriangleShear<T> s = detail::triangle_shear(ray);
    const auto transform = [&](const Vec3<T>& v) {
        const T p[3] = {v.x, v.y, v.z};
        const T x = p[s.kx] - s.ox, y = p[s.ky] - s.oy, z = p[s.kz] - s.oz;
        return Vec3<T>(x + s.sx * z, y + s.sy * z, z);
    };
    const Vec3<T> p0 = transform(tri.a), p1 = transform(tri.b), p2 = transform(tri.c);
    T e[3] = {detail::edge_function(p1.x, p1.y, p2.x, p2.y), detail::edge_function(p2.x, p2.y, p0.x, p0.y),
              detail::edge_function(p0.x, p0.y, p1.x, p1.y)};
    const bool has_neg = e[0] < T(0) || e[1] < T(0) || e[2] < T(0);
    const bool has_pos = e[0] > T(0) || e[1] > T(0) || e[2] > T(0);
    T det = e[0] + e[1] + e[2];
    if ((has_neg && has_pos) || det == T(0)) return out;
    TriangleCrossing<T> c;
    c.crosses = detail::moved_inside(p0, p1, p2, e);
    for (int k = 0; k < 3; ++k)
        if (e[k] == T(0)) {
            ++c.zero_edges;
            c.zero_mask = std::uint8_t(c.zero_mask | 1u << k);
        }
    // intersect()'s steps 4, 5 (the clamp only) and 7.
    T t;
    if (std::abs(det) < detail::tiny_det<T>()) {
        t = detail::rescaled_t(s, tri, e);
        det = e[0] + e[1] + e[2];
    } else {
        t = (e[0] * p0.z + e[1] * p1.z + e[2] * p2.z) * s.sz * (T(1) / det);
    }
    if (!is_finite(t)) return out;
    detail::clamp_to_passage(ray, tri, t);
    if (!every(t >= t_min, t <= t_max)) return out;
    c.hit = detail::triangle_hit(ray, area, s, e, det, t);
    out = c;
    return out;
}

/// How a point and a triangle stand for the inside test: whether the point lies on the triangle
/// (closed: edges and vertices included), and otherwise what the triangle adds to the point's
/// winding number counted along +x.
struct PointTriangle {
    bool on_triangle = false;
    /// +1 when the ray from the point along +x, moved as the top of this file says, crosses the
    /// triangle at t > 0 leaving through its back (the winding normal cross(b - a, c - a) points
    /// along +x), -1 when it enters through its front, 0 when it does not cross it.
    int winding = 0;
};

/// The point against the triangle, exactly: every sign from exact predicates on the coordinates
/// themselves (ExactPredicates.h; float values are exact in double), none from rounded
/// differences. Summed over the triangles of a closed mesh, `winding` is the mesh's winding number
/// about the point — 1 inside a mesh wound outward, 0 outside — unless the point lies on some
/// triangle, which on_triangle reports.
template <typename T> PointTriangle point_triangle(const Vec3<T>& p, const Triangle<T>& tri) {
    PointTriangle out;
    const Vec3<T>& a = tri.a;
    const Vec3<T>& b = tri.b;
    const Vec3<T>& c = tri.c;
    const Vec3<T> lo = glm::min(a, glm::min(b, c)), hi = glm::max(a, glm::max(b, c));
    // The ray along +x meets the triangle's box only where the box spans the point in y and z and
    // reaches it in x; comparisons are exact.
    if (!(lo.y <= p.y && p.y <= hi.y && lo.z <= p.z && p.z <= hi.z && p.x <= hi.x)) return out;
    const int o = exact::orient3d(a, b, c, p);
    if (lo.x <= p.x && o == 0) {
        // In the plane and in the box: on the triangle when inside it (closed) in the projection
        // that drops the normal's largest axis, which keeps its area (a zero-area triangle has
        // none: then on one of its edges, as segments, in every projection that keeps their length).
        const auto on_in = [&](int i, int j) {
            const int s0 = exact::orient2d(double(b[i]), double(b[j]), double(c[i]), double(c[j]), double(p[i]), double(p[j]));
            const int s1 = exact::orient2d(double(c[i]), double(c[j]), double(a[i]), double(a[j]), double(p[i]), double(p[j]));
            const int s2 = exact::orient2d(double(a[i]), double(a[j]), double(b[i]), double(b[j]), double(p[i]), double(p[j]));
            const bool has_neg = s0 < 0 || s1 < 0 || s2 < 0, has_pos = s0 > 0 || s1 > 0 || s2 > 0;
            return std::pair<bool, bool>{!(has_neg && has_pos), has_neg || has_pos};  // {inside, has area}
        };
        // The projection along the axis on which the triangle has area; with none, p lies on it
        // only as on a segment: inside every projection's closed (collinear) triangle and in the box.
        bool any_area = false, on = true;
        for (const auto& [i, j] : {std::pair{1, 2}, std::pair{2, 0}, std::pair{0, 1}}) {
            const auto [inside, area] = on_in(i, j);
            if (area) {
                any_area = true;
                on = inside;
                break;
            }
        }
        out.on_triangle = any_area ? on : true;
        if (out.on_triangle) return out;
    }
    // The crossing along +x: edge functions in the yz-plane about the point, the ties moved.
    struct P {
        T x, y;
    };
    const P pa{a.y, a.z}, pb{b.y, b.z}, pc{c.y, c.z};
    const int e[3] = {exact::orient2d(double(b.y), double(b.z), double(c.y), double(c.z), double(p.y), double(p.z)),
                      exact::orient2d(double(c.y), double(c.z), double(a.y), double(a.z), double(p.y), double(p.z)),
                      exact::orient2d(double(a.y), double(a.z), double(b.y), double(b.z), double(p.y), double(p.z))};
    const int s0 = detail::moved_sign(e[0], pb.x, pb.y, pc.x, pc.y);
    const int s1 = detail::moved_sign(e[1], pc.x, pc.y, pa.x, pa.y);
    const int s2 = detail::moved_sign(e[2], pa.x, pa.y, pb.x, pb.y);
    if (!(s0 != 0 && s0 == s1 && s1 == s2)) return out;
    // s0 is the sign of the normal's x (the edge functions sum to it). The crossing's t is
    // orient3d / normal.x up to a positive factor (the point's side of the plane against the way
    // the ray goes): count it when positive. o == 0 with the moved ray inside the projection puts
    // the point on the triangle, handled above.
    if (o * s0 > 0) out.winding = s0;
    return out;
}

}  // namespace raypick
