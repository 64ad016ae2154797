// raypick geometry: the batch kernels (BatchKernels.inl) at the baseline vector width — SSE2, 4
// floats or 2 doubles per vector, every x86-64 — as inline header code in namespace
// raypick::batch_sse2. Batch.cpp dispatches to them when the CPU lacks AVX2; the BVH's leaves
// (BvhLeaf.h) call their one-vector group functions directly.
#pragma once

#if !(defined(__x86_64__) && defined(__GNUC__))
#error "raypick's batch kernels need GCC or Clang vector extensions on x86-64"
#endif

#include <immintrin.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include <raypick/geometry/Batch.h>
#include <raypick/geometry/Shape.h>

namespace raypick::batch_sse2 {
constexpr int kFloatLanes = 4;
constexpr int kDoubleLanes = 2;
#include <raypick/geometry/BatchKernels.inl>
}  // namespace raypick::batch_sse2
