// Named cases of cast(Ray, Obb): the slab distances and degenerate box of the 0 A.D. note
// "Details of Ray/OBB Intersection", the axis loop of the dev log "Dev Log 5: Ray cast! (part2) Bonus!",
// and every degenerate input.
#include <cmath>
#include <limits>
#include <random>
#include <utility>

#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/quaternion.hpp>

#include "TestUtil.h"
#include <raypick/geometry/RayObb.h>
#include <raypick/geometry/Shape.h>
#include <raypick/geometry/textbook/TextbookObb.h>

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

// The note: distances to the slab planes are (e -/+ h) / f with e = a_i.p, f = a_i.d.
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

// The note, "Degenerate cases": a box with no size along u still works; both slab distances are
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

// validate() accepts rotations orthonormal within a tolerance; a column a little shorter than 1
// makes the box a little longer along it (the cast tests R^T (p - c) against h). bounds() must
// still contain every point the cast hits, exactly, or a hierarchy culls real hits (one 6e-10
// outside: fuzz/regressions/fuzz_bvh/).
TYPED_TEST(RayObb, BoundsContainEveryHitForARotationWithinTolerance) {
    using T = TypeParam;
    const T shrink = T(1) - orthonormality_tolerance<T>() / T(4);
    const Mat3<T> spin(glm::rotate(glm::mat4(1.f), 0.7f, glm::vec3(0.3f, -0.5f, 0.8f)));
    for (const Mat3<T>& rotation : {Mat3<T>(shrink), spin * shrink}) {
        const Obb<T> box{{5, 0, 0}, rotation, {5, 1, 115}};
        ASSERT_TRUE(is_valid(box));
        const Aabb<T> bb = bounds(box);
        int hits = 0;
        for (int i = 0; i < 3; ++i)
            for (int k = -4; k <= 4; ++k) {
                Vec3<T> dir(0), origin = box.center + Vec3<T>(T(k) * T(0.2));
                dir[i] = 1;
                origin[i] = box.center[i] - T(1000);  // from far outside along each world axis
                const Ray<T> ray{origin, dir};
                const auto h = cast(ray, box);
                if (!h) continue;
                ++hits;
                for (const T t : {h->t_near, h->t_far}) {
                    const Vec3<T> p = ray.at(t);
                    EXPECT_TRUE(glm::all(glm::lessThanEqual(bb.min, p)) && glm::all(glm::lessThanEqual(p, bb.max)))
                        << "axis " << i << " k " << k << " t " << t << " point " << detail::str(p) << " bounds "
                        << detail::str(bb.min) << " .. " << detail::str(bb.max);
                }
            }
        EXPECT_GT(hits, 10);
    }
}

// The vector fast path must give, wherever it applies, exactly what the general path gives: every
// field bit for bit, hit or miss. Inputs from small pools (signed zeros, exact axes, huge and tiny
// values, zero extents, t ranges cutting the passage) plus random rotations, so that ties, zero
// local components, overflow and invalid rotations all occur.
TYPED_TEST(RayObb, FastPathEqualsGeneralPathBitForBit) {
    using T = TypeParam;
    const T big = std::numeric_limits<T>::max() / T(4);
    const T pool[] = {T(0), -T(0), T(1), T(-1), T(2), T(-3), T(0.5), T(1e-3), T(7) / T(3), big, -big, T(1e-30)};
    const std::uint32_t seed = test::seed_from_env(20261122u);
    std::mt19937 rng(seed);
    std::uniform_int_distribution<int> pick(0, int(std::size(pool)) - 1), kind(0, 3);
    std::uniform_real_distribution<T> u(T(-1), T(1));
    auto v = [&] { return Vec3<T>(pool[pick(rng)], pool[pick(rng)], pool[pick(rng)]); };
    auto rotation = [&]() -> Mat3<T> {
        switch (kind(rng)) {
            case 0: return Mat3<T>(T(1));
            case 1: return Mat3<T>(Vec3<T>(0, 1, 0), Vec3<T>(0, 0, 1), Vec3<T>(1, 0, 0));  // exact axes, permuted
            case 2: {  // random unit quaternion
                glm::qua<T, glm::defaultp> q(u(rng), u(rng), u(rng), u(rng));
                return glm::mat3_cast(glm::normalize(q));
            }
            default: {  // random, sometimes not a rotation at all
                Mat3<T> m = glm::mat3_cast(glm::normalize(glm::qua<T, glm::defaultp>(u(rng), u(rng), u(rng), u(rng))));
                m[kind(rng) % 3][kind(rng) % 3] += pool[pick(rng)] * T(1e-3);
                return m;
            }
        }
    };
    int applied = 0, hits = 0;
    for (int n = 0; n < 200000; ++n) {
        const Ray<T> ray{v(), v()};
        const Obb<T> box{v(), rotation(), glm::abs(v()) * (kind(rng) == 0 ? T(-1) : T(1))};
        const T t0 = kind(rng) == 0 ? pool[pick(rng)] : T(0);
        const T t1 = kind(rng) == 0 ? pool[pick(rng)] : infinity<T>();
        std::optional<RayHit<T>> fast;
        if (!detail::obb_cast_fast(ray, box, t0, t1, fast)) continue;
        ++applied;
        std::optional<RayHit<T>> general;
        detail::obb_cast_general(ray, box, t0, t1, general);
        const auto where = ::testing::Message() << "seed " << seed << " case " << n << " o " << detail::str(ray.origin)
                                                << " d " << detail::str(ray.direction) << " c " << detail::str(box.center)
                                                << " h " << detail::str(box.half_extents) << " range " << t0 << " " << t1;
        ASSERT_EQ(fast.has_value(), general.has_value()) << where;
        if (!general) continue;
        ++hits;
        for (const auto& [a, b] : {std::pair{fast->t_near, general->t_near}, std::pair{fast->t_far, general->t_far}})
            ASSERT_TRUE(test::same_bits(a, b)) << where << " t " << a << " vs " << b;
        for (int i = 0; i < 3; ++i) {
            ASSERT_TRUE(test::same_bits(fast->n_near[i], general->n_near[i])) << where << " n_near[" << i << "]";
            ASSERT_TRUE(test::same_bits(fast->n_far[i], general->n_far[i])) << where << " n_far[" << i << "]";
        }
        ASSERT_EQ(fast->origin_inside, general->origin_inside) << where;
    }
    // Both outcomes were exercised.
    EXPECT_GT(applied, 20000);
    EXPECT_GT(hits, 2000);
}

}  // namespace
}  // namespace raypick
