// Named cases of cast(Ray, Capsule): the cases of the blog post "Useless Snippet #5: Ray/Capsule intersection test"
// and its comment thread's bug,
// and every degenerate input.
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>

#include "TestUtil.h"
#include <raypick/geometry/RayCapsule.h>
#include <raypick/geometry/Shape.h>
#include <raypick/geometry/textbook/TextbookCapsule.h>

namespace raypick {
namespace {
using test::tol;

template <typename T> class RayCapsule : public ::testing::Test {};
TYPED_TEST_SUITE(RayCapsule, test::Scalars);

// Vertical capsule: axis from (0,0,0) to (0,4,0), radius 1.
template <typename T> Capsule<T> pill() { return {{0, 0, 0}, {0, 4, 0}, 1}; }

// The post, "general case": both points on the cylinder, normals = unit(KP).
TYPED_TEST(RayCapsule, GeneralCaseBothOnTheCylinder) {
    using T = TypeParam;
    const auto h = cast(Ray<T>{{-5, 2, 0}, {1, 0, 0}}, pill<T>());
    ASSERT_TRUE(h);
    EXPECT_EQ(h->t_near, T(4));
    EXPECT_EQ(h->t_far, T(6));
    EXPECT_VEC_NEAR(h->n_near, Vec3<T>(-1, 0, 0), tol<T>());
    EXPECT_VEC_NEAR(h->n_far, Vec3<T>(1, 0, 0), tol<T>());
}

// The post, "negative t'": the infinite cylinder is hit below A, the capsule on sphere (A, r).
TYPED_TEST(RayCapsule, NegativeAxialParameterFallsBackToTheEndSphere) {
    using T = TypeParam;
    // Slanted ray entering below A's rim: enters on the A cap, leaves through the cylinder.
    const Ray<T> ray{{-3, T(-2.5), 0}, {1, 1, 0}};
    const auto h = cast(ray, pill<T>());
    ASSERT_TRUE(h);
    const Vec3<T> p = ray.at(h->t_near);
    EXPECT_LT(p.y, T(0));                                     // on the bottom cap
    EXPECT_NEAR(glm::length(p), T(1), tol<T>() * T(10));      // on sphere (A, r)
    EXPECT_VEC_NEAR(h->n_near, p, tol<T>() * T(10));          // normal = unit(AP)
    const Vec3<T> q = ray.at(h->t_far);
    EXPECT_NEAR(std::hypot(q.x, q.z), T(1), tol<T>() * T(10));  // exit on the cylinder
    EXPECT_VEC_NEAR(h->n_far, Vec3<T>(1, 0, 0), tol<T>() * T(10));
}

// The post's special case: ray parallel to AB enters and leaves through the end spheres.
TYPED_TEST(RayCapsule, ParallelToTheAxisThroughBothCaps) {
    using T = TypeParam;
    const auto h = cast(Ray<T>{{T(0.6), -5, 0}, {0, 2, 0}}, pill<T>());
    ASSERT_TRUE(h);
    const T cap = std::sqrt(T(1) - T(0.36));  // 0.8
    EXPECT_NEAR(h->t_near, (T(5) - cap) / 2, tol<T>());
    EXPECT_NEAR(h->t_far, (T(9) + cap) / 2, tol<T>());
    EXPECT_VEC_NEAR(h->n_near, Vec3<T>(T(0.6), -cap, 0), T(10) * tol<T>());
    EXPECT_VEC_NEAR(h->n_far, Vec3<T>(T(0.6), cap, 0), T(10) * tol<T>());
    EXPECT_FALSE(cast(Ray<T>{{T(1.01), -5, 0}, {0, 1, 0}}, pill<T>()));
}

TYPED_TEST(RayCapsule, ParallelToTheAxisOnTheSurfaceLine) {
    using T = TypeParam;
    // Grazing the cylinder along a generator: touches the whole side, enters/leaves at the rims.
    const auto h = cast(Ray<T>{{1, -5, 0}, {0, 1, 0}}, pill<T>());
    ASSERT_TRUE(h);
    EXPECT_NEAR(h->t_near, T(5), T(10) * tol<T>());
    EXPECT_NEAR(h->t_far, T(9), T(10) * tol<T>());
}

// The post's comment thread: hits entirely behind the origin must be rejected.
TYPED_TEST(RayCapsule, EntirelyBehindIsAMissUnlikeThePublishedTest) {
    using T = TypeParam;
    const Ray<T> ray{{5, 2, 0}, {1, 0, 0}};
    EXPECT_FALSE(cast(ray, pill<T>()));
    const auto published = textbook::capsule_published(ray, pill<T>());
    ASSERT_TRUE(published) << "the published test reports this capsule behind the ray as a hit";
    EXPECT_LT(published->t2, T(0));
}

// The post: "origin inside ... one of them would be behind the ray's origin".
TYPED_TEST(RayCapsule, OriginInsideGivesEntryBehindAndPicksTheExit) {
    using T = TypeParam;
    const Ray<T> ray{{0, 1, 0}, {0, 0, 1}};
    const auto h = cast(ray, pill<T>());
    ASSERT_TRUE(h);
    EXPECT_TRUE(h->origin_inside);
    EXPECT_EQ(h->t_near, T(-1));
    EXPECT_EQ(h->t_far, T(1));
    const auto s = first_surface(ray, *h);
    ASSERT_TRUE(s);
    EXPECT_TRUE(s->is_exit);
    EXPECT_VEC_NEAR(s->normal, Vec3<T>(0, 0, 1), tol<T>());
}

TYPED_TEST(RayCapsule, CoincidentEndsBehaveExactlyAsTheSphere) {
    using T = TypeParam;
    const Capsule<T> c{{1, 2, 3}, {1, 2, 3}, T(1.5)};
    const Sphere<T> s{{1, 2, 3}, T(1.5)};
    for (const Ray<T>& ray : {Ray<T>{{-4, 2, 3}, {1, 0, 0}}, Ray<T>{{1, 2, 3}, {T(0.3), T(-2), 1}},
                              Ray<T>{{-4, T(3.5), 3}, {1, 0, 0}}, Ray<T>{{-4, 9, 3}, {1, 0, 0}}}) {
        const auto a = cast(ray, c);
        const auto b = cast(ray, s);
        ASSERT_EQ(a.has_value(), b.has_value());
        if (!a) continue;
        EXPECT_EQ(a->t_near, b->t_near);
        EXPECT_EQ(a->t_far, b->t_far);
        EXPECT_EQ(a->n_near, b->n_near);
        EXPECT_EQ(a->n_far, b->n_far);
        EXPECT_EQ(a->origin_inside, b->origin_inside);
    }
    // The published test divides by |AB|^2 = 0 here.
    const auto published = textbook::capsule_published(Ray<T>{{-4, 2, 3}, {1, 0, 0}}, c);
    EXPECT_TRUE(!published || !is_finite(published->p1));
}

TYPED_TEST(RayCapsule, TangentToTheCylinder) {
    using T = TypeParam;
    const auto h = cast(Ray<T>{{-5, 2, 1}, {1, 0, 0}}, pill<T>());
    ASSERT_TRUE(h);
    EXPECT_EQ(h->t_near, h->t_far);
    EXPECT_EQ(h->t_near, T(5));
    EXPECT_VEC_NEAR(h->n_near, Vec3<T>(0, 0, 1), tol<T>());
}

TYPED_TEST(RayCapsule, ZeroRadiusIsASegment) {
    using T = TypeParam;
    const Capsule<T> seg{{0, 0, 0}, {0, 4, 0}, 0};
    const auto h = cast(Ray<T>{{-3, 1, 0}, {1, 0, 0}}, seg);
    ASSERT_TRUE(h);
    EXPECT_EQ(h->t_near, T(3));
    EXPECT_EQ(h->t_far, T(3));
    EXPECT_VEC_NEAR(h->n_near, Vec3<T>(-1, 0, 0), tol<T>());
    EXPECT_FALSE(cast(Ray<T>{{-3, 5, 0}, {1, 0, 0}}, seg));
}

TYPED_TEST(RayCapsule, UnnormalisedDirection) {
    using T = TypeParam;
    const auto h = cast(Ray<T>{{-5, 2, 0}, {T(0.25), 0, 0}}, pill<T>());
    ASSERT_TRUE(h);
    EXPECT_EQ(h->t_near, T(16));
    EXPECT_EQ(h->t_far, T(24));
}

TYPED_TEST(RayCapsule, InvalidInputIsAMiss) {
    using T = TypeParam;
    const T nan = std::numeric_limits<T>::quiet_NaN();
    EXPECT_FALSE(cast(Ray<T>{{-5, 2, 0}, {1, 0, 0}}, Capsule<T>{{0, 0, 0}, {0, 4, 0}, -1}));
    EXPECT_FALSE(cast(Ray<T>{{-5, 2, 0}, {1, 0, 0}}, Capsule<T>{{0, nan, 0}, {0, 4, 0}, 1}));
    EXPECT_FALSE(cast(Ray<T>{{-5, 2, 0}, {0, 0, 0}}, pill<T>()));
    ASSERT_TRUE(validate(Capsule<T>{{0, 0, 0}, {0, 4, 0}, -1}));
    EXPECT_EQ(validate(Capsule<T>{{0, 0, 0}, {0, 4, 0}, -1})->field, "radius");
    EXPECT_FALSE(cast(Ray<T>{{-5, 2, 0}, {1, 0, 0}}, pill<T>(), T(6), T(4)));  // t_min > t_max
    EXPECT_TRUE(cast(Ray<T>{{-5, 2, 0}, {1, 0, 0}}, pill<T>(), T(4), T(6)));
}

// A hit whose lateral problem is in the roots' fast range is validated by three comparisons only
// (detail::capsule_accepted()); the rest follows from that range, but d.d <= max does not: a
// direction whose square overflows (an invalid ray) scaled by a short axis (ab.ab = 4 k^2, k =
// safe_min()) still gives D = (ab.ab) d - (d.ab) ab in range. Such a ray must stay a miss.
TYPED_TEST(RayCapsule, DirectionWhoseSquareOverflowsIsInvalidThoughTheLateralProblemIsInRange) {
    using T = TypeParam;
    const T k = detail::safe_min<T>();
    const Capsule<T> c{{0, 0, 0}, {2 * k, 0, 0}, 1};
    const Ray<T> valid{{0, -1 / k, 0}, {0, 1, 0}};
    const Ray<T> huge{valid.origin, {0, T(1.5) * std::sqrt(std::numeric_limits<T>::max()), 0}};
    ASSERT_TRUE(cast(valid, c));  // the line meets the capsule
    T t0, t1;
    ASSERT_EQ(detail::capsule_passage(huge, c, t0, t1), detail::CapsuleFound::Fast);  // the premise
    ASSERT_FALSE(is_valid(huge));
    EXPECT_FALSE(cast(huge, c));
    EXPECT_FALSE(pick(huge, c));
}

// The other end: a direction whose square underflows to 0 (a zero direction to the contract),
// scaled into D's range by the longest unscaled axis (ab.ab = 1 / k^2). Found by fuzz_cast_double.
TYPED_TEST(RayCapsule, DirectionWhoseSquareUnderflowsIsInvalidThoughTheLateralProblemIsInRange) {
    using T = TypeParam;
    const T k = detail::safe_min<T>();
    const Capsule<T> c{{0, 0, 0}, {1 / k, 0, 0}, T(0.5)};
    const T tiny = sizeof(T) == 4 ? T(0x1p-80) : T(0x1p-600);  // squared: 0; times ab.ab: in range
    const Ray<T> valid{{0, -1, 0}, {0, 1, 0}};
    const Ray<T> short_dir{valid.origin, {0, tiny, 0}};
    ASSERT_TRUE(cast(valid, c));  // the line meets the capsule
    T t0, t1;
    ASSERT_EQ(detail::capsule_passage(short_dir, c, t0, t1), detail::CapsuleFound::Fast);  // the premise
    ASSERT_EQ(glm::dot(short_dir.direction, short_dir.direction), T(0));
    ASSERT_FALSE(is_valid(short_dir));
    EXPECT_FALSE(cast(short_dir, c, -infinity<T>(), infinity<T>()));
    EXPECT_FALSE(pick(short_dir, c, -infinity<T>(), infinity<T>()));
}

// cast() computes both normals at once (their divisions and square roots share vector
// instructions); each must be bit for bit the normal at that t computed alone, on the cylinder,
// on either cap, for a segment (radius 0), for tiny and huge axes (the rescaled CapsuleAxis) and,
// at 1e-20, for normals whose squared lengths are subnormal in float (the one-at-a-time fallback).
// cast() returns those, except for a == b (the sphere's) and radii below CapsuleNormals'
// range (at() computed in the wide type).
TYPED_TEST(RayCapsule, PairedNormalsEqualTheNormalsComputedOneAtATime) {
    using T = TypeParam;
    const std::uint32_t seed = test::seed_from_env(20261125);
    SCOPED_TRACE("RAYPICK_SEED=" + std::to_string(seed));
    std::mt19937 rng(seed);
    std::uniform_real_distribution<T> u(T(-1), T(1));
    const T scales[] = {T(1), T(1e-12), T(1e12), T(1e-20)};
    int hits = 0, paired = 0, wide = 0;
    for (int i = 0; i < 4000; ++i) {
        const T s = scales[i % 4];
        const Vec3<T> a(u(rng), u(rng), u(rng)), b(u(rng), u(rng), u(rng));
        const T radius = i % 7 == 0 ? T(0) : (u(rng) + T(1.5)) * T(0.25);
        const Capsule<T> c{a * s, (i % 5 == 0 ? a + (b - a) * T(1e-20) : b) * s, radius * s};
        // Aimed at a random point near the capsule (a segment is hit only exactly: aim at it).
        const Vec3<T> target = glm::mix(c.a, c.b, (u(rng) + T(1)) / T(2)) +
                               (radius == T(0) ? Vec3<T>(0) : Vec3<T>(u(rng), u(rng), u(rng)) * (radius * s));
        const Vec3<T> origin = target + Vec3<T>(u(rng), u(rng), u(rng)) * (T(8) * s);
        const Ray<T> ray{origin, (target - origin) * (u(rng) + T(2))};
        const auto h = cast(ray, c);
        if (!h) continue;
        ++hits;
        const detail::CapsuleNormals<T> one(ray, c, detail::CapsuleAxis<T>(c));
        const Vec3<T> n0 = one.at(h->t_near, false), n1 = one.at(h->t_far, true);
        Vec3<T> p0, p1;
        one.pair(h->t_near, h->t_far, p0, p1);
        for (int k = 0; k < 3; ++k) {
            ASSERT_TRUE(test::same_bits(p0[k], n0[k])) << "case " << i << " axis " << k;
            ASSERT_TRUE(test::same_bits(p1[k], n1[k])) << "case " << i << " axis " << k;
        }
        // cast() uses pair() unless the capsule is a sphere (a == b) or outside at()'s range (a
        // radius below 2^-30 in float: its normals are computed in the wide type).
        if (c.a == c.b) continue;
        ++paired;
        const Vec3<T> w0 = one.in_range() ? n0 : detail::capsule_normal_wide(ray, c, h->t_near, false);
        const Vec3<T> w1 = one.in_range() ? n1 : detail::capsule_normal_wide(ray, c, h->t_far, true);
        if (!one.in_range()) ++wide;
        for (int k = 0; k < 3; ++k) {
            ASSERT_TRUE(test::same_bits(h->n_near[k], w0[k])) << "case " << i << " axis " << k;
            ASSERT_TRUE(test::same_bits(h->n_far[k], w1[k])) << "case " << i << " axis " << k;
        }
    }
    EXPECT_GT(hits, 1500);
    EXPECT_GT(paired, 1000);
    if (sizeof(T) == 4) {
        EXPECT_GT(wide, 100);  // the 1e-20 capsules
    }
}

// Inputs at the ends of T's range, where the capsule's own terms leave it. Far away: a capsule
// 2^200 long and as thick (float: 2^24) seen from 2^1000 (2^120) away along -x, through the middle
// of its axis. F = (ab.ab) fa - (fa.ab) ab overflows T, which would make every such line a miss;
// the passage runs again in the wide type (detail::capsule_passage_wide). A line 1.5 r off the
// axis still misses. (In double, t rounds to 2^1000, whose ulp is far larger than the capsule.)
TYPED_TEST(RayCapsule, FarFromAHugeCapsuleTheLateralProblemDoesNotOverflow) {
    using T = TypeParam;
    const bool dbl = sizeof(T) == 8;
    const T len = std::ldexp(T(1), dbl ? 200 : 24), far = std::ldexp(T(1), dbl ? 1000 : 120);
    const Capsule<T> c{{0, 0, 0}, {0, 0, len}, len};
    const Ray<T> ray{{far, 0, len / 2}, {-1, 0, 0}};
    const auto h = cast(ray, c);
    ASSERT_TRUE(h);
    EXPECT_EQ(h->t_near, far - len);
    EXPECT_EQ(h->t_far, far + len);
    EXPECT_VEC_NEAR(h->n_near, Vec3<T>(1, 0, 0), tol<T>());
    EXPECT_VEC_NEAR(h->n_far, Vec3<T>(-1, 0, 0), tol<T>());
    const auto p = pick(ray, c);
    ASSERT_TRUE(p);
    EXPECT_EQ(p->t, h->t_near);
    EXPECT_EQ(p->normal, h->n_near);
    EXPECT_FALSE(cast(Ray<T>{{far, len * T(1.5), len / 2}, {-1, 0, 0}}, c));
}

// A direction so short (2^-72 in float, 2^-536 in double: d.d is still > 0, a valid ray) that
// the perpendicular part D = (ab.ab) d - (d.ab) ab of a capsule 1/8 long squares to 0: the line
// crossing the middle of the cylinder, taken as parallel to the axis, would be tested against
// the end balls only and missed. The wide type decides instead, and it is hit on the cylinder.
TYPED_TEST(RayCapsule, ATinyDirectionAcrossTheAxisIsNotTakenAsParallel) {
    using T = TypeParam;
    const T tiny = std::ldexp(T(1), sizeof(T) == 8 ? -536 : -72);
    const Capsule<T> c{{0, 0, 0}, {0, 0, T(0.125)}, T(0.01)};
    const Ray<T> ray{{5, 0, T(0.0625)}, {-tiny, 0, 0}};
    ASSERT_TRUE(is_valid(ray));
    const auto h = cast(ray, c);
    ASSERT_TRUE(h);
    EXPECT_NEAR(h->t_near * tiny, T(4.99), tol<T>());
    EXPECT_NEAR(h->t_far * tiny, T(5.01), tol<T>());
    EXPECT_VEC_NEAR(h->n_near, Vec3<T>(1, 0, 0), tol<T>());
}


// detail::capsule_clear_miss() decides most misses before passage()'s lateral problem is formed.
// It must never reject a line that the passage itself meets: the answer would change, and the
// batch kernels, which do not use it, would disagree with cast(). Lines near the tangent on both
// sides, at distance r (1 + delta) from the axis line with |delta| from 1e-9 to 1e-1, directions
// from across the axis to within 1e-7 rad of parallel, origins far along the axis or far away,
// capsules far from the world origin: wherever the filter says "miss", capsule_passage() (the same
// passage without the filter) and the passage in the wide type miss too. And the filter is not
// idle: among random rays aimed at a cloud of capsules (the kernel benchmark's set-up), most
// misses are decided by it.
TYPED_TEST(RayCapsule, ClearMissFilterNeverRejectsALineThePassageMeets) {
    using T = TypeParam;
    using W = detail::WideT<T>;
    const std::uint32_t seed = test::seed_from_env(20261126);
    SCOPED_TRACE("seed " + std::to_string(seed) + " (rerun with RAYPICK_SEED)");
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> u01(0, 1);
    auto unit = [&] {
        std::normal_distribution<double> g;
        glm::dvec3 v(g(rng), g(rng), g(rng));
        return v / glm::length(v);
    };
    for (int i = 0; i < 20000; ++i) {
        const glm::dvec3 centre = unit() * std::pow(10.0, 4 * u01(rng) - 1);  // 0.1 .. 1000 from the world origin
        const glm::dvec3 axis = unit();
        const double len = std::pow(10.0, 3 * u01(rng) - 1), r = std::pow(10.0, 3 * u01(rng) - 2);
        // A direction at angle theta to the axis, and the line's closest approach to the axis line
        // at distance r (1 + delta), at axial position `along` from the middle.
        glm::dvec3 side = glm::normalize(glm::cross(axis, unit()));
        const glm::dvec3 other = glm::cross(axis, side);
        const double theta = std::pow(10.0, -7 * u01(rng)) * 1.5707963;
        const glm::dvec3 dir = std::cos(theta) * axis + std::sin(theta) * other;
        const double delta = (u01(rng) < 0.5 ? -1 : 1) * std::pow(10.0, -9 + 8 * u01(rng));
        const double along = (u01(rng) - 0.5) * len * std::pow(10.0, 3 * u01(rng));
        const glm::dvec3 closest = centre + along * axis + r * (1 + delta) * side;
        const double back = std::pow(10.0, 4 * u01(rng) - 1) * (u01(rng) < 0.5 ? 1 : -1);
        const Ray<T> ray{Vec3<T>(closest - back * dir), Vec3<T>(dir * std::pow(10.0, 2 * u01(rng) - 1))};
        const Capsule<T> c{Vec3<T>(centre - 0.5 * len * axis), Vec3<T>(centre + 0.5 * len * axis), T(r)};
        T t0, t1;
        const bool exact_hit = detail::capsule_passage(ray, c, t0, t1) != detail::CapsuleFound::Miss;
        W w0, w1;
        const bool wide_hit = detail::capsule_passage(detail::widen(ray), detail::widen(c), w0, w1) != detail::CapsuleFound::Miss;
        if (!detail::capsule_clear_miss(ray, c)) continue;
        ASSERT_FALSE(exact_hit) << "case " << i << ": delta " << delta << ", theta " << theta << ", along " << along;
        ASSERT_FALSE(wide_hit) << "case " << i << ": delta " << delta << ", theta " << theta << ", along " << along;
    }
    int filtered = 0, misses = 0;
    std::uniform_real_distribution<T> pos(-10, 10), size(T(0.2), 2);
    auto v3 = [&] { return Vec3<T>(pos(rng), pos(rng), pos(rng)); };
    for (int i = 0; i < 4000; ++i) {
        const Vec3<T> o = glm::normalize(v3()) * T(30), h(size(rng), size(rng), size(rng)), c = v3() * T(0.3);
        const Ray<T> ray{o, v3() * T(0.3) - o};
        const Capsule<T> cap{c - h, c + Vec3<T>(h.z, h.x, h.y), size(rng) * T(0.5)};
        T t0, t1;
        if (detail::capsule_passage(ray, cap, t0, t1) != detail::CapsuleFound::Miss) continue;
        ++misses;
        filtered += detail::capsule_clear_miss(ray, cap);
    }
    EXPECT_GT(filtered, misses * 3 / 4) << filtered << " of " << misses << " misses filtered";
}

// The normals (CapsuleNormals: the point less its nearest axis point, over the radius, made unit
// by normalize_known_length()'s Newton step, or normalised where its rounding is too large). Rays
// from `dist` capsule sizes away through random points inside random capsules, on the cylinder and
// on the caps: normals unit within 2 eps at every distance, in cast() and in pick() (bit for bit
// the same). Without the Newton step they are off by up to hundreds of eps at 100 sizes; without
// the tolerance test, by 10^4 eps at 10^5 sizes in float.
TYPED_TEST(RayCapsule, NormalsAreUnitNearAndFar) {
    using T = TypeParam;
    const std::uint32_t seed = test::seed_from_env(2026);
    test::Random g(seed);
    int caps = 0;
    for (const double dist : test::near_to_far<T>()) {
        int hits = 0;
        for (int i = 0; i < 2000; ++i) {
            const Vec3<double> a = 3.0 * g.cube(), b = a + g.unit() * (0.2 + std::abs(g.sym()));
            const double r = 0.5 + 0.4 * g.sym();
            const Vec3<double> aim = glm::mix(a, b, 0.5 + 0.5 * g.sym()) + g.unit() * (0.9 * r * std::abs(g.sym()));
            const Vec3<double> o = aim + g.unit() * (dist * (r + glm::length(b - a)));
            const Ray<T> ray{Vec3<T>(o), Vec3<T>((aim - o) * (2.0 + g.sym()))};
            const Capsule<T> c{Vec3<T>(a), Vec3<T>(b), T(r)};
            if (!test::expect_unit_normals(ray, c, "seed " + std::to_string(seed) + " dist " + std::to_string(dist) + " i " + std::to_string(i)))
                continue;
            ++hits;
            const Vec3<double> entry = o + double(cast(ray, c)->t_near) * Vec3<double>(ray.direction);
            const double s = glm::dot(entry - a, b - a) / glm::dot(b - a, b - a);
            caps += s < 0 || s > 1;
        }
        EXPECT_GT(hits, 1900) << "dist " << dist;  // float rounding may take a grazing aim off the capsule
    }
    EXPECT_GT(caps, 1000);  // entries on the caps, not only on the cylinder
}

}  // namespace
}  // namespace raypick
