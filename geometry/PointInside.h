// raypick geometry: where a point stands against a shape's solid — inside, on its surface, or
// outside — decided exactly from the shape's own fields (expansion arithmetic, ExactPredicates.h),
// so the answer never depends on rounding, a direction or a thread. The point and the shape are
// first scaled together by the power of two that brings their largest magnitude to [1/2, 1), so
// no product overflows: exact for float input, and for double input whose non-zero differences,
// radii and extents are at least 2^-240 times that magnitude.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <type_traits>
#include <utility>
#include <variant>

#include <raypick/geometry/ExactPredicates.h>
#include <raypick/geometry/Shape.h>

namespace raypick {

/// Where a point stands against a solid.
enum class Containment : std::uint8_t {
    Outside,
    Inside,     ///< in the solid's interior
    OnSurface,  ///< on its boundary (a closed solid holds it)
    NoInside,   ///< the object bounds no solid: a triangle, or a mesh that is not closed
};

/// Whether `c` is in the closed solid (Inside or OnSurface).
inline bool holds(Containment c) { return c == Containment::Inside || c == Containment::OnSurface; }

namespace detail {

/// Containment from the exact sign of f(p), the solid being f <= 0 (its boundary f == 0).
inline Containment from_sign(int s) {
    return s < 0 ? Containment::Inside : s == 0 ? Containment::OnSurface : Containment::Outside;
}

/// The power of two that brings the largest magnitude of the values to [1/2, 1), and a value
/// scaled by it.
template <typename T> inline int unit_exponent_of(std::initializer_list<T> values) {
    double m = 0.0;
    for (T v : values) m = std::max(m, std::abs(double(v)));
    int e = 0;
    if (m > 0.0) std::frexp(m, &e);
    return -e;
}
inline double scaled(double v, int k) { return std::ldexp(v, k); }
template <typename T> inline Vec3<double> scaled(const Vec3<T>& v, int k) {
    return {std::ldexp(double(v.x), k), std::ldexp(double(v.y), k), std::ldexp(double(v.z), k)};
}

/// |p - c|^2 exactly.
template <typename T> inline exact::detail::Expansion squared_distance(const Vec3<T>& p, const Vec3<T>& c) {
    using namespace exact::detail;
    Expansion out;
    for (int k = 0; k < 3; ++k) {
        const Expansion d = difference(double(p[k]), double(c[k]));
        out.add(product(d, d));
    }
    return out;
}

/// The sign of |p - c|^2 - r^2, exactly.
template <typename T> inline int ball_sign(const Vec3<T>& p, const Vec3<T>& c, T r) {
    using namespace exact::detail;
    const Expansion rr{double(r)};
    return minus(squared_distance(p, c), product(rr, rr)).sign();
}

}  // namespace detail

/// The point against a sphere's ball: |p - centre| against the radius, exactly. A radius 0
/// sphere is the point itself (OnSurface there). Outside for a non-finite point or an invalid
/// sphere.
template <typename T> Containment containment(const Vec3<T>& p, const Sphere<T>& s) {
    if (!is_finite(p) || !is_valid(s)) return Containment::Outside;
    const int k = detail::unit_exponent_of<T>({p.x, p.y, p.z, s.center.x, s.center.y, s.center.z, s.radius});
    return detail::from_sign(detail::ball_sign(detail::scaled(p, k), detail::scaled(s.center, k), detail::scaled(double(s.radius), k)));
}

/// The point against an axis-aligned box [min, max] (closed; a flat box has no interior).
template <typename T> Containment containment(const Vec3<T>& p, const Aabb<T>& b) {
    if (!is_finite(p) || !is_valid(b)) return Containment::Outside;
    bool boundary = false;
    for (int k = 0; k < 3; ++k) {
        if (p[k] < b.min[k] || p[k] > b.max[k]) return Containment::Outside;
        boundary = boundary || p[k] == b.min[k] || p[k] == b.max[k];
    }
    return boundary ? Containment::OnSurface : Containment::Inside;
}

/// The point against an oriented box: |axis_k . (p - centre)| against half_extents[k] for each of
/// the rotation's columns, exactly (the box is taken as the casts take it: its rotation's
/// transpose maps into the box's frame).
template <typename T> Containment containment(const Vec3<T>& p, const Obb<T>& b) {
    using namespace exact::detail;
    if (!is_finite(p) || !is_valid(b)) return Containment::Outside;
    // The rotation's entries are at most about 1: only the positions and extents are scaled.
    const int k = raypick::detail::unit_exponent_of<T>({p.x, p.y, p.z, b.center.x, b.center.y, b.center.z,
                                                        b.half_extents.x, b.half_extents.y, b.half_extents.z});
    const Vec3<double> q = raypick::detail::scaled(p, k), c = raypick::detail::scaled(b.center, k);
    const Vec3<double> half = raypick::detail::scaled(b.half_extents, k);
    const Expansion d[3] = {difference(q.x, c.x), difference(q.y, c.y), difference(q.z, c.z)};
    bool boundary = false;
    for (int k = 0; k < 3; ++k) {
        Expansion along;
        for (int j = 0; j < 3; ++j) along.add(product(d[j], Expansion(double(b.rotation[k][j]))));
        const Expansion h{half[k]};
        const int above = minus(along, h).sign(), below = sum(along, h).sign();  // along - h, along + h
        if (above > 0 || below < 0) return Containment::Outside;
        boundary = boundary || above == 0 || below == 0;
    }
    return boundary ? Containment::OnSurface : Containment::Inside;
}

/// The point against a capsule: its distance to the segment a-b against the radius, exactly. The
/// point's region along the segment (before a, past b, between) is decided exactly too, so a == b
/// is the ball at a and radius 0 the segment.
template <typename T> Containment containment(const Vec3<T>& p, const Capsule<T>& c) {
    using namespace exact::detail;
    if (!is_finite(p) || !is_valid(c)) return Containment::Outside;
    const int e = raypick::detail::unit_exponent_of<T>({p.x, p.y, p.z, c.a.x, c.a.y, c.a.z, c.b.x, c.b.y, c.b.z, c.radius});
    const Vec3<double> q = raypick::detail::scaled(p, e), a = raypick::detail::scaled(c.a, e);
    const Vec3<double> b = raypick::detail::scaled(c.b, e);
    const double radius = raypick::detail::scaled(double(c.radius), e);
    Expansion u[3], w[3];
    for (int k = 0; k < 3; ++k) {
        u[k] = difference(b[k], a[k]);
        w[k] = difference(q[k], a[k]);
    }
    Expansion along, length2;  // w . u, u . u
    for (int k = 0; k < 3; ++k) {
        along.add(product(w[k], u[k]));
        length2.add(product(u[k], u[k]));
    }
    if (along.sign() <= 0) return raypick::detail::from_sign(raypick::detail::ball_sign(q, a, radius));
    if (minus(along, length2).sign() >= 0) return raypick::detail::from_sign(raypick::detail::ball_sign(q, b, radius));
    // Between the ends: |w x u|^2 <= r^2 |u|^2 (|w x u| / |u| is the distance to the line).
    Expansion cross2;
    for (int k = 0; k < 3; ++k) {
        const int i = (k + 1) % 3, j = (k + 2) % 3;
        const Expansion m = minus(product(w[i], u[j]), product(w[j], u[i]));
        cross2.add(product(m, m));
    }
    const Expansion rr{radius};
    return raypick::detail::from_sign(minus(cross2, product(product(rr, rr), length2)).sign());
}

/// A triangle bounds no solid.
template <typename T> Containment containment(const Vec3<T>&, const Triangle<T>&) { return Containment::NoInside; }

namespace detail {
template <typename T, typename S, typename = void> struct HasContainment : std::false_type {};
template <typename T, typename S>
struct HasContainment<T, S, std::void_t<decltype(containment(std::declval<const Vec3<T>&>(), std::declval<const S&>()))>>
    : std::true_type {};
}  // namespace detail

/// The point against any shape (the overloads above, found by argument-dependent lookup; a type
/// without one bounds no solid).
template <typename T> Containment containment(const Vec3<T>& p, const Shape<T>& s) {
    return std::visit(
        [&](const auto& shape) -> Containment {
            using S = std::decay_t<decltype(shape)>;
            if constexpr (detail::HasContainment<T, S>::value) return containment(p, shape);
            else return Containment::NoInside;
        },
        s);
}

}  // namespace raypick
