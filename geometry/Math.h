// raypick geometry: vector aliases and small numeric helpers shared by every ray/shape test.
#pragma once

#include <cmath>
#include <limits>

#include <glm/glm.hpp>

namespace raypick {

/// 3-vector and 3x3 matrix of scalar T (float or double), straight GLM types.
template <typename T> using Vec3 = glm::vec<3, T, glm::defaultp>;
template <typename T> using Mat3 = glm::mat<3, 3, T, glm::defaultp>;

template <typename T> constexpr T infinity() { return std::numeric_limits<T>::infinity(); }

/// Whether every condition holds, all of them evaluated: `a & b & ...` on bools, for hot-path
/// predicates where one branch on the whole is cheaper than a chain of short-circuit branches.
/// A function rather than a bare `&` between calls, which clang's -Wbitwise-instead-of-logical
/// (in -Wall) flags as a possible typo for `&&`.
template <typename... B> inline bool every(B... conditions) { return (true & ... & bool(conditions)); }

template <typename T> inline bool is_finite(T v) { return std::isfinite(v); }
/// All three components finite. One compare: x*0 is 0 for finite x and NaN for inf or NaN (IEEE;
/// raypick is never built with -ffast-math, which would break this and every NaN guard).
template <typename T> inline bool is_finite(const Vec3<T>& v) {
    return v.x * T(0) + v.y * T(0) + v.z * T(0) == T(0);
}
template <typename T> inline bool is_finite(const Mat3<T>& m) {
    return is_finite(m[0]) && is_finite(m[1]) && is_finite(m[2]);
}

/// Unit vector along v, or `fallback` when v has zero (or non-finite) length.
template <typename T> inline Vec3<T> normalize_or(const Vec3<T>& v, const Vec3<T>& fallback) {
    const T len2 = glm::dot(v, v);
    // Fast path: the squared length is a normal, finite number.
    if (len2 > std::numeric_limits<T>::min() && len2 < std::numeric_limits<T>::max())
        return v * (T(1) / std::sqrt(len2));
    // Slow path: scale first so that tiny or huge vectors do not underflow/overflow.
    const T m = glm::max(glm::abs(v.x), glm::max(glm::abs(v.y), glm::abs(v.z)));
    if (!(m > T(0)) || !std::isfinite(m)) return fallback;
    const Vec3<T> s = v / m;
    return s / std::sqrt(glm::dot(s, s));
}

/// Largest deviation of R^T R from the identity: 0 for an exactly orthonormal matrix.
template <typename T> inline T orthonormality_error(const Mat3<T>& r) {
    // R^T R is symmetric: three diagonal and three off-diagonal entries.
    const T e0 = glm::abs(glm::dot(r[0], r[0]) - T(1));
    const T e1 = glm::abs(glm::dot(r[1], r[1]) - T(1));
    const T e2 = glm::abs(glm::dot(r[2], r[2]) - T(1));
    const T e3 = glm::abs(glm::dot(r[0], r[1]));
    const T e4 = glm::abs(glm::dot(r[0], r[2]));
    const T e5 = glm::abs(glm::dot(r[1], r[2]));
    const T m = glm::max(glm::max(glm::max(e0, e1), glm::max(e2, e3)), glm::max(e4, e5));
    return m == m ? m : infinity<T>();  // NaN entries count as infinitely wrong
}

/// Unit vector along v, or the unit vector along `fallback_dir` when v has zero (or non-finite)
/// length; the fallback is only computed when needed.
template <typename T> inline Vec3<T> normalize_or_dir(const Vec3<T>& v, const Vec3<T>& fallback_dir) {
    const T len2 = glm::dot(v, v);
    if (len2 > std::numeric_limits<T>::min() && len2 < std::numeric_limits<T>::max())
        return v * (T(1) / std::sqrt(len2));
    const Vec3<T> up(T(0), T(0), T(1));
    return normalize_or(v, normalize_or(fallback_dir, up));
}

/// Tolerance on orthonormality_error() for an Obb rotation to count as a rotation.
/// Loose enough for axes written with 6 significant digits (double) or built in float.
template <typename T> constexpr T orthonormality_tolerance() {
    return sizeof(T) >= 8 ? T(1e-6) : T(1e-4);
}

}  // namespace raypick
