// raypick geometry: vector aliases and small numeric helpers shared by every ray/shape test.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>

#include <glm/glm.hpp>

namespace raypick {

/// 3-vector and 3x3 matrix of scalar T (float or double), straight GLM types.
template <typename T> using Vec3 = glm::vec<3, T, glm::defaultp>;
template <typename T> using Mat3 = glm::mat<3, 3, T, glm::defaultp>;

template <typename T> constexpr T infinity() { return std::numeric_limits<T>::infinity(); }

/// A predicate on an index that keeps everything: the default of the walks' `keep` arguments.
struct KeepAll {
    constexpr bool operator()(std::uint32_t) const { return true; }
};

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
    // Slow path: scale first so that tiny or huge vectors do not underflow/overflow. A NaN
    // component is checked on its own: glm::max() passes over it.
    if (!std::isfinite(v.x) || !std::isfinite(v.y) || !std::isfinite(v.z)) return fallback;
    const T m = glm::max(glm::abs(v.x), glm::max(glm::abs(v.y), glm::abs(v.z)));
    if (!(m > T(0))) return fallback;
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

/// How far from 1 the squared length of v * inv_len may be for normalize_known_length() to make it
/// unit with one Newton step: 2^-12 for float, 2^-26 for double (half the significand's bits).
template <typename T> constexpr T known_length_tolerance() { return sizeof(T) >= 8 ? T(0x1p-26) : T(0x1p-12); }

/// normalize_or_dir(v, fallback_dir) for a v whose length is known to be about 1 / inv_len (a
/// point on a sphere or capsule less its centre or axis point: inv_len = 1 / radius), without a
/// square root or a division: n = v * inv_len has squared length e close to 1, and one Newton step
/// for 1 / sqrt(e) from 1, (3 - e) / 2, makes it unit: |n (3 - e) / 2| = 1 - 3/8 (e - 1)^2 plus
/// rounding, a truncation below one ulp within the tolerance. So the result is as close to
/// unit as normalize_or_dir()'s square root and division make it (measured on sphere normals: at
/// most 1.4 eps off, against 1.6), with v's direction to the same rounding. When e is further from
/// 1 (v's own rounding is that large relative to its length, e.g. a sphere 10^3 radii or more from
/// the origin in float), or NaN or infinite, it is normalize_or_dir(v, fallback_dir).
/// Why: in a cast a square root and division would sit on a hit's critical path after the point,
/// while inv_len depends on the shape only and is computed beside the roots, once for both normals.
/// Requires inv_len finite.
template <typename T>
[[gnu::always_inline]] inline Vec3<T> normalize_known_length(const Vec3<T>& v, T inv_len, const Vec3<T>& fallback_dir) {
    const Vec3<T> n = v * inv_len;
    const T e = glm::dot(n, n);
    if (__builtin_expect(std::abs(e - T(1)) <= known_length_tolerance<T>(), 1)) return n * ((T(3) - e) * T(0.5));
    return normalize_or_dir(v, fallback_dir);
}

/// Tolerance on orthonormality_error() for an Obb rotation to count as a rotation.
/// Loose enough for axes written with 6 significant digits (double) or built in float.
template <typename T> constexpr T orthonormality_tolerance() {
    return sizeof(T) >= 8 ? T(1e-6) : T(1e-4);
}

}  // namespace raypick
