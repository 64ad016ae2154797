// The batch queries (SceneBatch.h) against SceneBvh's own per-query answers on a random scene of
// every shape type and mesh instances: pick, occluded, crossings, contains, classify, for 1, 2, 3
// and 7 threads and with ranges, masks, culling and a callback; empty inputs, strided and
// interleaved inputs read in place, and what is refused. Seeds printed; RAYPICK_SEED reruns.
#include <cstdint>
#include <iostream>
#include <memory>
#include <stdexcept>
#include <vector>

#include "TestUtil.h"
#include <raypick/geometry/MeshGenerators.h>
#include <raypick/geometry/SceneBatch.h>

namespace raypick {
namespace {

using test::Scalars;

template <typename T> class SceneBatch : public ::testing::Test {};
TYPED_TEST_SUITE(SceneBatch, Scalars);

constexpr unsigned kThreadCounts[] = {1, 2, 3, 7};

/// Shapes of every type and instances of a sphere mesh and a cube grid (mirrored, scaled, moved),
/// masks 1 or 2, in [-10, 10]^3.
template <typename T> SceneBvh<T> random_scene(std::uint32_t seed) {
    test::Random rnd(seed);
    SceneBvh<T> scene;
    const auto at = [&](double r) { return Vec3<T>(rnd.cube() * r); };
    for (int k = 0; k < 60; ++k) {
        const std::uint32_t mask = k % 3 == 0 ? 1u : 2u;
        switch (k % 5) {
        case 0: scene.add_shape(Sphere<T>{at(9), T(0.3 + std::abs(rnd.sym()))}, mask); break;
        case 1: {
            const Vec3<T> lo = at(9);
            scene.add_shape(Aabb<T>{lo, lo + Vec3<T>(T(0.5)) + at(1) * T(0.5) + Vec3<T>(T(0.5))}, mask);
            break;
        }
        case 2: scene.add_shape(Obb<T>{at(9), Mat3<T>(T(1)), Vec3<T>(T(0.4), T(0.8), T(1.2))}, mask); break;
        case 3: {
            const Vec3<T> a = at(9);
            scene.add_shape(Capsule<T>{a, a + at(2), T(0.5)}, mask);
            break;
        }
        default: {
            const Vec3<T> a = at(9);
            scene.add_shape(Triangle<T>{a, a + at(2), a + at(2)}, mask);
        }
        }
    }
    const auto sphere = scene.add_mesh(meshgen::sphere<T>(400, T(1.5)));
    const auto cube = scene.add_mesh(meshgen::cube_grid<T>(2, T(1)));
    for (int k = 0; k < 12; ++k) {
        Affine<T> a;
        a.linear = Mat3<T>(T(1 + k % 3));
        if (k % 4 == 1) a.linear[0][0] = -a.linear[0][0];
        a.translation = at(8);
        scene.add_instance(k % 2 ? sphere : cube, a, k % 3 == 0 ? 1u : 2u);
    }
    scene.commit();
    return scene;
}

template <typename T> std::vector<Ray<T>> random_rays(std::uint32_t seed, std::size_t n) {
    test::Random rnd(seed);
    std::vector<Ray<T>> rays;
    for (std::size_t i = 0; i < n; ++i) rays.push_back({Vec3<T>(rnd.cube() * 14.0), Vec3<T>(rnd.unit() * double(1 + i % 3))});
    rays[n / 2].direction = Vec3<T>(T(0));  // invalid: answers nothing
    return rays;
}

template <typename T> std::vector<BatchOptions<T>> option_variants() {
    std::vector<BatchOptions<T>> out(5);
    out[1].t_min = T(2), out[1].t_max = T(9);
    out[2].filter.mask = 1;
    out[3].filter.cull_back_faces = true;
    out[4].filter.accept = [](const HitCandidate<T>& c) { return (c.object + c.triangle) % 3 != 0; };
    return out;
}

template <typename T>
void expect_picks(const SceneBvh<T>& scene, const std::vector<Ray<T>>& rays, const BatchOptions<T>& o,
                  const PickResults<T>& got, const char* what) {
    ASSERT_EQ(got.t.size(), rays.size()) << what;
    for (std::size_t i = 0; i < rays.size(); ++i) {
        const auto want = scene.pick(rays[i], o.t_min, o.t_max, o.filter);
        if (!want) {
            ASSERT_EQ(got.t[i], infinity<T>()) << what << ", ray " << i;
            ASSERT_EQ(got.object[i], kNoObject) << what << ", ray " << i;
            ASSERT_EQ(got.triangle[i], kNoTriangle) << what << ", ray " << i;
            ASSERT_FALSE(got.front[i]);
            continue;
        }
        ASSERT_TRUE(test::same_bits(got.t[i], want->t)) << what << ", ray " << i;
        ASSERT_EQ(got.object[i], want->object) << what << ", ray " << i;
        ASSERT_EQ(got.triangle[i], want->triangle) << what << ", ray " << i;
        ASSERT_EQ(bool(got.front[i]), want->front) << what << ", ray " << i;
        for (int k = 0; k < 3; ++k) {
            ASSERT_TRUE(test::same_bits(got.point[3 * i + k], want->point[k])) << what << ", ray " << i;
            ASSERT_TRUE(test::same_bits(got.normal[3 * i + k], want->normal[k])) << what << ", ray " << i;
            ASSERT_TRUE(test::same_bits(got.barycentric[3 * i + k], want->barycentric[k])) << what << ", ray " << i;
        }
    }
}

TYPED_TEST(SceneBatch, PickAndOccludedEqualPerRayQueriesForEveryThreadCount) {
    using T = TypeParam;
    const std::uint32_t seed = test::seed_from_env(51001);
    std::cout << "[ seed ] SceneBatch.PickAndOccludedEqualPerRayQueriesForEveryThreadCount: RAYPICK_SEED=" << seed << "\n";
    const SceneBvh<T> scene = random_scene<T>(seed);
    const auto rays = random_rays<T>(seed + 1, 1500);
    std::size_t hits = 0;
    for (const auto& o : option_variants<T>())
        for (unsigned threads : kThreadCounts) {
            BatchOptions<T> opt = o;
            opt.threads = threads;
            const PickResults<T> got = scene_batch::pick(scene, RayView<T>(rays), opt);
            expect_picks(scene, rays, o, got, "pick");
            std::unique_ptr<bool[]> occ(new bool[rays.size()]);
            scene_batch::occluded(scene, RayView<T>(rays), occ.get(), opt);
            for (std::size_t i = 0; i < rays.size(); ++i) {
                ASSERT_EQ(occ[i], scene.occluded(rays[i], o.t_min, o.t_max, o.filter)) << "ray " << i << ", " << threads << " threads";
                hits += got.object[i] != kNoObject;
            }
        }
    EXPECT_GT(hits, 2000u);
}

TYPED_TEST(SceneBatch, CrossingsEqualPerRayQueriesForEveryThreadCount) {
    using T = TypeParam;
    const std::uint32_t seed = test::seed_from_env(51002);
    std::cout << "[ seed ] SceneBatch.CrossingsEqualPerRayQueriesForEveryThreadCount: RAYPICK_SEED=" << seed << "\n";
    const SceneBvh<T> scene = random_scene<T>(seed);
    const auto rays = random_rays<T>(seed + 1, 1500);
    std::size_t total = 0;
    for (const auto& o : option_variants<T>())
        for (unsigned threads : kThreadCounts) {
            BatchOptions<T> opt = o;
            opt.threads = threads;
            const CrossingsResults<T> got = scene_batch::crossings(scene, RayView<T>(rays), opt);
            ASSERT_EQ(got.size(), rays.size());
            ASSERT_EQ(got.offsets.back(), got.t.size());
            for (std::size_t i = 0; i < rays.size(); ++i) {
                const auto want = scene.crossings(rays[i], o.t_min, o.t_max, o.filter);
                ASSERT_EQ(got.count(i), want.size()) << "ray " << i << ", " << threads << " threads";
                for (std::size_t k = 0; k < want.size(); ++k) {
                    const std::size_t at = got.offsets[i] + k;
                    ASSERT_TRUE(test::same_bits(got.t[at], want[k].t));
                    ASSERT_EQ(got.object[at], want[k].object);
                    ASSERT_EQ(got.triangle[at], want[k].triangle);
                    ASSERT_EQ(got.kind[at], want[k].kind);
                }
            }
            total += got.t.size();
        }
    EXPECT_GT(total, 4 * rays.size()) << "the rays cross something";
}

TYPED_TEST(SceneBatch, ContainsAndClassifyEqualPerPointQueriesForEveryThreadCount) {
    using T = TypeParam;
    const std::uint32_t seed = test::seed_from_env(51003);
    std::cout << "[ seed ] SceneBatch.ContainsAndClassifyEqualPerPointQueriesForEveryThreadCount: RAYPICK_SEED=" << seed << "\n";
    const SceneBvh<T> scene = random_scene<T>(seed);
    test::Random rnd(seed + 2);
    std::vector<Vec3<T>> points;
    for (int i = 0; i < 3000; ++i) points.push_back(Vec3<T>(rnd.cube() * 11.0));
    points[7] = Vec3<T>(std::numeric_limits<T>::quiet_NaN());
    std::size_t inside = 0;
    for (unsigned threads : kThreadCounts) {
        for (std::uint32_t mask : {~0u, 1u}) {
            BatchOptions<T> opt;
            opt.threads = threads;
            opt.filter.mask = mask;
            const ContainsResults got = scene_batch::contains(scene, Vec3View<T>(points), opt);
            ASSERT_EQ(got.size(), points.size());
            for (std::size_t i = 0; i < points.size(); ++i) {
                const auto want = scene.contains(points[i], opt.filter);
                ASSERT_EQ(std::vector<ObjectId>(got.object.begin() + std::ptrdiff_t(got.offsets[i]),
                                                got.object.begin() + std::ptrdiff_t(got.offsets[i + 1])),
                          want)
                    << "point " << i << ", " << threads << " threads";
                inside += !want.empty();
            }
        }
        for (ObjectId id : {ObjectId(0), ObjectId(3), ObjectId(4), ObjectId(60), ObjectId(61)}) {
            BatchOptions<T> opt;
            opt.threads = threads;
            std::vector<Containment> c(points.size());
            std::unique_ptr<bool[]> in(new bool[points.size()]);
            scene_batch::classify(scene, Vec3View<T>(points), id, c.data(), opt);
            scene_batch::contains_object(scene, Vec3View<T>(points), id, in.get(), opt);
            for (std::size_t i = 0; i < points.size(); ++i) {
                ASSERT_EQ(c[i], scene.classify(points[i], id)) << "point " << i << ", object " << id;
                ASSERT_EQ(in[i], holds(c[i])) << "point " << i << ", object " << id;
            }
        }
    }
    EXPECT_GT(inside, 100u);
}

TYPED_TEST(SceneBatch, ClosestPointsAndSignedDistancesEqualPerPointQueriesForEveryThreadCount) {
    using T = TypeParam;
    const std::uint32_t seed = test::seed_from_env(51007);
    std::cout << "[ seed ] SceneBatch.ClosestPointsAndSignedDistancesEqualPerPointQueriesForEveryThreadCount: RAYPICK_SEED="
              << seed << "\n";
    const SceneBvh<T> scene = random_scene<T>(seed);
    test::Random rnd(seed + 2);
    std::vector<Vec3<T>> points;
    for (int i = 0; i < 800; ++i) points.push_back(Vec3<T>(rnd.cube() * 12.0));
    points[5] = Vec3<T>(std::numeric_limits<T>::infinity());
    const std::size_t n = points.size();
    std::size_t inside = 0, far = 0;
    for (unsigned threads : kThreadCounts)
        for (const T reach : {infinity<T>(), T(0.5)}) {
            BatchOptions<T> opt;
            opt.threads = threads;
            opt.filter.mask = threads == 3 ? 2u : ~0u;
            std::vector<T> distance(n), signed_distance(n), point(3 * n), normal(3 * n), bary(3 * n), sd(n);
            std::vector<ObjectId> object(n);
            std::vector<std::uint32_t> triangle(n);
            std::vector<Feature> feature(n);
            std::vector<std::uint8_t> index(n);
            std::unique_ptr<bool[]> in(new bool[n]);
            scene_batch::closest_point(scene, Vec3View<T>(points),
                                       ClosestOutput<T>{distance.data(), signed_distance.data(), object.data(), triangle.data(),
                                                        point.data(), normal.data(), bary.data(), feature.data(), index.data(),
                                                        in.get()},
                                       reach, opt);
            scene_batch::signed_distance(scene, Vec3View<T>(points), sd.data(), reach, opt);
            for (std::size_t i = 0; i < n; ++i) {
                const auto want = scene.closest_point(points[i], reach, opt.filter);
                const auto want_sd = scene.signed_distance(points[i], reach, opt.filter);
                ASSERT_EQ(want.has_value(), want_sd.has_value());
                if (!want) {
                    ASSERT_EQ(object[i], kNoObject) << "point " << i;
                    ASSERT_EQ(distance[i], infinity<T>());
                    ASSERT_EQ(sd[i], infinity<T>());
                    ASSERT_EQ(signed_distance[i], infinity<T>());
                    far += 1;
                    continue;
                }
                ASSERT_EQ(object[i], want->object) << "point " << i << ", " << threads << " threads";
                ASSERT_EQ(triangle[i], want->triangle);
                ASSERT_TRUE(test::same_bits(distance[i], want->surface.distance));
                ASSERT_TRUE(test::same_bits(sd[i], *want_sd));
                ASSERT_TRUE(test::same_bits(signed_distance[i], *want_sd));
                ASSERT_EQ(feature[i], want->surface.feature);
                ASSERT_EQ(index[i], want->surface.index);
                ASSERT_EQ(in[i], want->surface.inside);
                for (int k = 0; k < 3; ++k) {
                    ASSERT_TRUE(test::same_bits(point[3 * i + k], want->surface.point[k]));
                    ASSERT_TRUE(test::same_bits(normal[3 * i + k], want->surface.normal[k]));
                    ASSERT_TRUE(test::same_bits(bary[3 * i + k], want->barycentric[k]));
                }
                inside += in[i];
            }
        }
    EXPECT_GT(inside, 20u);
    EXPECT_GT(far, 100u);
}

TYPED_TEST(SceneBatch, StridedAndInterleavedInputsAreReadInPlace) {
    using T = TypeParam;
    const std::uint32_t seed = test::seed_from_env(51004);
    std::cout << "[ seed ] SceneBatch.StridedAndInterleavedInputsAreReadInPlace: RAYPICK_SEED=" << seed << "\n";
    const SceneBvh<T> scene = random_scene<T>(seed);
    const auto rays = random_rays<T>(seed + 1, 500);
    const std::size_t n = rays.size();
    const PickResults<T> want = scene_batch::pick(scene, RayView<T>(rays));
    // Rows of eight (six values and two of padding), columns one apart.
    std::vector<T> rows(8 * n, T(-7));
    // Structure of arrays: origin x of every ray, then origin y, ... (a (6, n) array).
    std::vector<T> soa(6 * n);
    // Rows of six in reverse order, read with a negative stride.
    std::vector<T> reversed(6 * n);
    for (std::size_t i = 0; i < n; ++i)
        for (int k = 0; k < 3; ++k) {
            rows[8 * i + k] = rays[i].origin[k], rows[8 * i + 3 + k] = rays[i].direction[k];
            soa[k * n + i] = rays[i].origin[k], soa[(3 + k) * n + i] = rays[i].direction[k];
            reversed[6 * (n - 1 - i) + k] = rays[i].origin[k], reversed[6 * (n - 1 - i) + 3 + k] = rays[i].direction[k];
        }
    const RayView<T> views[] = {
        RayView<T>::rows(rows.data(), n, 8),
        RayView<T>(Vec3View<T>(soa.data(), n, 1, std::ptrdiff_t(n)), Vec3View<T>(soa.data() + 3 * n, n, 1, std::ptrdiff_t(n))),
        RayView<T>::rows(reversed.data() + 6 * (n - 1), n, -6),
    };
    for (const RayView<T>& v : views)
        for (unsigned threads : kThreadCounts) {
            BatchOptions<T> opt;
            opt.threads = threads;
            const PickResults<T> got = scene_batch::pick(scene, v, opt);
            ASSERT_EQ(got.object, want.object);
            for (std::size_t i = 0; i < n; ++i) ASSERT_TRUE(test::same_bits(got.t[i], want.t[i])) << "ray " << i;
        }
    // Points every other vector of a packed array.
    std::vector<Vec3<T>> every_other;
    for (const Ray<T>& r : rays) every_other.push_back(r.origin), every_other.push_back(Vec3<T>(T(1e6)));
    const ContainsResults in = scene_batch::contains(scene, Vec3View<T>(&every_other[0].x, n, 6));
    for (std::size_t i = 0; i < n; ++i) {
        const auto want_in = scene.contains(rays[i].origin);
        ASSERT_EQ(in.count(i), want_in.size()) << "point " << i;
    }
}

TYPED_TEST(SceneBatch, EmptyInputsGiveEmptyAnswers) {
    using T = TypeParam;
    const SceneBvh<T> scene = random_scene<T>(51005);
    for (unsigned threads : kThreadCounts) {
        BatchOptions<T> opt;
        opt.threads = threads;
        const RayView<T> none(std::vector<Ray<T>>{});
        EXPECT_TRUE(scene_batch::pick(scene, none, opt).t.empty());
        scene_batch::occluded(scene, none, nullptr, opt);
        const auto cs = scene_batch::crossings(scene, none, opt);
        EXPECT_EQ(cs.size(), 0u);
        EXPECT_TRUE(cs.t.empty());
        const auto in = scene_batch::contains(scene, Vec3View<T>(), opt);
        EXPECT_EQ(in.size(), 0u);
        scene_batch::classify(scene, Vec3View<T>(), 0, nullptr, opt);
    }
    // An empty scene answers nothing.
    SceneBvh<T> empty;
    empty.commit();
    const auto rays = random_rays<T>(1, 40);
    const PickResults<T> got = scene_batch::pick(empty, RayView<T>(rays));
    for (std::size_t i = 0; i < rays.size(); ++i) EXPECT_EQ(got.object[i], kNoObject);
}

TYPED_TEST(SceneBatch, BadInputIsRefused) {
    using T = TypeParam;
    SceneBvh<T> scene = random_scene<T>(51006);
    const auto rays = random_rays<T>(2, 3000);
    std::vector<Vec3<T>> points(10, Vec3<T>(T(0)));
    std::vector<Containment> c(points.size());
    EXPECT_THROW(scene_batch::classify(scene, Vec3View<T>(points), 999, c.data()), std::invalid_argument);
    const RayView<T> mismatched(Vec3View<T>(points), Vec3View<T>(&points[0].x, 9));
    EXPECT_THROW(scene_batch::pick(scene, mismatched), std::invalid_argument);
    // A callback's exception reaches the caller, whichever thread threw it.
    BatchOptions<T> throwing;
    throwing.threads = 3;
    throwing.filter.accept = [](const HitCandidate<T>& h) -> bool {
        if (h.object == 5) throw std::runtime_error("object 5");
        return true;
    };
    EXPECT_THROW(scene_batch::crossings(scene, RayView<T>(rays), throwing), std::runtime_error);
    scene.add_shape(Sphere<T>{});
    EXPECT_THROW(scene_batch::pick(scene, RayView<T>(rays)), std::logic_error);
    EXPECT_THROW(scene_batch::contains(scene, Vec3View<T>(points)), std::logic_error);
}

}  // namespace
}  // namespace raypick
