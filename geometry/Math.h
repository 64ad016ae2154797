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

template <typename T> inline bool is_finite(T v) { return std::isfinite(v); }
template <typename T> inline bool is_finite(const Vec3<T>& v) {
    return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z);
}
template <typename T> inline bool is_finite(const Mat3<T>& m) {
    return is_finite(m[0]) && is_finite(m[1]) && is_finite(m[2]);
}

/// Unit vector along v, or `fallback` when v has zero (or non-finite) length.
template <typename T> inline Vec3<T> normalize_or(const Vec3<T>& v, const Vec3<T>& fallback) {
    // Scale first so that tiny or huge vectors do not underflow/overflow in the dot product.
    const T m = glm::max(glm::abs(v.x), glm::max(glm::abs(v.y), glm::abs(v.z)));
    if (!(m > T(0)) || !std::isfinite(m)) return fallback;
    const Vec3<T> s = v / m;
    return s / std::sqrt(glm::dot(s, s));
}

/// Largest deviation of R^T R from the identity: 0 for an exactly orthonormal matrix.
template <typename T> inline T orthonormality_error(const Mat3<T>& r) {
    T err = T(0);
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) {
            const T d = glm::dot(r[i], r[j]) - (i == j ? T(1) : T(0));
            err = glm::max(err, glm::abs(d));
        }
    return err;
}

/// Tolerance on orthonormality_error() for an Obb rotation to count as a rotation.
/// Loose enough for axes written with 6 significant digits (double) or built in float.
template <typename T> constexpr T orthonormality_tolerance() {
    return sizeof(T) >= 8 ? T(1e-6) : T(1e-4);
}

}  // namespace raypick
