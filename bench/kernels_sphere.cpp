// The sphere kernels of the kernel benchmark: cast(), pick() and the batch cast
// (one translation unit per shape: see KernelBench.h).
#include "geometry/RaySphere.h"
#include "KernelBench.h"

namespace raypick::bench {

void Sphere_Default(benchmark::State& s) { run(s, data().spheres, [](auto& r, auto& x) { return cast(r, x); }); }
void Sphere_Pick(benchmark::State& s) { run(s, data().spheres, [](auto& r, auto& x) { return pick(r, x); }); }
void Sphere_Batch(benchmark::State& s) { run_batch<SphereSoA<float>>(s, data().spheres, BatchIsa::Auto); }
void Sphere_BatchSse2(benchmark::State& s) { run_batch<SphereSoA<float>>(s, data().spheres, BatchIsa::Sse2); }
void Sphere_BatchAvx2(benchmark::State& s) { run_batch<SphereSoA<float>>(s, data().spheres, BatchIsa::Avx2); }

}  // namespace raypick::bench
