// The axis-aligned box kernels of the kernel benchmark: cast(), pick() and the batch cast
// (one translation unit per shape: see KernelBench.h).
#include "geometry/RayAabb.h"
#include "geometry/Shape.h"  // pick() for boxes: first_surface() of cast()
#include "KernelBench.h"

namespace raypick::bench {

void Aabb_Default(benchmark::State& s) { run(s, data().boxes, [](auto& r, auto& x) { return cast(r, x); }); }
void Aabb_Pick(benchmark::State& s) { run(s, data().boxes, [](auto& r, auto& x) { return pick(r, x); }); }
void Aabb_Batch(benchmark::State& s) { run_batch<AabbSoA<float>>(s, data().boxes, BatchIsa::Auto); }
void Aabb_BatchSse2(benchmark::State& s) { run_batch<AabbSoA<float>>(s, data().boxes, BatchIsa::Sse2); }
void Aabb_BatchAvx2(benchmark::State& s) { run_batch<AabbSoA<float>>(s, data().boxes, BatchIsa::Avx2); }

}  // namespace raypick::bench
