// TriangleMesh validation and MeshBvh picks against brute force over every triangle: the same
// triangle and the same t bit for bit (ties in t go to the smaller index, in both), on random
// meshes with many shared vertices and on closed spheres, with random rays and rays aimed exactly
// at vertices and at points of shared edges; every hit against brute force; watertightness.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <type_traits>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include <raypick/geometry/MeshBvh.h>
#include <raypick/geometry/MeshGenerators.h>

#include "TestUtil.h"

namespace raypick {
namespace {

template <typename T> class MeshBvhTest : public ::testing::Test {};

/// MeshBvh's compact_above_bytes: every tree walks exact nodes, or every float tree quantised ones.
constexpr std::size_t kExact = std::numeric_limits<std::size_t>::max(), kCompact = 0;
TYPED_TEST_SUITE(MeshBvhTest, test::Scalars);

/// A mesh of `triangles` triangles over a pool of `vertices` random points in [-1, 1]^3 (snapped
/// to a grid half of the time, so rays and vertices share coordinates), with normals: vertices are
/// shared by many triangles in both windings.
template <typename T> TriangleMesh<T> random_mesh(test::Random& r, int vertices, int triangles) {
    TriangleMesh<T> m;
    for (int i = 0; i < vertices; ++i) {
        Vec3<double> p = r.cube();
        if (r.sym() > 0) p = glm::round(p * 8.0) / 8.0;
        m.positions.push_back(Vec3<T>(p));
        m.normals.push_back(Vec3<T>(r.unit()));
    }
    std::uniform_int_distribution<std::uint32_t> pick(0, std::uint32_t(vertices - 1));
    for (int i = 0; i < triangles; ++i) m.indices.push_back({pick(r.rng), pick(r.rng), pick(r.rng)});
    return m;
}

/// A ray from a random point towards a vertex of the mesh, a point of one of its edges, or a random
/// point; directions unnormalised, some along an axis.
template <typename T> Ray<T> random_ray(test::Random& r, const TriangleMesh<T>& m) {
    const Vec3<T> from = Vec3<T>(r.cube() * 3.0);
    const auto& tri = m.indices[std::size_t((r.sym() * 0.5 + 0.5) * double(m.indices.size() - 1))];
    const double kind = r.sym();
    Vec3<T> to;
    if (kind < -0.5) to = m.positions[tri[0]];
    else if (kind < 0.2) to = m.positions[tri[1]] + T(0.5 + 0.5 * r.sym()) * (m.positions[tri[2]] - m.positions[tri[1]]);
    else to = Vec3<T>(r.cube());
    Ray<T> ray{from, to - from};
    if (r.sym() > 0.9) ray.direction = Vec3<T>(T(0), T(0), T(r.sym() > 0 ? 1 : -1));
    if (ray.direction == Vec3<T>(T(0))) ray.direction = Vec3<T>(T(1), T(0), T(0));
    return ray;
}

template <typename T>
void expect_same(const std::optional<MeshHit<T>>& a, const std::optional<MeshHit<T>>& b, std::uint32_t seed, int i) {
    ASSERT_EQ(a.has_value(), b.has_value()) << "seed " << seed << " ray " << i;
    if (!a) return;
    EXPECT_EQ(a->triangle, b->triangle) << "seed " << seed << " ray " << i;
    EXPECT_TRUE(test::same_bits(a->t, b->t)) << "seed " << seed << " ray " << i << ": " << a->t << " vs " << b->t;
    EXPECT_TRUE(test::same_bits(a->barycentric, b->barycentric)) << "seed " << seed << " ray " << i;
    EXPECT_TRUE(test::same_bits(a->normal, b->normal)) << "seed " << seed << " ray " << i;
    EXPECT_EQ(a->front, b->front) << "seed " << seed << " ray " << i;
    ASSERT_EQ(a->shading_normal.has_value(), b->shading_normal.has_value());
    if (a->shading_normal) {
        EXPECT_TRUE(test::same_bits(*a->shading_normal, *b->shading_normal));
    }
}

TYPED_TEST(MeshBvhTest, PickEqualsBruteForceOnRandomMeshes) {
    using T = TypeParam;
    const std::uint32_t seed0 = test::seed_from_env(20261127u);
    for (int mesh_i = 0; mesh_i < 12; ++mesh_i) {
        const std::uint32_t seed = seed0 + std::uint32_t(mesh_i);
        SCOPED_TRACE("seed " + std::to_string(seed) + " (RAYPICK_SEED reruns it)");
        test::Random r(seed);
        const int vertices = 4 + int(r.rng() % 300), triangles = 1 + int(r.rng() % 1500);
        const TriangleMesh<T> m = random_mesh<T>(r, vertices, triangles);
        // Each instruction set (the CPU's widest, AVX2 and SSE2 where it has them), walking exact
        // nodes and (float) quantised ones.
        for (const BatchIsa isa : {BatchIsa::Sse2, BatchIsa::Avx2, BatchIsa::Auto})
        for (const std::size_t compact_above : {kExact, kCompact}) {
            const MeshBvh<T> bvh(m, isa, compact_above);
            if (std::is_same_v<T, float>) {
                EXPECT_EQ(bvh.compact(), compact_above == kCompact);
            }
            test::Random rr(seed + 1000);
            for (int i = 0; i < 400; ++i) {
                const Ray<T> ray = random_ray(rr, m);
                const T t_min = i % 5 == 0 ? T(0.5) : T(0);
                const T t_max = i % 7 == 0 ? T(2) : infinity<T>();
                expect_same(bvh.pick(ray, t_min, t_max), pick_nearest_triangle(m, ray, t_min, t_max), seed, i);
            }
        }
    }
}

TYPED_TEST(MeshBvhTest, PickEqualsBruteForceOnSpheresAndTerrain) {
    using T = TypeParam;
    const std::uint32_t seed = test::seed_from_env(20261128u);
    SCOPED_TRACE("seed " + std::to_string(seed));
    const TriangleMesh<T> meshes[] = {meshgen::sphere<T>(5000, T(1)), meshgen::terrain<T>(40, T(2), seed),
                                      meshgen::thin_cylinder<T>(24, 3, T(0.01), T(2))};
    for (const auto& m : meshes) {
        const MeshBvh<T> bvh(m);
        test::Random r(seed);
        for (int i = 0; i < 1000; ++i) {
            const Ray<T> ray = random_ray(r, m);
            expect_same(bvh.pick(ray), pick_nearest_triangle(m, ray), seed, i);
        }
    }
}

/// A sphere mesh scaled down to the smallest normal floats, rays of the same scale (unit
/// directions): every instruction set's walk equals brute force bit for bit where the edge
/// functions' products fall below the normal range (intersect()'s rescaled step 4), and the rays
/// aimed at the sphere hit it as they do at scale 1.
TYPED_TEST(MeshBvhTest, TinyMeshesEqualBruteForceAndAreHitAsAtScaleOne) {
    using T = TypeParam;
    const std::uint32_t seed = test::seed_from_env(20261207u);
    SCOPED_TRACE("seed " + std::to_string(seed));
    const TriangleMesh<T> unit = meshgen::sphere<T>(600, T(1));
    // Down to the smallest normal floats; for double, to where its edge functions' signs are
    // exact (products above 2^-969, RayTriangle.h).
    const int lowest = sizeof(T) == 4 ? std::numeric_limits<T>::min_exponent + 8 : -480;
    for (const int k : {-40, -70, -400, lowest}) {
        if (k < lowest) continue;
        TriangleMesh<T> m = unit;
        for (auto& p : m.positions) p = Vec3<T>(std::ldexp(p.x, k), std::ldexp(p.y, k), std::ldexp(p.z, k));
        m.normals.clear();
        for (const BatchIsa isa : {BatchIsa::Sse2, BatchIsa::Auto}) {
            const MeshBvh<T> bvh(m, isa);
            test::Random r(seed);
            int hits = 0;
            for (int i = 0; i < 300; ++i) {
                // From three radii out towards a point of the half-radius ball: always a hit.
                const Vec3<T> from(r.unit() * 3.0), to(r.unit() * 0.5 * std::abs(r.sym()));
                const Ray<T> ray{Vec3<T>(std::ldexp(from.x, k), std::ldexp(from.y, k), std::ldexp(from.z, k)),
                                 Vec3<T>(to - from)};
                const auto got = bvh.pick(ray);
                expect_same(got, pick_nearest_triangle(m, ray), seed, i);
                hits += got.has_value();
            }
            EXPECT_EQ(hits, 300) << "scale 2^" << k;
        }
    }
}

/// Rays that graze the mesh's box: in the planes of a cube's faces, along its edges, through its
/// corners, from outside and from inside, axis-aligned and slanted, give brute force's answer (a
/// ray missing the root box stops before the walk; one touching it must not).
TYPED_TEST(MeshBvhTest, RaysGrazingTheRootBoxEqualBruteForce) {
    using T = TypeParam;
    const TriangleMesh<T> m = meshgen::cube_grid<T>(4, T(1));
    const MeshBvh<T> bvh(m);
    const T s[] = {T(-1), T(0), T(0.5), T(1)};  // on the faces, inside, and beyond
    const T out[] = {T(-3), T(3)};
    int i = 0;
    for (const T a : s)
        for (const T b : s)
            for (const T o : out)
                for (const T slant : {T(0), T(0.25), T(-1)})
                    for (int axis = 0; axis < 3; ++axis) {
                        Vec3<T> from(a, b, o), dir(slant, T(0), -o);
                        from = Vec3<T>(from[(axis + 0) % 3], from[(axis + 1) % 3], from[(axis + 2) % 3]);
                        dir = Vec3<T>(dir[(axis + 0) % 3], dir[(axis + 1) % 3], dir[(axis + 2) % 3]);
                        for (const Ray<T>& ray : {Ray<T>{from, dir}, Ray<T>{from + dir * T(0.5), dir}}) {
                            expect_same(bvh.pick(ray), pick_nearest_triangle(m, ray), 0u, i);
                            ++i;
                        }
                    }
    // Along the box's edges and its face diagonals, from beyond a corner.
    for (const Vec3<T>& dir : {Vec3<T>(1, 0, 0), Vec3<T>(0, 1, 0), Vec3<T>(1, 1, 0), Vec3<T>(1, 1, 1)}) {
        const Ray<T> ray{Vec3<T>(-1) - dir * T(2), dir};
        expect_same(bvh.pick(ray), pick_nearest_triangle(m, ray), 0u, i++);
        EXPECT_TRUE(bvh.pick(ray).has_value()) << "a ray along the box's edge or diagonal from the corner";
    }
}

/// The node test computes slab distances in one fused rounding where no product can overflow, and
/// in two roundings (the difference first) elsewhere: rays with one direction component shrunk
/// towards the smallest magnitudes, over meshes scaled from tiny to huge, fall on both sides of
/// that limit, and every instruction set and node kind gives brute force's answer on each.
TYPED_TEST(MeshBvhTest, RaysOnBothSidesOfTheFusedSlabTestEqualBruteForce) {
    using T = TypeParam;
    const std::uint32_t seed = test::seed_from_env(20261129u);
    SCOPED_TRACE("seed " + std::to_string(seed) + " (RAYPICK_SEED reruns it)");
    test::Random r(seed);
    const TriangleMesh<T> unit = random_mesh<T>(r, 60, 200);
    const int lowest = std::numeric_limits<T>::min_exponent10;  // float -37, double -307
    int fused = 0, unfused = 0;
    for (const double scale : {std::pow(10.0, lowest / 2), 1.0, std::pow(10.0, -lowest / 2 + 2)}) {
        TriangleMesh<T> m = unit;
        for (auto& p : m.positions) p = Vec3<T>(Vec3<double>(p) * scale);
        for (const BatchIsa isa : {BatchIsa::Sse2, BatchIsa::Avx2, BatchIsa::Auto})
            for (const std::size_t compact_above : {kExact, kCompact}) {
                const MeshBvh<T> bvh(m, isa, compact_above);
                const Aabb<T> box = bvh.bounds();
                const T mag = std::max(detail::max_abs(box.min), detail::max_abs(box.max));
                test::Random rr(seed + 1);
                for (int i = 0; i < 240; ++i) {
                    Ray<T> ray = random_ray(rr, m);
                    ray.origin = Vec3<T>(Vec3<double>(random_ray(rr, unit).origin) * scale);
                    const int axis = i % 3;
                    // 10^0 down to the smallest normal magnitudes, past the limit at every scale.
                    const double shrink = std::pow(10.0, double(lowest) * double(i % 8) / 7.0);
                    ray.direction[axis] = T(double(ray.direction[axis]) * shrink);
                    if (!is_valid(ray)) continue;
                    (mesh_bvh::ray_consts(ray, mag).fused ? fused : unfused) += 1;
                    expect_same(bvh.pick(ray), pick_nearest_triangle(m, ray), seed, i);
                }
            }
    }
    EXPECT_GT(fused, 100);
    EXPECT_GT(unfused, 100);
}

/// Every hit by brute force: intersect() on each triangle, sorted by t then index.
template <typename T>
std::vector<std::pair<T, std::uint32_t>> brute_hits(const TriangleMesh<T>& m, const Ray<T>& ray, T t_min, T t_max) {
    std::vector<std::pair<T, std::uint32_t>> out;
    for (std::uint32_t i = 0; i < m.indices.size(); ++i)
        if (const auto h = intersect(ray, triangle(m, i), t_min, t_max)) out.emplace_back(h->t, i);
    std::sort(out.begin(), out.end());
    return out;
}

/// Boxes reaching the largest finite coordinates are infinite once padded, so every SAH cost of a
/// subtree is infinite: the collapse must still keep leaves within kMaxLeaf triangles (the leaf
/// test reads at most two packets) and both walks must give the brute-force answer. A fan of
/// triangles around the origin, each with the vertex (max, 0, 0), is hit by rays from the origin
/// at t = 0 in every triangle whose edge functions stay finite.
TYPED_TEST(MeshBvhTest, BoxesOfInfiniteAreaKeepLeavesSmall) {
    using T = TypeParam;
    const std::uint32_t seed = test::seed_from_env(20261129u);
    SCOPED_TRACE("seed " + std::to_string(seed));
    test::Random r(seed);
    for (const std::uint32_t fan : {12u, 40u}) {
        TriangleMesh<T> m;
        m.positions = {Vec3<T>(T(0)), Vec3<T>(std::numeric_limits<T>::max(), T(0), T(0))};
        for (std::uint32_t i = 0; i < fan; ++i) {
            m.positions.push_back(Vec3<T>(T(r.sym() * 0.5), T(r.sym() * 0.5), T(r.sym())));
            m.indices.push_back({0, 1, i + 2});
        }
        for (const BatchIsa isa : {BatchIsa::Sse2, BatchIsa::Avx2, BatchIsa::Auto}) {
            const MeshBvh<T> bvh(m, isa);
            for (int i = 0; i < 200; ++i) {
                const Ray<T> ray{Vec3<T>(T(0)), Vec3<T>(T(r.sym()), T(r.sym()), T(r.sym() > 0 ? 1 : -1))};
                expect_same(bvh.pick(ray), pick_nearest_triangle(m, ray), seed, i);
                const auto got = bvh.hits(ray);
                const auto want = brute_hits(m, ray, T(0), infinity<T>());
                ASSERT_EQ(got.size(), want.size()) << "fan " << fan << " ray " << i;
                ASSERT_FALSE(want.empty());
                for (std::size_t k = 0; k < got.size(); ++k) {
                    EXPECT_EQ(got[k].triangle, want[k].second) << "fan " << fan << " ray " << i;
                    EXPECT_TRUE(test::same_bits(got[k].t, want[k].first)) << "fan " << fan << " ray " << i;
                }
            }
        }
    }
}


/// Hierarchy arrays of cache-line aligned nodes are aligned, small ones included (a compiler may
/// store a whole node with aligned vector moves).
/// The leaf test misses a line outside a triangle's bounds as intersect() does, lane by lane, where
/// the ill-conditioned projection rounds the edge functions to "inside" (the triangle of
/// RayTriangleIllConditioned, in every lane of a leaf, among triangles the line does hit).
TEST(MeshBvhIllConditioned, LineMissingATrianglesBoundsMissesItInEveryLane) {
    TriangleMesh<double> m;
    m.positions = {{0, -3, 0}, {40, -4, 0x1p-1022}, {5, -3, 0}, {1, -1, -1}, {1, 1, -1}, {1, 0, 1}};
    for (int i = 0; i < 5; ++i) m.indices.push_back({0, 1, 2});
    m.indices.push_back({3, 4, 5});
    const Ray<double> ray{{0, 0, 0}, {1, 0x1.e4p+218, 0}};
    const Ray<double> off_axis{{0, 0, 0}, {1, 0, 0}};
    for (const BatchIsa isa : {BatchIsa::Sse2, BatchIsa::Avx2, BatchIsa::Auto}) {
        const MeshBvh<double> bvh(m, isa);
        for (const double t_min : {0.0, -infinity<double>()}) {
            EXPECT_FALSE(pick_nearest_triangle(m, ray, t_min, infinity<double>()).has_value());
            expect_same(bvh.pick(ray, t_min, infinity<double>()), pick_nearest_triangle(m, ray, t_min, infinity<double>()),
                        0, int(isa));
            EXPECT_TRUE(bvh.hits(ray, t_min, infinity<double>()).empty());
        }
        const auto h = bvh.pick(off_axis);
        ASSERT_TRUE(h.has_value());
        EXPECT_EQ(h->triangle, 5u);
    }
}

TEST(LargeAllocator, OverAlignedTypesGetTheirAlignment) {
    for (const std::size_t n : {std::size_t(1), std::size_t(3), std::size_t(100), std::size_t(20000)}) {
        LargeVector<mesh_bvh::Node<float>> nodes(n);
        EXPECT_EQ(reinterpret_cast<std::uintptr_t>(nodes.data()) % alignof(mesh_bvh::Node<float>), 0u) << n << " nodes";
        LargeVector<mesh_bvh::Packet<double>> packets(n);
        EXPECT_EQ(reinterpret_cast<std::uintptr_t>(packets.data()) % alignof(mesh_bvh::Packet<double>), 0u) << n;
    }
}

/// The collapse into 16-wide nodes keeps nodes nearly full: 36 to 39 triangles a node on closed,
/// open and thin-triangle meshes (leaves of three to four triangles), where opening the largest
/// child until a node is full leaves nodes above two or three leaves half empty.
TEST(MeshBvhCollapse, NodesHoldAtLeastThirtyTwoTrianglesOnAverage) {
    const TriangleMesh<float> meshes[] = {meshgen::sphere<float>(20000), meshgen::terrain<float>(100, 2.f, 7u),
                                          meshgen::thin_cylinder<float>(64, 40, 0.2f, 2.f)};
    for (const auto& m : meshes) {
        const MeshBvh<float> bvh(m);
        EXPECT_LE(bvh.node_count() * 32, bvh.triangle_count())
            << bvh.node_count() << " nodes for " << bvh.triangle_count() << " triangles";
    }
}

/// The cover holds every triangle in one of at most kCoverBoxes boxes, opened largest first: on a
/// sphere of 20 000 triangles no box spans more than 0.3 of its diameter.
TEST(MeshBvhCover, HoldsEveryTriangleInFewSmallBoxes) {
    const TriangleMesh<float> meshes[] = {meshgen::sphere<float>(20000), meshgen::terrain<float>(100, 2.f, 7u),
                                          meshgen::thin_cylinder<float>(64, 40, 0.2f, 2.f),
                                          meshgen::cube_grid<float>(1, 1.f)};
    for (const auto& m : meshes) {
        const MeshBvh<float> bvh(m);
        const auto& cover = bvh.cover();
        ASSERT_FALSE(cover.empty());
        EXPECT_LE(cover.size(), MeshBvh<float>::kCoverBoxes);
        for (std::uint32_t i = 0; i < m.indices.size(); ++i) {
            const Aabb<float> t = bounds(triangle(m, i));
            const bool held = std::any_of(cover.begin(), cover.end(), [&](const Aabb<float>& b) {
                return glm::all(glm::lessThanEqual(b.min, t.min)) && glm::all(glm::lessThanEqual(t.max, b.max));
            });
            EXPECT_TRUE(held) << "triangle " << i << " of " << m.indices.size();
        }
    }
    const MeshBvh<float> sphere(meshgen::sphere<float>(20000));
    for (const Aabb<float>& b : sphere.cover()) {
        const Vec3<float> e = b.max - b.min;
        EXPECT_LT(std::max(e.x, std::max(e.y, e.z)), 0.6f) << "a box of the unit sphere's cover";
    }
}

TYPED_TEST(MeshBvhTest, EveryHitEqualsBruteForce) {
    using T = TypeParam;
    const std::uint32_t seed = test::seed_from_env(20261129u);
    SCOPED_TRACE("seed " + std::to_string(seed));
    test::Random r(seed);
    const TriangleMesh<T> m = random_mesh<T>(r, 200, 2000);
    for (const std::size_t compact_above : {kExact, kCompact}) {
        const MeshBvh<T> bvh(m, BatchIsa::Auto, compact_above);
        test::Random rr(seed);
        for (int i = 0; i < 300; ++i) {
            const Ray<T> ray = random_ray(rr, m);
            const T t_max = i % 3 == 0 ? T(1.5) : infinity<T>();
            const auto want = brute_hits(m, ray, T(0), t_max);
            const auto got = bvh.hits(ray, T(0), t_max);
            ASSERT_EQ(got.size(), want.size()) << "ray " << i;
            for (std::size_t k = 0; k < got.size(); ++k) {
                EXPECT_EQ(got[k].triangle, want[k].second) << "ray " << i << " hit " << k;
                EXPECT_TRUE(test::same_bits(got[k].t, want[k].first)) << "ray " << i << " hit " << k;
            }
        }
    }
}

/// Rays aimed exactly at the vertices of a closed sphere, and at the midpoints (as rounded) of its
/// edges, from the centre and from outside across the surface (from about three radii out along
/// the target's own direction, so the ray crosses the surface there rather than grazing it):
/// watertight, none gets through.
TYPED_TEST(MeshBvhTest, NoRayLeaksThroughSharedEdgesAndVertices) {
    using T = TypeParam;
    const TriangleMesh<T> m = meshgen::uv_sphere<T>(16, 32, T(1));
    const MeshBvh<T> bvh(m);
    const std::uint32_t seed = test::seed_from_env(20261130u);
    SCOPED_TRACE("seed " + std::to_string(seed));
    test::Random r(seed);
    int rays = 0;
    for (const auto& tri : m.indices) {
        for (int k = 0; k < 3; ++k) {
            const Vec3<T> a = m.positions[tri[k]], b = m.positions[tri[(k + 1) % 3]];
            for (const Vec3<T>& target : {a, (a + b) * T(0.5)}) {
                const Vec3<T> outside = target * T(3) + Vec3<T>(r.unit() * 0.3);
                for (const Vec3<T>& from : {outside, Vec3<T>(T(0))}) {
                    const Ray<T> ray{from, target - from};
                    ++rays;
                    EXPECT_TRUE(bvh.pick(ray).has_value()) << "from " << detail::str(from) << " to "
                                                           << detail::str(target);
                }
            }
        }
    }
    EXPECT_GT(rays, 10000);
}

TYPED_TEST(MeshBvhTest, InterpolatedNormalAndFace) {
    using T = TypeParam;
    TriangleMesh<T> m;
    m.positions = {{T(0), T(0), T(0)}, {T(1), T(0), T(0)}, {T(0), T(1), T(0)}};
    m.normals = {{T(0), T(0), T(1)}, {T(1), T(0), T(1)}, {T(0), T(1), T(1)}};
    m.indices = {{0, 1, 2}};
    const MeshBvh<T> bvh(m);
    const auto h = bvh.pick(Ray<T>{{T(0.25), T(0.25), T(1)}, {T(0), T(0), T(-1)}});
    ASSERT_TRUE(h);
    EXPECT_EQ(h->triangle, 0u);
    EXPECT_EQ(h->t, T(1));
    EXPECT_TRUE(h->front);
    EXPECT_EQ(h->normal, Vec3<T>(T(0), T(0), T(1)));
    ASSERT_TRUE(h->shading_normal);
    const Vec3<T> want = glm::normalize(Vec3<T>(T(0.25), T(0.25), T(1)));
    EXPECT_NEAR(h->shading_normal->x, want.x, 1e-6);
    EXPECT_NEAR(h->shading_normal->z, want.z, 1e-6);
    const auto back = bvh.pick(Ray<T>{{T(0.25), T(0.25), T(-1)}, {T(0), T(0), T(1)}});
    ASSERT_TRUE(back);
    EXPECT_FALSE(back->front);
}

TYPED_TEST(MeshBvhTest, ValidateNamesTheBadVertexOrTriangle) {
    using T = TypeParam;
    TriangleMesh<T> m = meshgen::uv_sphere<T>(4, 6);
    EXPECT_FALSE(validate(m));
    TriangleMesh<T> bad_index = m;
    bad_index.indices[5][2] = std::uint32_t(m.positions.size());
    auto err = validate(bad_index);
    ASSERT_TRUE(err);
    EXPECT_EQ(err->field, "indices[5]");
    EXPECT_NE(err->message.find("triangle 5"), std::string::npos) << err->message;
    TriangleMesh<T> nan_pos = m;
    nan_pos.positions[3].y = std::numeric_limits<T>::quiet_NaN();
    err = validate(nan_pos);
    ASSERT_TRUE(err);
    EXPECT_EQ(err->field, "positions[3]");
    TriangleMesh<T> few_normals = m;
    few_normals.normals.pop_back();
    ASSERT_TRUE(validate(few_normals));
    EXPECT_EQ(validate(few_normals)->field, "normals");
    EXPECT_THROW(MeshBvh<T>{bad_index}, std::invalid_argument);
    // Empty: valid, never hit.
    const MeshBvh<T> empty(TriangleMesh<T>{});
    EXPECT_FALSE(empty.pick(Ray<T>{}));
    EXPECT_TRUE(empty.hits(Ray<T>{}).empty());
}

TYPED_TEST(MeshBvhTest, InvalidRaysAndRangesMiss) {
    using T = TypeParam;
    const MeshBvh<T> bvh(meshgen::sphere<T>(200));
    const T nan = std::numeric_limits<T>::quiet_NaN();
    const Vec3<T> o(T(0), T(0), T(-3)), d(T(0), T(0), T(1));
    EXPECT_TRUE(bvh.pick(Ray<T>{o, d}));
    EXPECT_FALSE(bvh.pick(Ray<T>{o, Vec3<T>(T(0))}));
    EXPECT_FALSE(bvh.pick(Ray<T>{Vec3<T>(nan), d}));
    EXPECT_FALSE(bvh.pick(Ray<T>{o, d}, T(2), T(1)));
    EXPECT_FALSE(bvh.pick(Ray<T>{o, d}, nan, T(1)));
    EXPECT_TRUE(bvh.hits(Ray<T>{o, Vec3<T>(nan)}).empty());
}

}  // namespace
}  // namespace raypick
