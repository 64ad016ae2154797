// raypick geometry: batch cast dispatch. See Batch.h for the contract and BatchKernels.inl for
// the kernels, which are compiled three times: for baseline x86-64 (SSE2, inline in BatchSse2.h)
// and here for AVX2 and for AVX-512. The widest build the CPU reports at run time is used. Never
// build this with -ffast-math or FMA contraction: the kernels must round exactly as the scalar
// code does (geometry/CMakeLists.txt builds it with -ffp-contract=off, so no target below lets the
// compiler fuse a multiply and an add).
#include <raypick/geometry/Batch.h>

#include <raypick/geometry/BatchSse2.h>
#include <raypick/geometry/TargetIsa.h>

#include <immintrin.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>

#include <raypick/geometry/Shape.h>

namespace raypick {
// Each namespace is compiled for its instruction set (TargetIsa.h).
RAYPICK_TARGET_BEGIN("avx2")
namespace batch_avx2 {
constexpr int kFloatLanes = 8;
constexpr int kDoubleLanes = 4;
#include <raypick/geometry/BatchKernels.inl>
}  // namespace batch_avx2
RAYPICK_TARGET_END
RAYPICK_TARGET_BEGIN("avx512f,avx512dq,avx512bw,avx512vl")
namespace batch_avx512 {
constexpr int kFloatLanes = 16;
constexpr int kDoubleLanes = 8;
#include <raypick/geometry/BatchKernels.inl>
}  // namespace batch_avx512
RAYPICK_TARGET_END

namespace {
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
        switch (effective_isa(isa)) {                                                                              \
            case BatchIsa::Avx512: batch_avx512::KERNEL(ray, shapes, begin, end, t_min, t_max, out); break;    \
            case BatchIsa::Avx2: batch_avx2::KERNEL(ray, shapes, begin, end, t_min, t_max, out); break;        \
            default: batch_sse2::KERNEL(ray, shapes, begin, end, t_min, t_max, out); break;                    \
        }                                                                                                      \
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

const char* batch_isa() { return batch_isa_name(effective_isa(BatchIsa::Auto)); }

const char* batch_isa_name(BatchIsa isa) {
    switch (isa) {
        case BatchIsa::Avx512: return "avx512";
        case BatchIsa::Avx2: return "avx2";
        case BatchIsa::Sse2: return "sse2";
        default: return "auto";
    }
}

bool batch_isa_supported(BatchIsa isa) { return effective_isa(isa) == isa || isa == BatchIsa::Auto; }

}  // namespace raypick
