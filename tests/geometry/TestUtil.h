// Shared helpers for the geometry tests.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <cstring>

#include <gtest/gtest.h>

#include "geometry/Math.h"

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
