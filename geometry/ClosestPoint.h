// raypick geometry: closest points. For a query point p and a shape, the point of the shape's
// surface nearest to p, its distance, the feature it lies on (face, edge, vertex), that feature's
// normal and whether p lies inside the solid. Here for each shape type and any Shape; meshes,
// instances and the shape hierarchy walk their trees with these (MeshClosest.inl,
// InstanceClosest.inl, BvhClosest.inl), pruning by box distance.
//
// Scale: every computation that squares lengths does so in a frame scaled by a power of two (an
// exact scaling) in which the query's offset and the shape's extent are about 1, so no result
// over- or underflows for finite inputs whose coordinate differences are finite (coordinates
// below half the largest finite value; float 1e-38 to 1e38, double 1e-307 to 1e307). Parts of a
// shape smaller than about 2^-24 (float) or 2^-53 (double) of the larger of those two may be lost
// to rounding there, as they are in the inputs' own precision.
#pragma once

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <type_traits>
#include <utility>
#include <variant>

#include <raypick/geometry/Math.h>
#include <raypick/geometry/Shape.h>
#include <raypick/geometry/TargetIsa.h>

namespace raypick {

/// The part of a shape's surface a closest point lies on.
enum class Feature : std::uint8_t { Face, Edge, Vertex };

/// The point of a shape's surface nearest to a query point p (closest_point()).
///
/// - distance: |p - point| >= 0, the Euclidean distance to the surface, also from inside (signed
///   distance: signed_distance()).
/// - normal: unit, the feature's outward normal at the point: a face's normal, a sphere's or
///   capsule's radial direction; for a box's edge or corner the direction from the point to p.
///   Each shape's closest_point() says what it takes where that direction is zero.
/// - feature, index: which face, edge or vertex (per shape type, documented at its function).
/// - inside: p lies strictly inside the solid (never for a triangle: it has no inside).
template <typename T> struct SurfacePoint {
    T distance = T(0);
    Vec3<T> point{T(0)};
    Vec3<T> normal{T(0), T(1), T(0)};
    Feature feature = Feature::Face;
    std::uint8_t index = 0;
    bool inside = false;

    /// Negative inside the solid: inside ? -distance : distance.
    T signed_distance() const { return inside ? -distance : distance; }
};

/// closest_point() of a triangle with the point's barycentric coordinates: weights of a, b, c,
/// each in [0, 1], summing to 1 up to rounding (exact 0 and 1 at edges and vertices).
template <typename T> struct TrianglePoint {
    SurfacePoint<T> surface;
    Vec3<T> barycentric{T(1), T(0), T(0)};
};

namespace detail {

/// A power of two s and its inverse (both normal numbers) with m s in [0.5, 1) for finite m > 0
/// of normal size; m s in [2^-24, 4) (double: [2^-53, 4)) at the ends of the range; 1 for m = 0
/// or a non-finite m.
template <typename T> struct Pow2Scale {
    T s = T(1), inv = T(1);
};
template <typename T> inline Pow2Scale<T> pow2_scale(T m) {
    if (!(m > T(0)) || !(m <= std::numeric_limits<T>::max())) return {};
    int e = 0;
    (void)std::frexp(m, &e);
    constexpr int kLimit = std::numeric_limits<T>::max_exponent - 2;  // float 126: s and 1 / s normal
    e = std::clamp(e, -kLimit, kLimit);
    return {std::ldexp(T(1), -e), std::ldexp(T(1), e)};
}

/// |v| without over- or underflow of its square for finite v (|v| itself overflows only beyond
/// the largest finite value): the plain square root where the squared length is a normal number,
/// else in a frame scaled by a power of two.
template <typename T> inline T length_of(const Vec3<T>& v) {
    const T l2 = glm::dot(v, v);
    if (l2 >= std::numeric_limits<T>::min() && l2 <= std::numeric_limits<T>::max()) return std::sqrt(l2);
    const Pow2Scale<T> sc = pow2_scale(max_abs(v));
    const Vec3<T> u = v * sc.s;
    return std::sqrt(glm::dot(u, u)) * sc.inv;
}

/// A unit vector perpendicular to v (v non-zero): v crossed with the coordinate axis along which v
/// is shortest (the first of equal ones), normalised. +y for a zero v.
template <typename T> inline Vec3<T> any_perpendicular(const Vec3<T>& v) {
    const Vec3<T> a = glm::abs(v);
    const int k = a.x <= a.y ? (a.x <= a.z ? 0 : 2) : (a.y <= a.z ? 1 : 2);
    Vec3<T> e(T(0));
    e[k] = T(1);
    return normalize_or(glm::cross(v, e), Vec3<T>(T(0), T(1), T(0)));
}

/// The closest point of the box [lo, hi] to l, in the box's own frame: the point q, the normal n
/// in that frame (a face's axis, or the unit direction from q to l for an edge or corner), and
/// feature, index, distance and inside as closest_point(p, Aabb) documents them.
template <typename T> struct BoxPoint {
    Vec3<T> q, n;
    T distance;
    Feature feature;
    std::uint8_t index;
    bool inside;
};
template <typename T> inline BoxPoint<T> box_closest(const Vec3<T>& l, const Vec3<T>& lo, const Vec3<T>& hi) {
    BoxPoint<T> out{l, Vec3<T>(T(0)), T(0), Feature::Face, 0, false};
    // Clamp to the box: the axes where l lies outside, and on which side.
    unsigned clamped = 0, max_side = 0;
    for (int a = 0; a < 3; ++a) {
        if (l[a] < lo[a]) {
            out.q[a] = lo[a];
            clamped |= 1u << a;
        } else if (l[a] > hi[a]) {
            out.q[a] = hi[a];
            clamped |= 1u << a;
            max_side |= 1u << a;
        }
    }
    if (clamped != 0) {
        // Outside: one clamped axis is a face, two an edge (along the third axis), three a corner.
        const Vec3<T> d = l - out.q;  // non-zero on every clamped axis
        out.distance = length_of(d);
        const int count = __builtin_popcount(clamped);
        if (count == 1) {
            const int a = __builtin_ctz(clamped);
            const bool plus = (max_side >> a) & 1u;
            out.feature = Feature::Face;
            out.index = std::uint8_t(2 * a + (plus ? 1 : 0));
            out.n[a] = plus ? T(1) : T(-1);
        } else {
            out.n = normalize_or(d, Vec3<T>(T(0), T(1), T(0)));
            if (count == 2) {
                const int k = __builtin_ctz(~clamped & 7u);
                out.feature = Feature::Edge;
                out.index = std::uint8_t(4 * k + int((max_side >> ((k + 1) % 3)) & 1u) +
                                         2 * int((max_side >> ((k + 2) % 3)) & 1u));
            } else {
                out.feature = Feature::Vertex;
                out.index = std::uint8_t(max_side);
            }
        }
        return out;
    }
    // Inside or on the surface: the nearest face, the first of equally near ones in index order.
    T best = infinity<T>();
    int face = 0;
    for (int a = 0; a < 3; ++a) {
        const T to_lo = l[a] - lo[a], to_hi = hi[a] - l[a];
        if (to_lo < best) best = to_lo, face = 2 * a;
        if (to_hi < best) best = to_hi, face = 2 * a + 1;
    }
    const int a = face / 2;
    out.q[a] = face & 1 ? hi[a] : lo[a];
    out.n[a] = face & 1 ? T(1) : T(-1);
    out.distance = best;
    out.index = std::uint8_t(face);
    out.inside = best > T(0);
    return out;
}

/// The closest point of the segment from start to end to p in the frame where p - start is
/// `rel` and end - start is `dir` (both scaled alike): the parameter t in [0, 1] (0 when the
/// segment has no length there) and the squared distance in that frame.
template <typename W> inline W segment_parameter(const Vec3<W>& rel, const Vec3<W>& dir, W& dist2) {
    RAYPICK_NO_CONTRACTION
    const W den = glm::dot(dir, dir);
    W t = W(0);
    if (den > W(0)) t = std::clamp(glm::dot(rel, dir) / den, W(0), W(1));
    const Vec3<W> diff = rel - dir * t;
    dist2 = glm::dot(diff, diff);
    return t;
}

}  // namespace detail

/// The closest point of sphere s's surface to p. Feature Face, index 0 (a sphere of radius 0 too,
/// a point). normal: (p - center) / |p - center|, outward; +y (0, 1, 0) for p exactly at the
/// centre, where every surface point is as near, the point then center + radius * (0, 1, 0).
/// inside: |p - center| < radius. distance = | |p - center| - radius |, within a few ulps of
/// |p - center| + radius. Empty for an invalid sphere or a non-finite p.
template <typename T> std::optional<SurfacePoint<T>> closest_point(const Vec3<T>& p, const Sphere<T>& s) {
    if (!is_finite(p) || !is_valid(s)) return std::nullopt;
    const Vec3<T> d = p - s.center;
    const T len = detail::length_of(d);
    SurfacePoint<T> out;
    out.normal = normalize_or(d, Vec3<T>(T(0), T(1), T(0)));
    out.point = s.center + out.normal * s.radius;
    out.distance = std::abs(len - s.radius);
    out.inside = len < s.radius;
    return out;
}

/// The closest point of box b's surface to p.
/// - p outside: the clamp of p to the box; on a face (one coordinate clamped), an edge (two) or a
///   corner (three). Faces: index 0..5 = -x, +x, -y, +y, -z, +z. Edges: 0..3 run along x, 4..7
///   along y, 8..11 along z; within each four, +1 on the max side of the next axis (y for x edges,
///   z for y edges, x for z edges) and +2 on the max side of the one after. Corners: index
///   x | y << 1 | z << 2, a bit set for the max side. normal: a face's axis, else the unit
///   direction from the point to p.
/// - p inside or on the surface: the nearest face, the first in index order among equally near
///   ones (so a point on an edge or corner counts as on its face of least index), p moved onto it;
///   normal that face's. inside: p strictly inside (distance > 0).
/// Flat boxes (min == max on an axis) are the rectangle, segment or point they are: a point in
/// their plane and within them is at distance 0 on face -axis. The point is exact (a clamp or a
/// coordinate replaced); distance within an ulp (inside: one rounded subtraction) or a few ulps
/// of |p - point| (outside). Empty for an invalid box or a non-finite p.
template <typename T> std::optional<SurfacePoint<T>> closest_point(const Vec3<T>& p, const Aabb<T>& b) {
    if (!is_finite(p) || !is_valid(b)) return std::nullopt;
    const detail::BoxPoint<T> bp = detail::box_closest(p, b.min, b.max);
    return SurfacePoint<T>{bp.distance, bp.q, bp.n, bp.feature, bp.index, bp.inside};
}

/// The closest point of oriented box b's surface to p: closest_point() of the box [-h, h] (h the
/// half extents) to R^T (p - center) in the box's frame, the point and normal mapped back
/// (center + R q, R n normalised). Faces, edges and corners are numbered as for Aabb with x, y, z
/// the box's axes (R's columns). Zero extents give a rectangle, segment or point. distance is
/// the box frame's, within a few ulps of |p - point| for an exactly orthonormal R; a rotation
/// orthonormal only within validate()'s tolerance adds up to about that tolerance, relative.
/// Empty for an invalid box or a non-finite p.
template <typename T> std::optional<SurfacePoint<T>> closest_point(const Vec3<T>& p, const Obb<T>& b) {
    if (!is_finite(p) || !is_valid(b)) return std::nullopt;
    const Vec3<T> d = p - b.center;
    const Vec3<T> l(glm::dot(b.rotation[0], d), glm::dot(b.rotation[1], d), glm::dot(b.rotation[2], d));
    const detail::BoxPoint<T> bp = detail::box_closest(l, -b.half_extents, b.half_extents);
    SurfacePoint<T> out{bp.distance, b.center + b.rotation * bp.q, Vec3<T>(T(0)), bp.feature, bp.index, bp.inside};
    out.normal = normalize_or(b.rotation * bp.n, Vec3<T>(T(0), T(1), T(0)));
    return out;
}

/// The closest point of capsule c's surface to p: x the point of segment a-b nearest to p, the
/// point x + radius * n with n = (p - x) / |p - x|. Feature Face: index 0 the side (x strictly
/// between a and b), 1 the cap at a (x = a, also for a == b: the capsule is a sphere), 2 the cap
/// at b. Where p lies on the segment (n undefined): n is a unit vector perpendicular to the axis
/// (detail::any_perpendicular(b - a)), or +y when a == b. inside: |p - x| < radius. Radius 0 is
/// the segment itself. distance within a few ulps of |p - x| + radius. Empty for an invalid
/// capsule or a non-finite p.
template <typename T> std::optional<SurfacePoint<T>> closest_point(const Vec3<T>& p, const Capsule<T>& c) {
    RAYPICK_NO_CONTRACTION
    if (!is_finite(p) || !is_valid(c)) return std::nullopt;
    // The axis parameter in a frame where the axis and p's offset are about 1.
    const Vec3<T> ab = c.b - c.a, ap = p - c.a;
    const detail::Pow2Scale<T> sc = detail::pow2_scale(std::max(detail::max_abs(ab), detail::max_abs(ap)));
    T dist2;
    const T t = detail::segment_parameter(ap * sc.s, ab * sc.s, dist2);
    const Vec3<T> x = t == T(0) ? c.a : t == T(1) ? c.b : c.a + ab * t;
    // Radially out from the axis point. Strictly between the ends, p's offset from it is
    // perpendicular to the axis, except for x's rounding along the axis, which would turn the
    // normal (wholly, for p within rounding of the axis) and take the point inside: that part is
    // removed.
    Vec3<T> d = (p - x) * sc.s;
    if (t > T(0) && t < T(1)) {
        const Vec3<T> sab = ab * sc.s;
        d -= sab * (glm::dot(d, sab) / glm::dot(sab, sab));
    }
    const T len = detail::length_of(d) * sc.inv;
    SurfacePoint<T> out;
    out.normal = normalize_or(d, detail::any_perpendicular(ab));
    out.point = x + out.normal * c.radius;
    out.distance = std::abs(len - c.radius);
    out.index = std::uint8_t(t == T(0) ? 1 : t == T(1) ? 2 : 0);
    out.inside = len < c.radius;
    return out;
}

namespace detail {
/// The closest of the triangle's three edges as segments (ab, bc, ca; the first of equally near
/// ones) in the frame scaled by sc, each edge's parameter from its own start vertex.
template <typename T>
inline TrianglePoint<T> closest_on_edges(const Vec3<T>& p, const Triangle<T>& tri, const Pow2Scale<T>& sc) {
    RAYPICK_NO_CONTRACTION
    using W = TriangleWide<T>;
    const Vec3<T>* v[3] = {&tri.a, &tri.b, &tri.c};
    int edge = 0;
    W best2 = infinity<W>(), best_t = W(0);
    for (int e = 0; e < 3; ++e) {
        const Vec3<T>& from = *v[e];
        const Vec3<T>& to = *v[(e + 1) % 3];
        W d2;
        const W t = segment_parameter(Vec3<W>((p - from) * sc.s), Vec3<W>((to - from) * sc.s), d2);
        if (d2 < best2) best2 = d2, best_t = t, edge = e;
    }
    const Vec3<T>& from = *v[edge];
    const Vec3<T>& to = *v[(edge + 1) % 3];
    const T t = T(best_t);
    TrianglePoint<T> out;
    SurfacePoint<T>& s = out.surface;
    Vec3<T> w(T(0));
    if (t == T(0) || t == T(1)) {
        const int vertex = t == T(0) ? edge : (edge + 1) % 3;
        s.feature = Feature::Vertex;
        s.index = std::uint8_t(vertex);
        s.point = *v[vertex];
        w[vertex] = T(1);
    } else {
        s.feature = Feature::Edge;
        s.index = std::uint8_t(edge);
        s.point = from + (to - from) * t;
        w[edge] = T(1) - t;
        w[(edge + 1) % 3] = t;
    }
    out.barycentric = w;
    return out;
}
}  // namespace detail

/// The closest point of triangle tri to p with its barycentric coordinates (Ericson, Real-Time
/// Collision Detection, 5.1.5: the Voronoi regions of the vertices, then of the edges, then the
/// face), in a frame scaled by a power of two with its origin at a, in TriangleWide<T> (double
/// for float).
/// - feature, index: Vertex 0, 1, 2 (a, b, c); Edge 0 = ab, 1 = bc, 2 = ca; Face 0.
/// - normal: the unit winding normal, cross(b - a, c - a) normalised, whatever the feature (the
///   triangle is two-sided: the side p is on is the sign of dot(normal, p - point)). A zero-area
///   triangle (that cross product zero in the scaled frame: coincident or collinear vertices)
///   has none: there the unit direction from the point to p, or +y when p is on it.
/// - A zero-area triangle is its longest edge as a segment: the nearest of its three edges is
///   taken (the first of equally near ones, ab, bc, ca). So is any triangle whose face region
///   rounding leaves undecided (a sliver seen edge-on), which keeps the point on an edge.
/// - inside: always false.
/// The point lies on the triangle up to the rounding of its coordinates; distance is |p - point|
/// within a few ulps of the scale (the largest of |b - a|, |c - a|, |p - a|), at least the exact
/// distance less about 16 ulps of it. Empty for a non-finite vertex or p.
template <typename T>
std::optional<TrianglePoint<T>> closest_point_barycentric(const Vec3<T>& p, const Triangle<T>& tri) {
    RAYPICK_NO_CONTRACTION
    if (!is_finite(p) || !is_valid(tri)) return std::nullopt;
    using W = detail::TriangleWide<T>;
    const Vec3<T> ab = tri.b - tri.a, ac = tri.c - tri.a, ap = p - tri.a;
    const detail::Pow2Scale<T> sc = detail::pow2_scale(
        std::max(detail::max_abs(ab), std::max(detail::max_abs(ac), detail::max_abs(ap))));
    const Vec3<W> sab(ab * sc.s), sac(ac * sc.s), sap(ap * sc.s);
    const Vec3<W> area = glm::cross(sab, sac);
    TrianglePoint<T> out;
    SurfacePoint<T>& s = out.surface;
    // Distance and normal, once the point is set: diff is p less the point in the scaled frame.
    const auto finish = [&](const Vec3<W>& diff) {
        s.distance = T(detail::length_of(diff)) * sc.inv;
        if (area == Vec3<W>(W(0))) s.normal = normalize_or(p - s.point, Vec3<T>(T(0), T(1), T(0)));
        else s.normal = Vec3<T>(normalize_or(area, Vec3<W>(W(0), W(1), W(0))));
        return out;
    };
    const auto on_edges = [&]() {
        out = detail::closest_on_edges(p, tri, sc);
        return finish(Vec3<W>((p - s.point) * sc.s));
    };
    if (area == Vec3<W>(W(0))) return on_edges();
    // Vertex a's region.
    const W d1 = glm::dot(sab, sap), d2 = glm::dot(sac, sap);
    if (d1 <= W(0) && d2 <= W(0)) {
        s.feature = Feature::Vertex;
        s.index = 0;
        s.point = tri.a;
        out.barycentric = Vec3<T>(T(1), T(0), T(0));
        return finish(sap);
    }
    // Vertex b's.
    const Vec3<W> sbp((p - tri.b) * sc.s);
    const W d3 = glm::dot(sab, sbp), d4 = glm::dot(sac, sbp);
    if (d3 >= W(0) && d4 <= d3) {
        s.feature = Feature::Vertex;
        s.index = 1;
        s.point = tri.b;
        out.barycentric = Vec3<T>(T(0), T(1), T(0));
        return finish(sbp);
    }
    // Edge ab's: the weight of b, d1 / (d1 - d3), in [0, 1] (both terms of the sum >= 0).
    const W vc = d1 * d4 - d3 * d2;
    if (vc <= W(0) && d1 >= W(0) && d3 <= W(0)) {
        const W den = d1 - d3;
        const T v = den > W(0) ? T(d1 / den) : T(0);
        s.feature = Feature::Edge;
        s.index = 0;
        s.point = tri.a + ab * v;
        out.barycentric = Vec3<T>(T(1) - v, v, T(0));
        return finish(sap - sab * W(v));
    }
    // Vertex c's.
    const Vec3<W> scp((p - tri.c) * sc.s);
    const W d5 = glm::dot(sab, scp), d6 = glm::dot(sac, scp);
    if (d6 >= W(0) && d5 <= d6) {
        s.feature = Feature::Vertex;
        s.index = 2;
        s.point = tri.c;
        out.barycentric = Vec3<T>(T(0), T(0), T(1));
        return finish(scp);
    }
    // Edge ca's: the weight of c, d2 / (d2 - d6).
    const W vb = d5 * d2 - d1 * d6;
    if (vb <= W(0) && d2 >= W(0) && d6 <= W(0)) {
        const W den = d2 - d6;
        const T w = den > W(0) ? T(d2 / den) : T(0);
        s.feature = Feature::Edge;
        s.index = 2;
        s.point = tri.a + ac * w;
        out.barycentric = Vec3<T>(T(1) - w, T(0), w);
        return finish(sap - sac * W(w));
    }
    // Edge bc's: the weight of c, (d4 - d3) / ((d4 - d3) + (d5 - d6)).
    const W va = d3 * d6 - d5 * d4;
    const W to_c = d4 - d3, to_b = d5 - d6;
    if (va <= W(0) && to_c >= W(0) && to_b >= W(0)) {
        const W den = to_c + to_b;
        const T w = den > W(0) ? T(to_c / den) : T(0);
        const Vec3<T> bc = tri.c - tri.b;
        s.feature = Feature::Edge;
        s.index = 1;
        s.point = tri.b + bc * w;
        out.barycentric = Vec3<T>(T(0), T(1) - w, w);
        return finish(sbp - Vec3<W>(bc * sc.s) * W(w));
    }
    // The face: p's projection, weights va, vb, vc over their sum. Rounding can leave a weight
    // <= 0 here (a sliver); then the nearest edge decides.
    if (!(va > W(0) && vb > W(0) && vc > W(0))) return on_edges();
    const W den = va + vb + vc;
    const W v = vb / den, w = vc / den;
    s.feature = Feature::Face;
    s.index = 0;
    s.point = tri.a + ab * T(v) + ac * T(w);
    out.barycentric = Vec3<T>(T(va / den), T(v), T(w));
    return finish(sap - sab * v - sac * w);
}

/// closest_point_barycentric()'s surface point (see there).
template <typename T> std::optional<SurfacePoint<T>> closest_point(const Vec3<T>& p, const Triangle<T>& tri) {
    const auto c = closest_point_barycentric(p, tri);
    if (!c) return std::nullopt;
    return c->surface;
}

namespace detail {
template <typename T, typename S, typename = void> struct HasClosestPoint : std::false_type {};
template <typename T, typename S>
struct HasClosestPoint<T, S, std::void_t<decltype(closest_point(std::declval<const Vec3<T>&>(), std::declval<const S&>()))>>
    : std::true_type {};
}  // namespace detail

/// closest_point() of whichever shape `shape` holds. Empty for an invalid shape, a non-finite p,
/// and a shape type without a closest_point() of its own (RAYPICK_EXTRA_SHAPE_TYPES).
template <typename T> std::optional<SurfacePoint<T>> closest_point(const Vec3<T>& p, const Shape<T>& shape) {
    return std::visit(
        [&](const auto& s) -> std::optional<SurfacePoint<T>> {
            if constexpr (detail::HasClosestPoint<T, std::decay_t<decltype(s)>>::value) return closest_point(p, s);
            else return std::nullopt;
        },
        shape);
}

namespace detail {

/// A tree walk's query point and the scale of its box test: squared box distances are taken in
/// a frame scaled by a power of two s where |q|_inf + the tree's magnitude is about 1, so they
/// neither overflow nor lose a box to underflow.
template <typename T> struct BoxQuery {
    Vec3<T> q;
    T s;

    BoxQuery(const Vec3<T>& at, T tree_mag)
        : q(at), s(pow2_scale(std::min(max_abs(at) + tree_mag, std::numeric_limits<T>::max())).s) {}

    /// The squared distance from q to the box [lo, hi], scaled by s^2: at most the exact one
    /// times (1 + 3 eps) (plus the least normal number); infinite for an empty box (lo = +inf).
    T distance2(const Vec3<T>& lo, const Vec3<T>& hi) const {
        T d2 = T(0);
        for (int a = 0; a < 3; ++a) {
            const T d = std::max(lo[a] - q[a], q[a] - hi[a]);
            if (d > T(0)) {
                const T ds = d * s;
                d2 += ds * ds;
            }
        }
        return d2;
    }

    /// A box whose distance2() exceeds this lies farther than `limit` from q, for sure.
    T bound(T limit) const {
        const T l = limit * s;
        return l * l * (T(1) + T(64) * std::numeric_limits<T>::epsilon()) + std::numeric_limits<T>::min();
    }
};

/// A walk's stack entry: a child reference (a node or a leaf, as the tree says) and its box's
/// distance2().
template <typename T, typename Ref> struct WalkEntry {
    Ref ref;
    T d2;
};

/// Depth-first walk of a wide tree by distance: from the root node (reference `root`),
/// expand(node, out) writes the node's children as WalkEntry (at most kWidth) and returns their
/// count; the children within query.bound(limit) are visited nearest first, the others never;
/// a leaf child is handed to leaf(ref), which may lower `limit` (children popped later are
/// checked against the lowered bound). The stack (kStack entries) is on the caller's stack.
template <std::size_t kStack, int kWidth, typename T, typename Ref, typename IsLeaf, typename Expand, typename Leaf>
inline void closest_walk(Ref root, const BoxQuery<T>& query, const T& limit, const IsLeaf& is_leaf,
                         const Expand& expand, const Leaf& leaf) {
    WalkEntry<T, Ref> stack[kStack];
    std::size_t top = 0;
    Ref node = root;
    for (;;) {
        // The node's children within the bound, pushed farthest first.
        WalkEntry<T, Ref> kids[kWidth];
        const int n = expand(node, kids);
        const T bound = query.bound(limit);
        const std::size_t base = top;
        for (int k = 0; k < n; ++k) {
            if (!(kids[k].d2 <= bound)) continue;
            assert(top < kStack);
            std::size_t j = top++;
            while (j > base && stack[j - 1].d2 < kids[k].d2) {
                stack[j] = stack[j - 1];
                --j;
            }
            stack[j] = kids[k];
        }
        // The nearest pushed child still within the bound; leaves are visited where popped.
        for (;;) {
            if (top == 0) return;
            const WalkEntry<T, Ref> e = stack[--top];
            if (!(e.d2 <= query.bound(limit))) continue;
            if (is_leaf(e.ref)) {
                leaf(e.ref);
                continue;
            }
            node = e.ref;
            break;
        }
    }
}

/// The slack a tree walk's pruning allows for the rounding of the distances it compares with: a
/// computed surface distance (a triangle's, a shape's) is at least the exact one less this, for a
/// query q and surfaces within `tree_mag` of the origin (256 ulps of |q|_inf + tree_mag).
template <typename T> inline T closest_margin(const Vec3<T>& q, T tree_mag) {
    const T mag = std::min(max_abs(q) + tree_mag, std::numeric_limits<T>::max());
    return T(256) * std::numeric_limits<T>::epsilon() * mag + std::numeric_limits<T>::min();
}

}  // namespace detail

}  // namespace raypick
