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
#if defined(__clang__)
#define RAYPICK_TARGET_BEGIN(isa) \
    _Pragma(RAYPICK_PRAGMA_STR(clang attribute push(__attribute__((target(isa))), apply_to = function)))
#define RAYPICK_TARGET_END _Pragma("clang attribute pop")
#else
#define RAYPICK_TARGET_BEGIN(isa) _Pragma("GCC push_options") _Pragma(RAYPICK_PRAGMA_STR(GCC target(isa)))
#define RAYPICK_TARGET_END _Pragma("GCC pop_options")
#endif

namespace raypick {

/// Whether this CPU (and its OS) runs AVX2 code.
inline bool cpu_has_avx2() {
    static const bool yes = __builtin_cpu_supports("avx2");
    return yes;
}

/// Whether it runs the AVX-512 subsets the batch kernels use (F, DQ, BW, VL).
inline bool cpu_has_avx512() {
    static const bool yes = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") &&
                            __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl");
    return yes;
}

}  // namespace raypick
