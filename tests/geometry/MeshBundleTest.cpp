// MeshBvh::pick_bundle and InstanceBvh::pick_bundle against pick() ray by ray, bit for bit:
// coherent tiles of camera rays, incoherent rays, ranges per ray, invalid rays mixed in, every
// bundle size up to the largest and beyond, ties between triangles and between instances.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <memory>
#include <vector>

#include <glm/gtc/matrix_transform.hpp>
#include <gtest/gtest.h>

#include <raypick/geometry/MeshGenerators.h>
#include <raypick/geometry/MeshInstances.h>

#include "TestUtil.h"

namespace raypick {
namespace {

template <typename T> class MeshBundleTest : public ::testing::Test {};
TYPED_TEST_SUITE(MeshBundleTest, test::Scalars);

/// The seed (RAYPICK_SEED when set, else `fallback`), printed so a failing run can be repeated.
std::uint32_t announced_seed(std::uint32_t fallback) {
    const std::uint32_t seed = test::seed_from_env(fallback);
    std::printf("seed %u\n", seed);
    return seed;
}

template <typename T> bool same(const std::optional<MeshHit<T>>& a, const std::optional<MeshHit<T>>& b) {
    if (a.has_value() != b.has_value()) return false;
    if (!a) return true;
    return a->triangle == b->triangle && test::same_bits(a->t, b->t) && test::same_bits(a->barycentric, b->barycentric) &&
           test::same_bits(a->normal, b->normal) && a->front == b->front &&
           a->shading_normal.has_value() == b->shading_normal.has_value() &&
           (!a->shading_normal || test::same_bits(*a->shading_normal, *b->shading_normal));
}

template <typename T> bool same(const std::optional<InstanceHit<T>>& a, const std::optional<InstanceHit<T>>& b) {
    if (a.has_value() != b.has_value()) return false;
    if (!a) return true;
    return a->instance == b->instance && same(std::optional<MeshHit<T>>(a->hit), std::optional<MeshHit<T>>(b->hit));
}

/// Picks `rays` in bundles of `size` (the last one shorter) with per-ray ranges [t_min, t_max[i]],
/// and expects each result to equal pick() of that ray alone. Returns how many rays hit.
template <typename Bvh, typename T>
std::size_t expect_bundles_equal_picks(const Bvh& bvh, const std::vector<Ray<T>>& rays, std::size_t size, T t_min,
                                       const std::vector<T>& t_max, const std::string& where) {
    using Hit = decltype(bvh.pick(rays[0]));
    std::vector<Hit> out(rays.size());
    for (std::size_t at = 0; at < rays.size(); at += size)
        bvh.pick_bundle(&rays[at], std::min(size, rays.size() - at), &out[at], t_min, &t_max[at]);
    std::size_t hits = 0, wrong = 0;
    for (std::size_t i = 0; i < rays.size(); ++i) {
        const Hit want = bvh.pick(rays[i], t_min, t_max[i]);
        hits += want.has_value();
        if (!same(out[i], want) && ++wrong <= 5)
            ADD_FAILURE() << where << ": ray " << i << " of bundle size " << size << " differs from pick()";
    }
    EXPECT_EQ(wrong, 0u) << where;
    return hits;
}

/// w x h pinhole camera rays from `eye` towards the origin, in tiles of 8 x 8 pixels (tile by tile,
/// row by row within a tile), as the ray-cast view casts them.
template <typename T> std::vector<Ray<T>> camera_tiles(const Vec3<T>& eye, int w, int h, T tan_half) {
    const Vec3<T> fwd = glm::normalize(-eye), right = glm::normalize(glm::cross(fwd, Vec3<T>(0, 0, 1))),
                  up = glm::cross(right, fwd);
    std::vector<Ray<T>> out;
    for (int y0 = 0; y0 < h; y0 += 8)
        for (int x0 = 0; x0 < w; x0 += 8)
            for (int y = y0; y < std::min(h, y0 + 8); ++y)
                for (int x = x0; x < std::min(w, x0 + 8); ++x) {
                    const T sx = ((T(x) + T(0.5)) / T(w) * 2 - 1) * tan_half * T(w) / T(h);
                    const T sy = (1 - (T(y) + T(0.5)) / T(h) * 2) * tan_half;
                    out.push_back({eye, fwd + sx * right + sy * up});
                }
    return out;
}

template <typename T> std::vector<Ray<T>> incoherent_rays(test::Random& r, std::size_t n, double from, double to) {
    std::vector<Ray<T>> out;
    for (std::size_t i = 0; i < n; ++i) {
        const Vec3<T> a = Vec3<T>(r.unit() * from), b = Vec3<T>(r.cube() * to);
        out.push_back({a, a == b ? Vec3<T>(T(1), T(0), T(0)) : b - a});
    }
    return out;
}

/// Every seventh ray made invalid (NaN or infinite origin, zero or NaN direction).
template <typename T> void mix_in_invalid_rays(std::vector<Ray<T>>& rays) {
    const T nan = std::numeric_limits<T>::quiet_NaN(), inf = std::numeric_limits<T>::infinity();
    for (std::size_t i = 3; i < rays.size(); i += 7) {
        switch (i / 7 % 4) {
            case 0: rays[i].origin.x = nan; break;
            case 1: rays[i].direction = Vec3<T>(T(0)); break;
            case 2: rays[i].direction.y = nan; break;
            default: rays[i].origin.z = inf; break;
        }
    }
}

/// Per-ray far ends: mostly infinite, some short (cutting the nearest hit away), some below t_min
/// or NaN (an invalid range: a miss).
template <typename T> std::vector<T> random_limits(test::Random& r, std::size_t n, T t_min) {
    std::vector<T> out(n, infinity<T>());
    for (std::size_t i = 0; i < n; ++i) {
        const double u = r.sym();
        if (u < -0.6) out[i] = T(2.5 + r.sym());
        else if (u < -0.5) out[i] = t_min - T(0.25);
        else if (u < -0.45) out[i] = std::numeric_limits<T>::quiet_NaN();
    }
    return out;
}

TYPED_TEST(MeshBundleTest, CoherentTilesEqualPicks) {
    using T = TypeParam;
    const std::uint32_t seed = announced_seed(20261210u);
    SCOPED_TRACE("seed " + std::to_string(seed) + " (RAYPICK_SEED reruns it)");
    test::Random r(seed);
    TriangleMesh<T> terrain = meshgen::terrain<T>(100, T(2), seed);
    for (auto& p : terrain.positions) p -= Vec3<T>(T(1), T(1), T(0));
    const TriangleMesh<T> meshes[] = {meshgen::sphere<T>(40000), terrain};
    for (const TriangleMesh<T>& m : meshes) {
        for (const BatchIsa isa : {BatchIsa::Sse2, BatchIsa::Auto}) {
            const MeshBvh<T> bvh(m, isa);
            // A random eye about three units away (a narrow view), then one 1.2 units away (a wide one).
            const Vec3<T> eye = Vec3<T>(r.unit() * 3.0) + Vec3<T>(T(0), T(0), T(0.5));
            const auto rays = camera_tiles<T>(eye, 96, 64, T(0.45));
            const std::vector<T> far(rays.size(), infinity<T>());
            const std::size_t hits = expect_bundles_equal_picks(bvh, rays, 64, T(0), far, "camera tiles");
            EXPECT_GT(hits, rays.size() / 10);
            expect_bundles_equal_picks(bvh, rays, 64, T(0), random_limits<T>(r, rays.size(), T(0)), "camera tiles, ranges");
            const auto close = camera_tiles<T>(Vec3<T>(r.unit() * 1.2), 48, 32, T(1));
            expect_bundles_equal_picks(bvh, close, 64, T(0.01), std::vector<T>(close.size(), infinity<T>()), "close tiles");
        }
    }
}

TYPED_TEST(MeshBundleTest, IncoherentRaysOfEveryBundleSizeEqualPicks) {
    using T = TypeParam;
    const std::uint32_t seed = announced_seed(20261211u);
    SCOPED_TRACE("seed " + std::to_string(seed) + " (RAYPICK_SEED reruns it)");
    test::Random r(seed);
    TriangleMesh<T> m = meshgen::sphere<T>(10000);
    // Vertex normals, so the interpolated normal is compared too.
    ASSERT_TRUE(m.has_normals());
    for (const BatchIsa isa : {BatchIsa::Sse2, BatchIsa::Auto}) {
        const MeshBvh<T> bvh(m, isa);
        for (std::size_t size = 1; size <= MeshBvh<T>::kMaxBundle + 1; ++size) {
            auto rays = incoherent_rays<T>(r, 3 * size + 5, 3.0, 1.2);
            mix_in_invalid_rays(rays);
            const T t_min = size % 3 == 0 ? T(1.5) : T(0);
            expect_bundles_equal_picks(bvh, rays, size, t_min, random_limits<T>(r, rays.size(), t_min),
                                       "incoherent, size " + std::to_string(size));
        }
        // One call over many rays: split into bundles of kMaxBundle inside.
        auto rays = incoherent_rays<T>(r, 1000, 4.0, 1.0);
        mix_in_invalid_rays(rays);
        expect_bundles_equal_picks(bvh, rays, rays.size(), T(0), random_limits<T>(r, rays.size(), T(0)), "one call");
    }
}

TYPED_TEST(MeshBundleTest, RaysThroughVerticesAndEdgesEqualPicks) {
    using T = TypeParam;
    const std::uint32_t seed = announced_seed(20261212u);
    SCOPED_TRACE("seed " + std::to_string(seed) + " (RAYPICK_SEED reruns it)");
    test::Random r(seed);
    // A grid of cubes sharing faces: rays through shared vertices and edge midpoints hit several
    // triangles at the same t, where the smaller index must win.
    const TriangleMesh<T> m = meshgen::cube_grid<T>(8, T(1));
    const MeshBvh<T> bvh(m);
    std::vector<Ray<T>> rays;
    for (int i = 0; i < 640; ++i) {
        const auto& tri = m.indices[std::size_t(r.rng() % m.indices.size())];
        const Vec3<T> a = m.positions[tri[0]], b = m.positions[tri[1]];
        const Vec3<T> target = i % 2 ? a : (a + b) * T(0.5);
        const Vec3<T> from = i % 64 < 32 ? Vec3<T>(T(0.3), T(-4), T(2.5)) : Vec3<T>(r.unit() * 4.0);
        rays.push_back({from, target - from});
    }
    expect_bundles_equal_picks(bvh, rays, 64, T(0), std::vector<T>(rays.size(), infinity<T>()), "vertices and edges");
}

template <typename T> Affine<T> random_affine(test::Random& r, bool mirror) {
    const Mat3<double> rot = Mat3<double>(glm::rotate(glm::dmat4(1.0), 3.14159 * r.sym(), r.unit()));
    Mat3<double> scale(1.0);
    for (int a = 0; a < 3; ++a) scale[a][a] = 0.3 + 0.85 * (r.sym() + 1);
    if (mirror) scale[1][1] = -scale[1][1];
    return {Mat3<T>(rot * scale), Vec3<T>(r.cube() * 4.0)};
}

TYPED_TEST(MeshBundleTest, InstancesEqualPicks) {
    using T = TypeParam;
    const std::uint32_t seed = announced_seed(20261213u);
    SCOPED_TRACE("seed " + std::to_string(seed) + " (RAYPICK_SEED reruns it)");
    test::Random r(seed);
    const std::vector<std::shared_ptr<const MeshBvh<T>>> meshes = {
        std::make_shared<const MeshBvh<T>>(meshgen::sphere<T>(2000)),
        std::make_shared<const MeshBvh<T>>(meshgen::terrain<T>(20, T(2), seed)),
        std::make_shared<const MeshBvh<T>>(meshgen::thin_cylinder<T>(8, 2, T(0.2), T(2)))};
    std::vector<Instance<T>> inst;
    for (int i = 0; i < 40; ++i) inst.push_back({std::uint32_t(r.rng() % 3), random_affine<T>(r, i % 3 == 0)});
    // Instances placed exactly alike: every hit on them ties, and the smaller instance must win.
    inst.push_back(inst[7]);
    inst.insert(inst.begin() + 2, inst[20]);
    // A scene of one instance (its tree a single leaf), placed by a map or by none.
    const std::vector<std::vector<Instance<T>>> scenes = {inst, {inst[3]}, {Instance<T>{0, Affine<T>{}}}};
    for (std::size_t k = 0; k < scenes.size(); ++k)
        for (const BatchIsa isa : {BatchIsa::Sse2, BatchIsa::Auto}) {
            const InstanceBvh<T> bvh(meshes, scenes[k], isa);
            const std::string where = "scene " + std::to_string(k) + ", ";
            const auto tiles = camera_tiles<T>(Vec3<T>(T(2), T(-9), T(5)), 64, 48, T(0.6));
            const std::size_t hits = expect_bundles_equal_picks(bvh, tiles, 64, T(0),
                                                                std::vector<T>(tiles.size(), infinity<T>()), where + "tiles");
            EXPECT_GT(hits, k == 0 ? tiles.size() / 10 : tiles.size() / 200) << where;
            expect_bundles_equal_picks(bvh, tiles, 64, T(0), random_limits<T>(r, tiles.size(), T(0)), where + "tiles, ranges");
            for (std::size_t size : {std::size_t(1), std::size_t(5), std::size_t(33), std::size_t(64), std::size_t(200)}) {
                auto rays = incoherent_rays<T>(r, 400, 8.0, 5.0);
                mix_in_invalid_rays(rays);
                const T t_min = size == 5 ? T(0.5) : T(0);
                expect_bundles_equal_picks(bvh, rays, size, t_min, random_limits<T>(r, rays.size(), t_min),
                                           where + "incoherent, size " + std::to_string(size));
            }
        }
}

TYPED_TEST(MeshBundleTest, EnteringRaysAreValidRaysThatPassTheirOwnRootTest) {
    // The bundle's cull gives, ray by ray, enters(ray_consts()) — the single-ray walk's root test —
    // for rays inside, outside, grazing and along the box's planes, with zero and negative-zero
    // direction components, near and far origins, partial groups of four, and short ranges; and
    // no invalid ray or range (is_valid(), valid_range()) gets through.
    using T = TypeParam;
    using L = detail::Lanes4<T>;
    const std::uint32_t seed = announced_seed(20261214u);
    SCOPED_TRACE("seed " + std::to_string(seed) + " (RAYPICK_SEED reruns it)");
    test::Random r(seed);
    const Vec3<T> lo(T(-1), T(-0.5), T(0)), hi(T(2), T(0.5), T(3));
    const T scene_mag = T(3), cond = T(1.5);
    std::size_t entered = 0, missed = 0, invalid = 0, grazing = 0;  // grazing: decided by the widening's size
    for (int bundle = 0; bundle < 400; ++bundle) {
        std::vector<Ray<T>> rays(64);
        std::vector<T> t_max(64, infinity<T>());
        const double reach = std::pow(10.0, 4 * std::abs(r.sym()));
        for (std::size_t i = 0; i < rays.size(); ++i) {
            Vec3<T> o = Vec3<T>(r.cube() * reach), d = Vec3<T>(r.cube());
            // A third aimed through a point of the box, some exactly along one of its planes.
            if (i % 3 == 0) d = Vec3<T>(Vec3<double>(lo) + (Vec3<double>(hi - lo)) * (r.cube() * 0.5 + 0.5)) - o;
            if (i % 7 == 1) d[i % 3] = (i & 8) ? T(0) : -T(0);
            if (i % 11 == 2) o[i % 3] = (i & 16) ? lo[i % 3] : hi[i % 3];
            if (i % 13 == 4) {
                // Parallel to a face, just outside it: in or out by the widening alone.
                const int a = int(i % 3);
                d[a] = T(0);
                o[a] = T(double(lo[a]) - std::abs(r.sym()) * 3 * 128 * double(std::numeric_limits<T>::epsilon()) *
                                             (double(detail::max_abs(o)) + double(scene_mag)));
            }
            if (d == Vec3<T>(T(0))) d.x = T(1);
            rays[i] = {o, d};
            if (i % 5 == 3) t_max[i] = T(std::abs(r.sym()));
            // Some invalid: a non-finite origin or direction, a direction whose squared length
            // is 0 or overflows, an empty or NaN range.
            if (i % 17 == 6) {
                // Finite components whose squares underflow to 0, or overflow.
                const T tiny = std::sqrt(std::numeric_limits<T>::denorm_min()) / T(4);
                const T huge = std::sqrt(std::numeric_limits<T>::max()) * T(2);
                switch (i / 17 % 7) {
                    case 0: rays[i].origin[i % 3] = std::numeric_limits<T>::quiet_NaN(); break;
                    case 1: rays[i].direction[i % 3] = -infinity<T>(); break;
                    case 2: rays[i].direction = Vec3<T>(tiny, T(0), -tiny); break;
                    case 3: rays[i].direction = Vec3<T>(huge, T(1), T(0)); break;
                    case 4: t_max[i] = std::numeric_limits<T>::quiet_NaN(); break;
                    case 5: t_max[i] = T(-1); break;
                    default: rays[i].origin[i % 3] = infinity<T>(); break;
                }
            }
        }
        // Bundles of every length up to 64, with some rays left out.
        const std::size_t count = 1 + std::size_t(bundle) % 64;
        std::uint64_t live = count == 64 ? ~std::uint64_t(0) : (std::uint64_t(1) << count) - 1;
        if (bundle % 3 == 1) live &= 0xb6db6db6db6db6dbull;
        const T t_min = bundle % 4 == 0 ? T(0.25) : T(0);
        const std::uint64_t mesh = mesh_bvh::entering_rays(rays.data(), live, lo, hi, t_min, t_max.data(),
                                                           [&](const L& m, L& sm) { sm = m * 0 + scene_mag; });
        const std::uint64_t scaled = mesh_bvh::entering_rays(rays.data(), live, lo, hi, t_min, t_max.data(),
                                                             [&](const L& m, L& sm) { sm = (T(1) + cond) * (scene_mag + m); });
        EXPECT_EQ(mesh & ~live, 0u);
        for (std::size_t i = 0; i < count; ++i) {
            if (!(live >> i & 1u)) continue;
            const bool valid = is_valid(rays[i]) && detail::valid_range(t_min, t_max[i]);
            EXPECT_EQ(mesh_bvh::valid_rays(rays.data(), std::uint64_t(1) << i, t_min, t_max.data()) != 0, valid);
            if (!valid) {
                EXPECT_FALSE(mesh >> i & 1u) << "bundle " << bundle << " invalid ray " << i;
                EXPECT_FALSE(scaled >> i & 1u) << "bundle " << bundle << " invalid ray " << i;
                ++invalid;
                continue;
            }
            const T m = detail::max_abs(rays[i].origin);
            const bool want = mesh_bvh::enters(mesh_bvh::ray_consts(rays[i], scene_mag), lo, hi, t_min, t_max[i]);
            const bool want_scaled =
                mesh_bvh::enters(mesh_bvh::ray_consts(rays[i], (T(1) + cond) * (scene_mag + m)), lo, hi, t_min, t_max[i]);
            EXPECT_EQ(bool(mesh >> i & 1u), want) << "bundle " << bundle << " ray " << i;
            EXPECT_EQ(bool(scaled >> i & 1u), want_scaled) << "bundle " << bundle << " ray " << i;
            (want ? entered : missed) += 1;
            grazing += i % 13 == 4 && want != mesh_bvh::enters(mesh_bvh::ray_consts(rays[i], T(0)), lo, hi, t_min, t_max[i]);
        }
    }
    // Both outcomes are exercised.
    EXPECT_GT(entered, 1000u);
    EXPECT_GT(missed, 1000u);
    EXPECT_GT(invalid, 500u);
    EXPECT_GT(grazing, 5u);
}

TYPED_TEST(MeshBundleTest, EmptyMeshesAndBundlesMiss) {
    using T = TypeParam;
    const MeshBvh<T> empty{TriangleMesh<T>{}};
    const Ray<T> ray{Vec3<T>(T(0), T(0), T(-3)), Vec3<T>(T(0), T(0), T(1))};
    std::optional<MeshHit<T>> out[2] = {MeshHit<T>{}, MeshHit<T>{}};
    empty.pick_bundle(&ray, 1, out);
    EXPECT_FALSE(out[0]);
    EXPECT_TRUE(out[1]);  // beyond count: untouched
    const MeshBvh<T> bvh(meshgen::sphere<T>(200));
    bvh.pick_bundle(&ray, 0, out + 1);
    EXPECT_TRUE(out[1]);
    bvh.pick_bundle(&ray, 1, out);
    EXPECT_TRUE(out[0]);
    const InstanceBvh<T> none({}, {});
    std::optional<InstanceHit<T>> hit = InstanceHit<T>{};
    none.pick_bundle(&ray, 1, &hit);
    EXPECT_FALSE(hit);
}

}  // namespace
}  // namespace raypick
