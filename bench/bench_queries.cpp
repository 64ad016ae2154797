// The scene queries against Embree 3 on one thread: occlusion (MeshBvh::occluded,
// InstanceBvh::occluded and SceneBvh::occluded against rtcOccluded1, Embree in its robust mode and
// its default one) on the 10^6-triangle sphere and the city, for segments from each ray's origin to
// 0.8 of the way to its target point (t in [0, 0.8]: some end before the surface); and the inside test for points in and around the sphere
// (SceneBvh::contains against the method Open3D's compute_occupancy uses: Embree in robust mode,
// every hit along one fixed direction counted by a context filter, parity). The Embree method's
// wrong answers on points whose rays pass exactly through edges and vertices of a grid cube are
// counted beside raypick's (the counters hard_points and hard_wrong). Closest points for points
// near the sphere and in the city (MeshBvh, InstanceBvh and SceneBvh::closest_point against
// rtcPointQuery with the usual closest-point-on-triangle callback, on the sphere: Embree's point
// queries through instances hold only for similarity transforms, and the city's are not).
//
//   cmake --build build-bench --target raypick_bench_queries && build-bench/bench/raypick_bench_queries
#include <benchmark/benchmark.h>

#include <memory>
#include <random>
#include <vector>

#include <raypick/geometry/SceneBvh.h>

#include "MeshScenes.h"
#ifdef RAYPICK_HAVE_EMBREE
#include "EmbreeMesh.h"
#endif

namespace {
using namespace raypick;
using namespace raypick::bench::scenes;

const MeshBvh<float>& sphere_bvh() {
    static const MeshBvh<float> b(mesh(Kind::Sphere));
    return b;
}
const InstanceBvh<float>& city_instances() {
    static const InstanceBvh<float> b = [] {
        std::vector<Instance<float>> inst;
        for (const auto& p : city()) inst.push_back({0, {p.linear, p.translation}});
        return InstanceBvh<float>({std::make_shared<const MeshBvh<float>>(building())}, inst);
    }();
    return b;
}
/// The scene objects: the sphere as one instance; the city's buildings as instances.
const SceneBvh<float>& scene(bool city_scene) {
    static const auto make = [](bool c) {
        auto s = std::make_unique<SceneBvh<float>>();
        if (c) {
            const auto m = s->add_mesh(building());
            for (const auto& p : city()) s->add_instance(m, {p.linear, p.translation});
        } else {
            s->add_instance(s->add_mesh(mesh(Kind::Sphere)), Affine<float>{});
        }
        s->commit();
        return s;
    };
    static const auto sphere = make(false), town = make(true);
    return city_scene ? *town : *sphere;
}

/// Points uniformly in the cube [-1.2, 1.2]^3 around the unit sphere (about half inside).
const std::vector<Vec3<float>>& points() {
    static const std::vector<Vec3<float>> p = [] {
        std::mt19937 rng(4242);
        std::uniform_real_distribution<float> u(-1.2f, 1.2f);
        std::vector<Vec3<float>> out;
        for (int i = 0; i < (1 << 16); ++i) out.push_back({u(rng), u(rng), u(rng)});
        return out;
    }();
    return p;
}

enum Where { SphereMesh = 0, City = 1 };
constexpr float kEnd = 0.8f;  // the segments' far end, in units of the rays' directions
const std::vector<Ray<float>>& segments(int where) { return where == City ? city_rays() : rays(); }

void BM_OccludedRaypick(benchmark::State& state) {
    const int where = int(state.range(0));
    const auto& r = segments(where);
    (void)sphere_bvh(), (void)city_instances();  // built before the timing
    std::size_t i = 0, hits = 0;
    for (auto _ : state) {
        const Ray<float>& ray = r[i++ % r.size()];
        hits += where == City ? city_instances().occluded(ray, 0.f, kEnd) : sphere_bvh().occluded(ray, 0.f, kEnd);
    }
    state.SetItemsProcessed(int64_t(state.iterations()));
    state.counters["occluded_rate"] = double(hits) / double(std::max<std::size_t>(1, i));
    state.SetLabel(where == City ? "city" : "sphere");
}
BENCHMARK(BM_OccludedRaypick)->Arg(SphereMesh)->Arg(City);

void BM_OccludedScene(benchmark::State& state) {
    const int where = int(state.range(0));
    const auto& r = segments(where);
    const SceneBvh<float>& s = scene(where == City);
    std::size_t i = 0, hits = 0;
    for (auto _ : state) hits += s.occluded(r[i++ % r.size()], 0.f, kEnd);
    state.SetItemsProcessed(int64_t(state.iterations()));
    state.counters["occluded_rate"] = double(hits) / double(std::max<std::size_t>(1, i));
    state.SetLabel(where == City ? "city" : "sphere");
}
BENCHMARK(BM_OccludedScene)->Arg(SphereMesh)->Arg(City);

/// The exact inside test, every point.
void BM_ContainsRaypick(benchmark::State& state) {
    const SceneBvh<float>& s = scene(false);
    const auto& p = points();
    std::size_t i = 0, inside = 0;
    for (auto _ : state) inside += !s.contains(p[i++ % p.size()]).empty();
    state.SetItemsProcessed(int64_t(state.iterations()));
    state.counters["inside_rate"] = double(inside) / double(std::max<std::size_t>(1, i));
}
BENCHMARK(BM_ContainsRaypick);

/// Points on the grid of eighths around the grid cube [-1, 1]^3 (faces 4 x 4): the rays along the
/// axes and diagonals from them pass exactly through the cube's edges and vertices. With the exact
/// answer (box containment), off the surface.
struct HardPoint {
    Vec3<float> p;
    bool inside;
};
const std::vector<HardPoint>& hard_points() {
    static const std::vector<HardPoint> h = [] {
        std::vector<HardPoint> out;
        for (int i = -12; i <= 12; ++i)
            for (int j = -12; j <= 12; ++j)
                for (int k = -12; k <= 12; ++k) {
                    const Vec3<float> p(float(i) / 8.f, float(j) / 8.f, float(k) / 8.f);
                    const Containment c = containment(p, Aabb<float>{Vec3<float>(-1.f), Vec3<float>(1.f)});
                    if (c != Containment::OnSurface) out.push_back({p, c == Containment::Inside});
                }
        return out;
    }();
    return h;
}

void BM_ContainsRaypickHardPoints(benchmark::State& state) {
    SceneBvh<float> s;
    s.add_instance(s.add_mesh(meshgen::cube_grid<float>(4, 1.f)), Affine<float>{});
    s.commit();
    std::size_t wrong = 0, i = 0;
    for (auto _ : state) {
        const HardPoint& h = hard_points()[i++ % hard_points().size()];
        wrong += s.contains(h.p).empty() == h.inside;
    }
    state.SetItemsProcessed(int64_t(state.iterations()));
    state.counters["hard_points"] = double(std::min(i, hard_points().size()));
    state.counters["hard_wrong"] = double(wrong);
}
BENCHMARK(BM_ContainsRaypickHardPoints);

/// Points near the sphere's surface: radius 0.9 to 1.1 in random directions.
const std::vector<Vec3<float>>& near_points() {
    static const std::vector<Vec3<float>> p = [] {
        std::mt19937 rng(4343);
        std::uniform_real_distribution<float> u(-1.f, 1.f), r(0.9f, 1.1f);
        std::vector<Vec3<float>> out;
        while (out.size() < (1u << 16)) {
            const Vec3<float> v(u(rng), u(rng), u(rng));
            const float l2 = glm::dot(v, v);
            if (l2 > 1e-2f && l2 <= 1.f) out.push_back(v * (r(rng) / std::sqrt(l2)));
        }
        return out;
    }();
    return p;
}
/// Points in the city: over its ground, up to 5 units high (among and above the buildings).
const std::vector<Vec3<float>>& city_points() {
    static const std::vector<Vec3<float>> p = [] {
        std::mt19937 rng(4444);
        std::uniform_real_distribution<float> u(-1.f, 97.f), h(0.f, 5.f);
        std::vector<Vec3<float>> out;
        for (int i = 0; i < (1 << 16); ++i) out.push_back({u(rng), u(rng), h(rng)});
        return out;
    }();
    return p;
}

void BM_ClosestRaypick(benchmark::State& state) {
    const int where = int(state.range(0));
    const auto& p = where == City ? city_points() : near_points();
    (void)sphere_bvh(), (void)city_instances();
    std::size_t i = 0;
    double sum = 0;
    for (auto _ : state) {
        const Vec3<float>& q = p[i++ % p.size()];
        if (where == City) sum += city_instances().closest_point(q)->closest.surface.distance;
        else sum += sphere_bvh().closest_point(q)->surface.distance;
    }
    state.SetItemsProcessed(int64_t(state.iterations()));
    state.counters["mean_distance"] = sum / double(std::max<std::size_t>(1, i));
    state.SetLabel(where == City ? "city" : "sphere");
}
BENCHMARK(BM_ClosestRaypick)->Arg(SphereMesh)->Arg(City);

void BM_SignedDistanceScene(benchmark::State& state) {
    const int where = int(state.range(0));
    const auto& p = where == City ? city_points() : near_points();
    const SceneBvh<float>& s = scene(where == City);
    std::size_t i = 0, inside = 0;
    for (auto _ : state) inside += *s.signed_distance(p[i++ % p.size()]) < 0.f;
    state.SetItemsProcessed(int64_t(state.iterations()));
    state.counters["inside_rate"] = double(inside) / double(std::max<std::size_t>(1, i));
    state.SetLabel(where == City ? "city" : "sphere");
}
BENCHMARK(BM_SignedDistanceScene)->Arg(SphereMesh)->Arg(City);

#ifdef RAYPICK_HAVE_EMBREE
const bench::EmbreeMesh& embree_scene(int where, bool robust) {
    static std::unique_ptr<bench::EmbreeMesh> cache[2][2];
    auto& e = cache[where][robust];
    if (!e) {
        const RTCSceneFlags flags = RTCSceneFlags((robust ? RTC_SCENE_FLAG_ROBUST : RTC_SCENE_FLAG_NONE) |
                                                  RTC_SCENE_FLAG_CONTEXT_FILTER_FUNCTION);
        e = where == City ? std::make_unique<bench::EmbreeMesh>(building(), city(), flags)
                          : std::make_unique<bench::EmbreeMesh>(mesh(Kind::Sphere), flags);
        e->commit();
    }
    return *e;
}

/// range(0): where; range(1): 1 robust, 0 Embree's default mode.
void BM_OccludedEmbree(benchmark::State& state) {
    const int where = int(state.range(0));
    const auto& r = segments(where);
    const auto& e = embree_scene(where, state.range(1) != 0);
    std::size_t i = 0, hits = 0;
    for (auto _ : state) hits += e.occluded(r[i++ % r.size()], kEnd);
    state.SetItemsProcessed(int64_t(state.iterations()));
    state.counters["occluded_rate"] = double(hits) / double(std::max<std::size_t>(1, i));
    state.SetLabel(std::string(where == City ? "city" : "sphere") + (state.range(1) ? ", robust" : ", default"));
}
BENCHMARK(BM_OccludedEmbree)->Args({SphereMesh, 1})->Args({SphereMesh, 0})->Args({City, 1})->Args({City, 0});

/// Open3D's inside test: every hit along (1, 1, 1) counted, odd is inside; robust mode.
bool embree_parity_inside(const bench::EmbreeMesh& e, const Vec3<float>& p) {
    return e.count_hits(Ray<float>{p, Vec3<float>(1.f, 1.f, 1.f)}) % 2 == 1;
}

void BM_ContainsEmbreeParity(benchmark::State& state) {
    const auto& e = embree_scene(SphereMesh, true);
    const auto& p = points();
    std::size_t i = 0, inside = 0;
    for (auto _ : state) inside += embree_parity_inside(e, p[i++ % p.size()]);
    state.SetItemsProcessed(int64_t(state.iterations()));
    state.counters["inside_rate"] = double(inside) / double(std::max<std::size_t>(1, i));
    // The same method's answers on the hard points, outside the timing.
    const bench::EmbreeMesh cube(meshgen::cube_grid<float>(4, 1.f),
                                 RTCSceneFlags(RTC_SCENE_FLAG_ROBUST | RTC_SCENE_FLAG_CONTEXT_FILTER_FUNCTION));
    const_cast<bench::EmbreeMesh&>(cube).commit();
    std::size_t wrong = 0;
    for (const HardPoint& h : hard_points()) wrong += embree_parity_inside(cube, h.p) != h.inside;
    state.counters["hard_points"] = double(hard_points().size());
    state.counters["hard_wrong"] = double(wrong);
}
BENCHMARK(BM_ContainsEmbreeParity);

void BM_ClosestEmbree(benchmark::State& state) {
    const auto& e = embree_scene(SphereMesh, false);
    const auto& p = near_points();
    std::size_t i = 0;
    double sum = 0;
    float d = 0.f;
    unsigned prim;
    for (auto _ : state) {
        e.closest(p[i++ % p.size()], d, prim);
        sum += d;
    }
    state.SetItemsProcessed(int64_t(state.iterations()));
    state.counters["mean_distance"] = sum / double(std::max<std::size_t>(1, i));
    state.SetLabel("sphere");
}
BENCHMARK(BM_ClosestEmbree);
#endif

}  // namespace

BENCHMARK_MAIN();
