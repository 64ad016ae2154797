// Picks keep their traversal stacks on the calling thread's stack, sized for the deepest tree the
// builder can make (README, "Stack"). Every kind of pick, run on a thread whose stack is 256 KB
// (half the smallest default of common platforms), must finish and hit: an overflow crashes the
// test. Sanitizer builds inflate frames, so they get more room.
#include <gtest/gtest.h>

#include <memory>
#include <optional>
#include <vector>

#include <raypick/geometry/Bvh.h>
#include <raypick/geometry/MeshGenerators.h>
#include <raypick/geometry/MeshInstances.h>

#if defined(__linux__)
#include <pthread.h>

namespace raypick {
namespace {

#if defined(__SANITIZE_ADDRESS__)
#define RAYPICK_TEST_BIG_FRAMES 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define RAYPICK_TEST_BIG_FRAMES 1
#endif
#endif
#if defined(RAYPICK_TEST_BIG_FRAMES)
constexpr std::size_t kStackBytes = 4u << 20;
#else
constexpr std::size_t kStackBytes = 256u << 10;
#endif

/// Runs fn on a new thread with a kStackBytes stack and waits for it.
template <typename Fn> void on_small_stack(Fn fn) {
    pthread_attr_t attr;
    ASSERT_EQ(pthread_attr_init(&attr), 0);
    ASSERT_EQ(pthread_attr_setstacksize(&attr, kStackBytes), 0);
    pthread_t thread;
    const auto run = [](void* p) -> void* {
        (*static_cast<Fn*>(p))();
        return nullptr;
    };
    ASSERT_EQ(pthread_create(&thread, &attr, run, &fn), 0);
    ASSERT_EQ(pthread_join(thread, nullptr), 0);
    pthread_attr_destroy(&attr);
}

/// 64 rays down -z through the unit sphere's disc, spread over x and y.
template <typename T> std::vector<Ray<T>> rays_down(const Vec3<T>& at) {
    std::vector<Ray<T>> rays;
    for (int i = 0; i < 64; ++i)
        rays.push_back({at + Vec3<T>(T(i % 8 - 4) * T(0.1), T(i / 8 - 4) * T(0.1), T(5)), Vec3<T>(T(0), T(0), T(-1))});
    return rays;
}

template <typename T> class StackUse : public ::testing::Test {};
using Scalars = ::testing::Types<float, double>;
TYPED_TEST_SUITE(StackUse, Scalars);

TYPED_TEST(StackUse, EveryPickFitsAQuarterMegabyteThreadStack) {
    using T = TypeParam;
    const auto mesh = std::make_shared<const MeshBvh<T>>(meshgen::sphere<T>(20000));
    std::vector<Instance<T>> placements;
    for (int k = 0; k < 16; ++k) placements.push_back({0, {Mat3<T>(T(1)), Vec3<T>(T(3 * k), T(0), T(0))}});
    const InstanceBvh<T> instances({mesh}, placements);
    std::vector<Shape<T>> shapes;
    for (int k = 0; k < 4096; ++k)
        shapes.push_back(Sphere<T>{Vec3<T>(T(k % 64) * T(0.05) - T(1.6), T(k / 64) * T(0.05) - T(1.6), T(0)), T(0.04)});
    const Bvh<T> bvh(shapes);
    const std::vector<Ray<T>> rays = rays_down(Vec3<T>(T(0)));
    const std::vector<Ray<T>> city_rays = rays_down(Vec3<T>(T(6), T(0), T(0)));

    int hits = 0;
    on_small_stack([&] {
        std::vector<std::optional<MeshHit<T>>> mesh_out(rays.size());
        std::vector<std::optional<InstanceHit<T>>> instance_out(rays.size());
        std::vector<std::optional<NearestHit<T>>> shape_out(rays.size());
        mesh->pick_bundle(rays.data(), rays.size(), mesh_out.data());
        instances.pick_bundle(city_rays.data(), city_rays.size(), instance_out.data());
        bvh.pick_bundle(rays.data(), rays.size(), shape_out.data());
        for (std::size_t i = 0; i < rays.size(); ++i) {
            hits += mesh->pick(rays[i]).has_value() && mesh_out[i].has_value();
            hits += !mesh->hits(rays[i]).empty();
            hits += instances.pick(city_rays[i]).has_value() && instance_out[i].has_value();
            hits += bvh.pick(rays[i]).has_value() && shape_out[i].has_value();
        }
    });
    // Every ray crosses the unit sphere (|x|, |y| <= 0.4), instance 2 and some small sphere.
    EXPECT_EQ(hits, 4 * int(rays.size()));
}

}  // namespace
}  // namespace raypick
#endif
