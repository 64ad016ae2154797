// Named cases of cast(Ray, Aabb): the cases of the blog post "Ray Box Intersection and Normal Calculation"
// and every degenerate input.
#include <cmath>
#include <cstdint>
#include <iterator>
#include <limits>
#include <random>

#include "TestUtil.h"
#include <raypick/geometry/RayAabb.h>
#include <raypick/geometry/Shape.h>
#include <raypick/geometry/textbook/TextbookAabb.h>

namespace raypick {
namespace {
using test::tol;

template <typename T> class RayAabb : public ::testing::Test {};
TYPED_TEST_SUITE(RayAabb, test::Scalars);

template <typename T> Aabb<T> unit_box() { return {{-1, -1, -1}, {1, 1, 1}}; }

TYPED_TEST(RayAabb, StraightHitWithSlabNormals) {
    using T = TypeParam;
    const auto h = cast(Ray<T>{{-5, 0, 0}, {1, 0, 0}}, unit_box<T>());
    ASSERT_TRUE(h);
    EXPECT_EQ(h->t_near, T(4));
    EXPECT_EQ(h->t_far, T(6));
    EXPECT_EQ(h->n_near, Vec3<T>(-1, 0, 0));
    EXPECT_EQ(h->n_far, Vec3<T>(1, 0, 0));
}

TYPED_TEST(RayAabb, NegativeDirectionGetsThePlusFace) {
    using T = TypeParam;
    const auto h = cast(Ray<T>{{0, 0, 9}, {0, 0, -3}}, unit_box<T>());
    ASSERT_TRUE(h);
    EXPECT_NEAR(h->t_near, T(8) / T(3), tol<T>());
    EXPECT_EQ(h->n_near, Vec3<T>(0, 0, 1));
    EXPECT_EQ(h->n_far, Vec3<T>(0, 0, -1));
}

// The post: "rays x Direction = 0, the ray is parallel to the planes".
TYPED_TEST(RayAabb, ParallelOutsideTheSlabMisses) {
    using T = TypeParam;
    EXPECT_FALSE(cast(Ray<T>{{-5, 2, 0}, {1, 0, 0}}, unit_box<T>()));
}

TYPED_TEST(RayAabb, ParallelInsideTheSlabHits) {
    using T = TypeParam;
    const auto h = cast(Ray<T>{{-5, T(0.5), T(-0.25)}, {2, 0, 0}}, unit_box<T>());
    ASSERT_TRUE(h);
    EXPECT_EQ(h->t_near, T(2));
    EXPECT_EQ(h->t_far, T(3));
}

// Origin exactly on a slab plane with a zero direction component: exact, no NaN (0 * inf).
TYPED_TEST(RayAabb, ParallelExactlyOnTheFacePlaneHits) {
    using T = TypeParam;
    const auto h = cast(Ray<T>{{-5, 1, 1}, {1, 0, 0}}, unit_box<T>());  // along the +y/+z edge
    ASSERT_TRUE(h);
    EXPECT_EQ(h->t_near, T(4));
    EXPECT_EQ(h->t_far, T(6));
    EXPECT_EQ(h->n_near, Vec3<T>(-1, 0, 0));
    const auto just_out = cast(Ray<T>{{-5, std::nextafter(T(1), T(2)), 0}, {1, 0, 0}}, unit_box<T>());
    EXPECT_FALSE(just_out);
}

TYPED_TEST(RayAabb, OriginOnSlabPlaneCrossingIt) {
    using T = TypeParam;
    // Origin on the x = -1 plane, moving in +x: enters at t = 0.
    const auto h = cast(Ray<T>{{-1, 0, 0}, {1, 0, 0}}, unit_box<T>());
    ASSERT_TRUE(h);
    EXPECT_EQ(h->t_near, T(0));
    EXPECT_FALSE(h->origin_inside);
}

// The post: "if tfar < 0, box is behind ray".
TYPED_TEST(RayAabb, BoxBehindIsAMiss) {
    using T = TypeParam;
    EXPECT_FALSE(cast(Ray<T>{{5, 0, 0}, {1, 0, 0}}, unit_box<T>()));
}

TYPED_TEST(RayAabb, OriginInside) {
    using T = TypeParam;
    const Ray<T> ray{{0, 0, 0}, {0, 1, 0}};
    const auto h = cast(ray, unit_box<T>());
    ASSERT_TRUE(h);
    EXPECT_TRUE(h->origin_inside);
    EXPECT_EQ(h->t_near, T(-1));
    EXPECT_EQ(h->t_far, T(1));
    const auto s = first_surface(ray, *h);
    ASSERT_TRUE(s);
    EXPECT_TRUE(s->is_exit);
    EXPECT_EQ(s->normal, Vec3<T>(0, 1, 0));
}

TYPED_TEST(RayAabb, FlatBoxIsCrossedOnce) {
    using T = TypeParam;
    const Aabb<T> flat{{-1, 0, -1}, {1, 0, 1}};  // a square in the y = 0 plane
    const auto h = cast(Ray<T>{{T(0.5), 3, 0}, {0, -1, 0}}, flat);
    ASSERT_TRUE(h);
    EXPECT_EQ(h->t_near, T(3));
    EXPECT_EQ(h->t_far, T(3));
    EXPECT_EQ(h->n_near, Vec3<T>(0, 1, 0));
    EXPECT_EQ(h->n_far, Vec3<T>(0, -1, 0));
    // A ray lying in the flat box's plane passes through it along the plane.
    const auto in_plane = cast(Ray<T>{{-5, 0, 0}, {1, 0, 0}}, flat);
    ASSERT_TRUE(in_plane);
    EXPECT_EQ(in_plane->t_near, T(4));
}

TYPED_TEST(RayAabb, PointBox) {
    using T = TypeParam;
    const Aabb<T> point{{1, 2, 3}, {1, 2, 3}};
    const auto h = cast(Ray<T>{{1, 2, 0}, {0, 0, 1}}, point);
    ASSERT_TRUE(h);
    EXPECT_EQ(h->t_near, T(3));
    EXPECT_FALSE(cast(Ray<T>{{1, 2, 0}, {0, T(0.001), 1}}, point));
}

TYPED_TEST(RayAabb, DiagonalThroughAnEdgeGivesAUnitAxisNormal) {
    using T = TypeParam;
    const auto h = cast(Ray<T>{{-2, -2, 0}, {1, 1, 0}}, unit_box<T>());
    ASSERT_TRUE(h);
    EXPECT_EQ(h->t_near, T(1));
    // Either face of the edge is a correct answer; it must be one of them, unit length.
    EXPECT_TRUE(h->n_near == Vec3<T>(-1, 0, 0) || h->n_near == Vec3<T>(0, -1, 0));
}

// The seed's epsilon face test breaks on a large box far away: the hit point's rounding error
// exceeds 0.01 and no face (or the wrong one) matches. The slab normal does not care.
TEST(RayAabbFloat, FarLargeBoxKeepsTheRightNormalWhereEpsilonComparisonFails) {
    const Aabb<float> box{{1000000, -5000, -5000}, {1100000, 5000, 5000}};
    int textbook_wrong = 0;
    for (int i = 0; i < 100; ++i) {
        const Ray<float> ray{{0.1f * float(i), 1.2345f + float(i), 0.678f}, {3, 0.0007f, -0.0001f * float(i)}};
        const auto h = cast(ray, box);
        ASSERT_TRUE(h) << i;
        EXPECT_EQ(h->n_near, Vec3<float>(-1, 0, 0)) << i;
        const auto tb = textbook::aabb_slab_epsilon(ray, box);
        ASSERT_TRUE(tb) << i;
        if (tb->normal != Vec3<float>(-1, 0, 0)) ++textbook_wrong;
    }
    EXPECT_GT(textbook_wrong, 10) << "the textbook epsilon normal was expected to fail on far boxes";
}

// The seed's epsilon face test picks the first face within 0.01: on a thin box hit on its +y face
// it reports -x when the hit point is near the -x face.
TEST(RayAabbFloat, EpsilonNormalPicksTheWrongFaceNearAnEdge) {
    const Aabb<float> box{{0, 0, 0}, {1, 1, 1}};
    const Ray<float> ray{{0.005f, 2, 0.5f}, {0, -1, 0}};
    const auto h = cast(ray, box);
    ASSERT_TRUE(h);
    EXPECT_EQ(h->n_near, Vec3<float>(0, 1, 0));
    const auto tb = textbook::aabb_slab_epsilon(ray, box);
    ASSERT_TRUE(tb);
    EXPECT_EQ(tb->normal, Vec3<float>(-1, 0, 0));
}

TYPED_TEST(RayAabb, InvalidInputIsAMiss) {
    using T = TypeParam;
    const T nan = std::numeric_limits<T>::quiet_NaN();
    EXPECT_FALSE(cast(Ray<T>{{-5, 0, 0}, {1, 0, 0}}, Aabb<T>{{1, -1, -1}, {-1, 1, 1}}));  // min > max
    EXPECT_FALSE(cast(Ray<T>{{-5, 0, 0}, {1, 0, 0}}, Aabb<T>{{-1, nan, -1}, {1, 1, 1}}));
    EXPECT_FALSE(cast(Ray<T>{{-5, 0, 0}, {0, 0, 0}}, unit_box<T>()));
    const auto e = validate(Aabb<T>{{1, -1, -1}, {-1, 1, 1}});
    ASSERT_TRUE(e);
    EXPECT_NE(e->message.find("on x"), std::string::npos) << e->message;
}

TYPED_TEST(RayAabb, SubnormalDirectionComponentGivesNoNaN) {
    using T = TypeParam;
    const T tiny = std::numeric_limits<T>::denorm_min();
    // Origin exactly on the min plane in x with a subnormal x direction: (min - o) / d = 0 / tiny.
    const auto h = cast(Ray<T>{{-1, -5, 0}, {tiny, 1, 0}}, unit_box<T>());
    ASSERT_TRUE(h);
    EXPECT_TRUE(is_finite(h->t_near) && is_finite(h->t_far));
    EXPECT_EQ(h->t_near, T(4));
}

// The branch-light fast path (finite input, no zero direction component) must give exactly what
// the general slab loop gives: same hit, same t bits (including -0 against +0), same axes and
// signs. Values come from a small set that makes ties, flat slabs, signed zeros, overflowing
// plane distances and corners common.
TYPED_TEST(RayAabb, FastPathMatchesTheGeneralSlabLoopBitForBit) {
    using T = TypeParam;
    const T big = std::numeric_limits<T>::max() / T(2);
    const T pool[] = {T(0), -T(0), T(1), T(-1), T(2), T(-3), T(0.5), T(1e-3), big, -big, T(7) / T(3)};
    const std::uint32_t seed = test::seed_from_env(20261121u);
    std::mt19937 rng(seed);
    std::uniform_int_distribution<int> pick(0, int(std::size(pool)) - 1);
    auto v = [&] { return Vec3<T>(pool[pick(rng)], pool[pick(rng)], pool[pick(rng)]); };
    int applied = 0;
    for (int n = 0; n < 200000; ++n) {
        const Vec3<T> o = v(), d = v();
        Vec3<T> lo = v(), hi = v();
        for (int i = 0; i < 3; ++i)
            if (hi[i] < lo[i]) std::swap(lo[i], hi[i]);
        detail::SlabPassage<T> fast, general;
        bool applies = false;
        const bool fast_hit = detail::slab_passage_fast(o, d, lo, hi, fast, applies);
        if (!applies) continue;
        ++applied;
        const bool general_hit = detail::slab_passage(o, d, lo, hi, general);
        const auto where = ::testing::Message() << "seed " << seed << " case " << n << " o " << detail::str(o)
                                                << " d " << detail::str(d) << " lo " << detail::str(lo)
                                                << " hi " << detail::str(hi);
        ASSERT_EQ(fast_hit, general_hit) << where;
        if (!general_hit) continue;
        ASSERT_TRUE(test::same_bits(fast.t_near, general.t_near)) << where << " t_near " << fast.t_near << " vs " << general.t_near;
        ASSERT_TRUE(test::same_bits(fast.t_far, general.t_far)) << where << " t_far " << fast.t_far << " vs " << general.t_far;
        ASSERT_EQ(fast.near_axis, general.near_axis) << where;
        ASSERT_EQ(fast.far_axis, general.far_axis) << where;
        ASSERT_EQ(fast.near_sign, general.near_sign) << where;
        ASSERT_EQ(fast.far_sign, general.far_sign) << where;
    }
    EXPECT_GT(applied, 50000);  // the fast path was actually exercised
}

}  // namespace
}  // namespace raypick
