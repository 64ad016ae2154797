// The ray-cast view's speed: milliseconds per 1280 x 720 picture and rays per second, on the
// showcase scene and on 10 000 random shapes, with 1 and 2 threads; and the 10 000-shape picture
// one ray at a time, for comparison with the ray bundles raycast::render uses.
//
//   bash scripts/build.sh && build/bench/raypick_bench_raycast
#include <benchmark/benchmark.h>

#include <glm/gtc/matrix_transform.hpp>

#include "BenchScenes.h"
#include "raycast/CpuRaycast.h"
#include <raypick/scene/SceneFile.h>

namespace {
using namespace raypick;

constexpr int kW = 1280, kH = 720;

raycast::PixelRay camera(const Vec3<float>& eye, const Vec3<float>& target, float fov_y_degrees) {
    const glm::mat4 view = glm::lookAt(eye, target, glm::vec3(0, 1, 0));
    const glm::mat4 proj = glm::perspective(glm::radians(fov_y_degrees), float(kW) / float(kH), 0.1f, 1000.f);
    const glm::mat4 inv = glm::inverse(proj * view);
    return [inv, eye](int x, int y) {
        const glm::vec4 ndc((float(x) + 0.5f) / kW * 2.f - 1.f, 1.f - (float(y) + 0.5f) / kH * 2.f, 1.f, 1.f);
        const glm::vec4 far = inv * ndc;
        return Ray<float>{eye, glm::vec3(far) / far.w - eye};
    };
}

void run(benchmark::State& state, const Bvh<float>& bvh, const raycast::PixelRay& rays) {
    const int threads = int(state.range(0));
    std::size_t hits = 0;
    raycast::Image img;  // reused from picture to picture, as the demo's view does
    for (auto _ : state) {
        raycast::render(bvh, kW, kH, rays, img, threads);
        hits = std::size_t(std::count_if(img.shape.begin(), img.shape.end(), [](auto s) { return s != raycast::kBackground; }));
    }
    state.SetItemsProcessed(int64_t(state.iterations()) * kW * kH);
    state.counters["covered"] = double(hits) / double(kW * kH);
}

void BM_RaycastShowcase(benchmark::State& state) {
    static const auto loaded = load_scene_file(RAYPICK_SOURCE_DIR "/assets/showcase.json");
    if (!std::holds_alternative<Scene>(loaded)) {
        state.SkipWithError("cannot load assets/showcase.json");
        return;
    }
    const Scene& scene = std::get<Scene>(loaded);
    std::vector<Shape<float>> shapes;
    for (const auto& s : scene.shapes) shapes.push_back(convert<float>(s.shape));
    static const Bvh<float> bvh(shapes);
    const SceneCamera cam = scene.camera.value_or(SceneCamera{});
    run(state, bvh, camera(Vec3<float>(cam.eye), Vec3<float>(cam.target), float(cam.fov_y_degrees)));
}

void BM_Raycast10k(benchmark::State& state) {
    static const Bvh<float> bvh(bench::make_shapes(bench::Mix::Mixed, 10000));
    run(state, bvh, camera({160, 120, 240}, {0, 0, 0}, 45.f));
}

// The same picture one ray at a time (Bvh::pick per pixel, the previous pixel's shape as the hint:
// the alternative to ray bundles), one thread: the bundles' gain in the same run.
void BM_Raycast10kSingleRays(benchmark::State& state) {
    static const Bvh<float> bvh(bench::make_shapes(bench::Mix::Mixed, 10000));
    const auto rays = camera({160, 120, 240}, {0, 0, 0}, 45.f);
    std::size_t hits = 0;
    for (auto _ : state) {
        hits = 0;
        for (int y = 0; y < kH; ++y) {
            std::uint32_t hint = raycast::kBackground;
            for (int x = 0; x < kW; ++x) {
                const auto p = bvh.pick(rays(x, y), 0.f, infinity<float>(), hint);
                if (!p) continue;
                hint = p->shape;
                ++hits;
            }
        }
        benchmark::DoNotOptimize(hits);
    }
    state.SetItemsProcessed(int64_t(state.iterations()) * kW * kH);
    state.counters["covered"] = double(hits) / double(kW * kH);
}

BENCHMARK(BM_RaycastShowcase)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_Raycast10k)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_Raycast10kSingleRays)->Unit(benchmark::kMillisecond)->UseRealTime();
}  // namespace

BENCHMARK_MAIN();
