// InstanceBvh against testing every instance in order (exactly), against the instances' meshes
// transformed into world space and picked by brute force (within a tolerance), refit against
// rebuild, every hit, validation, and the mixed pick with analytic shapes.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <vector>

#include <glm/gtc/matrix_transform.hpp>
#include <gtest/gtest.h>

#include <raypick/geometry/MeshGenerators.h>
#include <raypick/geometry/MeshInstances.h>
#include <raypick/geometry/MixedPick.h>

#include "TestUtil.h"

namespace raypick {
namespace {

template <typename T> class MeshInstancesTest : public ::testing::Test {};
TYPED_TEST_SUITE(MeshInstancesTest, test::Scalars);

template <typename T> using Meshes = std::vector<std::shared_ptr<const MeshBvh<T>>>;

template <typename T> Meshes<T> some_meshes(std::uint32_t seed) {
    return {std::make_shared<const MeshBvh<T>>(meshgen::uv_sphere<T>(8, 12, T(1))),
            std::make_shared<const MeshBvh<T>>(meshgen::terrain<T>(6, T(2), seed)),
            std::make_shared<const MeshBvh<T>>(meshgen::thin_cylinder<T>(8, 2, T(0.2), T(2)))};
}

/// A random rotation times a random non-uniform scale in [0.3, 2] per axis, negative on one axis
/// a third of the time (a mirror), and a translation in [-4, 4]^3.
template <typename T> Affine<T> random_affine(test::Random& r) {
    const Vec3<double> axis = r.unit();
    const double angle = 3.14159 * r.sym();
    const Mat3<double> rot = Mat3<double>(glm::rotate(glm::dmat4(1.0), angle, axis));
    Mat3<double> scale(1.0);
    for (int a = 0; a < 3; ++a) scale[a][a] = 0.3 + 0.85 * (r.sym() + 1);
    if (r.sym() < -1.0 / 3) scale[1][1] = -scale[1][1];
    return {Mat3<T>(rot * scale), Vec3<T>(r.cube() * 4.0)};
}

template <typename T> std::vector<Instance<T>> random_instances(test::Random& r, int n, std::uint32_t meshes) {
    std::vector<Instance<T>> out;
    for (int i = 0; i < n; ++i) out.push_back({std::uint32_t(r.rng() % meshes), random_affine<T>(r)});
    return out;
}

template <typename T> Ray<T> random_ray(test::Random& r) {
    const Vec3<T> from = Vec3<T>(r.cube() * 8.0), to = Vec3<T>(r.cube() * 5.0);
    return {from, to == from ? Vec3<T>(T(1), T(0), T(0)) : to - from};
}

template <typename T>
void expect_same(const std::optional<InstanceHit<T>>& a, const std::optional<InstanceHit<T>>& b, int i) {
    ASSERT_EQ(a.has_value(), b.has_value()) << "ray " << i;
    if (!a) return;
    EXPECT_EQ(a->instance, b->instance) << "ray " << i;
    EXPECT_EQ(a->hit.triangle, b->hit.triangle) << "ray " << i;
    EXPECT_TRUE(test::same_bits(a->hit.t, b->hit.t)) << "ray " << i;
    EXPECT_TRUE(test::same_bits(a->hit.normal, b->hit.normal)) << "ray " << i;
    EXPECT_EQ(a->hit.front, b->hit.front) << "ray " << i;
}

TYPED_TEST(MeshInstancesTest, PickEqualsEveryInstanceInOrder) {
    using T = TypeParam;
    const std::uint32_t seed = test::seed_from_env(20261201u);
    SCOPED_TRACE("seed " + std::to_string(seed) + " (RAYPICK_SEED reruns it)");
    test::Random r(seed);
    const Meshes<T> meshes = some_meshes<T>(seed);
    for (const BatchIsa isa : {BatchIsa::Sse2, BatchIsa::Avx2, BatchIsa::Auto}) {
        const InstanceBvh<T> bvh(meshes, random_instances<T>(r, 60, 3), isa);
        for (int i = 0; i < 800; ++i) {
            const Ray<T> ray = random_ray<T>(r);
            const T t_min = i % 4 == 0 ? T(0.5) : T(0);
            expect_same(bvh.pick(ray, t_min), pick_nearest_instance(bvh, ray, t_min), i);
        }
    }
}

// pick_instance() is the pick restricted to one instance: the same hit, bit for bit, for the
// instance pick() finds; no nearer hit in any other; nothing for an index out of range.
TYPED_TEST(MeshInstancesTest, PickInstanceIsThatInstanceAlone) {
    using T = TypeParam;
    const std::uint32_t seed = test::seed_from_env(20261203u);
    SCOPED_TRACE("seed " + std::to_string(seed) + " (RAYPICK_SEED reruns it)");
    test::Random r(seed);
    const InstanceBvh<T> bvh(some_meshes<T>(seed), random_instances<T>(r, 20, 3));
    const auto n = std::uint32_t(bvh.instances().size());
    int hits = 0;
    for (int i = 0; i < 400; ++i) {
        const Ray<T> ray = random_ray<T>(r);
        EXPECT_FALSE(bvh.pick_instance(n, ray)) << "ray " << i;
        const auto got = bvh.pick(ray);
        if (!got) continue;
        ++hits;
        const auto alone = bvh.pick_instance(got->instance, ray);
        ASSERT_TRUE(alone) << "ray " << i;
        EXPECT_EQ(alone->triangle, got->hit.triangle) << "ray " << i;
        EXPECT_TRUE(test::same_bits(alone->t, got->hit.t)) << "ray " << i;
        EXPECT_TRUE(test::same_bits(alone->normal, got->hit.normal)) << "ray " << i;
        EXPECT_NEAR(glm::length(Vec3<double>(alone->normal)), 1.0, 1e-6) << "ray " << i;
        ASSERT_EQ(alone->shading_normal.has_value(), got->hit.shading_normal.has_value()) << "ray " << i;
        if (alone->shading_normal) {
            EXPECT_TRUE(test::same_bits(*alone->shading_normal, *got->hit.shading_normal)) << "ray " << i;
        }
        for (std::uint32_t j = 0; j < n; ++j) {
            const auto other = bvh.pick_instance(j, ray);
            if (other) {
                EXPECT_GE(other->t, got->hit.t) << "ray " << i;
            }
        }
    }
    EXPECT_GT(hits, 40);
}

/// The instances' triangles mapped into world space, as one mesh, with the winding reversed for
/// mirroring instances (det < 0), and for each world triangle its instance.
template <typename T> struct World {
    TriangleMesh<T> mesh;
    std::vector<std::uint32_t> instance, triangle;
    std::vector<bool> mirrored;
};
template <typename T> World<T> world_of(const InstanceBvh<T>& bvh) {
    World<T> w;
    for (std::uint32_t i = 0; i < bvh.instances().size(); ++i) {
        const Instance<T>& inst = bvh.instances()[i];
        const TriangleMesh<T>& m = bvh.meshes()[inst.mesh]->mesh();
        const bool mirror = glm::determinant(inst.transform.linear) < T(0);
        const auto base = std::uint32_t(w.mesh.positions.size());
        for (const Vec3<T>& p : m.positions) w.mesh.positions.push_back(apply(inst.transform, p));
        for (std::uint32_t t = 0; t < m.indices.size(); ++t) {
            const auto& v = m.indices[t];
            w.mesh.indices.push_back(mirror ? std::array<std::uint32_t, 3>{base + v[0], base + v[2], base + v[1]}
                                            : std::array<std::uint32_t, 3>{base + v[0], base + v[1], base + v[2]});
            w.instance.push_back(i);
            w.triangle.push_back(t);
            w.mirrored.push_back(mirror);
        }
    }
    return w;
}

// Tolerance: the transformed vertices and the mapped ray each round at a few ulps of the scene's
// magnitude (about 10 here) times the maps' condition (at most about 7), so t and the normals agree
// to about 1e-5 in float and 1e-14 in double for well-shaped triangles at non-grazing angles; the
// bounds below leave a factor of ten, and identity (instance, triangle, face) is only compared
// where the hit is well inside its triangle (every barycentric above 1e-3), so no edge is near.
TYPED_TEST(MeshInstancesTest, PickAgreesWithTheTransformedMeshes) {
    using T = TypeParam;
    const T tol = sizeof(T) == 4 ? T(2e-4) : T(1e-12);
    const std::uint32_t seed = test::seed_from_env(20261202u);
    SCOPED_TRACE("seed " + std::to_string(seed) + " (RAYPICK_SEED reruns it)");
    test::Random r(seed);
    const InstanceBvh<T> bvh(some_meshes<T>(seed), random_instances<T>(r, 30, 3));
    const World<T> world = world_of(bvh);
    int compared = 0, mirrored = 0;
    for (int i = 0; i < 1500; ++i) {
        const Ray<T> ray = random_ray<T>(r);
        const auto want = pick_nearest_triangle(world.mesh, ray);
        const auto got = bvh.pick(ray);
        if (!want || std::min({want->barycentric.x, want->barycentric.y, want->barycentric.z}) < T(1e-3)) continue;
        ++compared;
        ASSERT_TRUE(got) << "ray " << i;
        const T scale = T(1) + std::abs(want->t);
        EXPECT_NEAR(got->hit.t, want->t, tol * scale) << "ray " << i;
        EXPECT_EQ(got->instance, world.instance[want->triangle]) << "ray " << i;
        EXPECT_EQ(got->hit.triangle, world.triangle[want->triangle]) << "ray " << i;
        EXPECT_EQ(got->hit.front, want->front) << "ray " << i;
        EXPECT_LT(glm::length(got->hit.normal - want->normal), tol * T(10)) << "ray " << i;
        Vec3<T> w = want->barycentric;
        if (world.mirrored[want->triangle]) {
            std::swap(w.y, w.z);
            ++mirrored;
        }
        EXPECT_LT(glm::length(got->hit.barycentric - w), tol * T(100)) << "ray " << i;
    }
    EXPECT_GT(compared, 200);
    EXPECT_GT(mirrored, 20);
}

TYPED_TEST(MeshInstancesTest, RefitAfterMovesEqualsRebuild) {
    using T = TypeParam;
    const std::uint32_t seed = test::seed_from_env(20261203u);
    SCOPED_TRACE("seed " + std::to_string(seed) + " (RAYPICK_SEED reruns it)");
    test::Random r(seed);
    const Meshes<T> meshes = some_meshes<T>(seed);
    InstanceBvh<T> moved(meshes, random_instances<T>(r, 50, 3));
    for (std::uint32_t i = 0; i < 50; i += 2) moved.set_transform(i, random_affine<T>(r));
    moved.refit();
    const InstanceBvh<T> rebuilt(meshes, moved.instances());
    for (int i = 0; i < 800; ++i) {
        const Ray<T> ray = random_ray<T>(r);
        const auto a = moved.pick(ray);
        expect_same(a, rebuilt.pick(ray), i);
        expect_same(a, pick_nearest_instance(rebuilt, ray), i);
    }
}

TYPED_TEST(MeshInstancesTest, EveryHitEqualsEveryInstancesHits) {
    using T = TypeParam;
    const std::uint32_t seed = test::seed_from_env(20261204u);
    SCOPED_TRACE("seed " + std::to_string(seed));
    test::Random r(seed);
    const InstanceBvh<T> bvh(some_meshes<T>(seed), random_instances<T>(r, 40, 3));
    std::size_t total = 0;
    for (int i = 0; i < 300; ++i) {
        const Ray<T> ray = random_ray<T>(r);
        std::vector<std::tuple<T, std::uint32_t, std::uint32_t>> want;
        for (std::uint32_t k = 0; k < bvh.instances().size(); ++k) {
            const Instance<T>& inst = bvh.instances()[k];
            const auto p = mesh_instances::placed(inst, bvh.meshes()[inst.mesh].get(), k);
            for (const auto& h : p.mesh->hits(mesh_instances::to_mesh(p, ray))) want.emplace_back(h.t, k, h.triangle);
        }
        std::sort(want.begin(), want.end());
        const auto got = bvh.hits(ray);
        ASSERT_EQ(got.size(), want.size()) << "ray " << i;
        total += got.size();
        for (std::size_t k = 0; k < got.size(); ++k) {
            EXPECT_TRUE(test::same_bits(got[k].hit.t, std::get<0>(want[k]))) << "ray " << i;
            EXPECT_EQ(got[k].instance, std::get<1>(want[k])) << "ray " << i;
            EXPECT_EQ(got[k].hit.triangle, std::get<2>(want[k])) << "ray " << i;
        }
    }
    EXPECT_GT(total, 300u);  // rays cross several instances, most of them twice
}

/// An instance's world box holds every vertex of its mesh as apply() maps it, under rotations,
/// non-uniform and negative scales and shears (the box is computed from the cover's boxes per
/// axis, not from mapped corners).
TYPED_TEST(MeshInstancesTest, InstanceBoxesHoldEveryMappedVertex) {
    using T = TypeParam;
    const std::uint32_t seed = test::seed_from_env(3303u);
    SCOPED_TRACE("seed " + std::to_string(seed) + " (RAYPICK_SEED reruns it)");
    test::Random r(seed);
    const auto meshes = some_meshes<T>(seed);
    std::vector<Instance<T>> instances = random_instances<T>(r, 40, std::uint32_t(meshes.size()));
    for (int i = 0; i < 10; ++i) {
        Instance<T> sheared{std::uint32_t(i % meshes.size()), random_affine<T>(r)};
        sheared.transform.linear[1] += T(0.7) * sheared.transform.linear[0];  // a shear
        instances.push_back(sheared);
    }
    const InstanceBvh<T> bvh(meshes, instances);
    for (std::uint32_t i = 0; i < instances.size(); ++i) {
        const Aabb<T> box = bvh.bounds(i);
        for (const Vec3<T>& v : meshes[instances[i].mesh]->mesh().positions) {
            const Vec3<T> w = apply(instances[i].transform, v);
            ASSERT_TRUE(glm::all(glm::lessThanEqual(box.min, w)) && glm::all(glm::lessThanEqual(w, box.max)))
                << "instance " << i;
        }
    }
}

TYPED_TEST(MeshInstancesTest, MirroredInstanceKeepsItsFrontOutward) {
    using T = TypeParam;
    const Meshes<T> meshes{std::make_shared<const MeshBvh<T>>(meshgen::uv_sphere<T>(8, 16, T(1)))};
    Affine<T> mirror;
    mirror.linear[0][0] = T(-2);  // mirror in x and stretch
    mirror.translation = Vec3<T>(T(5), T(0), T(0));
    const InstanceBvh<T> bvh(meshes, {{0, Affine<T>{}}, {0, mirror}});
    for (const T x : {T(0), T(5)}) {
        const auto h = bvh.pick(Ray<T>{{x, T(0.1), T(-5)}, {T(0), T(0), T(1)}});
        ASSERT_TRUE(h);
        EXPECT_TRUE(h->hit.front) << "instance at x = " << x;
        EXPECT_LT(h->hit.normal.z, T(-0.9)) << "instance at x = " << x;
        ASSERT_TRUE(h->hit.shading_normal);
        EXPECT_LT(h->hit.shading_normal->z, T(-0.9));
        EXPECT_NEAR(glm::length(h->hit.normal), T(1), T(1e-6));
    }
}

TYPED_TEST(MeshInstancesTest, BadInstancesAreNamed) {
    using T = TypeParam;
    const Meshes<T> meshes = some_meshes<T>(1);
    const auto message = [&](std::vector<Instance<T>> inst) -> std::string {
        try {
            InstanceBvh<T> bvh(meshes, std::move(inst));
        } catch (const std::invalid_argument& e) {
            return e.what();
        }
        return "";
    };
    EXPECT_NE(message({{0, {}}, {7, {}}}).find("instances[1].mesh"), std::string::npos);
    Affine<T> singular;
    singular.linear[2] = Vec3<T>(T(0));
    EXPECT_NE(message({{0, {}}, {1, {}}, {0, singular}}).find("instances[2].transform.linear"), std::string::npos);
    Affine<T> nan;
    nan.translation.x = std::numeric_limits<T>::quiet_NaN();
    EXPECT_NE(message({{0, nan}}).find("instances[0].transform.translation"), std::string::npos);
    InstanceBvh<T> bvh(meshes, {{0, {}}});
    EXPECT_THROW(bvh.set_transform(1, Affine<T>{}), std::invalid_argument);
    EXPECT_THROW(bvh.set_transform(0, singular), std::invalid_argument);
    EXPECT_EQ(bvh.instances()[0].transform.linear, Mat3<T>(T(1)));  // unchanged by the failed move
    EXPECT_THROW((InstanceBvh<T>(Meshes<T>{nullptr}, {})), std::invalid_argument);
    // No instances: valid, never hit.
    EXPECT_FALSE(InstanceBvh<T>(meshes, {}).pick(Ray<T>{}));
}

TYPED_TEST(MeshInstancesTest, MixedPickTakesTheNearerOfShapesAndInstances) {
    using T = TypeParam;
    const std::uint32_t seed = test::seed_from_env(20261205u);
    SCOPED_TRACE("seed " + std::to_string(seed));
    test::Random r(seed);
    const InstanceBvh<T> instances(some_meshes<T>(seed), random_instances<T>(r, 20, 3));
    std::vector<Shape<T>> shapes;
    for (int i = 0; i < 40; ++i) shapes.push_back(Sphere<T>{Vec3<T>(r.cube() * 5.0), T(0.3 + 0.2 * r.sym())});
    const Bvh<T> bvh(shapes);
    int from_shapes = 0, from_instances = 0;
    for (int i = 0; i < 800; ++i) {
        const Ray<T> ray = random_ray<T>(r);
        const auto s = pick_nearest(shapes, ray);
        const auto m = pick_nearest_instance(instances, ray);
        const auto got = pick_mixed(bvh, instances, ray);
        ASSERT_EQ(got.has_value(), s || m) << "ray " << i;
        if (!got) continue;
        if (m && (!s || m->hit.t < s->surface.t)) {
            ASSERT_TRUE(got->instance) << "ray " << i;
            expect_same(got->instance, m, i);
            ++from_instances;
        } else {
            ASSERT_TRUE(got->shape) << "ray " << i;
            EXPECT_EQ(got->shape->shape, s->shape) << "ray " << i;
            EXPECT_EQ(got->t(), s->surface.t) << "ray " << i;
            ++from_shapes;
        }
    }
    EXPECT_GT(from_shapes, 20);
    EXPECT_GT(from_instances, 20);
}

TEST(MixedPickRule, TheSmallerTWinsAndTheShapeAtEqualT) {
    const double one = 1.0, two = 2.0, also_one = 1.0;
    EXPECT_EQ(nearer_side<double>(nullptr, nullptr), MixedSide::none);
    EXPECT_EQ(nearer_side<double>(&one, nullptr), MixedSide::shape);
    EXPECT_EQ(nearer_side<double>(nullptr, &one), MixedSide::instance);
    EXPECT_EQ(nearer_side(&one, &two), MixedSide::shape);
    EXPECT_EQ(nearer_side(&two, &one), MixedSide::instance);
    EXPECT_EQ(nearer_side(&one, &also_one), MixedSide::shape);
    const float zero = 0.0f, negative_zero = -0.0f;  // equal t, however signed
    EXPECT_EQ(nearer_side(&zero, &negative_zero), MixedSide::shape);
    static_assert(nearer_side<float>(nullptr, nullptr) == MixedSide::none);
}

/// An instance's box is bounded by the mapped corners of its mesh's cover (boxes of the tree's top
/// levels), not of the mesh's box: a unit sphere turned 45 degrees about z spans about 1 in x, where
/// the turned box's corners would span sqrt(2).
TEST(InstanceBounds, ARotatedSphereKeepsATightBox) {
    const auto mesh = std::make_shared<const MeshBvh<float>>(meshgen::uv_sphere<float>(32, 64, 1.f));
    const float c = std::sqrt(0.5f);
    Affine<float> turn;
    turn.linear[0] = Vec3<float>(c, c, 0.f);
    turn.linear[1] = Vec3<float>(-c, c, 0.f);
    const InstanceBvh<float> bvh({mesh}, {{0, turn}});
    const Aabb<float> b = bvh.bounds(0);
    EXPECT_LT(b.max.x, 1.2f);
    EXPECT_GT(b.max.x, 1.f);
    EXPECT_GT(-b.min.x, 1.f);
    EXPECT_LT(-b.min.x, 1.2f);
}

}  // namespace
}  // namespace raypick
