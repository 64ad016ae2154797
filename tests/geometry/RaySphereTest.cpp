// Named cases of cast(Ray, Sphere): the four cases of the dev log "Dev Log 5: Ray cast! (part2) Bonus!"
// and every degenerate input.
#include <cmath>
#include <cstdint>
#include <limits>

#include "TestUtil.h"
#include <raypick/geometry/RaySphere.h>
#include <raypick/geometry/Shape.h>

namespace raypick {
namespace {
using test::tol;

template <typename T> class RaySphere : public ::testing::Test {};
TYPED_TEST_SUITE(RaySphere, test::Scalars);

// Dev log case 1: discriminant < 0, the line misses.
TYPED_TEST(RaySphere, Miss) {
    using T = TypeParam;
    EXPECT_FALSE(cast(Ray<T>{{0, 3, -5}, {0, 0, 1}}, Sphere<T>{{0, 0, 0}, 2}));
}

// Dev log case 2: discriminant == 0, one touching point.
TYPED_TEST(RaySphere, TangentGivesOnePointWithItsNormal) {
    using T = TypeParam;
    const auto h = cast(Ray<T>{{0, 2, -5}, {0, 0, 1}}, Sphere<T>{{0, 0, 0}, 2});
    ASSERT_TRUE(h);
    EXPECT_EQ(h->t_near, T(5));
    EXPECT_EQ(h->t_far, T(5));
    EXPECT_VEC_NEAR(h->n_near, Vec3<T>(0, 1, 0), tol<T>());
    EXPECT_VEC_NEAR(h->n_far, Vec3<T>(0, 1, 0), tol<T>());
    EXPECT_FALSE(h->origin_inside);
}

// Dev log case 3: two hits.
TYPED_TEST(RaySphere, TwoHitsWithOutwardNormals) {
    using T = TypeParam;
    const auto h = cast(Ray<T>{{0, 0, -5}, {0, 0, 1}}, Sphere<T>{{0, 0, 0}, 2});
    ASSERT_TRUE(h);
    EXPECT_EQ(h->t_near, T(3));
    EXPECT_EQ(h->t_far, T(7));
    EXPECT_VEC_NEAR(h->n_near, Vec3<T>(0, 0, -1), tol<T>());
    EXPECT_VEC_NEAR(h->n_far, Vec3<T>(0, 0, 1), tol<T>());
}

// Dev log case 4: origin inside; entry behind (t_near < 0), pick gives the exit.
TYPED_TEST(RaySphere, OriginInsideReportsEntryBehindAndPicksExit) {
    using T = TypeParam;
    const Ray<T> ray{{0, 0, 1}, {0, 0, 1}};
    const auto h = cast(ray, Sphere<T>{{0, 0, 0}, 2});
    ASSERT_TRUE(h);
    EXPECT_TRUE(h->origin_inside);
    EXPECT_EQ(h->t_near, T(-3));
    EXPECT_EQ(h->t_far, T(1));
    const auto s = pick(ray, Sphere<T>{{0, 0, 0}, 2});
    ASSERT_TRUE(s);
    EXPECT_TRUE(s->is_exit);
    EXPECT_EQ(s->t, T(1));
    EXPECT_VEC_NEAR(s->normal, Vec3<T>(0, 0, 1), tol<T>());
}

TYPED_TEST(RaySphere, SphereEntirelyBehindIsAMiss) {
    using T = TypeParam;
    EXPECT_FALSE(cast(Ray<T>{{0, 0, 5}, {0, 0, 1}}, Sphere<T>{{0, 0, 0}, 2}));
    // ... but the whole line does pass through it.
    EXPECT_TRUE(cast(Ray<T>{{0, 0, 5}, {0, 0, 1}}, Sphere<T>{{0, 0, 0}, 2}, -infinity<T>(), infinity<T>()));
}

TYPED_TEST(RaySphere, OriginOnSurfaceLeaving) {
    using T = TypeParam;
    const auto h = cast(Ray<T>{{0, 0, 2}, {0, 0, 1}}, Sphere<T>{{0, 0, 0}, 2});
    ASSERT_TRUE(h);  // touches at t = 0: closed surfaces count
    EXPECT_EQ(h->t_far, T(0));
    EXPECT_FALSE(h->origin_inside);
}

TYPED_TEST(RaySphere, OriginOnSurfaceEntering) {
    using T = TypeParam;
    const auto h = cast(Ray<T>{{0, 0, -2}, {0, 0, 1}}, Sphere<T>{{0, 0, 0}, 2});
    ASSERT_TRUE(h);
    EXPECT_EQ(h->t_near, T(0));
    EXPECT_EQ(h->t_far, T(4));
    EXPECT_FALSE(h->origin_inside);
}

TYPED_TEST(RaySphere, UnnormalisedDirectionScalesT) {
    using T = TypeParam;
    const auto h1 = cast(Ray<T>{{0, 0, -5}, {0, 0, 1}}, Sphere<T>{{0, 0, 0}, 2});
    const auto h4 = cast(Ray<T>{{0, 0, -5}, {0, 0, 4}}, Sphere<T>{{0, 0, 0}, 2});
    const auto hs = cast(Ray<T>{{0, 0, -5}, {0, 0, T(0.001)}}, Sphere<T>{{0, 0, 0}, 2});
    ASSERT_TRUE(h1 && h4 && hs);
    EXPECT_NEAR(h4->t_near * 4, h1->t_near, tol<T>());
    EXPECT_NEAR(hs->t_near * T(0.001), h1->t_near, T(10) * tol<T>());
    EXPECT_VEC_NEAR(h4->n_near, h1->n_near, tol<T>());
}

TYPED_TEST(RaySphere, ZeroRadiusIsAPoint) {
    using T = TypeParam;
    const auto h = cast(Ray<T>{{1, 2, -5}, {0, 0, 2}}, Sphere<T>{{1, 2, 3}, 0});
    ASSERT_TRUE(h);
    EXPECT_EQ(h->t_near, T(4));
    EXPECT_EQ(h->t_far, T(4));
    EXPECT_VEC_NEAR(h->n_near, Vec3<T>(0, 0, -1), tol<T>());  // documented fallback: -unit(dir)
    EXPECT_VEC_NEAR(h->n_far, Vec3<T>(0, 0, 1), tol<T>());
    EXPECT_FALSE(cast(Ray<T>{{1, T(2.001), -5}, {0, 0, 1}}, Sphere<T>{{1, 2, 3}, 0}));
}

// A point met at an inexact t (15/29, 29/27): origin + t d lands a rounding error past the point
// or short of it (in float and in double), so unit(f + t d) would give one of the two normals the
// wrong way round; a point's normals are the direction's.
TYPED_TEST(RaySphere, PointMetAtAnInexactTHasTheDirectionsNormals) {
    using T = TypeParam;
    const Sphere<T> point{{1, 2, 3}, 0};
    for (const Ray<T>& ray : {Ray<T>{{1, 2, -12}, {0, 0, 29}}, Ray<T>{{1, 2, -26}, {0, 0, 27}}}) {
        const auto h = cast(ray, point);
        ASSERT_TRUE(h) << detail::str(ray.direction);
        EXPECT_EQ(h->t_near, h->t_far);
        EXPECT_NEAR(h->t_near, (point.center.z - ray.origin.z) / ray.direction.z, tol<T>());
        ASSERT_NE(((ray.origin - point.center) + h->t_near * ray.direction).z, T(0));  // the premise
        const Vec3<T> u = glm::normalize(ray.direction);
        EXPECT_VEC_NEAR(h->n_near, -u, tol<T>());
        EXPECT_VEC_NEAR(h->n_far, u, tol<T>());
        const auto s = pick(ray, point);
        ASSERT_TRUE(s);
        EXPECT_EQ(s->normal, h->n_near);
    }
}

// q = b' + sign(b') sqrt(disc) is 0 when the line is tangent at the foot of the perpendicular from
// the centre and that foot is the origin (b' = 0, disc = 0), or for a point at the origin (f = 0,
// r = 0), where c/q is 0/0. Both roots are +0, whatever the sign of the zero b' (here -0: f.d = +0).
TYPED_TEST(RaySphere, TangentAtTheOriginAndPointAtTheOriginAreAtZero) {
    using T = TypeParam;
    const Ray<T> ray{{0, 2, 0}, {1, 0, 0}};
    for (const Sphere<T>& s : {Sphere<T>{{0, 0, 0}, 2}, Sphere<T>{{0, 2, 0}, 0}}) {
        const auto h = cast(ray, s, -infinity<T>(), infinity<T>());
        ASSERT_TRUE(h) << "radius " << s.radius;
        EXPECT_EQ(h->t_near, T(0));
        EXPECT_EQ(h->t_far, T(0));
        EXPECT_FALSE(std::signbit(h->t_near) || std::signbit(h->t_far)) << "radius " << s.radius;
        T t0 = T(-1), t1 = T(-1);
        ASSERT_TRUE(detail::passage(ray, s, t0, t1));
        EXPECT_FALSE(std::signbit(t0) || std::signbit(t1) || t0 != T(0) || t1 != T(0)) << t0 << ", " << t1;
    }
    const auto h = cast(ray, Sphere<T>{{0, 0, 0}, 2});
    ASSERT_TRUE(h);
    EXPECT_VEC_NEAR(h->n_near, Vec3<T>(0, 1, 0), tol<T>());
}

TYPED_TEST(RaySphere, RangeClipsButKeepsThePassage) {
    using T = TypeParam;
    const Ray<T> ray{{0, 0, -5}, {0, 0, 1}};
    const Sphere<T> s{{0, 0, 0}, 2};
    EXPECT_FALSE(cast(ray, s, T(0), T(2.5)));  // ends before the sphere
    EXPECT_FALSE(cast(ray, s, T(8), T(9)));    // starts after it
    const auto h = cast(ray, s, T(4), T(5));   // range wholly inside the sphere
    ASSERT_TRUE(h);
    EXPECT_EQ(h->t_near, T(3));
    EXPECT_FALSE(first_surface(ray, *h, T(4), T(5)));  // no surface crossed in [4, 5]
    EXPECT_FALSE(cast(ray, s, T(5), T(4)));            // t_min > t_max
}

TYPED_TEST(RaySphere, InvalidInputIsAMissNeverNaN) {
    using T = TypeParam;
    const T nan = std::numeric_limits<T>::quiet_NaN();
    const T inf = infinity<T>();
    const Sphere<T> s{{0, 0, 0}, 1};
    EXPECT_FALSE(cast(Ray<T>{{0, 0, -5}, {0, 0, 0}}, s));  // zero direction
    EXPECT_FALSE(cast(Ray<T>{{0, 0, -5}, {0, 0, nan}}, s));
    EXPECT_FALSE(cast(Ray<T>{{0, 0, -5}, {0, 0, inf}}, s));
    EXPECT_FALSE(cast(Ray<T>{{nan, 0, -5}, {0, 0, 1}}, s));
    EXPECT_FALSE(cast(Ray<T>{{0, 0, -5}, {0, 0, 1}}, Sphere<T>{{0, 0, 0}, -1}));  // negative radius
    EXPECT_FALSE(cast(Ray<T>{{0, 0, -5}, {0, 0, 1}}, Sphere<T>{{0, 0, 0}, nan}));
    EXPECT_FALSE(cast(Ray<T>{{0, 0, -5}, {0, 0, 1}}, Sphere<T>{{0, nan, 0}, 1}));
    EXPECT_FALSE(cast(Ray<T>{{0, 0, -5}, {0, 0, 1}}, s, nan, T(1)));
    // A direction whose squared length underflows is "zero".
    const T tiny = std::numeric_limits<T>::denorm_min();
    EXPECT_FALSE(cast(Ray<T>{{0, 0, -5}, {0, 0, tiny}}, s));
    ASSERT_TRUE(validate(Ray<T>{{0, 0, -5}, {0, 0, 0}}));
    EXPECT_EQ(validate(Ray<T>{{0, 0, -5}, {0, 0, 0}})->field, "direction");
    ASSERT_TRUE(validate(Sphere<T>{{0, 0, 0}, -1}));
    EXPECT_EQ(validate(Sphere<T>{{0, 0, 0}, -1})->field, "radius");
    EXPECT_NE(validate(Sphere<T>{{0, 0, 0}, -1})->message.find("-1"), std::string::npos);
}

TYPED_TEST(RaySphere, HugeInputsDoNotProduceNaN) {
    using T = TypeParam;
    const T big = std::numeric_limits<T>::max() / T(4);
    const auto h = cast(Ray<T>{{-big, 0, 0}, {1, 0, 0}}, Sphere<T>{{big, 0, 0}, big});
    if (h) {
        EXPECT_TRUE(is_finite(h->t_near) && is_finite(h->t_far));
        EXPECT_TRUE(is_finite(h->n_near) && is_finite(h->n_far));
    }
}

// A line grazing a sphere at the origin's own position: the origin lies on the surface (up to an
// offset whose square is below the rounding of r^2), moving tangentially with a tiny component
// along the radius, so the foot of the perpendicular is at t ~ 0 and q = b' + ... is tiny. Both
// roots belong near t = 0 (or the line misses): c / q turns c's rounding error into a root
// ~1e15 away, an "entry" nowhere near the sphere. (A fuzz_cast_float regression input has the
// same case as a capsule with a == b, at 2^-71 times this scale.)
TYPED_TEST(RaySphere, NearTangentWithTheFootAtTheOriginHasNoFarAwayRoot) {
    using T = TypeParam;
    const T r = T(0x1.383838p0f);
    const Sphere<T> s{{r, r, T(0x1.383838p-32f)}, r};
    for (const T sign : {T(1), T(-1)}) {
        const Ray<T> ray{{r, T(0x1.384848p0f), r}, {r, 0, sign * T(0x1.cp-74f)}};
        const auto h = cast(ray, s, -infinity<T>(), infinity<T>());
        if (!h) continue;  // a miss is right too: the line passes just outside
        EXPECT_LE(std::abs(h->t_near), T(1e-3)) << "sign " << sign;
        EXPECT_LE(std::abs(h->t_far), T(1e-3)) << "sign " << sign;
        EXPECT_NEAR(glm::distance(ray.at(h->t_near), s.center), r, T(1e-3));
    }
}

// A sphere near the largest finite value along the line but well off it (61 units, radius 0 or
// 1): a miss. Roots that rescale f by its largest component (1.8e308) make the 61 underflow when
// squared and call the line a tangent at t ~ 6e307; a miss whose discriminant is negative without
// an underflow is taken as it is, whatever the upper bound (detail::sphere_clear_miss), and the
// roots outside the fast range are computed in a wider type instead of rescaled.
// (fuzz/regressions/ has this case and two capsules with a == b.)
TYPED_TEST(RaySphere, FarAlongTheLineButWellOffItIsAMiss) {
    using T = TypeParam;
    const T big = std::numeric_limits<T>::max();
    for (const T r : {T(0), T(1)}) {
        const Sphere<T> s{{8, -big, 0}, r};
        const Ray<T> ray{{69, 69, 0}, {0, -3, 0}};
        EXPECT_FALSE(cast(ray, s)) << "r " << r;
        EXPECT_FALSE(pick(ray, s)) << "r " << r;
        T t0, t1;
        EXPECT_FALSE(detail::passage(ray, s, t0, t1)) << "r " << r;
        // The same centre on the line is hit, near t = big / 3 (the wide path).
        const auto on = cast(ray, Sphere<T>{{69, -big, 0}, r});
        ASSERT_TRUE(on) << "r " << r;
        EXPECT_NEAR(on->t_near / (big / T(3)), T(1), T(1e-3)) << "r " << r;
    }
}

// Outside the fast range both sides of the discriminant can be tiny next to the inputs: a sphere
// of radius R = m * 2^-540 (double; 2^-80 in float) seen from m = max / 8 (f.f overflows),
// the direction (-2^e, 0, 0) long enough that d.d R^2 overflows too, so the fast path cannot
// decide; the line passes the centre at 1.1 R (a miss) or 0.9 R (a hit). Rescaling f and R by m
// would push R^2 and the line's squared distance below the smallest subnormal: both 0, a tangent,
// so the miss would be a hit (in both types). detail::sphere_roots_wide() computes in a wider
// type instead. The capsule (a == b, and a short axis),
// whose ball and lateral problems go through the same roots, and pick() agree.
TYPED_TEST(RaySphere, HugeSphereFarAwayOutsideTheFastRangeIsNotATangent) {
    using T = TypeParam;
    const bool dbl = sizeof(T) == 8;
    const T m = std::numeric_limits<T>::max() / T(8);
    const T big_r = std::ldexp(m, dbl ? -540 : -80);
    const T len = std::ldexp(T(1), dbl ? 500 : 60);  // d.d = 2^1000 (2^120) is finite: a valid ray
    for (const T off : {T(1.1), T(0.9)}) {
        const Ray<T> ray{{m, off * big_r, 0}, {-len, 0, 0}};
        ASSERT_TRUE(is_valid(ray));
        const Sphere<T> s{{0, 0, 0}, big_r};
        ASSERT_FALSE(detail::sphere_roots_in_safe_range(ray.origin - s.center, ray.direction, s.radius));
        const bool want = off < T(1);
        const auto h = cast(ray, s);
        ASSERT_EQ(bool(h), want) << "offset " << off << " R";
        EXPECT_EQ(bool(pick(ray, s)), want) << "offset " << off << " R";
        EXPECT_EQ(bool(cast(ray, Capsule<T>{s.center, s.center, big_r})), want) << "offset " << off << " R";
        EXPECT_EQ(bool(cast(ray, Capsule<T>{s.center, s.center + Vec3<T>(0, 0, big_r), big_r})), want)
            << "offset " << off << " R";
        if (!want) continue;
        // The entry: (m - R cos(asin(0.9))) / len, to float precision at least.
        const long double t = (static_cast<long double>(m) - static_cast<long double>(big_r) * std::sqrt(1.0L - 0.81L)) / len;
        EXPECT_NEAR(static_cast<long double>(h->t_near) / t, 1.0L, 4 * std::numeric_limits<T>::epsilon());
        EXPECT_NEAR(glm::length(h->n_near), T(1), tol<T>());
    }
}

// Origin and centre of opposite signs beyond max / 2: origin - centre overflows T although both
// are finite, and so does |f|^2. The wide roots form f without overflow. Along (-4, 0, 0) from
// y = 0.5 (hit) or 1.5 (miss): f x d in T has a NaN component (0 * inf), which would miss both.
// Along (-4, e, e) with e = 0.25 / (1.8 max) (a subnormal): f x d in T has an infinite component
// and no NaN, the discriminant is -inf, which must not be taken as a clear miss: the line passes the
// centre at 0.79 r. (t is found to T's precision, whose ulp here dwarfs the sphere, so the point
// at t, and its normal, say little: the normal is only checked to be unit, computed in the wide
// type where origin - centre + t d would have been inf - inf.)
TYPED_TEST(RaySphere, OriginMinusCentreOverflowingIsComputedWide) {
    using T = TypeParam;
    const T big = std::numeric_limits<T>::max() * T(0.9);
    const Sphere<T> s{{-big, 0, 0}, 1};
    for (const T y : {T(0.5), T(1.5)}) {
        const Ray<T> ray{{big, y, 0}, {-4, 0, 0}};
        const auto h = cast(ray, s);
        ASSERT_EQ(bool(h), y < T(1)) << "y " << y;
        if (!h) continue;
        const long double t = (2.0L * big - std::sqrt(1.0L - 0.25L)) / 4;
        EXPECT_NEAR(static_cast<long double>(h->t_near) / t, 1.0L, 2 * std::numeric_limits<T>::epsilon());
        EXPECT_NEAR(glm::length(h->n_near), T(1), tol<T>());
        EXPECT_EQ(pick(ray, s)->normal, h->n_near);
        // A capsule around the centre along z: origin - a overflows in its normals too.
        const auto hc = cast(ray, Capsule<T>{s.center - Vec3<T>(0, 0, 1), s.center + Vec3<T>(0, 0, 1), 1});
        ASSERT_TRUE(hc) << "y " << y;
        EXPECT_NEAR(glm::length(hc->n_near), T(1), tol<T>());
        EXPECT_NEAR(glm::length(hc->n_far), T(1), tol<T>());
    }
    const T e = T(0.25) / (T(1.8) * big);
    const Ray<T> slanted{{big, T(0.5), 0}, {-4, e, e}};
    ASSERT_TRUE(is_valid(slanted));
    const auto h = cast(slanted, s);
    ASSERT_TRUE(h);
    EXPECT_NEAR(glm::length(h->n_near), T(1), tol<T>());
    EXPECT_TRUE(pick(slanted, s));
    T t0, t1;
    EXPECT_TRUE(detail::passage(slanted, s, t0, t1));
    EXPECT_TRUE(cast(slanted, Capsule<T>{s.center, s.center, s.radius}));
}

// The corners of the roots' fast range (detail::in_safe_range_sq: d.d and |f|^2 + r^2 each at
// least 2^-2k, their product at most 2^4k) and just beyond them, where the scaled path takes
// over: a ray aimed through the centre of a sphere whose radius is a tenth of its distance, with
// the direction and the distance each scaled by powers of two from tiny to huge and unbalanced
// (a tiny direction towards a huge sphere and the reverse). The entry is (D - r) / |d| exactly up
// to rounding, so t must have float precision and the normals must be unit, whichever path ran.
TYPED_TEST(RaySphere, FastRangeCornersKeepFullPrecision) {
    using T = TypeParam;
    const int k = detail::safe_exponent<T>();
    int cases = 0;
    for (int ed = -3 * k; ed <= 3 * k; ed += k / 2) {      // direction length 2^ed
        for (int ef = -3 * k; ef <= 3 * k; ef += k / 2) {  // distance to the centre 2^ef
            if (ef - ed > std::numeric_limits<T>::max_exponent - 4 || ed - ef > std::numeric_limits<T>::max_exponent - 4)
                continue;  // t itself would overflow or underflow
            if (2 * ed <= std::numeric_limits<T>::min_exponent || 2 * ed >= std::numeric_limits<T>::max_exponent)
                continue;  // d.d underflows or overflows: an invalid ray (see validate(Ray))
            const T dist = std::ldexp(T(1), ef), r = dist / T(10);
            const Ray<T> ray{{0, 0, 0}, {0, 0, std::ldexp(T(0.75), ed)}};
            const auto h = cast(ray, Sphere<T>{{0, 0, dist}, r});
            ASSERT_TRUE(h) << "ed " << ed << " ef " << ef;
            const long double want = (static_cast<long double>(dist) - r) / ray.direction.z;
            EXPECT_NEAR(static_cast<long double>(h->t_near) / want, 1.0L, 4 * std::numeric_limits<T>::epsilon())
                << "ed " << ed << " ef " << ef;
            EXPECT_NEAR(glm::length(h->n_near), T(1), tol<T>());
            EXPECT_EQ(h->n_near, Vec3<T>(0, 0, -1)) << "ed " << ed << " ef " << ef;
            ++cases;
        }
    }
    EXPECT_GT(cases, 100);
}

// The fast path's normals (detail::sphere_fast_normal, detail::normalize_known_length): (p / r)
// made unit by one Newton step when |p / r|^2 is within the step's tolerance of 1, p normalised
// otherwise. Rays from random points `dist` radii from the centre through random points inside
// the sphere: normals unit within 2 eps at every distance (measured: at most 1.4 eps, against 1.6
// with a square root and a division), in cast() and in pick() (bit for bit the same). Near spheres need the step
// (p / r alone is off by up to 250 eps at 100 radii) and far ones the tolerance test (the step
// alone is 1e4 eps off at 1e5 radii in float, where p's rounding is 1e-3 of r; in double from
// about 1e8 radii).
TYPED_TEST(RaySphere, NormalsAreUnitNearAndFar) {
    using T = TypeParam;
    const std::uint32_t seed = test::seed_from_env(2026);
    test::Random g(seed);
    for (const double dist : test::near_to_far<T>()) {
        int hits = 0;
        for (int i = 0; i < 2000; ++i) {
            const Vec3<double> c = 3.0 * g.cube();
            const double r = 0.5 + 0.4 * g.sym();
            const Vec3<double> o = c + g.unit() * (dist * r), aim = c + g.unit() * (0.9 * r * std::abs(g.sym()));
            const Ray<T> ray{Vec3<T>(o), Vec3<T>((aim - o) * (2.0 + g.sym()))};
            hits += test::expect_unit_normals(ray, Sphere<T>{Vec3<T>(c), T(r)},
                                              "seed " + std::to_string(seed) + " dist " + std::to_string(dist) + " i " + std::to_string(i));
        }
        EXPECT_GT(hits, 1900) << "dist " << dist;  // float rounding may take a grazing aim off the sphere
    }
}

}  // namespace
}  // namespace raypick
