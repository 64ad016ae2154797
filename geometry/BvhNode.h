// raypick geometry: the BVH's 16-wide node and the single-ray walk over it, compiled three times:
// for every x86-64 (SSE2: a node's sixteen child boxes tested four floats or two doubles per
// vector), for CPUs with AVX2 (eight floats or four doubles per vector; two vectors per plane for
// floats) and for CPUs with AVX-512 (the same widths), chosen at run time by Bvh
// (BvhOptions::node_test_isa). All do the same arithmetic lane by lane, so all give the same
// picks, bit for bit; BvhTest checks that they do.
#pragma once

#include <immintrin.h>

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include "geometry/BvhLeaf.h"
#include "geometry/TargetIsa.h"

namespace raypick::bvh_node {

/// Children per node. 16 rather than 8 (twelfth session, bench_pick): picks 6-27 % faster among
/// 100 to 10^6 shapes of every mix, in float and double, as a pick waits on fewer dependent
/// node fetches; the build as fast (plan() skips the splits a subtree cannot use); 32 was no
/// faster to pick and 18 % slower to build.
constexpr int kWidth = 16;
constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();
/// A leaf child reference: kLeaf | (cache lines to prefetch - 1) << 28 | offset in 16-byte chunks.
constexpr std::uint32_t kLeaf = 0x80000000u;
constexpr std::uint32_t kOffsetMask = 0x0fffffffu;
constexpr int kMaxDepth = 96;  ///< beyond this the builder splits at the median
/// Stack entries a single-ray walk can hold: at most W - 1 wait per level (the binary depth
/// bounds the levels), plus the root, plus W for a node's children sorted on top of it.
constexpr std::size_t kStack = (kWidth - 1) * (kMaxDepth + 40) + 2 + kWidth;

/// Eight child boxes structure-of-arrays (per axis, then per child) and what they hold.
template <typename T> struct alignas(64) Node {
    T lo[3][kWidth], hi[3][kWidth];  ///< child boxes per axis; empty slots have lo = +inf, hi = -inf
    std::uint32_t child[kWidth];     ///< kNone: empty; kLeaf bit: a leaf (see kLeaf); else a node index
    std::uint32_t counts[kWidth];    ///< a leaf's shapes per type (bvh_leaf::count_of); 0 otherwise
};

/// Per-ray constants of the node test: per axis, the origin shifted for the near and far planes
/// (boxes widened by the ray's rounding scale), 1/direction, and whether the hi plane is met first.
template <typename T> struct RayConsts {
    T o_near[3], o_far[3], inv[3];
    bool neg[3];
};

/// What a single-ray walk reads: the nodes (root at 0) and the leaf blocks.
template <typename T> struct Tree {
    const Node<T>* nodes = nullptr;
    const bvh_leaf::Chunk* leaves = nullptr;
};

/// Bit k set where slot k of n holds a child (child[k] != kNone), by vector compares.
template <typename T> __attribute__((always_inline)) inline unsigned occupied(const Node<T>& n) {
    static_assert(kWidth % 4 == 0);
    typedef std::uint32_t U4 __attribute__((vector_size(16)));
    unsigned bits = 0;
    for (int c = 0; c < kWidth / 4; ++c) {
        U4 ids;
        std::memcpy(&ids, &n.child[4 * c], 16);
        bits |= unsigned(_mm_movemask_ps(__m128(ids != kNone))) << (4 * c);
    }
    return bits;
}

/// Starts loading a child (a node's four cache lines, or a leaf's lines) so misses overlap.
/// Always inlined: out of line, GCC finds such a function const (a prefetch writes nothing) and
/// deletes its calls, result unused, as dead code. That is what became of the lambda pick() used
/// until the seventh session: its compiled code had no prefetch instruction at all.
template <typename T> __attribute__((always_inline)) inline void prefetch(const Tree<T>& tree, std::uint32_t ref) {
    if (ref & kLeaf) {
        const char* p = reinterpret_cast<const char*>(&tree.leaves[ref & kOffsetMask]);
        const std::uint32_t lines = ((ref >> 28) & 7u) + 1;
        for (std::uint32_t l = 0; l < lines; ++l) __builtin_prefetch(p + 64 * l);
    } else {
        const char* p = reinterpret_cast<const char*>(&tree.nodes[ref]);
        for (std::size_t l = 0; l < sizeof(Node<T>); l += 64) __builtin_prefetch(p + l);
    }
}

}  // namespace raypick::bvh_node

// The node test, leaf test and walk, once per instruction set (BvhWalk.inl), each in a namespace
// of its own compiled for that set (TargetIsa.h). Leaves are laid out for 16-byte vectors
// (BvhLeaf.h), so every copy tests them with its own build of the batch kernels at that width:
// the AVX2 and AVX-512 ones VEX/EVEX-encoded (a select is one blend instead of three logic
// operations), the same arithmetic lane by lane, the same bits. AVX-512 (the subsets the batch
// kernels use) keeps the AVX2 copy's widths: its mask registers, 32 vector registers and
// three-operand logic make the same work 5-10 % faster.
namespace raypick::bvh_walk_sse2 {
constexpr int kVectorBytes = 16;
#include "geometry/BvhWalk.inl"
}  // namespace raypick::bvh_walk_sse2

RAYPICK_TARGET_BEGIN("avx2")
namespace raypick::bvh_walk_avx2 {
constexpr int kVectorBytes = 32;
#include "geometry/BvhWalk.inl"
}  // namespace raypick::bvh_walk_avx2
RAYPICK_TARGET_END

RAYPICK_TARGET_BEGIN("avx2,avx512f,avx512dq,avx512bw,avx512vl")
namespace raypick::bvh_walk_avx512 {
constexpr int kVectorBytes = 32;
#include "geometry/BvhWalk.inl"
}  // namespace raypick::bvh_walk_avx512
RAYPICK_TARGET_END
