// The oriented box kernels of the kernel benchmark: cast(), pick() and the batch cast
// (one translation unit per shape: see KernelBench.h).
#include "geometry/RayObb.h"
#include "geometry/Shape.h"  // pick() for boxes: first_surface() of cast()
#include "KernelBench.h"

namespace raypick::bench {

void Obb_Default(benchmark::State& s) { run(s, data().obbs, [](auto& r, auto& x) { return cast(r, x); }); }
void Obb_Pick(benchmark::State& s) { run(s, data().obbs, [](auto& r, auto& x) { return pick(r, x); }); }
void Obb_Batch(benchmark::State& s) { run_batch<ObbSoA<float>>(s, data().obbs, BatchIsa::Auto); }
void Obb_BatchSse2(benchmark::State& s) { run_batch<ObbSoA<float>>(s, data().obbs, BatchIsa::Sse2); }
void Obb_BatchAvx2(benchmark::State& s) { run_batch<ObbSoA<float>>(s, data().obbs, BatchIsa::Avx2); }

}  // namespace raypick::bench
