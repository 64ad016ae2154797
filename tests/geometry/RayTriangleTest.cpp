// The contract of intersect(Ray, Triangle) and cast(Ray, Triangle): exact values on simple cases,
// the face and winding rules, closed edges and vertices, zero-area triangles, the ray range,
// invalid input, and re-casting from a hit point.
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <iostream>
#include <limits>

#include "TestUtil.h"
#include <raypick/geometry/RayTriangle.h>
#include <raypick/geometry/Shape.h>
#include <raypick/geometry/textbook/TextbookTriangle.h>

namespace raypick {
namespace {

template <typename T> class RayTriangle : public ::testing::Test {};
TYPED_TEST_SUITE(RayTriangle, test::Scalars);

/// Right triangle in the plane z = 0, counter-clockwise seen from +z: its front faces +z.
template <typename T> Triangle<T> right_triangle() { return {{0, 0, 0}, {4, 0, 0}, {0, 4, 0}}; }

/// A ray straight down (-z) through (x, y) from z = 5.
template <typename T> Ray<T> down_at(T x, T y) { return {{x, y, 5}, {0, 0, -1}}; }

TYPED_TEST(RayTriangle, InteriorHitHasExactDistanceWeightsNormalAndFrontFace) {
    using T = TypeParam;
    const auto h = intersect(down_at<T>(1, 1), right_triangle<T>());
    ASSERT_TRUE(h);
    EXPECT_EQ(h->t, T(5));
    EXPECT_EQ(h->barycentric, Vec3<T>(T(0.5), T(0.25), T(0.25)));  // 0.5 a + 0.25 b + 0.25 c = (1, 1)
    EXPECT_EQ(h->normal, Vec3<T>(0, 0, 1));
    EXPECT_TRUE(h->front);
    const auto c = cast(down_at<T>(1, 1), right_triangle<T>());
    ASSERT_TRUE(c);
    EXPECT_EQ(c->t_near, T(5));
    EXPECT_EQ(c->t_far, T(5));
    EXPECT_EQ(c->n_near, Vec3<T>(0, 0, 1));
    EXPECT_EQ(c->n_far, Vec3<T>(0, 0, -1));
    EXPECT_FALSE(c->origin_inside);
    const auto p = pick(down_at<T>(1, 1), right_triangle<T>());
    ASSERT_TRUE(p);
    EXPECT_EQ(p->t, T(5));
    EXPECT_EQ(p->point, Vec3<T>(1, 1, 0));
    EXPECT_FALSE(p->is_exit);
}

TYPED_TEST(RayTriangle, BackFaceIsHitWithTheWindingNormalAndFrontFalse) {
    using T = TypeParam;
    const Ray<T> up{{1, 1, -5}, {0, 0, 1}};
    const auto h = intersect(up, right_triangle<T>());
    ASSERT_TRUE(h);
    EXPECT_EQ(h->t, T(5));
    EXPECT_EQ(h->barycentric, Vec3<T>(T(0.5), T(0.25), T(0.25)));
    EXPECT_EQ(h->normal, Vec3<T>(0, 0, 1));  // by winding, whichever side the ray comes from
    EXPECT_FALSE(h->front);
    const auto c = cast(up, right_triangle<T>());
    ASSERT_TRUE(c);
    EXPECT_EQ(c->n_near, Vec3<T>(0, 0, -1));  // facing the ray
    EXPECT_EQ(c->n_far, Vec3<T>(0, 0, 1));
}

TYPED_TEST(RayTriangle, ReversedWindingFlipsNormalAndFaceButNotDistance) {
    using T = TypeParam;
    const Triangle<T> tri = right_triangle<T>();
    const Triangle<T> reversed{tri.a, tri.c, tri.b};
    const auto h = intersect(down_at<T>(1, 1), reversed);
    ASSERT_TRUE(h);
    EXPECT_EQ(h->t, T(5));
    EXPECT_EQ(h->barycentric, Vec3<T>(T(0.5), T(0.25), T(0.25)));  // weights of a, c, b
    EXPECT_EQ(h->normal, Vec3<T>(0, 0, -1));
    EXPECT_FALSE(h->front);
}

TYPED_TEST(RayTriangle, EdgesAndVerticesAreHitAndHaveExactWeights) {
    using T = TypeParam;
    const Triangle<T> tri = right_triangle<T>();
    struct Case {
        T x, y;
        Vec3<T> weights;
    };
    const Case cases[] = {
        {2, 0, {T(0.5), T(0.5), 0}},  // edge ab
        {2, 2, {0, T(0.5), T(0.5)}},  // edge bc
        {0, 3, {T(0.25), 0, T(0.75)}},  // edge ca
        {0, 0, {1, 0, 0}},             // vertex a
        {4, 0, {0, 1, 0}},             // vertex b
        {0, 4, {0, 0, 1}},             // vertex c
    };
    for (const Case& c : cases) {
        const auto h = intersect(down_at(c.x, c.y), tri);
        ASSERT_TRUE(h) << "at (" << c.x << ", " << c.y << ")";
        EXPECT_EQ(h->t, T(5));
        EXPECT_EQ(h->barycentric, c.weights) << "at (" << c.x << ", " << c.y << ")";
    }
    // Just outside each edge: a miss.
    const T below0 = -std::numeric_limits<T>::denorm_min();
    EXPECT_FALSE(intersect(down_at<T>(2, below0), tri));
    EXPECT_FALSE(intersect(down_at<T>(below0, 2), tri));
    EXPECT_FALSE(intersect(down_at<T>(2, std::nextafter(T(2), T(3))), tri));
}

// An oblique ray whose direction's ratios are powers of two: the sheared projection is exact, so
// edges and vertices are decided exactly.
TYPED_TEST(RayTriangle, ObliqueRaysThroughEdgesAndVerticesHit) {
    using T = TypeParam;
    const Triangle<T> tri = right_triangle<T>();
    const Vec3<T> d(1, 2, -4);
    for (const Vec3<T>& target : {Vec3<T>(0, 0, 0), Vec3<T>(4, 0, 0), Vec3<T>(0, 4, 0), Vec3<T>(1, 0, 0),
                                  Vec3<T>(3, 1, 0), Vec3<T>(0, T(2.5), 0)}) {
        const Ray<T> ray{target - d * T(2), d};
        const auto h = intersect(ray, tri);
        ASSERT_TRUE(h) << "through (" << target.x << ", " << target.y << ")";
        EXPECT_EQ(h->t, T(2));
        EXPECT_TRUE(h->front);
        EXPECT_EQ(h->barycentric.x * tri.a + h->barycentric.y * tri.b + h->barycentric.z * tri.c, target);
    }
    const Ray<T> beside{Vec3<T>(-std::numeric_limits<T>::epsilon(), 1, 0) - d, d};  // just past edge ca
    EXPECT_FALSE(intersect(beside, tri));
}

TYPED_TEST(RayTriangle, RaysInOrParallelToTheAxisAlignedPlaneMiss) {
    using T = TypeParam;
    const Triangle<T> tri = right_triangle<T>();
    EXPECT_FALSE(intersect(Ray<T>{{-1, 1, 0}, {1, 0, 0}}, tri));        // in the plane, through the inside
    EXPECT_FALSE(intersect(Ray<T>{{-1, -1, 0}, {1, 1, 0}}, tri));       // in the plane, through vertex a
    EXPECT_FALSE(intersect(Ray<T>{{-1, 1, 1}, {1, 0, 0}}, tri));        // parallel, above
    EXPECT_FALSE(intersect(Ray<T>{{-1, 1, T(-1e-3)}, {1, T(0.5), 0}}, tri));  // parallel, below
}

TYPED_TEST(RayTriangle, ZeroAreaTrianglesAreDegenerateAndNeverHit) {
    using T = TypeParam;
    const Vec3<T> a(1, 2, 3), b(T(1.5), T(2.25), 4);
    const Triangle<T> zero_area[] = {
        {a, a, b},                     // two coincident vertices
        {a, b, b},
        {a, a, a},                     // all three
        {a, b, a + (b - a) * T(2)},    // collinear, c beyond b
        {a, a + (b - a) * T(0.5), b},  // collinear, b between
        {{0, 0, 0}, {1, 0, 0}, {3, 0, 0}},
    };
    test::Random rng(test::seed_from_env(7001));
    for (const Triangle<T>& tri : zero_area) {
        EXPECT_TRUE(is_degenerate(tri));
        // Rays through each vertex, the midpoints and random points of the segment, from all sides.
        for (int i = 0; i < 2000; ++i) {
            const T s = i < 3 ? T(i) / T(2) : T(rng.sym() * 0.5 + 0.5);
            const Vec3<T> target = tri.a + (tri.c - tri.a) * s;
            const Vec3<T> d(rng.unit());
            EXPECT_FALSE(intersect(Ray<T>{target - d * T(3), d}, tri)) << "ray " << i;
        }
    }
    EXPECT_FALSE(is_degenerate(right_triangle<T>()));
    EXPECT_FALSE(is_degenerate(Triangle<T>{a, b, {b.x, b.y, std::nextafter(b.z, T(5))}}));  // a sliver
}

TYPED_TEST(RayTriangle, DistanceMustLieInTheClosedRange) {
    using T = TypeParam;
    const Triangle<T> tri = right_triangle<T>();
    const Ray<T> ray = down_at<T>(1, 1);  // hits at t = 5
    EXPECT_TRUE(intersect(ray, tri, T(5), T(5)));
    EXPECT_TRUE(intersect(ray, tri, T(0), T(5)));
    EXPECT_TRUE(intersect(ray, tri, T(5), infinity<T>()));
    EXPECT_FALSE(intersect(ray, tri, T(0), std::nextafter(T(5), T(0))));
    EXPECT_FALSE(intersect(ray, tri, std::nextafter(T(5), T(6)), infinity<T>()));
    // Behind the origin: a miss for the default range, a hit at t = -5 for a range that holds it.
    const Ray<T> away{{1, 1, 5}, {0, 0, 1}};
    EXPECT_FALSE(intersect(away, tri));
    const auto h = intersect(away, tri, T(-10), T(0));
    ASSERT_TRUE(h);
    EXPECT_EQ(h->t, T(-5));
    // The origin on the triangle: t = 0, inside the default range.
    const auto on = intersect(Ray<T>{{1, 1, 0}, {0, 0, -1}}, tri);
    ASSERT_TRUE(on);
    EXPECT_EQ(on->t, T(0));
}

TYPED_TEST(RayTriangle, InvalidInputMisses) {
    using T = TypeParam;
    const T nan = std::numeric_limits<T>::quiet_NaN(), inf = infinity<T>();
    const Triangle<T> tri = right_triangle<T>();
    const Ray<T> ray = down_at<T>(1, 1);
    EXPECT_FALSE(intersect(Ray<T>{{nan, 1, 5}, {0, 0, -1}}, tri));
    EXPECT_FALSE(intersect(Ray<T>{{1, 1, inf}, {0, 0, -1}}, tri));
    EXPECT_FALSE(intersect(Ray<T>{{1, 1, 5}, {0, 0, nan}}, tri));
    EXPECT_FALSE(intersect(Ray<T>{{1, 1, 5}, {0, 0, -inf}}, tri));
    EXPECT_FALSE(intersect(Ray<T>{{1, 1, 5}, {0, 0, 0}}, tri));
    EXPECT_FALSE(intersect(ray, tri, nan, T(10)));
    EXPECT_FALSE(intersect(ray, tri, T(0), nan));
    EXPECT_FALSE(intersect(ray, tri, T(6), T(4)));
    for (int v = 0; v < 3; ++v)
        for (T bad : {nan, inf, -inf}) {
            Triangle<T> t = tri;
            (v == 0 ? t.a : v == 1 ? t.b : t.c).y = bad;
            EXPECT_FALSE(intersect(ray, t)) << "vertex " << v << " = " << bad;
            EXPECT_FALSE(cast(ray, t));
            ASSERT_TRUE(validate(t));
            EXPECT_EQ(validate(t)->field, std::string(v == 0 ? "a" : v == 1 ? "b" : "c"));
        }
    EXPECT_FALSE(validate(tri));
}

// Random triangles, rays aimed at random points inside: every such ray hits; the normal is unit
// and along cross(b - a, c - a); front says the ray travels against it; the weights rebuild the
// hit point; cast() and pick() agree with intersect().
TYPED_TEST(RayTriangle, NormalIsUnitAndByWindingOnRandomTriangles) {
    using T = TypeParam;
    const std::uint32_t seed = test::seed_from_env(7002);
    std::cout << "seed " << seed << " (RAYPICK_SEED to rerun)\n";
    test::Random rng(seed);
    const long double eps = std::numeric_limits<T>::epsilon();
    for (int i = 0; i < 20000; ++i) {
        const Triangle<T> tri{Vec3<T>(rng.cube() * 4.0), Vec3<T>(rng.cube() * 4.0), Vec3<T>(rng.cube() * 4.0)};
        const Vec3<double> n = glm::cross(Vec3<double>(tri.b) - Vec3<double>(tri.a), Vec3<double>(tri.c) - Vec3<double>(tri.a));
        if (glm::length(n) < 0.5) continue;  // well-shaped only: the checks below have tolerances
        double w0 = rng.sym() * 0.5 + 0.5, w1 = rng.sym() * 0.5 + 0.5;
        if (w0 + w1 > 1) w0 = 1 - w0, w1 = 1 - w1;
        const Vec3<double> target = Vec3<double>(tri.a) * (1 - w0 - w1) + Vec3<double>(tri.b) * w0 + Vec3<double>(tri.c) * w1;
        const Vec3<double> u = rng.unit();
        const double cos_angle = glm::dot(u, glm::normalize(n));
        if (std::abs(cos_angle) < 0.05) continue;  // grazing: rounding may take it past an edge
        const Ray<T> ray{Vec3<T>(target - u * 6.0), Vec3<T>(u)};
        const auto h = intersect(ray, tri);
        if (!h) {
            // Only a target within rounding of an edge may be missed.
            EXPECT_LT(std::min({1 - w0 - w1, w0, w1}), 1e-3) << "ray " << i << " seed " << seed;
            continue;
        }
        EXPECT_NEAR(double(test::exact_length(h->normal)), 1.0, double(2 * eps)) << "ray " << i << " seed " << seed;
        EXPECT_GT(glm::dot(Vec3<double>(h->normal), glm::normalize(n)), 1 - 1e-5) << "ray " << i << " seed " << seed;
        EXPECT_EQ(h->front, cos_angle < 0) << "ray " << i << " seed " << seed;
        EXPECT_NEAR(double(h->t), 6.0, 6.0 * 64 * double(eps)) << "ray " << i << " seed " << seed;
        const Vec3<double> rebuilt = Vec3<double>(tri.a) * double(h->barycentric.x) +
                                     Vec3<double>(tri.b) * double(h->barycentric.y) +
                                     Vec3<double>(tri.c) * double(h->barycentric.z);
        EXPECT_LT(glm::length(rebuilt - Vec3<double>(ray.at(h->t))), 1e3 * double(eps)) << "ray " << i << " seed " << seed;
        for (int k = 0; k < 3; ++k) {
            EXPECT_GE(h->barycentric[k], T(0));
            EXPECT_LE(h->barycentric[k], T(1));
        }
        const auto c = cast(ray, tri);
        ASSERT_TRUE(c);
        EXPECT_TRUE(test::same_bits(c->t_near, h->t));
        EXPECT_TRUE(test::same_bits(c->n_near, h->front ? h->normal : -h->normal));
        const auto p = pick(ray, tri);
        ASSERT_TRUE(p);
        EXPECT_TRUE(test::same_bits(p->t, h->t));
        if (::testing::Test::HasFailure()) return;
    }
}

/// Largest magnitude of any coordinate of the points.
template <typename T> T largest_coordinate(std::initializer_list<Vec3<T>> points) {
    T m = T(0);
    for (const Vec3<T>& p : points) m = glm::max(m, glm::max(glm::max(glm::abs(p.x), glm::abs(p.y)), glm::abs(p.z)));
    return m;
}

// pbrt's situation: a ray leaves a hit point, computed as ray.at(t) and so off the plane by
// rounding, in any direction (grazing ones included). From the point itself a hit of the same
// triangle, if any, lies within rounding of the plane; from the point moved off the plane by the
// documented offset, on the side the ray leaves towards, there is none.
/// A double triangle so large that its area vector overflows (an infinite product less another:
/// NaN in one component) is still hit with a unit normal: as for any area that cannot be
/// normalised, the normal is then along the ray, out of the front face as `front` says.
TEST(RayTriangleHuge, AnAreaVectorThatOverflowsGivesAUnitNormalFacingTheRay) {
    const Triangle<double> tri{{0x1.a850000000203p+960, -0x1.eddcp+260, 0x1.0f6p+27}, {-0.9375, 0, -128}, {0, 0, 123}};
    const Ray<double> ray{{0x1.edecp+220, 0, 0}, {11, 0, 0}};
    const auto h = intersect(ray, tri, -infinity<double>(), infinity<double>());
    ASSERT_TRUE(h.has_value());
    EXPECT_TRUE(std::isfinite(h->normal.x) && std::isfinite(h->normal.y) && std::isfinite(h->normal.z));
    EXPECT_NEAR(glm::length(h->normal), 1.0, 1e-15);
    EXPECT_EQ(glm::dot(h->normal, ray.direction) < 0.0, h->front);
    EXPECT_NEAR(std::abs(glm::dot(h->normal, ray.direction)), glm::length(ray.direction), 1e-12);
}

/// A line that misses the triangle's bounds misses, even where the ill-conditioned projection
/// (|d.y| / |d.x| about 1e66) rounds the edge functions to "inside": the line meets x in [0, 40]
/// at t in [0, 40] but y in [-4, -3] only at t near -4e-66.
TEST(RayTriangleIllConditioned, LineMissingTheBoundsMissesWhateverTheEdgeFunctions) {
    const Triangle<double> tri{{0, -3, 0}, {40, -4, 0x1p-1022}, {5, -3, 0}};
    const Ray<double> ray{{0, 0, 0}, {1, 0x1.e4p+218, 0}};
    const detail::TriangleEdges<double> w = detail::triangle_edges(detail::triangle_shear(ray), tri);
    const bool has_neg = w.e[0] < 0 || w.e[1] < 0 || w.e[2] < 0, has_pos = w.e[0] > 0 || w.e[1] > 0 || w.e[2] > 0;
    ASSERT_FALSE(has_neg && has_pos) << "the edge functions no longer call this line inside";
    ASSERT_NE(w.e[0] + w.e[1] + w.e[2], 0.0);
    EXPECT_FALSE(intersect(ray, tri).has_value());
    EXPECT_FALSE(intersect(ray, tri, -infinity<double>(), infinity<double>()).has_value());
    EXPECT_FALSE(cast(ray, tri).has_value());
    // The same ray shifted onto the triangle's lower edge's line, y = -3, at x = 2: a point of
    // the triangle, hit there.
    const Ray<double> onto{{2, -3, 0}, {1, 0x1.e4p+218, 0}};
    const auto h = intersect(onto, tri, -infinity<double>(), infinity<double>());
    ASSERT_TRUE(h.has_value());
    const Aabb<double> box = bounds(tri);
    const Vec3<double> p = onto.at(h->t), slack(1e-12);
    EXPECT_TRUE(glm::all(glm::lessThanEqual(box.min - slack, p)) && glm::all(glm::lessThanEqual(p, box.max + slack)))
        << "t " << h->t;
}

TYPED_TEST(RayTriangle, RecastingFromAHitPointBehavesAsDocumented) {
    using T = TypeParam;
    const std::uint32_t seed = test::seed_from_env(7003);
    std::cout << "seed " << seed << " (RAYPICK_SEED to rerun)\n";
    test::Random rng(seed);
    const T eps = std::numeric_limits<T>::epsilon();
    const T offset_scale = sizeof(T) == 4 ? T(0x1p-16) : T(0x1p-45);
    int rehits_from_point = 0, rays = 0;
    for (int i = 0; i < 20000; ++i) {
        const double scale = std::pow(2.0, std::floor(rng.sym() * 8));
        const Vec3<double> centre = rng.cube() * (scale * 4);
        const Triangle<T> tri{Vec3<T>(centre + rng.cube() * scale), Vec3<T>(centre + rng.cube() * scale),
                              Vec3<T>(centre + rng.cube() * scale)};
        double w0 = rng.sym() * 0.5 + 0.5, w1 = rng.sym() * 0.5 + 0.5;
        if (w0 + w1 > 1) w0 = 1 - w0, w1 = 1 - w1;
        const Vec3<double> target = Vec3<double>(tri.a) * (1 - w0 - w1) + Vec3<double>(tri.b) * w0 + Vec3<double>(tri.c) * w1;
        const Vec3<double> from = target + rng.unit() * (scale * 8);
        const Ray<T> in{Vec3<T>(from), Vec3<T>(target - from)};
        const auto h = intersect(in, tri);
        if (!h) continue;
        ++rays;
        const Vec3<T> p = in.at(h->t);
        Vec3<T> out(rng.unit());
        if (i % 4 == 0) {  // grazing: along the plane, tilted off it by 10^-1 .. 10^-7
            const Vec3<double> n(h->normal);
            const Vec3<double> along = glm::normalize(glm::cross(n, rng.unit()));
            out = Vec3<T>(along + n * (std::pow(10.0, -1 - 6 * (rng.sym() * 0.5 + 0.5)) * (rng.sym() < 0 ? -1 : 1)));
        }
        const T m = largest_coordinate({p, tri.a, tri.b, tri.c});
        if (const auto again = intersect(Ray<T>{p, out}, tri)) {
            ++rehits_from_point;
            EXPECT_LE(std::abs(again->t * glm::dot(out, h->normal)), T(16) * eps * m) << "ray " << i << " seed " << seed;
        }
        const Vec3<T> side = glm::dot(out, h->normal) >= T(0) ? h->normal : -h->normal;
        EXPECT_FALSE(intersect(Ray<T>{p + side * (offset_scale * m), out}, tri)) << "ray " << i << " seed " << seed;
        if (::testing::Test::HasFailure()) return;
    }
    EXPECT_GT(rays, 15000);
    std::cout << rehits_from_point << " of " << rays << " rays from the hit point itself hit again near t = 0\n";
}

// The textbook variant agrees on a plain interior hit (its weaknesses are measured by the
// watertightness test).
TYPED_TEST(RayTriangle, TinyTrianglesAreHitAsTheSameTriangleScaledUp) {
    using T = TypeParam;
    // A triangle s across, a ray from s below it with a unit direction (tilted, and along the
    // axis): the same hit at every scale where the edge functions' products (about s^2) and the
    // distances' (s^3) fall below the normal range: for float down to the smallest normal
    // numbers; for double down to where its edge functions' signs are exact (products above
    // 2^-969, RayTriangle.h).
    const int lowest = sizeof(T) == 4 ? std::numeric_limits<T>::min_exponent + 2 : -480;
    int hits = 0;
    for (int k = 0; k >= lowest; k -= 3) {
        const T s = std::ldexp(T(1), k);
        const Triangle<T> tri{{T(0), T(0), T(0)}, {s, T(0), T(0)}, {T(0), s, T(0)}};
        for (const Vec3<T>& d : {Vec3<T>(T(0), T(0), T(1)), Vec3<T>(T(0.125), T(0.0625), T(1))}) {
            const Ray<T> ray{{T(0.25) * s, T(0.25) * s, -s}, d};
            const auto h = intersect(ray, tri);
            ASSERT_TRUE(h) << "scale 2^" << k;
            // t = s exactly along the axis; within a few ulps tilted.
            EXPECT_NEAR(double(h->t / s), 1.0, 8.0 * double(std::numeric_limits<T>::epsilon())) << "scale 2^" << k;
            const Vec3<T> w = h->barycentric;
            const Vec3<T> at = ray.at(h->t);
            EXPECT_NEAR(double(w.y), double(at.x / s), 1e-5) << "scale 2^" << k;
            EXPECT_NEAR(double(w.z), double(at.y / s), 1e-5) << "scale 2^" << k;
            EXPECT_EQ(h->normal, Vec3<T>(T(0), T(0), T(1)));
            EXPECT_TRUE(h->front == false);  // the ray travels along +z, the normal points there
            ++hits;
        }
    }
    EXPECT_GT(hits, 20);
}

TYPED_TEST(RayTriangle, TextbookVariantAgreesOnAnInteriorHit) {
    using T = TypeParam;
    const auto h = textbook::triangle_moller_trumbore(down_at<T>(1, 1), right_triangle<T>());
    ASSERT_TRUE(h);
    EXPECT_EQ(h->t, T(5));
    EXPECT_EQ(h->normal, Vec3<T>(0, 0, 1));
}

}  // namespace
}  // namespace raypick
