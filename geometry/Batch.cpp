// raypick geometry: batch cast dispatch. See Batch.h for the contract and BatchKernels.inl for
// the kernels, which are compiled twice: for baseline x86-64 (SSE2, inline in BatchSse2.h) and
// here for AVX2. The AVX2 build is used when the CPU reports AVX2 at run time. Never build this with -ffast-math or FMA
// contraction: the kernels must round exactly as the scalar code does.
#include "geometry/Batch.h"

#include "geometry/BatchSse2.h"

#include <immintrin.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>

#include "geometry/Shape.h"

namespace raypick {
#pragma GCC push_options
#pragma GCC target("avx2")
namespace batch_avx2 {
constexpr int kFloatLanes = 8;
constexpr int kDoubleLanes = 4;
#include "geometry/BatchKernels.inl"
}  // namespace batch_avx2
#pragma GCC pop_options

namespace {
bool has_avx2() {
    static const bool yes = __builtin_cpu_supports("avx2");
    return yes;
}
bool use_avx2(BatchIsa isa) { return isa != BatchIsa::Sse2 && has_avx2(); }

template <typename T> bool prologue(const Ray<T>& ray, std::size_t begin, std::size_t end, T t_min, T t_max,
                                    BatchHits<T>& out) {
    if (is_valid(ray) && t_min <= t_max) return true;
    for (std::size_t k = 0; k < end - begin; ++k) out.hit[k] = 0;
    return false;
}
}  // namespace

#define RAYPICK_BATCH(SOA, KERNEL, T)                                                                         \
    void cast_batch(const Ray<T>& ray, const SOA<T>& shapes, std::size_t begin, std::size_t end, T t_min,       \
                    T t_max, BatchHits<T>& out, BatchIsa isa) {                                                \
        if (end <= begin || !prologue(ray, begin, end, t_min, t_max, out)) return;                             \
        if (use_avx2(isa)) batch_avx2::KERNEL(ray, shapes, begin, end, t_min, t_max, out);                     \
        else batch_sse2::KERNEL(ray, shapes, begin, end, t_min, t_max, out);                                   \
    }
RAYPICK_BATCH(SphereSoA, sphere_kernel, float)
RAYPICK_BATCH(SphereSoA, sphere_kernel, double)
RAYPICK_BATCH(AabbSoA, aabb_kernel, float)
RAYPICK_BATCH(AabbSoA, aabb_kernel, double)
RAYPICK_BATCH(ObbSoA, obb_kernel, float)
RAYPICK_BATCH(ObbSoA, obb_kernel, double)
RAYPICK_BATCH(CapsuleSoA, capsule_kernel, float)
RAYPICK_BATCH(CapsuleSoA, capsule_kernel, double)
#undef RAYPICK_BATCH

const char* batch_isa() { return has_avx2() ? "avx2" : "sse2"; }

}  // namespace raypick
