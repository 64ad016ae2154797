// Triangle meshes: nearest-hit picks per second of raypick's MeshBvh and Embree 3 (rtcIntersect1,
// one thread) on the same rays, for a sphere and a terrain of 10^6 triangles and for a city of 10^3
// instances of a 10^3-triangle mesh (InstanceBvh; Embree's instances); hierarchy build time and
// bytes per triangle of the 10^6-triangle sphere; a 1280 x 720 image of primary rays of it on two
// threads: the CPU ray-cast view itself (raycast::render, the mesh as one instance, 8 x 8 tiles as
// bundles), MeshBvh::pick_bundle over the same tiles, and one pick per pixel (raypick, Embree).
//
//   cmake --build build --target raypick_bench_mesh && build/bench/raypick_bench_mesh
#include <benchmark/benchmark.h>

#include <atomic>
#include <map>
#include <memory>
#include <random>
#include <thread>

#include <raypick/geometry/MeshInstances.h>
#include <raypick/geometry/MeshGenerators.h>

#include "MeshScenes.h"
#include "raycast/CpuRaycast.h"
#ifdef RAYPICK_HAVE_EMBREE
#include "EmbreeMesh.h"
#endif

namespace {
using namespace raypick;
using namespace raypick::bench::scenes;

const MeshBvh<float>& bvh(Kind k) {
    static std::map<Kind, std::unique_ptr<MeshBvh<float>>> cache;
    auto& b = cache[k];
    if (!b) b = std::make_unique<MeshBvh<float>>(mesh(k));
    return *b;
}

void BM_MeshPickRaypick(benchmark::State& state) {
    const Kind k = Kind(state.range(0));
    const auto& b = bvh(k);
    std::size_t i = 0, hits = 0;
    for (auto _ : state) hits += b.pick(rays()[i++ % rays().size()]).has_value();
    state.SetItemsProcessed(int64_t(state.iterations()));
    state.counters["hit_rate"] = double(hits) / double(std::max<std::size_t>(1, i));
    state.SetLabel(name(k));
}

void BM_MeshBuildRaypick(benchmark::State& state) {
    const auto& m = mesh(Kind::Sphere);
    { MeshBvh<float> warm(m); }  // untimed: the first touch of the memory (see bench_pick.cpp)
    std::size_t bytes = 0;
    for (auto _ : state) {
        state.PauseTiming();
        TriangleMesh<float> copy = m;
        state.ResumeTiming();
        MeshBvh<float> b(std::move(copy));
        bytes = b.hierarchy_bytes();
        benchmark::DoNotOptimize(b.node_count());
    }
    state.counters["bytes_per_triangle"] = double(bytes) / double(m.indices.size());
    state.counters["with_mesh_bytes_per_triangle"] =
        double(bytes + m.positions.size() * 12 + m.indices.size() * 12) / double(m.indices.size());
}

/// A pinhole camera looking at the origin from (0, -3.2, 1.2), w x h pixels.
struct Camera {
    int w, h;
    Vec3<float> eye{0.f, -3.2f, 1.2f}, fwd = glm::normalize(-eye),
                right = glm::normalize(glm::cross(fwd, Vec3<float>(0, 0, 1))), up = glm::cross(right, fwd);
    float tan_half = 0.45f, aspect = float(w) / float(h);

    /// The primary ray through pixel (x, y)'s centre.
    Ray<float> operator()(int x, int y) const {
        const float sx = ((x + 0.5f) / float(w) * 2.f - 1.f) * tan_half * aspect;
        const float sy = (1.f - (y + 0.5f) / float(h) * 2.f) * tan_half;
        return {eye, fwd + sx * right + sy * up};
    }
};

/// The camera's w x h primary rays, row by row.
std::vector<Ray<float>> camera_rays(int w, int h) {
    const Camera camera{w, h};
    std::vector<Ray<float>> out;
    out.reserve(std::size_t(w) * std::size_t(h));
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) out.push_back(camera(x, y));
    return out;
}

/// The whole image, rows interleaved over `threads` threads.
template <typename Pick> void render(const std::vector<Ray<float>>& r, int w, int threads, const Pick& pick,
                                     std::vector<float>& depth) {
    std::vector<std::thread> pool;
    const int h = int(r.size()) / w;
    for (int t = 0; t < threads; ++t)
        pool.emplace_back([&, t] {
            for (int y = t; y < h; y += threads)
                for (int x = 0; x < w; ++x) depth[std::size_t(y * w + x)] = pick(r[std::size_t(y * w + x)]);
        });
    for (auto& th : pool) th.join();
}

/// One pick per pixel.
void BM_MeshImageRaypickPerPixel(benchmark::State& state) {
    const Kind k = Kind(state.range(0));
    const auto& b = bvh(k);
    const auto r = camera_rays(1280, 720);
    std::vector<float> depth(r.size());
    for (auto _ : state)
        render(r, 1280, 2, [&](const Ray<float>& ray) {
            const auto h = b.pick(ray);
            return h ? h->t : -1.f;
        }, depth);
    state.SetItemsProcessed(int64_t(state.iterations()) * int64_t(r.size()));
    state.SetLabel(name(k));
}

/// MeshBvh::pick_bundle over tiles of 8 x 8 pixels, bands of a tile's height handed to two
/// threads from a shared counter, as the ray-cast view casts them.
void BM_MeshImageRaypickTiles(benchmark::State& state) {
    const Kind k = Kind(state.range(0));
    const auto& b = bvh(k);
    constexpr int kW = 1280, kH = 720, kTile = 8;
    const auto r = camera_rays(kW, kH);
    std::vector<float> depth(r.size());
    for (auto _ : state) {
        std::atomic<int> next_row{0};
        const auto work = [&] {
            Ray<float> rays[kTile * kTile];
            std::optional<MeshHit<float>> hits[kTile * kTile];
            for (int y0 = next_row.fetch_add(kTile); y0 < kH; y0 = next_row.fetch_add(kTile))
                for (int x0 = 0; x0 < kW; x0 += kTile) {
                    std::size_t n = 0;
                    for (int y = y0; y < std::min(kH, y0 + kTile); ++y)
                        for (int x = x0; x < x0 + kTile; ++x) rays[n++] = r[std::size_t(y * kW + x)];
                    b.pick_bundle(rays, n, hits);
                    n = 0;
                    for (int y = y0; y < std::min(kH, y0 + kTile); ++y)
                        for (int x = x0; x < x0 + kTile; ++x, ++n) depth[std::size_t(y * kW + x)] = hits[n] ? hits[n]->t : -1.f;
                }
        };
        std::thread other(work);
        work();
        other.join();
    }
    state.SetItemsProcessed(int64_t(state.iterations()) * int64_t(r.size()));
    state.SetLabel(name(k));
}

/// The CPU ray-cast view's own work: raycast::render on two threads, no shapes, the mesh as one
/// instance (identity transform), each pixel's ray from the camera (the same rays as the others).
void BM_MeshImageRaypick(benchmark::State& state) {
    const Kind k = Kind(state.range(0));
    constexpr int kW = 1280, kH = 720;
    const Bvh<float> shapes(std::vector<Shape<float>>{});
    // The mesh shared, not copied: the MeshBvh lives as long as the benchmark's cache.
    const std::shared_ptr<const MeshBvh<float>> m(&bvh(k), [](const MeshBvh<float>*) {});
    const InstanceBvh<float> instances({m}, {Instance<float>{}});
    const std::vector<std::uint32_t> ids{1};
    raycast::Image image;
    const raycast::PixelRay pixel = Camera{kW, kH};
    for (auto _ : state) raycast::render(shapes, raycast::MeshObjects{&instances, &ids}, kW, kH, pixel, image, 2);
    state.SetItemsProcessed(int64_t(state.iterations()) * kW * kH);
    state.SetLabel(name(k));
}

const InstanceBvh<float>& city_bvh() {
    static const InstanceBvh<float> b = [] {
        std::vector<Instance<float>> inst;
        for (const auto& p : city()) inst.push_back({0, {p.linear, p.translation}});
        return InstanceBvh<float>({std::make_shared<const MeshBvh<float>>(building())}, inst);
    }();
    return b;
}

void BM_CityPickRaypick(benchmark::State& state) {
    const auto& b = city_bvh();
    std::size_t i = 0, hits = 0;
    for (auto _ : state) hits += b.pick(city_rays()[i++ % city_rays().size()]).has_value();
    state.SetItemsProcessed(int64_t(state.iterations()));
    state.counters["hit_rate"] = double(hits) / double(std::max<std::size_t>(1, i));
}

#ifdef RAYPICK_HAVE_EMBREE
void BM_CityPickEmbree(benchmark::State& state) {
    static const auto e = [] {
        auto m = std::make_unique<bench::EmbreeMesh>(building(), city());
        m->commit();
        return m;
    }();
    std::size_t i = 0, hits = 0;
    float t;
    unsigned prim;
    for (auto _ : state) hits += e->pick(city_rays()[i++ % city_rays().size()], t, prim);
    state.SetItemsProcessed(int64_t(state.iterations()));
    state.counters["hit_rate"] = double(hits) / double(std::max<std::size_t>(1, i));
}
BENCHMARK(BM_CityPickEmbree);

const bench::EmbreeMesh& embree(Kind k) {
    static std::map<Kind, std::unique_ptr<bench::EmbreeMesh>> cache;
    auto& e = cache[k];
    if (!e) {
        e = std::make_unique<bench::EmbreeMesh>(mesh(k));
        e->commit();
    }
    return *e;
}

void BM_MeshPickEmbree(benchmark::State& state) {
    const Kind k = Kind(state.range(0));
    const auto& e = embree(k);
    std::size_t i = 0, hits = 0;
    float t;
    unsigned prim;
    for (auto _ : state) hits += e.pick(rays()[i++ % rays().size()], t, prim);
    state.SetItemsProcessed(int64_t(state.iterations()));
    state.counters["hit_rate"] = double(hits) / double(std::max<std::size_t>(1, i));
    state.SetLabel(name(k));
}

void BM_MeshBuildEmbree(benchmark::State& state) {
    const auto& m = mesh(Kind::Sphere);
    {
        bench::EmbreeMesh warm(m);
        warm.commit();
    }
    long long bytes = 0;
    for (auto _ : state) {
        state.PauseTiming();
        auto e = std::make_unique<bench::EmbreeMesh>(m);
        const long long buffers = e->bytes();
        state.ResumeTiming();
        e->commit();
        state.PauseTiming();
        bytes = e->bytes() - buffers;
        e.reset();
        state.ResumeTiming();
    }
    state.counters["bytes_per_triangle"] = double(bytes) / double(m.indices.size());
}

void BM_MeshImageEmbree(benchmark::State& state) {
    const Kind k = Kind(state.range(0));
    const auto& e = embree(k);
    const auto r = camera_rays(1280, 720);
    std::vector<float> depth(r.size());
    for (auto _ : state)
        render(r, 1280, 2, [&](const Ray<float>& ray) {
            float t;
            unsigned prim;
            return e.pick(ray, t, prim) ? t : -1.f;
        }, depth);
    state.SetItemsProcessed(int64_t(state.iterations()) * int64_t(r.size()));
    state.SetLabel(name(k));
}

BENCHMARK(BM_MeshPickEmbree)->Arg(int(Kind::Sphere))->Arg(int(Kind::Terrain));
BENCHMARK(BM_MeshBuildEmbree)->Unit(benchmark::kMillisecond)->Iterations(3);
BENCHMARK(BM_MeshImageEmbree)->Arg(int(Kind::Sphere))->Arg(int(Kind::Terrain))->Unit(benchmark::kMillisecond)->UseRealTime();
#endif

BENCHMARK(BM_CityPickRaypick);
BENCHMARK(BM_MeshPickRaypick)->Arg(int(Kind::Sphere))->Arg(int(Kind::Terrain));
BENCHMARK(BM_MeshBuildRaypick)->Unit(benchmark::kMillisecond)->Iterations(3);
BENCHMARK(BM_MeshImageRaypick)->Arg(int(Kind::Sphere))->Arg(int(Kind::Terrain))->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_MeshImageRaypickTiles)->Arg(int(Kind::Sphere))->Arg(int(Kind::Terrain))->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_MeshImageRaypickPerPixel)->Arg(int(Kind::Sphere))->Arg(int(Kind::Terrain))->Unit(benchmark::kMillisecond)->UseRealTime();
}  // namespace

BENCHMARK_MAIN();
