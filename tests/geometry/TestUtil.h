// Shared helpers for the geometry tests.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <raypick/geometry/Math.h>
#include <raypick/geometry/Ray.h>

namespace raypick::test {

using Scalars = ::testing::Types<float, double>;

/// RAYPICK_SEED=<n> when set (to rerun a failure whose seed was printed), else `fallback`.
inline std::uint32_t seed_from_env(std::uint32_t fallback) {
    const char* s = std::getenv("RAYPICK_SEED");
    return s ? std::uint32_t(std::strtoul(s, nullptr, 10)) : fallback;
}

/// Same bit pattern (tells -0 from +0 and compares NaNs).
template <typename T> bool same_bits(T a, T b) { return std::memcmp(&a, &b, sizeof(T)) == 0; }
template <typename T> bool same_bits(const Vec3<T>& a, const Vec3<T>& b) {
    return same_bits(a.x, b.x) && same_bits(a.y, b.y) && same_bits(a.z, b.z);
}

/// |v| in long double (the error of a unit normal's length, with no rounding of its own to speak of).
template <typename T> long double exact_length(const Vec3<T>& v) {
    const long double x = v.x, y = v.y, z = v.z;
    return std::sqrt(x * x + y * y + z * z);
}

/// Random numbers for the geometry tests: uniform in [-1, 1], vectors in the cube, unit vectors.
struct Random {
    explicit Random(std::uint32_t seed) : rng(seed) {}
    double sym() { return u(rng); }
    Vec3<double> cube() { return {sym(), sym(), sym()}; }
    Vec3<double> unit() {
        for (;;) {  // rejection from the ball (a uniform direction), away from the centre
            const Vec3<double> v = cube();
            const double l2 = glm::dot(v, v);
            if (l2 > 1e-2 && l2 <= 1) return v / std::sqrt(l2);
        }
    }
    std::mt19937 rng;
    std::uniform_real_distribution<double> u{-1.0, 1.0};
};

/// Distances, in shape sizes, from near to far: for float up to 1e5, beyond which rounding takes
/// a ray aimed inside a shape off it.
template <typename T> std::vector<double> near_to_far() {
    if (sizeof(T) >= 8) return {1.5, 10, 100, 1e4, 1e7, 1e9, 1e12};
    return {1.5, 10, 100, 1e3, 1e4, 1e5};
}

/// cast(ray, shape)'s two normals unit within 2 eps, and pick(ray, shape)'s normal bit for bit the
/// entry's; `where` names the case in a failure. Returns whether the ray hit.
template <typename T, typename Shape> bool expect_unit_normals(const Ray<T>& ray, const Shape& shape, const std::string& where) {
    const auto h = cast(ray, shape);
    if (!h) return false;
    const long double bound = 2 * std::numeric_limits<T>::epsilon();
    EXPECT_NEAR(exact_length(h->n_near), 1.0L, bound) << where;
    EXPECT_NEAR(exact_length(h->n_far), 1.0L, bound) << where;
    const auto p = pick(ray, shape);
    EXPECT_TRUE(p && same_bits(p->normal, h->n_near)) << where;
    return true;
}

template <typename T> constexpr T tol() { return sizeof(T) >= 8 ? T(1e-12) : T(1e-5); }

#define EXPECT_VEC_NEAR(a, b, eps)                                                         \
    do {                                                                                   \
        const auto va_ = (a);                                                              \
        const auto vb_ = (b);                                                              \
        EXPECT_NEAR(va_.x, vb_.x, eps) << #a " vs " #b;                                    \
        EXPECT_NEAR(va_.y, vb_.y, eps) << #a " vs " #b;                                    \
        EXPECT_NEAR(va_.z, vb_.z, eps) << #a " vs " #b;                                    \
    } while (0)

}  // namespace raypick::test
