// The lane helpers of Lanes.h give, lane by lane, exactly what the scalar operations give: the
// casts and the mesh walks rely on it for bit-identical results.
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

#include "TestUtil.h"
#include <raypick/geometry/Lanes.h>

namespace raypick {
namespace {

template <typename T> class Lanes : public ::testing::Test {};
TYPED_TEST_SUITE(Lanes, test::Scalars);

/// A random T spread over the whole exponent range, with zeros of both signs, subnormals, the
/// largest finite values and infinities among them.
template <typename T> T random_value(test::Random& r) {
    const double kind = r.sym();
    const T sign = r.sym() < 0 ? T(-1) : T(1);
    if (kind < -0.9) return sign * T(0);
    if (kind < -0.8) return sign * std::numeric_limits<T>::denorm_min() * T(1 + int(8 * (r.sym() + 1)));
    if (kind < -0.75) return sign * std::numeric_limits<T>::max();
    if (kind < -0.7) return sign * std::numeric_limits<T>::infinity();
    const int e = int(r.sym() * double(std::numeric_limits<T>::max_exponent));
    return sign * std::ldexp(T(1.5 + 0.5 * r.sym()), e);
}

TYPED_TEST(Lanes, QuotientIsTheScalarQuotientBitForBit) {
    using T = TypeParam;
    const std::uint32_t seed = test::seed_from_env(20261127u);
    SCOPED_TRACE("seed " + std::to_string(seed));
    test::Random r(seed);
    for (int i = 0; i < 20000; ++i) {
        const Vec3<T> a(random_value<T>(r), random_value<T>(r), random_value<T>(r));
        const Vec3<T> b(random_value<T>(r), random_value<T>(r), random_value<T>(r));
        const Vec3<T> q = detail::quotient(a, b);
        for (int k = 0; k < 3; ++k) {
            const T want = a[k] / b[k];
            if (std::isnan(want)) {
                EXPECT_TRUE(std::isnan(q[k])) << "case " << i << " lane " << k;
            } else {
                EXPECT_TRUE(test::same_bits(q[k], want))
                    << "case " << i << " lane " << k << ": " << a[k] << " / " << b[k] << " gave " << q[k];
            }
        }
    }
    // A zero component of the divisor gives the signed infinity a reciprocal needs.
    const Vec3<T> inv = detail::quotient(Vec3<T>(T(1)), Vec3<T>(T(2), T(0), -T(0)));
    EXPECT_EQ(inv.x, T(0.5));
    EXPECT_EQ(inv.y, std::numeric_limits<T>::infinity());
    EXPECT_EQ(inv.z, -std::numeric_limits<T>::infinity());
}

}  // namespace
}  // namespace raypick
