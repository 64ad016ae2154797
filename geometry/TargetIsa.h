// raypick geometry: code for instruction sets the baseline x86-64 lacks — which ones this CPU has,
// and how to compile a block of code for one.
//
//   RAYPICK_TARGET_BEGIN("avx2")
//   namespace raypick::something_avx2 { ... }   // every function here may use AVX2
//   RAYPICK_TARGET_END
//
// g++: `#pragma GCC target`; clang (the fuzz build) ignores that pragma, so there the target
// attribute is applied to every function in the block. Put such code in a namespace of its own,
// so nothing compiled for the wider set is shared with code that runs without it, and call it
// only after checking the CPU (__builtin_cpu_supports).
#pragma once

#define RAYPICK_PRAGMA_STR(x) #x
// Both forms also turn floating-point contraction off inside the block: AVX-512 brings fused
// multiply-add, which g++ (C++ and GNU modes alike) and clang use by default, and which would round
// differently from the scalar code these blocks must match bit for bit.
#if defined(__clang__)
#define RAYPICK_TARGET_BEGIN(isa)                                                                     \
    _Pragma("float_control(push)") _Pragma("clang fp contract(off)")                                  \
        _Pragma(RAYPICK_PRAGMA_STR(clang attribute push(__attribute__((target(isa))), apply_to = function)))
#define RAYPICK_TARGET_END _Pragma("clang attribute pop") _Pragma("float_control(pop)")
#else
#define RAYPICK_TARGET_BEGIN(isa) \
    _Pragma("GCC push_options") _Pragma(RAYPICK_PRAGMA_STR(GCC target(isa))) _Pragma("GCC optimize(\"fp-contract=off\")")
#define RAYPICK_TARGET_END _Pragma("GCC pop_options")
#endif

/// At the start of a function body: no floating-point contraction in it, even where it is inlined
/// into a block compiled for an instruction set with fused multiply-add. clang contracts a * b - c
/// by default and keeps that licence on the operations when a function defined outside a
/// RAYPICK_TARGET_BEGIN block is inlined into one; g++ builds raypick's C++17 without contraction.
#if defined(__clang__)
#define RAYPICK_NO_CONTRACTION _Pragma("clang fp contract(off)")
#else
#define RAYPICK_NO_CONTRACTION
#endif

namespace raypick {

/// Whether this CPU (and its OS) runs AVX2 code with fused multiply-add (FMA3: every CPU with
/// AVX2 has it), the level the AVX2 and AVX-512 copies are compiled for.
inline bool cpu_has_avx2() {
    static const bool yes = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    return yes;
}

/// Whether it runs the AVX-512 subsets the batch kernels use (F, DQ, BW, VL).
inline bool cpu_has_avx512() {
    static const bool yes = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") &&
                            __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl");
    return yes;
}

/// Instruction set for raypick's SIMD code (the batch kernels, the BVH's node and leaf tests):
/// Auto picks the widest the CPU has — AVX-512 (F, DQ, BW, VL), else AVX2 with FMA, else SSE2 (every
/// x86-64). Asking for one the CPU lacks gives the widest narrower one it has. Every choice gives
/// the same bits; tests force each to check that.
enum class BatchIsa { Auto, Sse2, Avx2, Avx512 };

/// The instruction set that `wanted` runs with on this CPU (never Auto).
inline BatchIsa effective_isa(BatchIsa wanted) {
    if ((wanted == BatchIsa::Auto || wanted == BatchIsa::Avx512) && cpu_has_avx512()) return BatchIsa::Avx512;
    if (wanted != BatchIsa::Sse2 && cpu_has_avx2()) return BatchIsa::Avx2;
    return BatchIsa::Sse2;
}

}  // namespace raypick
