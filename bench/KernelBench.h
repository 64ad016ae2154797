// The kernel benchmark's shared parts: the data (the same random rays and shapes for every
// kernel), the loops that time a kernel, and the benchmark functions, which are defined in one
// translation unit per shape (kernels_sphere.cpp ... kernels_capsule.cpp) and one for all the
// textbook variants (kernels_textbook.cpp), and registered in bench_kernels.cpp.
//
// Why separate translation units: GCC's inlining budget is per translation unit, so with every
// kernel in one file an edit to one shape's code changes how the others compile (the textbook
// capsule read 49.6 or 54.9 M tests/s depending on an unrelated edit to RayCapsule.h: its own
// code compiled 470 or 428 instructions long). Split, each kernel's code depends on its own
// headers only. Code placement still moves a kernel by up to ten per cent from one link to the
// next (the textbook AABB, its object file unchanged, read 113 to 124 M/s across three builds),
// so compare kernels over several builds, or by instruction counts.
#pragma once

#include <benchmark/benchmark.h>

#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

#include <raypick/geometry/Batch.h>
#include <raypick/geometry/Ray.h>
#include <raypick/geometry/RayHit.h>
#include <raypick/geometry/Aabb.h>
#include <raypick/geometry/Capsule.h>
#include <raypick/geometry/Obb.h>
#include <raypick/geometry/Sphere.h>
#include <raypick/geometry/textbook/TextbookCapsule.h>  // CapsuleHitPair, for fold()

namespace raypick::bench {

constexpr int kCount = 4096;  // rays and shapes per table (fits in L1/L2)

struct Data {
    std::vector<Ray<float>> rays;
    std::vector<Sphere<float>> spheres;
    std::vector<Aabb<float>> boxes;
    std::vector<Obb<float>> obbs;
    std::vector<Capsule<float>> capsules;
    Data();  // bench_kernels.cpp
};
/// The one table every kernel reads (built once, in bench_kernels.cpp).
const Data& data();

// Every output is consumed (folded into a checksum the compiler cannot drop), so a kernel whose
// result is only tested for a hit cannot have its hit point and normal computation optimised away.
inline float fold(const std::optional<RayHit<float>>& h) {
    return h ? h->t_near + h->t_far + h->n_near.x + h->n_near.y + h->n_near.z + h->n_far.x + h->n_far.y + h->n_far.z : 0.f;
}
inline float fold(const std::optional<SurfaceHit<float>>& h) {
    return h ? h->t + h->point.x + h->point.y + h->point.z + h->normal.x + h->normal.y + h->normal.z : 0.f;
}
inline float fold(const std::optional<textbook::CapsuleHitPair<float>>& h) {
    return h ? h->t1 + h->t2 + h->p1.x + h->p1.y + h->p1.z + h->p2.x + h->p2.y + h->p2.z + h->n1.x +
                   h->n1.y + h->n1.z + h->n2.x + h->n2.y + h->n2.z
             : 0.f;
}

template <typename Shapes, typename Fn> void run(benchmark::State& state, const Shapes& shapes, Fn fn) {
    const auto& rays = data().rays;
    size_t i = 0;
    float sum = 0.f;
    for (auto _ : state) {
        for (int k = 0; k < 64; ++k, ++i) sum += fold(fn(rays[i % kCount], shapes[(i * 7) % kCount]));
    }
    benchmark::DoNotOptimize(sum);
    state.SetItemsProcessed(int64_t(state.iterations()) * 64);
}

// Batch: one ray against 64 consecutive shapes of one type (structure-of-arrays), per iteration;
// Batch is the widest instruction set this CPU has (the label says which), the others forced.
template <typename SoA, typename Shapes> SoA to_soa(const Shapes& shapes) {
    SoA soa;
    for (const auto& s : shapes) soa.push_back(s);
    return soa;
}
template <typename SoA, typename Shapes> void run_batch(benchmark::State& state, const Shapes& shapes, BatchIsa isa) {
    static const SoA soa = to_soa<SoA>(shapes);
    const auto& rays = data().rays;
    BatchHits<float> out;
    out.resize(64);
    size_t i = 0;
    int hits = 0;
    for (auto _ : state) {
        const size_t first = (i * 64) % (kCount - 64);
        cast_batch(rays[i % kCount], soa, first, first + 64, 0.f, std::numeric_limits<float>::infinity(), out, isa);
        hits += out.hit[i % 64];
        ++i;
    }
    benchmark::DoNotOptimize(hits);
    state.SetItemsProcessed(int64_t(state.iterations()) * 64);
    state.SetLabel(isa == BatchIsa::Auto ? batch_isa() : batch_isa_supported(isa) ? batch_isa_name(isa) : "fallback");
}

/// A shape's five benchmarks (cast(), pick(), and the batch cast with the widest, SSE2 and AVX2
/// instruction sets), for its kernels_<shape>.cpp to define: Name_Default, Name_Pick, Name_Batch...
#define RAYPICK_SHAPE_KERNEL_BENCHMARKS(Name, shapes, SoA)                                              \
    void Name##_Default(benchmark::State& s) { run(s, data().shapes, [](auto& r, auto& x) { return cast(r, x); }); } \
    void Name##_Pick(benchmark::State& s) { run(s, data().shapes, [](auto& r, auto& x) { return pick(r, x); }); }   \
    void Name##_Batch(benchmark::State& s) { run_batch<SoA<float>>(s, data().shapes, BatchIsa::Auto); }            \
    void Name##_BatchSse2(benchmark::State& s) { run_batch<SoA<float>>(s, data().shapes, BatchIsa::Sse2); }        \
    void Name##_BatchAvx2(benchmark::State& s) { run_batch<SoA<float>>(s, data().shapes, BatchIsa::Avx2); }

// Defined in kernels_<shape>.cpp and kernels_textbook.cpp. Default: cast() (entry and exit, both
// normals). Pick: pick(), the first surface point and its normal, the same output as the textbook
// variants.
void Sphere_Default(benchmark::State& s);
void Sphere_Pick(benchmark::State& s);
void Sphere_TextbookAlgebraic(benchmark::State& s);
void Sphere_TextbookGeometric(benchmark::State& s);
void Aabb_Default(benchmark::State& s);
void Aabb_Pick(benchmark::State& s);
void Aabb_TextbookEpsilon(benchmark::State& s);
void Obb_Default(benchmark::State& s);
void Obb_Pick(benchmark::State& s);
void Obb_TextbookAxisLoop(benchmark::State& s);
void Capsule_Default(benchmark::State& s);
void Capsule_Pick(benchmark::State& s);
void Capsule_TextbookPublished(benchmark::State& s);
void Sphere_Batch(benchmark::State& s);
void Sphere_BatchSse2(benchmark::State& s);
void Sphere_BatchAvx2(benchmark::State& s);
void Aabb_Batch(benchmark::State& s);
void Aabb_BatchSse2(benchmark::State& s);
void Aabb_BatchAvx2(benchmark::State& s);
void Obb_Batch(benchmark::State& s);
void Obb_BatchSse2(benchmark::State& s);
void Obb_BatchAvx2(benchmark::State& s);
void Capsule_Batch(benchmark::State& s);
void Capsule_BatchSse2(benchmark::State& s);
void Capsule_BatchAvx2(benchmark::State& s);

}  // namespace raypick::bench
