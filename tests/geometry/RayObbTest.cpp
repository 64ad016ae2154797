// Named cases of cast(Ray, Obb): the 0 A.D. note's slab distances and degenerate box (seed 002),
// the dev log's axis loop (seed 000), and every degenerate input.
#include <cmath>
#include <limits>

#include <glm/gtc/matrix_transform.hpp>

#include "TestUtil.h"
#include "geometry/RayObb.h"
#include "geometry/Shape.h"
#include "geometry/textbook/TextbookObb.h"

namespace raypick {
namespace {
using test::tol;

template <typename T> class RayObb : public ::testing::Test {};
TYPED_TEST_SUITE(RayObb, test::Scalars);

template <typename T> Mat3<T> rot_z(T degrees) {
    const T a = glm::radians(degrees);
    Mat3<T> r(T(1));
    r[0] = Vec3<T>(std::cos(a), std::sin(a), 0);
    r[1] = Vec3<T>(-std::sin(a), std::cos(a), 0);
    return r;
}

TYPED_TEST(RayObb, IdentityRotationIsTheAabb) {
    using T = TypeParam;
    const Obb<T> obb{{1, 2, 3}, Mat3<T>(T(1)), {1, 2, 3}};
    const Aabb<T> aabb{{0, 0, 0}, {2, 4, 6}};
    const Ray<T> ray{{-3, 1, 2}, {1, T(0.25), T(0.1)}};
    const auto a = cast(ray, obb);
    const auto b = cast(ray, aabb);
    ASSERT_TRUE(a && b);
    EXPECT_NEAR(a->t_near, b->t_near, tol<T>());
    EXPECT_NEAR(a->t_far, b->t_far, tol<T>());
    EXPECT_EQ(a->n_near, b->n_near);
    EXPECT_EQ(a->n_far, b->n_far);
}

// Seed 002: distances to the slab planes are (e -/+ h) / f with e = a_i.p, f = a_i.d.
TYPED_TEST(RayObb, SlabDistancesOfTheZeroADNote) {
    using T = TypeParam;
    const Obb<T> obb{{0, 0, 0}, rot_z<T>(45), {2, 1, 1}};
    // Ray along world +x through the centre: along the box's u axis the cosine is f = cos 45.
    const Ray<T> ray{{-10, 0, 0}, {1, 0, 0}};
    const auto h = cast(ray, obb);
    ASSERT_TRUE(h);
    // The box's cross-section along world x is limited by the v slab: |(-x sin45... )| <= 1
    // i.e. |x| * sin45 <= 1 -> |x| <= sqrt 2, so entry at x = -sqrt 2 (t = 10 - sqrt 2).
    EXPECT_NEAR(h->t_near, T(10) - std::sqrt(T(2)), T(100) * tol<T>());
    EXPECT_NEAR(h->t_far, T(10) + std::sqrt(T(2)), T(100) * tol<T>());
    // In box space the ray moves towards -v (f = a_v.d = -sin 45), so it enters through the +v
    // face: normal = +(rotated y axis) = (-sin 45, cos 45, 0), facing back along -x as it must.
    const T s = std::sqrt(T(0.5));
    EXPECT_VEC_NEAR(h->n_near, Vec3<T>(-s, s, 0), T(100) * tol<T>());
    EXPECT_VEC_NEAR(h->n_far, Vec3<T>(s, -s, 0), T(100) * tol<T>());
    EXPECT_NEAR(glm::length(h->n_near), T(1), tol<T>());
}

// Seed 002, "Degenerate cases": a box with no size along u still works; both slab distances are
// e / cos(theta), and the normal is the signed u axis.
TYPED_TEST(RayObb, ZeroExtentIsARectangleHitFromEitherSide) {
    using T = TypeParam;
    const Obb<T> rect{{0, 0, 0}, rot_z<T>(30), {0, 2, 2}};
    const Vec3<T> u = rect.rotation[0];
    const Ray<T> ray{u * T(-5) + Vec3<T>(0, 0, T(0.5)), u * T(2)};
    const auto h = cast(ray, rect);
    ASSERT_TRUE(h);
    EXPECT_NEAR(h->t_near, T(2.5), T(10) * tol<T>());
    EXPECT_EQ(h->t_near, h->t_far);
    EXPECT_VEC_NEAR(h->n_near, -u, T(10) * tol<T>());
    EXPECT_VEC_NEAR(h->n_far, u, T(10) * tol<T>());
    const Ray<T> back{u * T(5), -u};
    const auto hb = cast(back, rect);
    ASSERT_TRUE(hb);
    EXPECT_VEC_NEAR(hb->n_near, u, T(10) * tol<T>());
}

TYPED_TEST(RayObb, TwoZeroExtentsIsASegment) {
    using T = TypeParam;
    const Obb<T> seg{{0, 0, 0}, Mat3<T>(T(1)), {0, 0, 3}};  // segment along z
    const auto h = cast(Ray<T>{{-4, 0, 1}, {1, 0, 0}}, seg);
    ASSERT_TRUE(h);
    EXPECT_EQ(h->t_near, T(4));
    EXPECT_EQ(h->n_near, Vec3<T>(-1, 0, 0));
    EXPECT_FALSE(cast(Ray<T>{{-4, 0, 4}, {1, 0, 0}}, seg));
}

TYPED_TEST(RayObb, ParallelToARotatedFaceOnItsPlaneHitsWithoutNaN) {
    using T = TypeParam;
    // Unrotated box so the local direction component is exactly zero; origin on the +y face plane.
    const Obb<T> obb{{0, 0, 0}, Mat3<T>(T(1)), {1, 1, 1}};
    const Ray<T> ray{{-3, 1, 0}, {1, 0, 0}};
    const auto h = cast(ray, obb);
    ASSERT_TRUE(h);
    EXPECT_EQ(h->t_near, T(2));
    // The dev log's loop, as written, never takes its parallel early-out and divides 0 by 0 here.
    const auto tb = textbook::obb_axis_loop(ray, obb);
    EXPECT_TRUE(!tb || !is_finite(tb->t) || tb->t != T(2));
}

TYPED_TEST(RayObb, OriginInsideAndBehind) {
    using T = TypeParam;
    const Obb<T> obb{{0, 0, 0}, rot_z<T>(20), {1, 1, 1}};
    const auto in = cast(Ray<T>{{0, 0, 0}, {0, 0, 1}}, obb);
    ASSERT_TRUE(in);
    EXPECT_TRUE(in->origin_inside);
    EXPECT_EQ(in->t_far, T(1));
    EXPECT_FALSE(cast(Ray<T>{{0, 0, 5}, {0, 0, 1}}, obb));
}

TYPED_TEST(RayObb, InvalidRotationsAreRefusedWithAReason) {
    using T = TypeParam;
    Obb<T> skew{{0, 0, 0}, Mat3<T>(T(1)), {1, 1, 1}};
    skew.rotation[1] = Vec3<T>(T(0.1), 1, 0);  // not perpendicular to x
    EXPECT_FALSE(cast(Ray<T>{{-5, 0, 0}, {1, 0, 0}}, skew));
    ASSERT_TRUE(validate(skew));
    EXPECT_EQ(validate(skew)->field, "rotation");

    Obb<T> scaled{{0, 0, 0}, Mat3<T>(T(2)), {1, 1, 1}};
    EXPECT_FALSE(cast(Ray<T>{{-5, 0, 0}, {1, 0, 0}}, scaled));

    Obb<T> mirror{{0, 0, 0}, Mat3<T>(T(1)), {1, 1, 1}};
    mirror.rotation[2] = Vec3<T>(0, 0, -1);  // orthonormal but a reflection
    EXPECT_FALSE(cast(Ray<T>{{-5, 0, 0}, {1, 0, 0}}, mirror));
    ASSERT_TRUE(validate(mirror));
    EXPECT_NE(validate(mirror)->message.find("determinant"), std::string::npos);

    Obb<T> negative{{0, 0, 0}, Mat3<T>(T(1)), {1, -1, 1}};
    EXPECT_FALSE(cast(Ray<T>{{-5, 0, 0}, {1, 0, 0}}, negative));
    EXPECT_EQ(validate(negative)->field, "half_extents");
}

TYPED_TEST(RayObb, SlightlyRoundedRotationIsAcceptedAndGivesUnitNormals) {
    using T = TypeParam;
    // Axes written with 7 significant digits, as a scene file would.
    Mat3<T> r(T(1));
    r[0] = Vec3<T>(T(0.7071068), T(0.7071068), 0);
    r[1] = Vec3<T>(T(-0.7071068), T(0.7071068), 0);
    const Obb<T> obb{{0, 0, 0}, r, {1, 1, 1}};
    EXPECT_FALSE(validate(obb)) << validate(obb)->message;
    const auto h = cast(Ray<T>{{-5, 0, 0}, {1, 0, 0}}, obb);
    ASSERT_TRUE(h);
    EXPECT_NEAR(glm::length(h->n_near), T(1), tol<T>());
}

}  // namespace
}  // namespace raypick
