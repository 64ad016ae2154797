// raypick geometry: input validation. Every cast also checks is_valid() itself and returns a miss
// on invalid input; validate() is for callers (loaders, editors) that need to say what is wrong.
#pragma once

#include <cmath>
#include <limits>
#include <optional>
#include <sstream>
#include <string>

#include "geometry/Math.h"
#include "geometry/Ray.h"
#include "geometry/Shapes.h"

namespace raypick {

/// What is wrong with an input: the offending field ("radius", "direction", "rotation", ...) and
/// a sentence saying why, e.g. {"radius", "radius must be >= 0, got -1"}.
struct InputError {
    std::string field;
    std::string message;
};

namespace detail {
template <typename T> std::string str(const Vec3<T>& v) {
    std::ostringstream os;
    os.precision(9);
    os << "(" << v.x << ", " << v.y << ", " << v.z << ")";
    return os.str();
}
template <typename T> std::string str(T v) {
    std::ostringstream os;
    os.precision(9);
    os << v;
    return os.str();
}
template <typename T> bool nonneg_finite(T v) { return (v >= T(0)) & (v <= std::numeric_limits<T>::max()); }
template <typename T> bool nonneg_finite(const Vec3<T>& v) {
    return nonneg_finite(v.x) && nonneg_finite(v.y) && nonneg_finite(v.z);
}
}  // namespace detail

// ---- fast checks (no allocation), used by every cast -------------------------------------------
// Conditions are combined by every() (no short circuit) rather than &&: valid input is the common
// case, and one branch on the whole predicate is cheaper than a chain of short-circuit branches.

/// Finite origin; finite direction whose squared length neither underflows to 0 nor overflows.
template <typename T> inline bool is_valid(const Ray<T>& r) {
    const T dd = glm::dot(r.direction, r.direction);
    return every(is_finite(r.origin), is_finite(r.direction), dd > T(0), dd <= std::numeric_limits<T>::max());
}
template <typename T> inline bool is_valid(const Sphere<T>& s) {
    return every(is_finite(s.center), detail::nonneg_finite(s.radius));
}
template <typename T> inline bool is_valid(const Aabb<T>& b) {
    return every(is_finite(b.min), is_finite(b.max), b.min.x <= b.max.x, b.min.y <= b.max.y, b.min.z <= b.max.z);
}
/// The same predicate as validate() (orthonormality_error() within tolerance, determinant > 0,
/// finite centre, finite non-negative extents), computed without branches or a max chain: each
/// of the six entries of R^T R - I compared with the tolerance, combined with &. A NaN or
/// infinite rotation entry fails these comparisons, so it needs no separate finiteness test.
template <typename T> inline bool is_valid(const Obb<T>& b) {
    const Vec3<T>& c0 = b.rotation[0];
    const Vec3<T>& c1 = b.rotation[1];
    const Vec3<T>& c2 = b.rotation[2];
    const T tol = orthonormality_tolerance<T>();
    const bool orthonormal =
        every(std::abs(glm::dot(c0, c0) - T(1)) <= tol, std::abs(glm::dot(c1, c1) - T(1)) <= tol,
              std::abs(glm::dot(c2, c2) - T(1)) <= tol, std::abs(glm::dot(c0, c1)) <= tol,
              std::abs(glm::dot(c0, c2)) <= tol, std::abs(glm::dot(c1, c2)) <= tol);
    const Vec3<T>& h = b.half_extents;
    const T big = std::numeric_limits<T>::max();
    return every(orthonormal, glm::dot(glm::cross(c0, c1), c2) > T(0), is_finite(b.center), h.x >= T(0),
                 h.y >= T(0), h.z >= T(0), h.x <= big, h.y <= big, h.z <= big);
}
template <typename T> inline bool is_valid(const Capsule<T>& c) {
    return every(is_finite(c.a), is_finite(c.b), detail::nonneg_finite(c.radius));
}

// ---- explanations -------------------------------------------------------------------------------

/// Empty when `r` is valid, else what is wrong with it.
template <typename T> std::optional<InputError> validate(const Ray<T>& r) {
    using detail::str;
    if (!is_finite(r.origin)) return InputError{"origin", "origin must be finite, got " + str(r.origin)};
    if (!is_finite(r.direction))
        return InputError{"direction", "direction must be finite, got " + str(r.direction)};
    if (!(glm::dot(r.direction, r.direction) > T(0)))
        return InputError{"direction", "direction must be non-zero (its squared length must not "
                                        "underflow), got " + str(r.direction)};
    if (!(glm::dot(r.direction, r.direction) <= std::numeric_limits<T>::max()))
        return InputError{"direction", "direction is too long (its squared length overflows; scale "
                                        "it down, t scales with it), got " + str(r.direction)};
    return std::nullopt;
}

template <typename T> std::optional<InputError> validate(const Sphere<T>& s) {
    using detail::str;
    if (!is_finite(s.center)) return InputError{"center", "center must be finite, got " + str(s.center)};
    if (!detail::nonneg_finite(s.radius))
        return InputError{"radius", "radius must be finite and >= 0, got " + str(s.radius)};
    return std::nullopt;
}

template <typename T> std::optional<InputError> validate(const Aabb<T>& b) {
    using detail::str;
    if (!is_finite(b.min)) return InputError{"min", "min must be finite, got " + str(b.min)};
    if (!is_finite(b.max)) return InputError{"max", "max must be finite, got " + str(b.max)};
    for (int i = 0; i < 3; ++i)
        if (!(b.min[i] <= b.max[i]))
            return InputError{"min", std::string("min must be <= max on every axis; on ") +
                                         "xyz"[i] + " min is " + str(b.min[i]) + " and max is " +
                                         str(b.max[i])};
    return std::nullopt;
}

template <typename T> std::optional<InputError> validate(const Obb<T>& b) {
    using detail::str;
    if (!is_finite(b.center)) return InputError{"center", "center must be finite, got " + str(b.center)};
    if (!detail::nonneg_finite(b.half_extents))
        return InputError{"half_extents",
                          "half extents must be finite and >= 0, got " + str(b.half_extents)};
    if (!is_finite(b.rotation)) return InputError{"rotation", "rotation must be finite"};
    const T err = orthonormality_error(b.rotation);
    if (!(err <= orthonormality_tolerance<T>()))
        return InputError{"rotation", "rotation axes must be orthonormal (unit length, mutually "
                                      "perpendicular); they are off by " + str(err) +
                                      ", tolerance " + str(orthonormality_tolerance<T>())};
    if (!(glm::dot(glm::cross(b.rotation[0], b.rotation[1]), b.rotation[2]) > T(0)))
        return InputError{"rotation", "rotation must be a proper rotation (determinant +1), got a "
                                      "reflection (determinant -1)"};
    return std::nullopt;
}

template <typename T> std::optional<InputError> validate(const Capsule<T>& c) {
    using detail::str;
    if (!is_finite(c.a)) return InputError{"a", "end point a must be finite, got " + str(c.a)};
    if (!is_finite(c.b)) return InputError{"b", "end point b must be finite, got " + str(c.b)};
    if (!detail::nonneg_finite(c.radius))
        return InputError{"radius", "radius must be finite and >= 0, got " + str(c.radius)};
    return std::nullopt;
}

}  // namespace raypick
