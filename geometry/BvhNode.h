// raypick geometry: the BVH's 16-wide node (exact, and compact: child boxes in 8 bits a plane, for
// pick() in large scenes) and the single-ray walk over it, compiled three times:
// for every x86-64 (SSE2: a node's sixteen child boxes tested four floats or two doubles per
// vector), for CPUs with AVX2 (eight floats or four doubles per vector; two vectors per plane for
// floats) and for CPUs with AVX-512 (the same widths), chosen at run time by Bvh
// (BvhOptions::node_test_isa). All do the same arithmetic lane by lane, so all give the same
// picks, bit for bit; BvhTest checks that they do.
#pragma once

#include <immintrin.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include <raypick/geometry/BvhLeaf.h>
#include <raypick/geometry/Lanes.h>
#include <raypick/geometry/NodeRay.h>
#include <raypick/geometry/TargetIsa.h>

namespace raypick::bvh_node {

/// Children per node. 16: a pick waits on fewer dependent node fetches than with 8, and the
/// build is as fast (plan() skips the splits a subtree cannot use); 32 picks no faster and builds
/// slower (figures: docs/performance.md).
constexpr int kWidth = 16;
constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();
/// A leaf child reference: kLeaf | (cache lines to prefetch - 1) << 28 | offset in 16-byte chunks.
constexpr std::uint32_t kLeaf = 0x80000000u;
constexpr std::uint32_t kOffsetMask = 0x0fffffffu;
constexpr int kMaxDepth = 96;  ///< beyond this the builder splits at the median
/// Stack entries a single-ray walk can hold: at most W - 1 wait per level (the binary depth
/// bounds the levels), plus the root, plus W for a node's children sorted on top of it.
constexpr std::size_t kStack = (kWidth - 1) * (kMaxDepth + 40) + 2 + kWidth;

/// Sixteen child boxes structure-of-arrays (per axis, then per child) and what they hold.
template <typename T> struct alignas(64) Node {
    T lo[3][kWidth], hi[3][kWidth];  ///< child boxes per axis; empty slots have lo = +inf, hi = -inf
    std::uint32_t child[kWidth];     ///< kNone: empty; kLeaf bit: a leaf (see kLeaf); else a node index
    bvh_leaf::LeafInfo leaf[kWidth];  ///< a leaf child's type and count; count 0 otherwise
};

/// A node as the single-ray walk reads it: the same children, their boxes quantised to 8 bits a
/// plane in a frame of the node's own (Ylitie, Karras, Laine 2017, "Efficient incoherent ray
/// traversal on GPUs through compressed wide BVHs", 3.1), so half the memory of a Node (float:
/// 256 bytes, four cache lines, against 512). Plane q of axis a lies at origin[a] + q * scale[a]:
/// q < 256 and scale a power of two, so the product is exact and the plane is one rounding of a
/// sum, the same whatever the instruction set (fused or not). Every code is chosen against that
/// very value, so a decoded box contains the exact one (encode()): a looser box can cost a visit,
/// never lose one. Built from the Nodes, which stay the exact boxes for refits and the other walks.
template <typename T> struct alignas(64) Compact {
    T origin[3], scale[3];
    std::uint8_t lo[3][kWidth], hi[3][kWidth];  ///< per axis, then per child
    std::uint32_t child[kWidth];                ///< as Node::child
    bvh_leaf::LeafInfo leaf[kWidth];            ///< as Node::leaf
};

/// The plane that code q of axis a stands for in n.
template <typename T> inline T plane(const Compact<T>& n, int a, unsigned q) { return n.origin[a] + T(q) * n.scale[a]; }

/// The codes of a box [lo, hi] on axis a of `out`'s frame by search from estimates ql, qh: the
/// largest ql with plane <= lo, the least qh with plane >= hi (plane is monotone in q; q = 0 and
/// q = 255 always qualify).
template <typename T> inline void search_codes(const Compact<T>& out, int a, T lo, T hi, unsigned& ql, unsigned& qh) {
    while (ql > 0 && plane(out, a, ql) > lo) --ql;
    while (ql < 255 && plane(out, a, ql + 1) <= lo) ++ql;
    while (qh < 255 && plane(out, a, qh) < hi) ++qh;
    while (qh > 0 && plane(out, a, qh - 1) >= hi) --qh;
}

/// Compact form of `exact` in `out`. False, `out` unspecified, when an occupied child has a
/// non-finite bound on some axis (a shape near the largest finite value: its padded box may be
/// infinite), which no finite frame can hold: the caller then walks the exact nodes.
/// A child with an empty box (shapes that are all invalid) gets an inverted box.
/// Codes are estimated a vector of children at a time ((bound - origin) / scale, floor for lo and
/// ceiling for hi) and checked against the decoded planes themselves; only a lane whose estimate
/// rounding put one off is searched (search_codes). One code at a time, encoding would take 30 ms
/// of a 400 ms build of 10^6 spheres.
template <typename T> inline bool encode(const Node<T>& exact, Compact<T>& out) {
    using V = typename detail::Vec16Of<T>::V;
    using I = typename detail::Vec16Of<T>::I;
    constexpr int L = 16 / int(sizeof(T));
    static_assert(kWidth % L == 0);
    for (int k = 0; k < kWidth; ++k) {
        out.child[k] = exact.child[k];
        out.leaf[k] = exact.leaf[k];
    }
    for (int a = 0; a < 3; ++a) {
        T mn = std::numeric_limits<T>::infinity(), mx = -mn;
        for (int k = 0; k < kWidth; ++k) {
            if (exact.child[k] == kNone || !(exact.lo[a][k] <= exact.hi[a][k])) continue;
            mn = std::min(mn, exact.lo[a][k]);
            mx = std::max(mx, exact.hi[a][k]);
        }
        if (mn > mx) mn = mx = T(0);  // no non-empty child: any frame
        const T big = std::numeric_limits<T>::max();
        if (!(std::abs(mn) <= big && std::abs(mx) <= big)) return false;
        // The least power of two s with mn + 255 s >= mx (as the walk rounds it); 0 for no extent.
        T s = T(0);
        if (mx > mn) {
            const T ext = mx / T(2) - mn / T(2);  // half the extent: no overflow
            int e = 0;
            std::frexp(ext / T(255) * T(2), &e);  // ext*2/255 < 2^e
            s = std::ldexp(T(1), e);
            if (s == T(0)) s = std::numeric_limits<T>::denorm_min();
            while (s > std::numeric_limits<T>::denorm_min() && mn + T(255) * (s / T(2)) >= mx) s /= T(2);
            while (!(mn + T(255) * s >= mx)) s *= T(2);  // ends: at the latest 255 s overflows to inf
        }
        out.origin[a] = mn;
        out.scale[a] = s;
        // 1/s: exact (s is a power of two) unless it overflows, for a scale near the smallest
        // subnormal; then every code is searched from 0 and 255.
        const T inv = s > T(0) ? T(1) / s : T(0);
        const bool estimate = inv <= big;
        const V zero{}, vmn = zero + mn, vs = zero + s, vinv = zero + (estimate ? inv : T(0)), top = zero + T(255);
        for (int c = 0; c < kWidth; c += L) {
            V lo, hi;
            std::memcpy(&lo, &exact.lo[a][c], sizeof lo);
            std::memcpy(&hi, &exact.hi[a][c], sizeof hi);
            // Clamped to [0, 255] (a NaN from an empty box's inf - inf, or 0 * inf, gives 0).
            V el = (lo - vmn) * vinv, eh = (hi - vmn) * vinv;
            el = el > zero ? el : zero;
            el = el < top ? el : top;
            eh = eh > zero ? eh : zero;
            eh = eh < top ? eh : top;
            if (!estimate) el = zero, eh = top;
            const I ql = __builtin_convertvector(el, I);  // truncation: the floor here
            I qh = __builtin_convertvector(eh, I);
            qh -= I(__builtin_convertvector(qh, V) < eh);  // the ceiling
            const V pl = vmn + __builtin_convertvector(ql, V) * vs, pl1 = vmn + __builtin_convertvector(ql + 1, V) * vs;
            const V ph = vmn + __builtin_convertvector(qh, V) * vs, ph0 = vmn + __builtin_convertvector(qh - 1, V) * vs;
            const I ok = I(pl <= lo) & (I(ql == 255) | I(pl1 > lo)) & I(ph >= hi) & (I(qh == 0) | I(ph0 < hi));
            for (int l = 0; l < L; ++l) {
                const int k = c + l;
                unsigned cl = unsigned(ql[l]), ch = unsigned(qh[l]);
                if (exact.child[k] == kNone || !(exact.lo[a][k] <= exact.hi[a][k])) {
                    cl = 255;  // unoccupied or empty: an inverted box
                    ch = 0;
                } else if (s == T(0)) {
                    cl = ch = 0;  // no extent: every code is the one plane
                } else if (!ok[l]) {
                    search_codes(out, a, exact.lo[a][k], exact.hi[a][k], cl, ch);
                }
                out.lo[a][k] = std::uint8_t(cl);
                out.hi[a][k] = std::uint8_t(ch);
            }
        }
    }
    return true;
}

/// The node test's per-ray constants (NodeRay.h).
template <typename T> using RayConsts = detail::RayConsts<T>;

/// What a walk reads: the nodes (root at 0; Node or Compact) and the leaf blocks.
template <typename N> struct TreeOf {
    const N* nodes = nullptr;
    const bvh_leaf::Chunk* leaves = nullptr;
};
template <typename T> using Tree = TreeOf<Node<T>>;

/// Bit k set where slot k of n holds a child (child[k] != kNone), by vector compares.
template <typename N> __attribute__((always_inline)) inline unsigned occupied(const N& n) {
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
/// deletes its calls, result unused, as dead code: the walk would then prefetch nothing.
template <typename N> __attribute__((always_inline)) inline void prefetch(const TreeOf<N>& tree, std::uint32_t ref) {
    if (ref & kLeaf) {
        const char* p = reinterpret_cast<const char*>(&tree.leaves[ref & kOffsetMask]);
        const std::uint32_t lines = ((ref >> 28) & 7u) + 1;
        for (std::uint32_t l = 0; l < lines; ++l) __builtin_prefetch(p + 64 * l);
    } else {
        const char* p = reinterpret_cast<const char*>(&tree.nodes[ref]);
        for (std::size_t l = 0; l < sizeof(N); l += 64) __builtin_prefetch(p + l);
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
#include <raypick/geometry/BvhWalk.inl>
}  // namespace raypick::bvh_walk_sse2

RAYPICK_TARGET_BEGIN("avx2")
namespace raypick::bvh_walk_avx2 {
constexpr int kVectorBytes = 32;
#include <raypick/geometry/BvhWalk.inl>
}  // namespace raypick::bvh_walk_avx2
RAYPICK_TARGET_END

RAYPICK_TARGET_BEGIN("avx2,avx512f,avx512dq,avx512bw,avx512vl")
namespace raypick::bvh_walk_avx512 {
constexpr int kVectorBytes = 32;
#include <raypick/geometry/BvhWalk.inl>
}  // namespace raypick::bvh_walk_avx512
RAYPICK_TARGET_END
