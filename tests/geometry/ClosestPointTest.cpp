// Closest points (ClosestPoint.h): each shape type against a long-double reference (the shape's
// exact signed distance: the point found lies on the surface, at the reference distance from the
// query, so no surface point is nearer; triangles also against sampled surface points), named
// degenerate cases, invalid input, and finite results from 1e-30 to 1e30 (double: 1e-300 to
// 1e300). MeshBvh, InstanceBvh and Bvh closest points against their brute-force references, bit
// for bit, on random meshes with zero-area triangles, spheres and terrain, exact and quantised
// trees, instances scaled non-uniformly, sheared and mirrored, and mixed shapes with invalid ones,
// with max_distance cut-offs. Seeds are printed; RAYPICK_SEED=<n> reruns one.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include <gtest/gtest.h>

#include <raypick/geometry/Bvh.h>
#include <raypick/geometry/ClosestPoint.h>
#include <raypick/geometry/MeshGenerators.h>
#include <raypick/geometry/MeshInstances.h>

#include "TestUtil.h"

namespace raypick {
namespace {

using LD = long double;
using V = Vec3<LD>;

template <typename T> class ClosestPointTest : public ::testing::Test {};
template <typename T> class ClosestMeshTest : public ::testing::Test {};
template <typename T> class ClosestInstanceTest : public ::testing::Test {};
template <typename T> class ClosestShapeTest : public ::testing::Test {};
TYPED_TEST_SUITE(ClosestPointTest, test::Scalars);
TYPED_TEST_SUITE(ClosestMeshTest, test::Scalars);
TYPED_TEST_SUITE(ClosestInstanceTest, test::Scalars);
TYPED_TEST_SUITE(ClosestShapeTest, test::Scalars);

/// MeshBvh's and Bvh's compact thresholds: exact nodes only, or (float) quantised ones always.
constexpr std::size_t kExact = std::numeric_limits<std::size_t>::max(), kCompact = 0;

/// The seed of a test (RAYPICK_SEED or `fallback`), printed.
std::uint32_t announce_seed(std::uint32_t fallback) {
    const std::uint32_t seed = test::seed_from_env(fallback);
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    std::printf("[ seed     ] %s.%s: RAYPICK_SEED=%u\n", info->test_suite_name(), info->name(), seed);
    return seed;
}

template <typename T> constexpr T eps() { return std::numeric_limits<T>::epsilon(); }
template <typename T> V ld(const Vec3<T>& v) { return V(LD(v.x), LD(v.y), LD(v.z)); }
LD len(const V& v) { return std::sqrt(glm::dot(v, v)); }
LD max_abs(const V& v) { return std::max(std::abs(v.x), std::max(std::abs(v.y), std::abs(v.z))); }

// ---- long-double references -----------------------------------------------------------------------

LD segment_distance(const V& p, const V& a, const V& b) {
    const V ab = b - a;
    const LD den = glm::dot(ab, ab);
    const LD t = den > 0 ? std::clamp(glm::dot(p - a, ab) / den, LD(0), LD(1)) : LD(0);
    return len(p - (a + ab * t));
}

/// Signed distance to the box [lo, hi] (negative inside).
LD box_sd(const V& p, const V& lo, const V& hi) {
    const V q = glm::clamp(p, lo, hi);
    if (q != p) return len(p - q);
    LD m = std::numeric_limits<LD>::infinity();
    for (int a = 0; a < 3; ++a) m = std::min(m, std::min(p[a] - lo[a], hi[a] - p[a]));
    return -m;
}

template <typename T> LD sd(const V& p, const Sphere<T>& s) { return len(p - ld(s.center)) - LD(s.radius); }
template <typename T> LD sd(const V& p, const Aabb<T>& b) { return box_sd(p, ld(b.min), ld(b.max)); }
template <typename T> LD sd(const V& p, const Obb<T>& b) {
    const V d = p - ld(b.center);
    const V l(glm::dot(ld(b.rotation[0]), d), glm::dot(ld(b.rotation[1]), d), glm::dot(ld(b.rotation[2]), d));
    return box_sd(l, -ld(b.half_extents), ld(b.half_extents));
}
template <typename T> LD sd(const V& p, const Capsule<T>& c) {
    return segment_distance(p, ld(c.a), ld(c.b)) - LD(c.radius);
}
/// Distance to the triangle: its plane where p projects inside, else the nearest edge.
template <typename T> LD sd(const V& p, const Triangle<T>& t) {
    const V a = ld(t.a), b = ld(t.b), c = ld(t.c);
    const V n = glm::cross(b - a, c - a);
    const LD nn = glm::dot(n, n);
    if (nn > 0) {
        const V q = p - n * (glm::dot(n, p - a) / nn);
        const bool in = glm::dot(glm::cross(b - a, q - a), n) >= 0 && glm::dot(glm::cross(c - b, q - b), n) >= 0 &&
                        glm::dot(glm::cross(a - c, q - c), n) >= 0;
        if (in) return std::abs(glm::dot(n, p - a)) / std::sqrt(nn);
    }
    return std::min(segment_distance(p, a, b), std::min(segment_distance(p, b, c), segment_distance(p, c, a)));
}

/// A shape's extent (for tolerances): its largest coordinate offset from its first point.
template <typename T> LD extent(const Sphere<T>& s) { return LD(s.radius); }
template <typename T> LD extent(const Aabb<T>& b) { return max_abs(ld(b.max) - ld(b.min)); }
template <typename T> LD extent(const Obb<T>& b) { return 2 * max_abs(ld(b.half_extents)); }
template <typename T> LD extent(const Capsule<T>& c) { return max_abs(ld(c.b) - ld(c.a)) + LD(c.radius); }
template <typename T> LD extent(const Triangle<T>& t) { return std::max(max_abs(ld(t.b) - ld(t.a)), max_abs(ld(t.c) - ld(t.a))); }
template <typename T> Vec3<T> anchor(const Sphere<T>& s) { return s.center; }
template <typename T> Vec3<T> anchor(const Aabb<T>& b) { return b.min; }
template <typename T> Vec3<T> anchor(const Obb<T>& b) { return b.center; }
template <typename T> Vec3<T> anchor(const Capsule<T>& c) { return c.a; }
template <typename T> Vec3<T> anchor(const Triangle<T>& t) { return t.a; }

/// closest_point(p, shape) against the reference: finite, distance the exact one, the point on
/// the surface at that distance from p, inside as the sign says, a unit normal. Returns it.
template <typename T, typename S>
std::optional<SurfacePoint<T>> check_against_reference(const Vec3<T>& p, const S& shape, const std::string& where) {
    const auto c = closest_point(p, shape);
    EXPECT_TRUE(c.has_value()) << where;
    if (!c) return c;
    const LD scale = max_abs(ld(p) - ld(anchor(shape))) + extent(shape) + max_abs(ld(anchor(shape)));
    const LD tol = 64 * LD(eps<T>()) * scale + LD(std::numeric_limits<T>::min());
    const LD ref = sd(ld(p), shape);
    EXPECT_TRUE(std::isfinite(c->distance) && is_finite(c->point) && is_finite(c->normal)) << where;
    EXPECT_GE(c->distance, T(0)) << where;
    EXPECT_NEAR(LD(c->distance), std::abs(ref), tol) << where << " reference " << double(ref);
    EXPECT_NEAR(LD(sd(ld(c->point), shape)), LD(0), tol) << where << ": the point is not on the surface";
    EXPECT_NEAR(len(ld(p) - ld(c->point)), LD(c->distance), tol) << where << ": distance is not |p - point|";
    if (std::abs(ref) > tol) {
        EXPECT_EQ(c->inside, ref < 0) << where;
    }
    EXPECT_NEAR(test::exact_length(c->normal), 1.0L, 4 * LD(eps<T>())) << where;
    EXPECT_EQ(c->signed_distance(), c->inside ? -c->distance : c->distance);
    return c;
}

// ---- random shapes ---------------------------------------------------------------------------------

/// A size in [0.01, 2], zero one time in eight (degenerate shapes).
double size(test::Random& r) { return r.sym() < -0.75 ? 0.0 : std::pow(10.0, -1.0 + 1.15 * r.sym()); }

Mat3<double> rotation(test::Random& r) {
    // Rodrigues about a random axis.
    const Vec3<double> k = r.unit();
    const double angle = 3.14159265358979 * r.sym(), c = std::cos(angle), s = std::sin(angle);
    const Mat3<double> kx(0, k.z, -k.y, -k.z, 0, k.x, k.y, -k.x, 0);
    return Mat3<double>(1.0) + s * kx + (1 - c) * (kx * kx);
}

template <typename T> Sphere<T> random_sphere(test::Random& r) { return {Vec3<T>(r.cube() * 2.0), T(size(r))}; }
template <typename T> Aabb<T> random_aabb(test::Random& r) {
    const Vec3<T> lo(r.cube() * 2.0);
    return {lo, lo + Vec3<T>(T(size(r)), T(size(r)), T(size(r)))};
}
template <typename T> Obb<T> random_obb(test::Random& r) {
    return {Vec3<T>(r.cube() * 2.0), Mat3<T>(rotation(r)), Vec3<T>(T(size(r)), T(size(r)), T(size(r)))};
}
template <typename T> Capsule<T> random_capsule(test::Random& r) {
    const Vec3<T> a(r.cube() * 2.0);
    return {a, r.sym() < -0.8 ? a : a + Vec3<T>(r.unit() * (2 * size(r))), T(size(r))};
}
template <typename T> Triangle<T> random_triangle(test::Random& r) {
    const Vec3<T> a(r.cube() * 2.0);
    const double kind = r.sym();
    const Vec3<T> b = a + Vec3<T>(r.cube() * 2.0);
    if (kind < -0.9) {
        // Collinear: exactly, on a grid; or (float) up to the rounding of c, a sliver the long-double
        // reference measures exactly (products of floats are exact there, of doubles not).
        if (std::is_same_v<T, double> || r.sym() > 0) {
            const Vec3<T> ga = glm::round(a * T(8)) / T(8), gb = glm::round(b * T(8)) / T(8);
            return {ga, gb, ga + (gb - ga) * T(2)};
        }
        return {a, b, a + (b - a) * T(2)};
    }
    if (kind < -0.85) return {a, a, a};                    // a point
    return {a, b, a + Vec3<T>(r.cube() * 2.0)};
}

/// A query near the shape: around `at` at a distance from 1e-4 to 1e3, or exactly at it.
template <typename T> Vec3<T> query_near(test::Random& r, const Vec3<T>& at) {
    const double k = r.sym();
    if (k < -0.9) return at;
    return at + Vec3<T>(r.unit() * std::pow(10.0, 0.5 + 3.5 * k));
}

TYPED_TEST(ClosestPointTest, EachShapeMatchesItsExactDistance) {
    using T = TypeParam;
    const std::uint32_t seed = announce_seed(20270101u);
    SCOPED_TRACE("seed " + std::to_string(seed) + " (RAYPICK_SEED reruns it)");
    test::Random r(seed);
    for (int i = 0; i < 3000; ++i) {
        const std::string where = "case " + std::to_string(i);
        const Sphere<T> s = random_sphere<T>(r);
        check_against_reference(query_near(r, s.center), s, where + " sphere");
        const Aabb<T> b = random_aabb<T>(r);
        const auto cb = check_against_reference(query_near(r, (b.min + b.max) * T(0.5)), b, where + " aabb");
        if (cb) {
            // The point's coordinates at the bounds the feature names (exact: a clamp).
            int at_bound = 0;
            for (int a = 0; a < 3; ++a) at_bound += cb->point[a] == b.min[a] || cb->point[a] == b.max[a];
            EXPECT_GE(at_bound, cb->feature == Feature::Vertex ? 3 : cb->feature == Feature::Edge ? 2 : 1) << where;
            if (cb->feature == Feature::Face) {
                const int a = cb->index / 2;
                EXPECT_EQ(cb->point[a], cb->index & 1 ? b.max[a] : b.min[a]) << where;
            }
        }
        const Obb<T> o = random_obb<T>(r);
        check_against_reference(query_near(r, o.center), o, where + " obb");
        const Capsule<T> c = random_capsule<T>(r);
        check_against_reference(query_near(r, (c.a + c.b) * T(0.5)), c, where + " capsule");
        const Triangle<T> t = random_triangle<T>(r);
        const auto ct = check_against_reference(query_near(r, (t.a + t.b + t.c) / T(3)), t, where + " triangle");
        if (ct) {
            EXPECT_FALSE(ct->inside) << where;
        }
    }
}

/// Triangles: the barycentrics give the point, each weight in [0, 1] summing to 1, the feature's
/// zero weights exactly zero; no sampled point of the triangle is nearer than the distance.
TYPED_TEST(ClosestPointTest, TriangleBarycentricsAndSampledSurface) {
    using T = TypeParam;
    const std::uint32_t seed = announce_seed(20270102u);
    SCOPED_TRACE("seed " + std::to_string(seed) + " (RAYPICK_SEED reruns it)");
    test::Random r(seed);
    for (int i = 0; i < 1500; ++i) {
        const Triangle<T> t = random_triangle<T>(r);
        const Vec3<T> p = query_near(r, (t.a + t.b + t.c) / T(3));
        const auto c = closest_point_barycentric(p, t);
        ASSERT_TRUE(c.has_value());
        const Vec3<T>& w = c->barycentric;
        const LD scale = max_abs(ld(p) - ld(t.a)) + extent(t);
        const LD tol = 64 * LD(eps<T>()) * scale;
        for (int k = 0; k < 3; ++k) {
            EXPECT_GE(w[k], T(0)) << "case " << i;
            EXPECT_LE(w[k], T(1)) << "case " << i;
        }
        EXPECT_NEAR(LD(w.x) + LD(w.y) + LD(w.z), 1.0L, 4 * LD(eps<T>())) << "case " << i;
        const V mix = ld(t.a) * LD(w.x) + ld(t.b) * LD(w.y) + ld(t.c) * LD(w.z);
        EXPECT_LE(len(mix - ld(c->surface.point)), tol) << "case " << i;
        const SurfacePoint<T>& s = c->surface;
        if (s.feature == Feature::Vertex) {
            const Vec3<T>* v[3] = {&t.a, &t.b, &t.c};
            EXPECT_TRUE(test::same_bits(s.point, *v[s.index])) << "case " << i;
            EXPECT_EQ(w[s.index], T(1)) << "case " << i;
        } else if (s.feature == Feature::Edge) {
            EXPECT_EQ(w[(s.index + 2) % 3], T(0)) << "case " << i << ": edge " << int(s.index);
        }
        for (int k = 0; k < 64; ++k) {
            LD u = LD(r.sym() * 0.5 + 0.5), v = LD(r.sym() * 0.5 + 0.5);
            if (u + v > 1) u = 1 - u, v = 1 - v;
            if (k < 6) u = k % 3 == 0, v = k % 3 == 1;  // the vertices (twice)
            const V q = ld(t.a) + (ld(t.b) - ld(t.a)) * u + (ld(t.c) - ld(t.a)) * v;
            EXPECT_GE(len(ld(p) - q), LD(s.distance) - tol) << "case " << i << ": a surface point is nearer";
        }
    }
}

// ---- named cases -------------------------------------------------------------------------------------

TYPED_TEST(ClosestPointTest, SphereCentreSurfaceAndRadiusZero) {
    using T = TypeParam;
    const Sphere<T> s{Vec3<T>(1, 2, 3), T(2)};
    // At the centre: +y, the whole radius away, inside.
    auto c = closest_point(s.center, s);
    ASSERT_TRUE(c);
    EXPECT_EQ(c->point, Vec3<T>(1, 4, 3));
    EXPECT_EQ(c->normal, Vec3<T>(0, 1, 0));
    EXPECT_EQ(c->distance, T(2));
    EXPECT_TRUE(c->inside);
    EXPECT_EQ(c->signed_distance(), T(-2));
    EXPECT_EQ(c->feature, Feature::Face);
    // On the surface: itself, distance 0, not inside.
    c = closest_point(Vec3<T>(3, 2, 3), s);
    ASSERT_TRUE(c);
    EXPECT_EQ(c->point, Vec3<T>(3, 2, 3));
    EXPECT_EQ(c->distance, T(0));
    EXPECT_FALSE(c->inside);
    EXPECT_EQ(c->normal, Vec3<T>(1, 0, 0));
    // Inside: the nearest surface point, R - |p - c| away.
    c = closest_point(Vec3<T>(1, 2, 2.5), s);
    ASSERT_TRUE(c);
    EXPECT_EQ(c->point, Vec3<T>(1, 2, 1));
    EXPECT_EQ(c->distance, T(1.5));
    EXPECT_TRUE(c->inside);
    EXPECT_EQ(c->normal, Vec3<T>(0, 0, -1));
    // Radius 0: the centre itself.
    const Sphere<T> dot{Vec3<T>(1, 2, 3), T(0)};
    c = closest_point(Vec3<T>(1, 2, 7), dot);
    ASSERT_TRUE(c);
    EXPECT_EQ(c->point, dot.center);
    EXPECT_EQ(c->distance, T(4));
    EXPECT_FALSE(c->inside);
    EXPECT_EQ(c->normal, Vec3<T>(0, 0, 1));
    c = closest_point(dot.center, dot);
    ASSERT_TRUE(c);
    EXPECT_EQ(c->distance, T(0));
    EXPECT_EQ(c->normal, Vec3<T>(0, 1, 0));
    EXPECT_FALSE(c->inside);
}

TYPED_TEST(ClosestPointTest, BoxFacesEdgesAndCornersByRegion) {
    using T = TypeParam;
    const Aabb<T> b{Vec3<T>(-1, -2, -3), Vec3<T>(1, 2, 3)};
    // Every one of the 27 regions: -1 below, 0 within, +1 above the slab on each axis.
    for (int x = -1; x <= 1; ++x)
        for (int y = -1; y <= 1; ++y)
            for (int z = -1; z <= 1; ++z) {
                const Vec3<T> p(T(x) * T(1.5), T(y) * T(2.5) + T(0.25), T(z) * T(3.75) - T(0.5));
                const auto c = closest_point(p, b);
                ASSERT_TRUE(c);
                const int out = (x != 0) + (y != 0) + (z != 0);
                const std::string where = std::to_string(x) + "," + std::to_string(y) + "," + std::to_string(z);
                if (out == 0) {
                    // Inside: nearest face -x or +x (0.5 away; y and z faces are farther).
                    EXPECT_TRUE(c->inside) << where;
                    EXPECT_EQ(c->feature, Feature::Face) << where;
                    EXPECT_EQ(c->index, 0) << where << ": a tie between -x and +x goes to -x";
                    EXPECT_EQ(c->distance, T(1)) << where;
                    continue;
                }
                EXPECT_FALSE(c->inside) << where;
                const int side[3] = {x > 0, y > 0, z > 0};
                if (out == 1) {
                    const int a = x != 0 ? 0 : y != 0 ? 1 : 2;
                    EXPECT_EQ(c->feature, Feature::Face) << where;
                    EXPECT_EQ(c->index, 2 * a + side[a]) << where;
                    Vec3<T> n(0);
                    n[a] = side[a] ? T(1) : T(-1);
                    EXPECT_EQ(c->normal, n) << where;
                } else if (out == 2) {
                    const int k = x == 0 ? 0 : y == 0 ? 1 : 2;  // the edge runs along k
                    EXPECT_EQ(c->feature, Feature::Edge) << where;
                    EXPECT_EQ(c->index, 4 * k + side[(k + 1) % 3] + 2 * side[(k + 2) % 3]) << where;
                } else {
                    EXPECT_EQ(c->feature, Feature::Vertex) << where;
                    EXPECT_EQ(c->index, side[0] | side[1] << 1 | side[2] << 2) << where;
                    EXPECT_EQ(c->point, Vec3<T>(side[0] ? 1 : -1, side[1] ? 2 : -2, side[2] ? 3 : -3)) << where;
                    EXPECT_VEC_NEAR(c->normal, glm::normalize(p - c->point), 4 * eps<T>());
                }
            }
    // Named edges and corners: the +x +y edge runs along z (8 + 1 + 2); the -x -y -z corner is 0.
    EXPECT_EQ(closest_point(Vec3<T>(5, 5, 0), b)->index, 11);
    EXPECT_EQ(closest_point(Vec3<T>(5, -5, 0), b)->index, 9);
    EXPECT_EQ(closest_point(Vec3<T>(0, 5, 5), b)->index, 3);
    EXPECT_EQ(closest_point(Vec3<T>(-5, -5, -5), b)->index, 0);
    // A point on an edge: distance 0, on the face of least index it lies on.
    const auto on_edge = closest_point(Vec3<T>(1, 2, 0), b);
    EXPECT_EQ(on_edge->distance, T(0));
    EXPECT_FALSE(on_edge->inside);
    EXPECT_EQ(on_edge->feature, Feature::Face);
    EXPECT_EQ(on_edge->index, 1);
}

TYPED_TEST(ClosestPointTest, FlatBoxesSegmentsAndPoints) {
    using T = TypeParam;
    const Aabb<T> flat{Vec3<T>(-1, -1, 2), Vec3<T>(1, 1, 2)};
    auto c = closest_point(Vec3<T>(0.5, 0.25, 5), flat);
    EXPECT_EQ(c->feature, Feature::Face);
    EXPECT_EQ(c->index, 5);
    EXPECT_EQ(c->distance, T(3));
    EXPECT_EQ(c->point, Vec3<T>(0.5, 0.25, 2));
    c = closest_point(Vec3<T>(0.5, 0.25, 2), flat);  // in the rectangle
    EXPECT_EQ(c->distance, T(0));
    EXPECT_FALSE(c->inside);
    EXPECT_EQ(c->index, 4);
    c = closest_point(Vec3<T>(4, 0, 2), flat);  // in its plane, beside it
    EXPECT_EQ(c->feature, Feature::Face);
    EXPECT_EQ(c->index, 1);
    EXPECT_EQ(c->distance, T(3));
    c = closest_point(Vec3<T>(4, 0, 6), flat);  // beyond its edge
    EXPECT_EQ(c->feature, Feature::Edge);
    EXPECT_EQ(c->distance, T(5));
    const Aabb<T> segment{Vec3<T>(0, 0, 0), Vec3<T>(0, 0, 4)};
    c = closest_point(Vec3<T>(3, 0, 1), segment);
    EXPECT_EQ(c->feature, Feature::Face);
    EXPECT_EQ(c->distance, T(3));
    c = closest_point(Vec3<T>(3, 4, 1), segment);
    EXPECT_EQ(c->feature, Feature::Edge);
    EXPECT_EQ(c->distance, T(5));
    const Aabb<T> point{Vec3<T>(1, 1, 1), Vec3<T>(1, 1, 1)};
    c = closest_point(Vec3<T>(1, 1, 1), point);
    EXPECT_EQ(c->distance, T(0));
    EXPECT_FALSE(c->inside);
    c = closest_point(Vec3<T>(2, 2, 2), point);
    EXPECT_EQ(c->feature, Feature::Vertex);
    EXPECT_NEAR(c->distance, std::sqrt(T(3)), 4 * eps<T>());
    // An OBB with a zero extent, turned: a rectangle.
    const Mat3<T> turn(0, 1, 0, -1, 0, 0, 0, 0, 1);  // x axis to +y
    const Obb<T> rect{Vec3<T>(0, 0, 0), turn, Vec3<T>(2, 1, 0)};
    c = closest_point(Vec3<T>(0, 5, 0), rect);  // beyond the end of its first axis (+y in world)
    EXPECT_EQ(c->feature, Feature::Face);
    EXPECT_EQ(c->index, 1);
    EXPECT_EQ(c->distance, T(3));
    EXPECT_VEC_NEAR(c->normal, Vec3<T>(0, 1, 0), 2 * eps<T>());
    EXPECT_VEC_NEAR(c->point, Vec3<T>(0, 2, 0), 2 * eps<T>());
    c = closest_point(Vec3<T>(0, 5, 4), rect);
    EXPECT_EQ(c->feature, Feature::Edge);
    EXPECT_NEAR(c->distance, T(5), 8 * eps<T>());
    EXPECT_FALSE(c->inside);
}

TYPED_TEST(ClosestPointTest, CapsuleDegenerateCases) {
    using T = TypeParam;
    // a == b: exactly the sphere.
    const Capsule<T> ball{Vec3<T>(1, 1, 1), Vec3<T>(1, 1, 1), T(2)};
    const Sphere<T> sphere{Vec3<T>(1, 1, 1), T(2)};
    for (const Vec3<T>& p : {Vec3<T>(4, 1, 1), Vec3<T>(1, 1, 1), Vec3<T>(1.5, 0.5, 2), Vec3<T>(-3, 7, 0.25)}) {
        const auto a = closest_point(p, ball), b = closest_point(p, sphere);
        ASSERT_TRUE(a && b);
        EXPECT_TRUE(test::same_bits(a->point, b->point));
        EXPECT_TRUE(test::same_bits(a->distance, b->distance));
        EXPECT_TRUE(test::same_bits(a->normal, b->normal));
        EXPECT_EQ(a->inside, b->inside);
        EXPECT_EQ(a->index, 1);
    }
    // Radius 0: the segment.
    const Capsule<T> seg{Vec3<T>(0, 0, 0), Vec3<T>(0, 4, 0), T(0)};
    auto c = closest_point(Vec3<T>(3, 2, 0), seg);
    EXPECT_EQ(c->point, Vec3<T>(0, 2, 0));
    EXPECT_EQ(c->distance, T(3));
    EXPECT_EQ(c->index, 0);
    EXPECT_FALSE(c->inside);
    c = closest_point(Vec3<T>(0, 7, 4), seg);
    EXPECT_EQ(c->point, Vec3<T>(0, 4, 0));
    EXPECT_EQ(c->distance, T(5));
    EXPECT_EQ(c->index, 2);
    c = closest_point(Vec3<T>(0, 2, 0), seg);  // on it
    EXPECT_EQ(c->distance, T(0));
    EXPECT_NEAR(glm::dot(c->normal, Vec3<T>(0, 1, 0)), T(0), eps<T>());
    // On the axis of a real capsule: the radius away, perpendicular to the axis, inside.
    const Capsule<T> pill{Vec3<T>(0, 0, 0), Vec3<T>(0, 4, 0), T(1)};
    c = closest_point(Vec3<T>(0, 1, 0), pill);
    EXPECT_EQ(c->distance, T(1));
    EXPECT_TRUE(c->inside);
    EXPECT_EQ(c->index, 0);
    EXPECT_NEAR(glm::dot(c->normal, Vec3<T>(0, 1, 0)), T(0), eps<T>());
    EXPECT_NEAR(test::exact_length(c->normal), 1.0L, 2 * eps<T>());
    // Beyond an end: the cap.
    c = closest_point(Vec3<T>(0, -3, 0), pill);
    EXPECT_EQ(c->index, 1);
    EXPECT_EQ(c->point, Vec3<T>(0, -1, 0));
    EXPECT_EQ(c->distance, T(2));
    // Both: a == b, radius 0, a point.
    const Capsule<T> dot{Vec3<T>(1, 2, 3), Vec3<T>(1, 2, 3), T(0)};
    c = closest_point(Vec3<T>(1, 2, 3), dot);
    EXPECT_EQ(c->distance, T(0));
    EXPECT_EQ(c->point, Vec3<T>(1, 2, 3));
}

TYPED_TEST(ClosestPointTest, TriangleRegions) {
    using T = TypeParam;
    const Triangle<T> t{Vec3<T>(0, 0, 0), Vec3<T>(4, 0, 0), Vec3<T>(0, 4, 0)};
    struct Case {
        Vec3<T> p;
        Feature feature;
        int index;
        Vec3<T> point;
    };
    const Case cases[] = {
        {Vec3<T>(-1, -1, 1), Feature::Vertex, 0, Vec3<T>(0, 0, 0)},
        {Vec3<T>(6, -1, -2), Feature::Vertex, 1, Vec3<T>(4, 0, 0)},
        {Vec3<T>(-1, 6, 0), Feature::Vertex, 2, Vec3<T>(0, 4, 0)},
        {Vec3<T>(2, -3, 1), Feature::Edge, 0, Vec3<T>(2, 0, 0)},
        {Vec3<T>(3, 3, 0), Feature::Edge, 1, Vec3<T>(2, 2, 0)},
        {Vec3<T>(-2, 1, 5), Feature::Edge, 2, Vec3<T>(0, 1, 0)},
        {Vec3<T>(1, 1, 3), Feature::Face, 0, Vec3<T>(1, 1, 0)},
        {Vec3<T>(1, 1, -3), Feature::Face, 0, Vec3<T>(1, 1, 0)},
        {Vec3<T>(1, 2, 0), Feature::Face, 0, Vec3<T>(1, 2, 0)},  // in the plane, inside
    };
    for (const Case& k : cases) {
        const auto c = closest_point_barycentric(k.p, t);
        ASSERT_TRUE(c);
        const std::string where = "p (" + std::to_string(k.p.x) + ", " + std::to_string(k.p.y) + ", " + std::to_string(k.p.z) + ")";
        EXPECT_EQ(c->surface.feature, k.feature) << where;
        EXPECT_EQ(c->surface.index, k.index) << where;
        EXPECT_VEC_NEAR(c->surface.point, k.point, 4 * eps<T>());
        EXPECT_NEAR(c->surface.distance, glm::length(k.p - k.point), 8 * eps<T>()) << where;
        EXPECT_EQ(c->surface.normal, Vec3<T>(0, 0, 1)) << where << ": the winding normal, whatever the side";
        EXPECT_FALSE(c->surface.inside);
    }
    // Barycentrics of an edge point and of the face.
    EXPECT_EQ(closest_point_barycentric(Vec3<T>(3, 3, 0), t)->barycentric, Vec3<T>(0, 0.5, 0.5));
    EXPECT_VEC_NEAR(closest_point_barycentric(Vec3<T>(1, 2, 7), t)->barycentric, Vec3<T>(0.25, 0.25, 0.5), 4 * eps<T>());
}

TYPED_TEST(ClosestPointTest, ZeroAreaTrianglesAreTheirEdges) {
    using T = TypeParam;
    // Collinear: c beyond b on the line, so the triangle is the segment a-c.
    const Triangle<T> line{Vec3<T>(0, 0, 0), Vec3<T>(1, 0, 0), Vec3<T>(3, 0, 0)};
    auto c = closest_point_barycentric(Vec3<T>(2, 3, 0), line);
    ASSERT_TRUE(c);
    EXPECT_EQ(c->surface.point, Vec3<T>(2, 0, 0));
    EXPECT_EQ(c->surface.distance, T(3));
    EXPECT_EQ(c->surface.feature, Feature::Edge);
    EXPECT_EQ(c->surface.index, 1);  // on b-c
    EXPECT_EQ(c->surface.normal, Vec3<T>(0, 1, 0)) << "towards p";
    EXPECT_EQ(c->barycentric, Vec3<T>(0, 0.5, 0.5));
    c = closest_point_barycentric(Vec3<T>(-2, 0, 0), line);  // beyond a, on the line
    EXPECT_EQ(c->surface.feature, Feature::Vertex);
    EXPECT_EQ(c->surface.index, 0);
    EXPECT_EQ(c->surface.distance, T(2));
    EXPECT_EQ(c->surface.normal, Vec3<T>(-1, 0, 0));
    c = closest_point_barycentric(Vec3<T>(2, 0, 0), line);  // on it: +y
    EXPECT_EQ(c->surface.distance, T(0));
    EXPECT_EQ(c->surface.normal, Vec3<T>(0, 1, 0));
    // Coincident vertices: a point.
    const Triangle<T> dot{Vec3<T>(1, 1, 1), Vec3<T>(1, 1, 1), Vec3<T>(1, 1, 1)};
    c = closest_point_barycentric(Vec3<T>(1, 1, 4), dot);
    EXPECT_EQ(c->surface.feature, Feature::Vertex);
    EXPECT_EQ(c->surface.index, 0);
    EXPECT_EQ(c->surface.distance, T(3));
    EXPECT_EQ(c->barycentric, Vec3<T>(1, 0, 0));
    // Two coincident: the segment between the distinct ones.
    const Triangle<T> pair{Vec3<T>(0, 0, 0), Vec3<T>(0, 0, 0), Vec3<T>(0, 2, 0)};
    c = closest_point_barycentric(Vec3<T>(1, 1, 0), pair);
    EXPECT_EQ(c->surface.point, Vec3<T>(0, 1, 0));
    EXPECT_EQ(c->surface.distance, T(1));
    EXPECT_FALSE(c->surface.inside);
    // A sliver seen from its plane: finite, on it.
    const Triangle<T> sliver{Vec3<T>(0, 0, 0), Vec3<T>(1, 0, 0), Vec3<T>(2, T(1e-30), 0)};
    c = closest_point_barycentric(Vec3<T>(1.5, 0, 0), sliver);
    ASSERT_TRUE(c);
    EXPECT_LE(c->surface.distance, T(1e-6));
    EXPECT_TRUE(is_finite(c->surface.normal) && is_finite(c->barycentric));
}

TYPED_TEST(ClosestPointTest, InvalidInputGivesNothing) {
    using T = TypeParam;
    const T nan = std::numeric_limits<T>::quiet_NaN(), inf = infinity<T>();
    for (const Vec3<T>& p : {Vec3<T>(nan, 0, 0), Vec3<T>(0, inf, 0), Vec3<T>(0, 0, -inf)}) {
        EXPECT_FALSE(closest_point(p, Sphere<T>{}));
        EXPECT_FALSE(closest_point(p, Aabb<T>{}));
        EXPECT_FALSE(closest_point(p, Obb<T>{}));
        EXPECT_FALSE(closest_point(p, Capsule<T>{}));
        EXPECT_FALSE(closest_point(p, Triangle<T>{}));
        EXPECT_FALSE(closest_point(p, Shape<T>(Sphere<T>{})));
    }
    const Vec3<T> p(1, 2, 3);
    EXPECT_FALSE(closest_point(p, Sphere<T>{Vec3<T>(0), T(-1)}));
    EXPECT_FALSE(closest_point(p, Sphere<T>{Vec3<T>(0), nan}));
    EXPECT_FALSE(closest_point(p, Aabb<T>{Vec3<T>(1), Vec3<T>(0)}));
    EXPECT_FALSE(closest_point(p, Obb<T>{Vec3<T>(0), Mat3<T>(T(-1)), Vec3<T>(1)}));  // a reflection
    EXPECT_FALSE(closest_point(p, Capsule<T>{Vec3<T>(0), Vec3<T>(1), T(-0.5)}));
    EXPECT_FALSE(closest_point(p, Triangle<T>{Vec3<T>(0), Vec3<T>(nan), Vec3<T>(1)}));
    EXPECT_FALSE(closest_point(p, Shape<T>(Capsule<T>{Vec3<T>(0), Vec3<T>(inf), T(1)})));
}

/// `shape` scaled by k about the origin: its points and lengths times k.
template <typename T> Shape<T> scaled(Shape<T> shape, T k) {
    std::visit(
        [&](auto& x) {
            for_each_field(x, [&](const auto& field, auto& value) {
                if (field.role == FieldRole::Point || field.role == FieldRole::Length || field.role == FieldRole::Extent)
                    value = value * k;
            });
        },
        shape);
    return shape;
}

/// The same configuration at scales from tiny to huge: finite results, distances and points
/// scaling with it; a point far from a tiny shape.
TYPED_TEST(ClosestPointTest, FiniteAtExtremeScales) {
    using T = TypeParam;
    std::vector<T> scales{T(1e-30), T(1e30)};
    if (std::is_same_v<T, double>) scales.insert(scales.end(), {T(1e-300), T(1e300)});
    const Vec3<T> queries[] = {Vec3<T>(0.3, 2.5, -0.7), Vec3<T>(0.1, 0.2, 0.05), Vec3<T>(-3, -3, 4), Vec3<T>(0)};
    const std::vector<Shape<T>> shapes{
        Sphere<T>{Vec3<T>(0.25, 0, 0), T(1)},
        Aabb<T>{Vec3<T>(-1, -0.5, -0.25), Vec3<T>(1, 0.5, 0.25)},
        Obb<T>{Vec3<T>(0.1, 0.1, 0), Mat3<T>(0.6, 0.8, 0, -0.8, 0.6, 0, 0, 0, 1), Vec3<T>(1, 0.5, 0.25)},
        Capsule<T>{Vec3<T>(-1, 0, 0), Vec3<T>(1, 0.5, 0), T(0.5)},
        Triangle<T>{Vec3<T>(-1, 0, 0), Vec3<T>(1, 0, 0.5), Vec3<T>(0, 1, 0)},
        Triangle<T>{Vec3<T>(-1, 0, 0), Vec3<T>(1, 0, 0), Vec3<T>(3, 0, 0)}};
    for (const T k : scales) {
        for (std::size_t s = 0; s < shapes.size(); ++s)
            for (const Vec3<T>& q : queries) {
                const std::string where = "scale " + std::to_string(double(k)) + " shape " + std::to_string(s);
                const auto c = closest_point(q * k, scaled(shapes[s], k));
                const auto unit = closest_point(q, shapes[s]);
                ASSERT_TRUE(c && unit) << where;
                EXPECT_TRUE(std::isfinite(c->distance) && is_finite(c->point) && is_finite(c->normal)) << where;
                EXPECT_NEAR(double(c->distance / k), double(unit->distance), 64 * double(eps<T>()) * 6) << where;
                EXPECT_VEC_NEAR(Vec3<double>(c->point / k), Vec3<double>(unit->point), 64 * double(eps<T>()) * 6);
                EXPECT_NEAR(test::exact_length(c->normal), 1.0L, 4 * LD(eps<T>())) << where;
                EXPECT_EQ(c->feature, unit->feature) << where;
            }
        // Far from a tiny shape, and tiny offsets from a huge one.
        const T tiny = std::is_same_v<T, float> ? T(1e-30) : T(1e-300), huge = T(1) / tiny;
        for (const Shape<T>& s : {Shape<T>(Sphere<T>{Vec3<T>(0), tiny}), Shape<T>(Capsule<T>{Vec3<T>(0), Vec3<T>(tiny), tiny}),
                                  Shape<T>(Triangle<T>{Vec3<T>(0), Vec3<T>(tiny, 0, 0), Vec3<T>(0, tiny, 0)}),
                                  Shape<T>(Sphere<T>{Vec3<T>(0), huge}), Shape<T>(Aabb<T>{Vec3<T>(-huge), Vec3<T>(huge)})}) {
            for (const Vec3<T>& p : {Vec3<T>(huge, -huge, huge), Vec3<T>(tiny, tiny, 0), Vec3<T>(0)}) {
                const auto c = closest_point(p, s);
                ASSERT_TRUE(c);
                EXPECT_TRUE(std::isfinite(c->distance) && is_finite(c->point) && is_finite(c->normal));
                EXPECT_NEAR(test::exact_length(c->normal), 1.0L, 4 * LD(eps<T>()));
            }
        }
    }
}

// ---- meshes ---------------------------------------------------------------------------------------

/// A mesh of `triangles` triangles over `vertices` random points in [-1, 1]^3, half of them on a
/// grid, with zero-area triangles: repeated vertices (random ones, and a few on purpose) and
/// collinear ones.
template <typename T> TriangleMesh<T> random_mesh(test::Random& r, int vertices, int triangles) {
    TriangleMesh<T> m;
    for (int i = 0; i < vertices; ++i) {
        Vec3<double> p = r.cube();
        if (r.sym() > 0) p = glm::round(p * 8.0) / 8.0;
        m.positions.push_back(Vec3<T>(p));
    }
    const auto pick = [&] { return std::uint32_t(r.rng() % std::uint32_t(vertices)); };
    for (int i = 0; i < triangles; ++i) m.indices.push_back({pick(), pick(), pick()});
    for (int i = 0; i < 4; ++i) {
        const std::uint32_t a = pick(), b = pick();
        m.indices.push_back({a, a, b});
        // Collinear: a, its midpoint with b, b.
        const auto mid = std::uint32_t(m.positions.size());
        m.positions.push_back((m.positions[a] + m.positions[b]) * T(0.5));
        m.indices.push_back({a, mid, b});
    }
    return m;
}

/// Query points: random ones near and far, vertices, points of edges and faces, and those moved
/// off them a little.
template <typename T> Vec3<T> mesh_query(test::Random& r, const TriangleMesh<T>& m, double spread) {
    const double k = r.sym();
    const auto& tri = m.indices[r.rng() % m.indices.size()];
    const Vec3<double> a(m.positions[tri[0]]), b(m.positions[tri[1]]), c(m.positions[tri[2]]);
    Vec3<double> p;
    if (k < -0.6) p = r.cube() * spread;
    else if (k < -0.4) p = r.cube() * spread * 100.0;
    else if (k < -0.2) p = a;
    else if (k < 0.2) p = a + (b - a) * (0.5 + 0.5 * r.sym());
    else p = a + (b - a) * (0.25 + 0.25 * r.sym()) + (c - a) * (0.25 + 0.25 * r.sym());
    if (r.sym() > 0) p += r.unit() * (spread * std::pow(10.0, -4.0 + 3.0 * r.sym()));
    return Vec3<T>(p);
}

template <typename T> T cut_off(test::Random& r, int i) {
    switch (i % 5) {
        case 0: return T(0);
        case 1: return T(0.05);
        case 2: return T(0.3 * (r.sym() + 1));
        default: return infinity<T>();
    }
}

template <typename T> void expect_same(const SurfacePoint<T>& a, const SurfacePoint<T>& b, const std::string& where) {
    EXPECT_TRUE(test::same_bits(a.distance, b.distance)) << where << ": " << a.distance << " vs " << b.distance;
    EXPECT_TRUE(test::same_bits(a.point, b.point)) << where;
    EXPECT_TRUE(test::same_bits(a.normal, b.normal)) << where;
    EXPECT_EQ(a.feature, b.feature) << where;
    EXPECT_EQ(a.index, b.index) << where;
    EXPECT_EQ(a.inside, b.inside) << where;
}

template <typename T>
void expect_same(const std::optional<MeshClosest<T>>& a, const std::optional<MeshClosest<T>>& b, const std::string& where) {
    ASSERT_EQ(a.has_value(), b.has_value()) << where;
    if (!a) return;
    EXPECT_EQ(a->triangle, b->triangle) << where;
    EXPECT_TRUE(test::same_bits(a->barycentric, b->barycentric)) << where;
    expect_same(a->surface, b->surface, where);
}

TYPED_TEST(ClosestMeshTest, EqualsBruteForceOnRandomMeshes) {
    using T = TypeParam;
    const std::uint32_t seed0 = announce_seed(20270201u);
    for (int mesh_i = 0; mesh_i < 8; ++mesh_i) {
        const std::uint32_t seed = seed0 + std::uint32_t(mesh_i);
        SCOPED_TRACE("seed " + std::to_string(seed) + " (RAYPICK_SEED reruns it)");
        test::Random r(seed);
        const TriangleMesh<T> m = random_mesh<T>(r, 4 + int(r.rng() % 200), 1 + int(r.rng() % 800));
        for (const std::size_t compact_above : {kExact, kCompact}) {
            const MeshBvh<T> bvh(m, BatchIsa::Auto, compact_above);
            EXPECT_EQ(bvh.compact(), (std::is_same_v<T, float> && compact_above == kCompact));
            EXPECT_GE(bvh.degenerate_triangles().size(), 4u);
            test::Random rr(seed + 1000);
            for (int i = 0; i < 150; ++i) {
                const Vec3<T> p = mesh_query(rr, m, 1.5);
                const T cut = cut_off<T>(rr, i);
                const auto got = bvh.closest_point(p, cut);
                expect_same(got, closest_triangle(m, p, cut), "query " + std::to_string(i));
                if (got) {
                    EXPECT_LE(got->surface.distance, cut);
                }
            }
        }
    }
}

TYPED_TEST(ClosestMeshTest, EqualsBruteForceOnSpheresAndTerrainExactAndQuantised) {
    using T = TypeParam;
    const std::uint32_t seed = announce_seed(20270202u);
    SCOPED_TRACE("seed " + std::to_string(seed) + " (RAYPICK_SEED reruns it)");
    const TriangleMesh<T> meshes[] = {meshgen::sphere<T>(6000, T(1)), meshgen::terrain<T>(60, T(2), seed)};
    for (const auto& m : meshes)
        for (const std::size_t compact_above : {kExact, kCompact}) {
            const MeshBvh<T> bvh(m, BatchIsa::Auto, compact_above);
            test::Random r(seed);
            for (int i = 0; i < 80; ++i) {
                const Vec3<T> p = mesh_query(r, m, 1.5);
                const T cut = cut_off<T>(r, i);
                expect_same(bvh.closest_point(p, cut), closest_triangle(m, p, cut), "query " + std::to_string(i));
            }
        }
}

/// Meshes scaled towards the ends of the range, and meshes of zero-area triangles only.
TYPED_TEST(ClosestMeshTest, ExtremeScalesAndZeroAreaMeshes) {
    using T = TypeParam;
    const std::uint32_t seed = announce_seed(20270203u);
    SCOPED_TRACE("seed " + std::to_string(seed) + " (RAYPICK_SEED reruns it)");
    test::Random r(seed);
    const TriangleMesh<T> unit = random_mesh<T>(r, 60, 200);
    for (const double k : {1e-30, 1e30}) {
        TriangleMesh<T> m = unit;
        for (auto& p : m.positions) p = Vec3<T>(Vec3<double>(p) * k);
        for (const std::size_t compact_above : {kExact, kCompact}) {
            const MeshBvh<T> bvh(m, BatchIsa::Auto, compact_above);
            test::Random rr(seed + 1);
            for (int i = 0; i < 60; ++i) {
                const Vec3<T> p = mesh_query(rr, m, 1.5 * k);
                const auto got = bvh.closest_point(p);
                expect_same(got, closest_triangle(m, p), "scale " + std::to_string(k) + " query " + std::to_string(i));
                ASSERT_TRUE(got);
                EXPECT_TRUE(std::isfinite(got->surface.distance) && is_finite(got->surface.point) &&
                            is_finite(got->surface.normal));
            }
        }
    }
    TriangleMesh<T> flat;
    flat.positions = {Vec3<T>(0, 0, 0), Vec3<T>(1, 0, 0), Vec3<T>(2, 0, 0), Vec3<T>(5, 5, 5)};
    flat.indices = {{0, 1, 2}, {3, 3, 3}, {2, 1, 0}};
    const MeshBvh<T> bvh(flat);
    EXPECT_EQ(bvh.degenerate_triangles().size(), 3u);
    for (const Vec3<T>& p : {Vec3<T>(1, 1, 0), Vec3<T>(5, 5, 6), Vec3<T>(-1, 0, 0)}) {
        const auto got = bvh.closest_point(p);
        expect_same(got, closest_triangle(flat, p), "zero-area mesh");
        ASSERT_TRUE(got);
    }
    EXPECT_EQ(bvh.closest_point(Vec3<T>(1, 1, 0))->triangle, 0u) << "a tie goes to the smaller index";
    EXPECT_EQ(bvh.closest_point(Vec3<T>(5, 5, 6))->triangle, 1u);
    EXPECT_FALSE(bvh.closest_point(Vec3<T>(5, 5, 6), T(0.5)));
    EXPECT_FALSE(bvh.closest_point(Vec3<T>(std::numeric_limits<T>::quiet_NaN())));
    EXPECT_FALSE(bvh.closest_point(Vec3<T>(0), T(-1)));
    EXPECT_FALSE(MeshBvh<T>(TriangleMesh<T>{}).closest_point(Vec3<T>(0)));
}

// ---- instances ------------------------------------------------------------------------------------

/// A random rotation times a non-uniform scale in [0.3, 2] (one axis negative a third of the
/// time: a mirror) times a shear (half the time), and a translation in [-4, 4]^3.
template <typename T> Affine<T> random_affine(test::Random& r) {
    Mat3<double> scale(1.0), shear(1.0);
    for (int a = 0; a < 3; ++a) scale[a][a] = 0.3 + 0.85 * (r.sym() + 1);
    if (r.sym() < -1.0 / 3) scale[1][1] = -scale[1][1];
    if (r.sym() > 0) shear[1][0] = 0.8 * r.sym(), shear[2][1] = 0.5 * r.sym();
    return {Mat3<T>(rotation(r) * scale * shear), Vec3<T>(r.cube() * 4.0)};
}

template <typename T>
void expect_same(const std::optional<InstanceClosest<T>>& a, const std::optional<InstanceClosest<T>>& b,
                 const std::string& where) {
    ASSERT_EQ(a.has_value(), b.has_value()) << where;
    if (!a) return;
    EXPECT_EQ(a->instance, b->instance) << where;
    expect_same(std::optional<MeshClosest<T>>(a->closest), std::optional<MeshClosest<T>>(b->closest), where);
}

TYPED_TEST(ClosestInstanceTest, EqualsBruteForceUnderScaleShearAndMirrors) {
    using T = TypeParam;
    const std::uint32_t seed = announce_seed(20270301u);
    SCOPED_TRACE("seed " + std::to_string(seed) + " (RAYPICK_SEED reruns it)");
    test::Random r(seed);
    std::vector<std::shared_ptr<const MeshBvh<T>>> meshes{
        std::make_shared<const MeshBvh<T>>(meshgen::sphere<T>(400, T(1))),
        std::make_shared<const MeshBvh<T>>(meshgen::terrain<T>(12, T(2), seed)),
        std::make_shared<const MeshBvh<T>>(random_mesh<T>(r, 60, 150), BatchIsa::Auto, kCompact)};
    std::vector<Instance<T>> instances;
    for (int i = 0; i < 24; ++i) instances.push_back({std::uint32_t(r.rng() % meshes.size()), random_affine<T>(r)});
    instances.push_back(instances[3]);  // a twin: ties go to the smaller instance
    const InstanceBvh<T> bvh(meshes, instances);
    for (int i = 0; i < 250; ++i) {
        Vec3<T> p;
        if (i % 3 == 0) {
            // On or near a placed vertex.
            const Instance<T>& inst = instances[r.rng() % instances.size()];
            const TriangleMesh<T>& m = meshes[inst.mesh]->mesh();
            p = apply(inst.transform, m.positions[r.rng() % m.positions.size()]);
            if (r.sym() > 0) p += Vec3<T>(r.unit() * std::pow(10.0, -3.0 + 2.0 * r.sym()));
        } else {
            p = Vec3<T>(r.cube() * (i % 7 == 0 ? 300.0 : 7.0));
        }
        const T cut = cut_off<T>(r, i);
        const auto got = bvh.closest_point(p, cut);
        expect_same(got, closest_instance(bvh, p, cut), "query " + std::to_string(i));
        if (got) {
            EXPECT_LE(got->closest.surface.distance, cut);
            EXPECT_NE(got->instance, 24u) << "the twin of instance 3 never wins a tie";
        }
    }
    EXPECT_FALSE(bvh.closest_point(Vec3<T>(std::numeric_limits<T>::infinity())));
    EXPECT_FALSE(InstanceBvh<T>().closest_point(Vec3<T>(0)));
}

/// A closed sphere placed plainly and mirrored (a negative scale on one axis): the closest
/// point's normal points out of the sphere in both (a mirrored instance keeps its front faces),
/// from outside and from inside.
TYPED_TEST(ClosestInstanceTest, MirroredInstancesKeepOutwardNormals) {
    using T = TypeParam;
    auto sphere = std::make_shared<const MeshBvh<T>>(meshgen::sphere<T>(800, T(1)));
    for (const T mirror : {T(1), T(-1)}) {
        const Vec3<T> centre(3, 0, 0);
        Mat3<T> linear(T(2));
        linear[0][0] = 2 * mirror;
        linear[2][2] = T(0.5);
        const InstanceBvh<T> bvh({sphere}, {Instance<T>{0, {linear, centre}}});
        test::Random r(7);
        for (int i = 0; i < 100; ++i) {
            const Vec3<T> p = centre + Vec3<T>(r.unit() * (i % 2 ? 4.0 : 0.2));
            const auto got = bvh.closest_point(p);
            ASSERT_TRUE(got);
            expect_same(got, closest_instance(bvh, p), "query " + std::to_string(i));
            EXPECT_GT(glm::dot(got->closest.surface.normal, got->closest.surface.point - centre), T(0))
                << "mirror " << mirror << " query " << i;
        }
    }
}

// ---- shapes -----------------------------------------------------------------------------------------

template <typename T> Shape<T> random_shape(test::Random& r) {
    const Vec3<T> at(r.cube() * 5.0);
    const double s = 0.05 + 0.45 * (r.sym() + 1) / 2;
    Shape<T> out;
    switch (r.rng() % 5) {
        case 0: out = Sphere<T>{at, T(s)}; break;
        case 1: out = Aabb<T>{at, at + Vec3<T>(T(s), T(s * 0.5), r.sym() < -0.8 ? T(0) : T(s))}; break;
        case 2: out = Obb<T>{at, Mat3<T>(rotation(r)), Vec3<T>(T(s), T(s * 0.3), T(s * 0.6))}; break;
        case 3: out = Capsule<T>{at, r.sym() < -0.8 ? at : at + Vec3<T>(r.unit() * s), T(s * 0.3)}; break;
        default: out = Triangle<T>{at, at + Vec3<T>(r.cube() * s), at + Vec3<T>(r.cube() * s)}; break;
    }
    if (r.sym() < -0.95) out = Sphere<T>{at, T(-1)};  // invalid: never returned
    return out;
}

template <typename T>
void expect_same(const std::optional<ShapeClosest<T>>& a, const std::optional<ShapeClosest<T>>& b, const std::string& where) {
    ASSERT_EQ(a.has_value(), b.has_value()) << where;
    if (!a) return;
    EXPECT_EQ(a->shape, b->shape) << where;
    expect_same(a->surface, b->surface, where);
}

TYPED_TEST(ClosestShapeTest, EqualsBruteForceExactAndCompact) {
    using T = TypeParam;
    const std::uint32_t seed = announce_seed(20270401u);
    SCOPED_TRACE("seed " + std::to_string(seed) + " (RAYPICK_SEED reruns it)");
    test::Random r(seed);
    std::vector<Shape<T>> shapes;
    for (int i = 0; i < 1500; ++i) shapes.push_back(random_shape<T>(r));
    shapes.push_back(shapes[10]);  // a twin: ties go to the smaller index
    for (const std::size_t compact_above : {kExact, kCompact}) {
        BvhOptions options;
        options.compact_above_bytes = compact_above;
        const Bvh<T> bvh(shapes, options);
        EXPECT_EQ(bvh.compact(), compact_above == kCompact);
        test::Random rr(seed + 1);
        for (int i = 0; i < 300; ++i) {
            Vec3<T> p;
            if (i % 3 == 0) p = Vec3<T>(Vec3<double>(bounds(shapes[rr.rng() % shapes.size()]).min) + rr.cube() * 0.1);
            else p = Vec3<T>(rr.cube() * (i % 7 == 0 ? 500.0 : 6.0));
            const T cut = cut_off<T>(rr, i);
            const auto got = bvh.closest_point(p, cut);
            expect_same(got, closest_shape(shapes, p, cut), "query " + std::to_string(i));
            if (got) {
                EXPECT_TRUE(is_valid(shapes[got->shape]));
                EXPECT_NE(got->shape, 1500u);
            }
        }
    }
}

/// Inside a large sphere, the distance to its surface counts, though the point is inside its box.
TYPED_TEST(ClosestShapeTest, InsideAShapeItsSurfaceCounts) {
    using T = TypeParam;
    const std::vector<Shape<T>> shapes{Sphere<T>{Vec3<T>(0), T(10)}, Aabb<T>{Vec3<T>(20), Vec3<T>(21)},
                                       Capsule<T>{Vec3<T>(0, 0, 10.5), Vec3<T>(0, 0, 13), T(0.25)}};
    const Bvh<T> bvh(shapes);
    auto got = bvh.closest_point(Vec3<T>(0));
    ASSERT_TRUE(got);
    EXPECT_EQ(got->shape, 0u);
    EXPECT_EQ(got->surface.distance, T(10));
    EXPECT_TRUE(got->surface.inside);
    got = bvh.closest_point(Vec3<T>(0, 0, 12));  // on the capsule's axis, 2 outside the sphere
    ASSERT_TRUE(got);
    EXPECT_EQ(got->shape, 2u);
    EXPECT_EQ(got->surface.distance, T(0.25));
    EXPECT_TRUE(got->surface.inside);
    EXPECT_FALSE(bvh.closest_point(Vec3<T>(0), T(9)));
    EXPECT_FALSE(Bvh<T>().closest_point(Vec3<T>(0)));
    const std::vector<Shape<T>> invalid{Sphere<T>{Vec3<T>(0), T(-1)}};
    EXPECT_FALSE(Bvh<T>(invalid).closest_point(Vec3<T>(0)));
}

}  // namespace
}  // namespace raypick
