// The capsule kernels of the kernel benchmark: cast(), pick() and the batch cast
// (one translation unit per shape: see KernelBench.h).
#include "geometry/RayCapsule.h"
#include "KernelBench.h"

namespace raypick::bench {

void Capsule_Default(benchmark::State& s) { run(s, data().capsules, [](auto& r, auto& x) { return cast(r, x); }); }
void Capsule_Pick(benchmark::State& s) { run(s, data().capsules, [](auto& r, auto& x) { return pick(r, x); }); }
void Capsule_Batch(benchmark::State& s) { run_batch<CapsuleSoA<float>>(s, data().capsules, BatchIsa::Auto); }
void Capsule_BatchSse2(benchmark::State& s) { run_batch<CapsuleSoA<float>>(s, data().capsules, BatchIsa::Sse2); }
void Capsule_BatchAvx2(benchmark::State& s) { run_batch<CapsuleSoA<float>>(s, data().capsules, BatchIsa::Avx2); }

}  // namespace raypick::bench
