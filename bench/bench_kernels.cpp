// Throughput of each ray/shape kernel: the robust default against the textbook variant it
// replaces and against the batch (SIMD) cast, on the same random rays and shapes. Reports
// items/s = ray/shape tests per second. The kernels' loops are in kernels_<shape>.cpp and
// kernels_textbook.cpp, one translation unit each (see KernelBench.h for why); this file builds
// the data and registers the benchmarks.
//
//   bash scripts/build.sh && build/bench/raypick_bench_kernels --benchmark_min_time=0.5
#include <random>

#include <glm/gtc/matrix_transform.hpp>

#include "KernelBench.h"

namespace raypick::bench {

Data::Data() {
    std::mt19937 rng(12345);
    std::uniform_real_distribution<float> pos(-10.f, 10.f), size(0.2f, 2.f), ang(0.f, 6.2831853f);
    auto v3 = [&] { return Vec3<float>(pos(rng), pos(rng), pos(rng)); };
    for (int i = 0; i < kCount; ++i) {
        // Rays from a shell towards the middle region: spheres 10 % hit, boxes 15-16 %, capsules
        // 9 % (80 % are clear misses, detail::capsule_clear_miss).
        const Vec3<float> o = glm::normalize(v3()) * 30.f;
        rays.push_back({o, Vec3<float>(pos(rng), pos(rng), pos(rng)) * 0.3f - o});
        const Vec3<float> c = v3() * 0.3f;
        spheres.push_back({c, size(rng)});
        const Vec3<float> h(size(rng), size(rng), size(rng));
        boxes.push_back({c - h, c + h});
        const glm::mat4 r4 = glm::rotate(glm::mat4(1.f), ang(rng), glm::normalize(v3()));
        obbs.push_back({c, Mat3<float>(r4), h});
        capsules.push_back({c - h, c + Vec3<float>(h.z, h.x, h.y), size(rng) * 0.5f});
    }
}

const Data& data() {
    static const Data d;
    return d;
}

}  // namespace raypick::bench

namespace {
using namespace raypick::bench;
BENCHMARK(Sphere_Default);
BENCHMARK(Sphere_Pick);
BENCHMARK(Sphere_TextbookAlgebraic);
BENCHMARK(Sphere_TextbookGeometric);
BENCHMARK(Aabb_Default);
BENCHMARK(Aabb_Pick);
BENCHMARK(Aabb_TextbookEpsilon);
BENCHMARK(Obb_Default);
BENCHMARK(Obb_Pick);
BENCHMARK(Obb_TextbookAxisLoop);
BENCHMARK(Capsule_Default);
BENCHMARK(Capsule_Pick);
BENCHMARK(Capsule_TextbookPublished);
BENCHMARK(Sphere_Batch);
BENCHMARK(Sphere_BatchSse2);
BENCHMARK(Sphere_BatchAvx2);
BENCHMARK(Aabb_Batch);
BENCHMARK(Aabb_BatchSse2);
BENCHMARK(Aabb_BatchAvx2);
BENCHMARK(Obb_Batch);
BENCHMARK(Obb_BatchSse2);
BENCHMARK(Obb_BatchAvx2);
BENCHMARK(Capsule_Batch);
BENCHMARK(Capsule_BatchSse2);
BENCHMARK(Capsule_BatchAvx2);
}  // namespace

BENCHMARK_MAIN();
