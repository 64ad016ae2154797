// raypick geometry: ray against triangle, watertight. The test of Woop, Benthin and Wald,
// "Watertight Ray/Triangle Intersection", JCGT 2(1), 2013: translate the vertices to the ray's
// origin, permute the axes so that the direction's largest component is z, shear so that the
// direction becomes +-z, and test the 2D edge functions of the sheared vertices' x and y.
//
// Why it is watertight: each vertex is transformed on its own, so two triangles sharing an edge
// see the same transformed end points, and the edge function of that edge in one is exactly the
// negation of the other's (the same two products, subtracted in the other order). A ray through
// the edge therefore gets edge functions of opposite sign (or both zero) in the two triangles and
// cannot slip between them. Rounding of a difference of products is monotonic, so it can turn a
// sign into zero but never flip it; an edge function of exactly zero is recomputed with a
// sign-exact difference of products, so each edge function's sign is exact for the transformed
// points, and around a shared vertex the signs describe one consistent picture: a ray through the
// vertex is inside at least one of the triangles. Möller–Trumbore computes each triangle's
// barycentrics from its own edge vectors and rounds differently across a shared edge, which is why
// rays leak through meshes there (textbook/TextbookTriangle.h).
//
// This relies on no fused multiply-add contraction of the edge functions' differences (raypick is
// built for baseline x86-64, which has no FMA instruction, in ISO C++ mode; see
// docs/performance.md). The functions below also say so themselves (RAYPICK_NO_CONTRACTION), for
// clang and for where they are inlined into code built with FMA. A batched form of this test gives
// the same hits only if it repeats steps 1 to 6 operation for operation.
#pragma once

#include <cmath>
#include <limits>
#include <optional>

#include <raypick/geometry/Lanes.h>
#include <raypick/geometry/Math.h>
#include <raypick/geometry/Ray.h>
#include <raypick/geometry/RayHit.h>
#include <raypick/geometry/TargetIsa.h>
#include <raypick/geometry/Triangle.h>
#include <raypick/geometry/Validate.h>

namespace raypick {

/// Where a ray crosses a triangle.
template <typename T> struct TriangleHit {
    T t = T(0);
    /// Weights of a, b and c at the hit point, in that order: each in [0, 1], summing to 1 up to
    /// rounding. A point on an edge (as the test decides) has its opposite vertex's weight exactly
    /// 0; a vertex has its own weight exactly 1.
    Vec3<T> barycentric{T(0)};
    /// Unit geometric normal by winding: along cross(b - a, c - a), out of the front face.
    Vec3<T> normal{T(0)};
    /// The ray arrives at the front face (the side from which a, b, c run counter-clockwise).
    bool front = false;
};

namespace detail {

/// a * b - c * d with its sign exact (zero exactly when a * b == c * d in real arithmetic, as long
/// as no product overflows or has magnitude below 2^-969): Kahan's difference of products, the
/// product's rounding error recovered exactly by fma, within 2 ulps of the exact difference.
inline double exact_sign_dop(double a, double b, double c, double d) {
    const double cd = c * d;
    const double err = std::fma(-c, d, cd);  // cd - c * d, exactly
    return std::fma(a, b, -cd) + err;
}

/// The edge function x0 * y1 - y0 * x1 of two sheared vertices, with its sign exact: the plain
/// difference, recomputed sign-exactly when it rounds to zero (only then can rounding have lost
/// the sign). Floats are recomputed in double, where their products are exact; a non-zero result
/// too small for a float is returned as the smallest float of its sign.
inline float edge_function(float x0, float y0, float x1, float y1) {
    RAYPICK_NO_CONTRACTION
    const float e = x0 * y1 - y0 * x1;
    if (e != 0.0f) return e;
    const double exact = double(x0) * double(y1) - double(y0) * double(x1);
    const float r = float(exact);
    if (r != 0.0f || exact == 0.0) return r;
    return exact < 0.0 ? -std::numeric_limits<float>::denorm_min() : std::numeric_limits<float>::denorm_min();
}
inline double edge_function(double x0, double y0, double x1, double y1) {
    RAYPICK_NO_CONTRACTION
    const double e = x0 * y1 - y0 * x1;
    if (e != 0.0) return e;
    return exact_sign_dop(x0, y1, y0, x1);
}

/// The ray's part of the watertight test (steps 1 and 2 below): the axes permuted so that z is the
/// direction's largest component, the permuted origin, and the shear that takes the direction to
/// (0, 0, d.z). Requires a valid ray.
template <typename T> struct TriangleShear {
    int kx, ky, kz;
    T ox, oy, oz, sx, sy, sz;
    T dz;  ///< the direction's component along kz
};

template <typename T> inline TriangleShear<T> triangle_shear(const Ray<T>& ray) {
    RAYPICK_NO_CONTRACTION
    // 1. Permute so that the direction's largest component is z (a cyclic permutation: handedness
    //    is kept).
    //    Without branches, which mispredict on rays of random directions: std::abs (glm::abs tests
    //    the sign), and the axis from the comparisons' bits.
    const T ax = std::abs(ray.direction.x), ay = std::abs(ray.direction.y), az = std::abs(ray.direction.z);
    const int x_over_y = ax > ay, x_over_z = ax > az, y_over_z = ay > az;
    // x_over_y ? (x_over_z ? 0 : 2) : (y_over_z ? 1 : 2)
    const int kz = 2 - x_over_y * (2 * x_over_z) - (1 - x_over_y) * y_over_z;
    constexpr int kNext[3] = {1, 2, 0};
    const int kx = kNext[kz], ky = kNext[kx];
    // Arrays, as a glm vector indexed at run time is a switch.
    const T o[3] = {ray.origin.x, ray.origin.y, ray.origin.z};
    const T dir[3] = {ray.direction.x, ray.direction.y, ray.direction.z};
    const Vec3<T> d(dir[kx], dir[ky], dir[kz]);
    // 2. The shear that makes the direction (0, 0, d.z).
    const Vec3<T> shear = quotient(Vec3<T>(-d.x, -d.y, T(1)), Vec3<T>(d.z));
    return {kx, ky, kz, o[kx], o[ky], o[kz], shear.x, shear.y, shear.z, d.z};
}

/// Steps 2 and 3 for one triangle: its vertices' distances along the ray's axis (z of the sheared
/// vertices) and its three edge functions, each with its sign exact.
template <typename T> struct TriangleEdges {
    T z[3];
    T e[3];
};

template <typename T> inline TriangleEdges<T> triangle_edges(const TriangleShear<T>& s, const Triangle<T>& tri) {
    RAYPICK_NO_CONTRACTION
    // 2. Vertices relative to the origin, permuted, sheared so that the direction is (0, 0, d.z).
    //    Each vertex's result depends on that vertex and the ray only.
    const auto transform = [&](const Vec3<T>& v) {
        const T p[3] = {v.x, v.y, v.z};
        const T x = p[s.kx] - s.ox, y = p[s.ky] - s.oy, z = p[s.kz] - s.oz;
        return Vec3<T>(x + s.sx * z, y + s.sy * z, z);
    };
    const Vec3<T> p0 = transform(tri.a), p1 = transform(tri.b), p2 = transform(tri.c);
    // 3. Edge functions: twice the signed areas seen along the ray of (ray, b, c), (ray, c, a),
    //    (ray, a, b).
    return {{p0.z, p1.z, p2.z},
            {edge_function(p1.x, p1.y, p2.x, p2.y), edge_function(p2.x, p2.y, p0.x, p0.y),
             edge_function(p0.x, p0.y, p1.x, p1.y)}};
}

/// Below this |det| (the sum of the edge functions, about the square of the triangle's extent
/// across the ray) step 4's products e * z can fall below the normal range and 1 / det overflow:
/// a float triangle 1e-20 across, seen by a ray of that scale, would be missed.
/// rescaled_t() then computes t from coordinates scaled up by a power of two.
template <typename T> constexpr T tiny_det() { return sizeof(T) >= 8 ? T(0x1p-500) : T(0x1p-64); }

/// Step 4 for a triangle whose |det| is below tiny_det(): its sheared x and y (as
/// triangle_edges() makes them) scaled up by the power of two that brings the largest to [0.5, 1)
/// — exactly, so every edge function keeps its sign (and zeros stay zero) — the edge functions
/// recomputed from them into `e`, and t from those. The scale cancels in t (and in the
/// barycentrics e / det), so only the rounding below the normal range is gone. A triangle already
/// that wide across the ray (largest |x|, |y| at least 0.5) is left as it is.
template <typename T> inline T rescaled_t(const TriangleShear<T>& s, const Triangle<T>& tri, T (&e)[3]) {
    RAYPICK_NO_CONTRACTION
    const auto transform = [&](const Vec3<T>& v) {
        const T p[3] = {v.x, v.y, v.z};
        const T x = p[s.kx] - s.ox, y = p[s.ky] - s.oy, z = p[s.kz] - s.oz;
        return Vec3<T>(x + s.sx * z, y + s.sy * z, z);
    };
    Vec3<T> p[3] = {transform(tri.a), transform(tri.b), transform(tri.c)};
    T m = T(0);
    for (const Vec3<T>& q : p) m = std::max(m, std::max(std::abs(q.x), std::abs(q.y)));
    int exponent = 0;
    std::frexp(m, &exponent);
    if (exponent < 0) {
        for (Vec3<T>& q : p) {
            q.x = std::ldexp(q.x, -exponent);
            q.y = std::ldexp(q.y, -exponent);
        }
        e[0] = edge_function(p[1].x, p[1].y, p[2].x, p[2].y);
        e[1] = edge_function(p[2].x, p[2].y, p[0].x, p[0].y);
        e[2] = edge_function(p[0].x, p[0].y, p[1].x, p[1].y);
        // Unscaled double products below 2^-969 can lose a sign the scaled ones keep: where the
        // scaled signs disagree, the ray misses (NaN: the callers drop a t that is not finite).
        const bool neg = e[0] < T(0) || e[1] < T(0) || e[2] < T(0), pos = e[0] > T(0) || e[1] > T(0) || e[2] > T(0);
        if (neg == pos) return std::numeric_limits<T>::quiet_NaN();
    }
    const T det = e[0] + e[1] + e[2];
    return (e[0] * p[0].z + e[1] * p[1].z + e[2] * p[2].z) * s.sz * (T(1) / det);
}

/// intersect()'s step 5: t kept within 64 eps of the line's passage through the triangle's
/// bounds (the slab distances along the axes the direction moves along; each within 2 ulps).
/// Returns false when that passage is empty by more than the margin (the line misses the bounds).
template <typename T> inline bool clamp_to_passage(const Ray<T>& ray, const Triangle<T>& tri, T& t) {
    RAYPICK_NO_CONTRACTION
    const Aabb<T> box = bounds(tri);
    T lo = -infinity<T>(), hi = infinity<T>();
    for (int k = 0; k < 3; ++k) {
        if (ray.direction[k] == T(0)) continue;
        const T ta = (box.min[k] - ray.origin[k]) / ray.direction[k];
        const T tb = (box.max[k] - ray.origin[k]) / ray.direction[k];
        lo = glm::max(lo, glm::min(ta, tb));
        hi = glm::min(hi, glm::max(ta, tb));
    }
    const T margin = T(64) * std::numeric_limits<T>::epsilon() * glm::max(std::abs(lo), std::abs(hi));
    t = glm::clamp(t, glm::min(lo, hi) - margin, glm::max(lo, hi) + margin);  // lo > hi by rounding only
    return !(hi + margin < lo);
}

/// The frame of triangle_hit()'s normal: the triangle's own (every vector as it is).
struct SameFrame {
    template <typename V> const V& operator()(const V& v) const { return v; }
};

/// Step 7: the hit at t of a ray whose edge functions e with the triangle are all of one sign
/// (det their non-zero sum): barycentrics, the winding's normal and the face. det > 0 when the
/// projected triangle runs counter-clockwise seen from +z (its normal points to +z; the shear and
/// the cyclic permutation keep orientation), so the ray meets the front face when it travels
/// towards -z. `area`: the triangle's area_vector(), not zero. The normal is frame(area)
/// normalised, once (an instance's frame maps normals to world space: MeshInstances.h).
template <typename T, typename Frame = SameFrame>
inline TriangleHit<T> triangle_hit(const Ray<T>& ray, const Vec3<TriangleWide<T>>& area, const TriangleShear<T>& s,
                                   const T (&e)[3], T det, T t, const Frame& frame = {}) {
    RAYPICK_NO_CONTRACTION
    using W = TriangleWide<T>;
    TriangleHit<T> h;
    h.t = t;
    h.barycentric = Vec3<T>(e[0] / det, e[1] / det, e[2] / det);  // quotients: each in [0, 1]
    h.front = (det > T(0)) != (s.dz > T(0));
    const Vec3<W> facing_ray = h.front ? -Vec3<W>(ray.direction) : Vec3<W>(ray.direction);
    h.normal = Vec3<T>(normalize_or_dir(frame(area), frame(facing_ray)));
    return h;
}

}  // namespace detail

/// Ray against triangle: the hit with t in [t_min, t_max], or empty.
///   - Two-sided: either face is hit; `front` says which.
///   - Closed: a ray whose sheared projection (see the top of this file) passes exactly through an
///     edge or vertex hits. That projection is exact when the vertices less the origin and their
///     shear need no rounding (an axis-aligned ray, or direction ratios that are powers of two, on
///     short dyadic coordinates); otherwise a lone triangle's edge is decided to within the
///     rounding of its vertices' projection.
///   - Watertight: a ray through a point of an edge or vertex shared by triangles of a closed mesh
///     (the same vertex values, in either winding) hits at least one of them, in float and double.
///   - A ray parallel to the triangle's plane misses when its projection computes to zero area,
///     which is exact for a plane and ray direction along coordinate axes; a ray in or parallel to
///     a tilted plane, up to rounding, may be taken as crossing it somewhere in the triangle's
///     bounds. A zero-area triangle (is_degenerate()) is never hit.
///   - t is the barycentric mix of the vertices' distances along the ray, in units of the ray's
///     direction: within a few ulps of the exact crossing for a well-shaped triangle, and always
///     with ray.at(t) in bounds(tri) up to rounding (kept within 64 eps of the line's passage
///     through it; a line that misses bounds(tri) misses). Vertices beyond about 1e12 (float)
///     or 1e102 (double) from the origin overflow the products: a miss.
///   - Re-casting from a hit point: ray.at(t) is rounded, so a ray leaving it may hit the same
///     triangle again, where it is within rounding of the plane (|t (direction . normal)| at most
///     16 ulps of the largest coordinate). A ray started from the point moved off the plane along
///     the normal, to the side it leaves towards, by 2^-16 (float) or 2^-45 (double) times the
///     largest magnitude of the point's and vertices' coordinates, does not hit it again.
///   - Invalid input (NaN, infinities, a zero direction, t_min > t_max) misses.
template <typename T>
std::optional<TriangleHit<T>> intersect(const Ray<T>& ray, const Triangle<T>& tri, T t_min = T(0),
                                        T t_max = infinity<T>()) {
    RAYPICK_NO_CONTRACTION
    std::optional<TriangleHit<T>> out;
    if (!every(is_valid(ray), is_valid(tri), detail::valid_range(t_min, t_max))) return out;
    // 1, 2. The ray's permutation and shear; 3. the triangle's edge functions. Inside (edges
    //    included) when none has a sign opposite to another's.
    const detail::TriangleShear<T> s = detail::triangle_shear(ray);
    const detail::TriangleEdges<T> w = detail::triangle_edges(s, tri);
    const T e0 = w.e[0], e1 = w.e[1], e2 = w.e[2];
    const bool has_neg = (e0 < T(0)) | (e1 < T(0)) | (e2 < T(0));
    const bool has_pos = (e0 > T(0)) | (e1 > T(0)) | (e2 > T(0));
    if (has_neg && has_pos) return out;
    T det = e0 + e1 + e2;  // same-signed terms: zero only when all three are
    if (det == T(0)) return out;  // parallel to the plane, or zero area along the ray
    // 4. The crossing's distance: the barycentric mix of the vertices' z, scaled by 1 / d.z; for
    //    a triangle tiny across the ray, from coordinates scaled up (the edge functions with them).
    T e[3] = {e0, e1, e2};
    T t;
    if (std::abs(det) < detail::tiny_det<T>()) {
        t = detail::rescaled_t(s, tri, e);
        det = e[0] + e[1] + e[2];
    } else {
        t = (e0 * w.z[0] + e1 * w.z[1] + e2 * w.z[2]) * s.sz * (T(1) / det);
    }
    if (!is_finite(t)) return out;
    // 5. When the projection is ill-conditioned (a ray nearly in the plane) the weights' rounding
    //    can move t along the ray past the triangle, or call inside a line that misses it. The
    //    line's passage through the triangle's bounds holds the true crossing: a line whose
    //    passage is empty by more than 64 eps misses (each slab distance is within 2 ulps, so a
    //    line through a point of the triangle is never dropped), and t is kept within 64 eps of
    //    the passage (far beyond the few ulps of a well-conditioned t, which it leaves alone). On
    //    an axis the direction does not move along, the shear is exact and the edge functions'
    //    exact signs already miss a line outside the bounds.
    if (!detail::clamp_to_passage(ray, tri, t)) return out;
    if (!every(t >= t_min, t <= t_max)) return out;
    // 6. A zero-area triangle is never hit, whatever its projection rounded to.
    using W = detail::TriangleWide<T>;
    const Vec3<W> area = detail::area_vector(tri);
    if (area == Vec3<W>(W(0))) return out;
    // 7. Barycentrics, the winding's normal and the face.
    out = detail::triangle_hit(ray, area, s, e, det, t);
    return out;
}

/// Ray against triangle as every shape type answers it (RayHit.h): the crossing [t, t] of
/// intersect(), with n_near the normal facing the ray (the winding normal for a front hit, its
/// opposite for a back hit) and n_far its opposite, as a flat shape crossed once. Empty exactly
/// when intersect() is.
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
