// Nearest-hit picks per second: brute force against raypick's BVH (and Embree 3 when built with
// it), for N = 1, 100, 10^4, 10^6 shapes, mixed and per type; hierarchy build time for 10^6.
//
//   bash scripts/build.sh && build/bench/raypick_bench_pick
#include <benchmark/benchmark.h>

#include <map>

#include "BenchScenes.h"
#include "geometry/Bvh.h"

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

void BM_BuildBvh(benchmark::State& state) {
    const Mix mix = Mix(state.range(0));
    const int n = int(state.range(1));
    const auto& s = shapes(mix, n);
    for (auto _ : state) {
        Bvh<float> b(s);
        benchmark::DoNotOptimize(b.node_count());
    }
    state.SetItemsProcessed(int64_t(state.iterations()) * n);
    state.SetLabel(bench::mix_name(mix));
}

void pick_args(benchmark::internal::Benchmark* b, bool brute) {
    for (int mix = 0; mix < 5; ++mix)
        for (int n : {1, 100, 10000, 1000000}) {
            if (brute && n > 10000) continue;  // 10^6 casts per pick: minutes, and says nothing new
            b->Args({mix, n});
        }
}
BENCHMARK(BM_PickBrute)->Apply([](auto* b) { pick_args(b, true); });
BENCHMARK(BM_PickBvh)->Apply([](auto* b) { pick_args(b, false); });
BENCHMARK(BM_BuildBvh)->Args({int(Mix::Mixed), 1000000})->Args({int(Mix::Spheres), 1000000})->Unit(benchmark::kMillisecond)->Iterations(3);
}  // namespace

BENCHMARK_MAIN();
