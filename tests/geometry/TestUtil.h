// Shared helpers for the geometry tests.
#pragma once

#include <gtest/gtest.h>

#include "geometry/Math.h"

namespace raypick::test {

using Scalars = ::testing::Types<float, double>;

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
