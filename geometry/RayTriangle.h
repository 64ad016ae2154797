// raypick geometry: ray against triangle, watertight. The test of Woop, Benthin and Wald,
// "Watertight Ray/Triangle Intersection", JCGT 2(1), 2013: translate the vertices to the ray's
// origin, permute the axes so that the direction's largest component is z, shear so that the
// direction becomes +-z, and test the 2D edge functions of the sheared vertices' x and y.
//
// Why it is watertight: each vertex is transformed on its own, so two triangles sharing an edge
// see the same transformed end points, and the edge function of that edge in one is exactly the
// negation of the other's (the same two products, subtracted in the other order). A ray through
// the edge therefore gets edge functions of opposite sign (or both zero) in the two triangles and
// cannot slip between them; an edge function of exactly zero is recomputed with a sign-exact
// difference of products, so a ray through a shared vertex is decided the same way in every
// triangle around it. Möller–Trumbore computes each triangle's barycentrics from its own edge
// vectors and rounds differently across a shared edge, which is why rays leak through meshes there
// (textbook/TextbookTriangle.h).
#pragma once

#include <cmath>
#include <optional>

#include <raypick/geometry/Math.h>
#include <raypick/geometry/Ray.h>
#include <raypick/geometry/RayHit.h>
#include <raypick/geometry/Triangle.h>
#include <raypick/geometry/Validate.h>

namespace raypick {

/// Where a ray crosses a triangle.
template <typename T> struct TriangleHit {
    T t = T(0);
    /// Weights of a, b and c at the hit point: each in [0, 1], summing to 1 up to rounding. An
    /// edge's point has its opposite vertex's weight exactly 0; a vertex has its own weight 1.
    Vec3<T> barycentric{T(0)};
    /// Unit geometric normal by winding: cross(b - a, c - a), out of the front face.
    Vec3<T> normal{T(0)};
    /// The ray arrives at the front face (the side where a, b, c run counter-clockwise).
    bool front = false;
};

namespace detail {

/// a * b - c * d with its sign exact (zero exactly when a * b == c * d in real arithmetic): in
/// double for floats, whose products are exact there; for doubles Kahan's difference of products
/// (an exact product error by fma), within 2 ulps, so a non-zero result is never zero nor of the
/// wrong sign.
inline double exact_sign_dop(float a, float b, float c, float d) {
    return double(a) * double(b) - double(c) * double(d);
}
inline double exact_sign_dop(double a, double b, double c, double d) {
    const double cd = c * d;
    const double err = std::fma(-c, d, cd);  // cd - c * d, exactly
    return std::fma(a, b, -cd) + err;
}

/// The edge function x0 * y1 - y0 * x1 of two sheared vertices, recomputed sign-exactly when the
/// plain product difference rounds to zero (only then can rounding change which side is taken).
template <typename T> inline T edge_function(T x0, T y0, T x1, T y1) {
    const T e = x0 * y1 - y0 * x1;
    if (e != T(0)) return e;
    return T(exact_sign_dop(x0, y1, y0, x1));
}

}  // namespace detail

/// Ray against triangle: the hit with t in [t_min, t_max], or empty.
///   - Closed and two-sided: a ray through an edge or a vertex hits; either face is hit.
///   - Watertight: a ray through a point of an edge or vertex shared by triangles of a closed mesh
///     (the same vertex values, in either winding) hits at least one of them, in float and double.
///   - A ray parallel to the triangle's plane (including one lying in it) misses: seen along the
///     ray the triangle has no area. A zero-area triangle (is_degenerate()) is never hit.
///   - t is the sheared plane distance over the determinant: within a few ulps of the exact
///     crossing for a well-shaped triangle, in units of the ray's direction.
///   - Invalid input (NaN, infinities, a zero direction, t_min > t_max) misses.
template <typename T>
std::optional<TriangleHit<T>> intersect(const Ray<T>& ray, const Triangle<T>& tri, T t_min = T(0),
                                        T t_max = infinity<T>()) {
    std::optional<TriangleHit<T>> out;
    if (!every(is_valid(ray), is_valid(tri), detail::valid_range(t_min, t_max))) return out;
    // 1. Permute so that the direction's largest component is z (a cyclic permutation: handedness
    //    is kept).
    const Vec3<T> ad = glm::abs(ray.direction);
    const int kz = ad.x > ad.y ? (ad.x > ad.z ? 0 : 2) : (ad.y > ad.z ? 1 : 2);
    const int kx = kz == 2 ? 0 : kz + 1;
    const int ky = kx == 2 ? 0 : kx + 1;
    const Vec3<T> d(ray.direction[kx], ray.direction[ky], ray.direction[kz]);
    // 2. Vertices relative to the origin, permuted, sheared so that the direction is (0, 0, d.z).
    const T sx = -d.x / d.z, sy = -d.y / d.z, sz = T(1) / d.z;
    const auto transform = [&](const Vec3<T>& p) {
        const Vec3<T> q = p - ray.origin;
        const T z = q[kz];
        return Vec3<T>(q[kx] + sx * z, q[ky] + sy * z, z);
    };
    const Vec3<T> p0 = transform(tri.a), p1 = transform(tri.b), p2 = transform(tri.c);
    // 3. Edge functions: twice the signed areas seen from the ray of (ray, b, c), (ray, c, a),
    //    (ray, a, b). Inside (edges included) when none has a sign opposite to another's.
    const T e0 = detail::edge_function(p1.x, p1.y, p2.x, p2.y);
    const T e1 = detail::edge_function(p2.x, p2.y, p0.x, p0.y);
    const T e2 = detail::edge_function(p0.x, p0.y, p1.x, p1.y);
    const bool has_neg = (e0 < T(0)) | (e1 < T(0)) | (e2 < T(0));
    const bool has_pos = (e0 > T(0)) | (e1 > T(0)) | (e2 > T(0));
    if (has_neg && has_pos) return out;
    const T det = e0 + e1 + e2;
    if (det == T(0)) return out;  // parallel to the plane, or zero area
    // 4. The crossing's distance: the barycentric mix of the vertices' z, scaled by 1 / d.z.
    const T inv_det = T(1) / det;
    const T t = (e0 * p0.z + e1 * p1.z + e2 * p2.z) * sz * inv_det;
    if (!every(t >= t_min, t <= t_max, is_finite(t))) return out;
    // 5. Barycentrics, the winding's normal and the face: det > 0 when the triangle runs
    //    counter-clockwise seen looking along +z, so the ray meets the front face when the
    //    direction's sign along z is the opposite (the shear and permutation keep orientation).
    TriangleHit<T>& h = out.emplace();
    h.t = t;
    h.barycentric = Vec3<T>(e0 * inv_det, e1 * inv_det, e2 * inv_det);
    h.front = (det > T(0)) != (d.z > T(0));
    const Vec3<T> facing_ray = h.front ? -ray.direction : ray.direction;
    h.normal = normalize_or_dir(glm::cross(tri.b - tri.a, tri.c - tri.a), facing_ray);
    return out;
}

/// Ray against triangle as every shape type answers it (RayHit.h): the crossing [t, t] of
/// intersect(), with n_near the normal facing the ray and n_far its opposite, as a flat shape
/// crossed once. Empty exactly when intersect() is.
template <typename T>
std::optional<RayHit<T>> cast(const Ray<T>& ray, const Triangle<T>& tri, T t_min = T(0), T t_max = infinity<T>()) {
    std::optional<RayHit<T>> out;
    const auto h = intersect(ray, tri, t_min, t_max);
    if (!h) return out;
    const Vec3<T> n = h->front ? h->normal : -h->normal;
    detail::emplace_hit(out, h->t, h->t, n, -n);
    return out;
}

}  // namespace raypick
