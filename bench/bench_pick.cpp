// Nearest-hit picks per second: brute force against raypick's BVH and Embree 3 (rtcIntersect1,
// single thread; only when libembree-dev is installed), for N = 1, 100, 10^4, 10^6 shapes, mixed
// and per type, on the same rays and shapes; hierarchy build time for 10^6.
//
//   bash scripts/build.sh && build/bench/raypick_bench_pick
#include <benchmark/benchmark.h>

#include <map>

#include "BenchScenes.h"
#include <raypick/geometry/Bvh.h>
#ifdef RAYPICK_HAVE_EMBREE
#include <memory>

#include "EmbreeScene.h"
#endif

namespace {
using namespace raypick;
using bench::Mix;

const std::vector<Ray<float>>& rays() {
    static const auto r = bench::make_rays(1 << 14);
    return r;
}

const std::vector<Shape<float>>& shapes(Mix mix, int n) {
    static std::map<std::pair<int, int>, std::vector<Shape<float>>> cache;
    auto& s = cache[{int(mix), n}];
    if (s.empty()) s = bench::make_shapes(mix, n);
    return s;
}
const Bvh<float>& bvh(Mix mix, int n) {
    static std::map<std::pair<int, int>, Bvh<float>> cache;
    auto it = cache.find({int(mix), n});
    if (it == cache.end()) it = cache.emplace(std::make_pair(int(mix), n), Bvh<float>(shapes(mix, n))).first;
    return it->second;
}

void BM_PickBrute(benchmark::State& state) {
    const Mix mix = Mix(state.range(0));
    const int n = int(state.range(1));
    const auto& s = shapes(mix, n);
    size_t i = 0, hits = 0;
    for (auto _ : state) hits += pick_nearest(s, rays()[i++ % rays().size()]).has_value();
    state.SetItemsProcessed(int64_t(state.iterations()));
    state.counters["hit_rate"] = double(hits) / double(std::max<size_t>(1, i));
    state.SetLabel(bench::mix_name(mix));
}

void BM_PickBvh(benchmark::State& state) {
    const Mix mix = Mix(state.range(0));
    const int n = int(state.range(1));
    const auto& b = bvh(mix, n);
    size_t i = 0, hits = 0;
    for (auto _ : state) hits += b.pick(rays()[i++ % rays().size()]).has_value();
    state.SetItemsProcessed(int64_t(state.iterations()));
    state.counters["hit_rate"] = double(hits) / double(std::max<size_t>(1, i));
    state.SetLabel(bench::mix_name(mix));
}

// Every hit along the ray (the demo's Ray panel): Bvh::for_each_hit against casting every shape.
void BM_EveryHitBvh(benchmark::State& state) {
    const int n = int(state.range(0));
    const auto& b = bvh(Mix::Mixed, n);
    size_t i = 0, hits = 0;
    for (auto _ : state) b.for_each_hit(rays()[i++ % rays().size()], [&](std::uint32_t, const RayHit<float>&) { ++hits; });
    state.SetItemsProcessed(int64_t(state.iterations()));
    state.counters["hits_per_ray"] = double(hits) / double(std::max<size_t>(1, i));
}
void BM_EveryHitBrute(benchmark::State& state) {
    const auto& s = shapes(Mix::Mixed, int(state.range(0)));
    size_t i = 0, hits = 0;
    for (auto _ : state) {
        const Ray<float>& ray = rays()[i++ % rays().size()];
        for (const Shape<float>& shape : s) hits += cast(ray, shape).has_value();
    }
    state.SetItemsProcessed(int64_t(state.iterations()));
    state.counters["hits_per_ray"] = double(hits) / double(std::max<size_t>(1, i));
}

// Builds: each benchmark first builds once, untimed, raypick's and Embree's alike.
// The first build in a process touches a few hundred MB of memory the process has never used, and
// on this kind of virtual machine that first touch is what costs: the first of five builds of 10^6
// spheres took 680 ms, 316 of them system time (17 800 page faults); the next ones 373-396 ms,
// 20-32 ms system time. A benchmark that happened to run cold paid part of that in its mean of
// three (10^6 mixed, run right after Embree's build: 457-599 ms cold, 412-434 warm). Timed warm,
// both measure what rebuilding a hierarchy costs an application that has built one before.
void BM_BuildBvh(benchmark::State& state) {
    const Mix mix = Mix(state.range(0));
    const int n = int(state.range(1));
    const auto& s = shapes(mix, n);
    { Bvh<float> warm(s); }  // untimed (see above BM_BuildBvh)
    for (auto _ : state) {
        Bvh<float> b(s);
        benchmark::DoNotOptimize(b.node_count());
    }
    state.SetItemsProcessed(int64_t(state.iterations()) * n);
    state.SetLabel(bench::mix_name(mix));
}

#ifdef RAYPICK_HAVE_EMBREE
const bench::EmbreeScene& embree(Mix mix, int n) {
    static std::map<std::pair<int, int>, std::unique_ptr<bench::EmbreeScene>> cache;
    auto& e = cache[{int(mix), n}];
    if (!e) e = std::make_unique<bench::EmbreeScene>(shapes(mix, n));
    return *e;
}
void BM_PickEmbree(benchmark::State& state) {
    const Mix mix = Mix(state.range(0));
    const int n = int(state.range(1));
    const auto& e = embree(mix, n);
    size_t i = 0, hits = 0;
    float t;
    for (auto _ : state) hits += e.pick(rays()[i++ % rays().size()], t);
    state.SetItemsProcessed(int64_t(state.iterations()));
    state.counters["hit_rate"] = double(hits) / double(std::max<size_t>(1, i));
    state.SetLabel(bench::mix_name(mix));
}
void BM_BuildEmbree(benchmark::State& state) {
    const auto& s = shapes(Mix(state.range(0)), int(state.range(1)));
    { bench::EmbreeScene warm(s); }  // untimed (see above BM_BuildBvh)
    for (auto _ : state) bench::EmbreeScene e(s);
    state.SetItemsProcessed(int64_t(state.iterations()) * state.range(1));
    state.SetLabel(bench::mix_name(Mix(state.range(0))));
}
#endif

void pick_args(benchmark::internal::Benchmark* b, bool brute) {
    for (int mix = 0; mix < 5; ++mix)
        for (int n : {1, 100, 10000, 1000000}) {
            if (brute && n > 10000) continue;  // 10^6 casts per pick: minutes, and says nothing new
            b->Args({mix, n});
        }
}
BENCHMARK(BM_PickBrute)->Apply([](auto* b) { pick_args(b, true); });
BENCHMARK(BM_PickBvh)->Apply([](auto* b) { pick_args(b, false); });
BENCHMARK(BM_EveryHitBvh)->Arg(10000)->Arg(100000)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_EveryHitBrute)->Arg(10000)->Arg(100000)->Unit(benchmark::kMicrosecond);
#ifdef RAYPICK_HAVE_EMBREE
BENCHMARK(BM_PickEmbree)->Apply([](auto* b) { pick_args(b, false); });
BENCHMARK(BM_BuildEmbree)->Args({int(Mix::Spheres), 1000000})->Unit(benchmark::kMillisecond)->Iterations(3);
#endif
BENCHMARK(BM_BuildBvh)->Args({int(Mix::Mixed), 1000000})->Args({int(Mix::Spheres), 1000000})->Unit(benchmark::kMillisecond)->Iterations(3);
}  // namespace

BENCHMARK_MAIN();
