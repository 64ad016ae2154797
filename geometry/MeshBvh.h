// raypick geometry: a triangle mesh with its own bounding volume hierarchy, for watertight picking.
//
// Layout: 16-wide nodes (child boxes structure-of-arrays, two AVX2 vectors of floats per plane) over
// leaves of triangle packets: four triangles' three vertices structure-of-arrays, with their
// indices. The leaf keeps the vertex positions themselves (no edge vectors or planes derived from
// them), so every triangle sharing a vertex transforms the very same values in the watertight test
// and the mesh stays watertight through the hierarchy. The binary tree is the project's binned SAH
// builder (BvhBuild.h) over the triangles' boxes, SAH all the way from the root; it is collapsed
// into the 16-wide tree of least SAH cost (Collapse: nodes about 37 triangles full). A pick is a
// chain of dependent node visits, and wider nodes shorten it (about 6 nodes and 2 packets a ray
// among 10^6 triangles). Float trees too large for the cache then keep their nodes with child
// boxes quantised to 8 bits a plane (QNode: 192 bytes instead of 512), as a pick of a large mesh
// spends its time waiting for nodes and packets from memory.
#pragma once

#include <immintrin.h>

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <new>
#include <optional>
#include <stdexcept>
#include <type_traits>
#include <vector>

#include <raypick/geometry/BvhBuild.h>
#include <raypick/geometry/CacheSize.h>
#include <raypick/geometry/Lanes.h>
#include <raypick/geometry/LargeAlloc.h>
#include <raypick/geometry/NodeRay.h>
#include <raypick/geometry/RayHit.h>
#include <raypick/geometry/RaySphere.h>
#include <raypick/geometry/RayTriangle.h>
#include <raypick/geometry/TargetIsa.h>
#include <raypick/geometry/TriangleMesh.h>

namespace raypick {

/// Where a ray crosses a mesh.
template <typename T> struct MeshHit {
    std::uint32_t triangle = 0;  ///< index of the triangle in the mesh
    T t = T(0);                  ///< in units of the ray's direction
    /// Weights of the triangle's vertices a, b, c (indices[triangle][0..2]), as TriangleHit.
    Vec3<T> barycentric{T(0)};
    /// Unit geometric normal by winding, out of the front face (TriangleHit::normal).
    Vec3<T> normal{T(0)};
    bool front = false;  ///< the ray arrives at the front face
    /// The vertex normals interpolated by the barycentrics and normalised, when the mesh has
    /// normals (the geometric normal where they cancel out).
    std::optional<Vec3<T>> shading_normal;
};

namespace mesh_bvh {

constexpr int kWidth = 16;
constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();
/// A leaf's child reference: kLeaf | (items - 1) << kCountShift | its first item (packet or
/// instance slot); any other reference but kNone is a node's index.
constexpr std::uint32_t kLeaf = 0x80000000u;
constexpr int kCountShift = 27;
constexpr std::uint32_t kFirstMask = (1u << kCountShift) - 1;  ///< items a tree may hold
inline std::uint32_t leaf_ref(std::uint32_t first, std::uint32_t count) {
    assert(count >= 1 && count <= 16 && first <= kFirstMask);  // the count's 4 bits, the first's 27
    return kLeaf | (count - 1) << kCountShift | first;
}
inline std::uint32_t leaf_first(std::uint32_t ref) { return ref & kFirstMask; }
inline std::uint32_t leaf_count(std::uint32_t ref) { return ((ref >> kCountShift) & 15u) + 1; }
constexpr int kMaxLeaf = 8;  ///< triangles per leaf: two packets
constexpr int kMaxDepth = 96;                 ///< the builder splits at the median beyond this
constexpr std::size_t kStack = (kWidth - 1) * (kMaxDepth + 40) + 2 + kWidth;

/// Sixteen child boxes structure-of-arrays and what they hold (float: 512 bytes, eight cache lines).
template <typename T> struct alignas(64) Node {
    T lo[3][kWidth], hi[3][kWidth];  ///< empty slots: lo = +inf, hi = -inf
    std::uint32_t child[kWidth];     ///< kNone: empty; a leaf (leaf_ref(): at most kMaxLeaf triangles); a node
    std::uint32_t occupied;          ///< bit k: slot k holds a child
};

static_assert(sizeof(Node<float>) == 512, "a float node is eight cache lines");

/// A float Node with its child boxes quantised to 8 bits a plane in a frame of its own (the
/// compact node of Ylitie, Karras and Laine 2017, as bvh_node::Compact): 192 bytes, three cache
/// lines against a Node's eight.
/// Plane q of axis a lies at origin[a] + q * scale[a], scale a power of two, so the product is
/// exact and the plane one rounding of a sum; codes are chosen against those very values, so a
/// decoded box contains the exact one (a looser box can cost a visit, never lose a hit).
struct alignas(64) QNode {
    float origin[3], scale[3];
    std::uint8_t lo[3][kWidth], hi[3][kWidth];  ///< per axis, then per child; empty slots inverted
    std::uint32_t child[kWidth];
    std::uint32_t occupied;
};
static_assert(sizeof(QNode) == 192, "a quantised node is three cache lines");

inline float plane(const QNode& n, int a, unsigned q) { return n.origin[a] + float(q) * n.scale[a]; }

/// The quantised form of n in `out`; false when a child box is not finite (no finite frame holds
/// it; the tree then keeps its exact nodes).
inline bool encode(const Node<float>& n, QNode& out) {
    out.occupied = n.occupied;
    for (int k = 0; k < kWidth; ++k) {
        out.child[k] = n.child[k];
    }
    for (int a = 0; a < 3; ++a) {
        float mn = infinity<float>(), mx = -infinity<float>();
        for (int k = 0; k < kWidth; ++k) {
            if (!(n.occupied >> k & 1)) continue;
            if (!std::isfinite(n.lo[a][k]) || !std::isfinite(n.hi[a][k])) return false;
            mn = std::min(mn, n.lo[a][k]);
            mx = std::max(mx, n.hi[a][k]);
        }
        if (!(mn <= mx)) mn = mx = 0.f;
        // The least power of two s with mn + 255 s >= mx as the walk rounds it.
        float s = std::numeric_limits<float>::denorm_min();
        if (mx > mn) {
            int e = 0;
            std::frexp((mx / 2.f - mn / 2.f) / 255.f * 2.f, &e);
            s = std::max(std::ldexp(1.f, e - 1), std::numeric_limits<float>::denorm_min());
            while (s > std::numeric_limits<float>::denorm_min() && mn + 255.f * (s / 2.f) >= mx) s /= 2.f;
            while (!(mn + 255.f * s >= mx)) s *= 2.f;
            if (!std::isfinite(s) || !std::isfinite(mn + 255.f * s)) return false;
        }
        out.origin[a] = mn;
        out.scale[a] = s;
        for (int k = 0; k < kWidth; ++k) {
            if (!(n.occupied >> k & 1)) {
                out.lo[a][k] = 255;
                out.hi[a][k] = 0;
                continue;
            }
            // The largest code whose plane is <= lo and the least whose plane is >= hi.
            unsigned ql = unsigned(std::clamp((n.lo[a][k] - mn) / s, 0.f, 255.f));
            unsigned qh = unsigned(std::clamp(std::ceil((n.hi[a][k] - mn) / s), 0.f, 255.f));
            while (ql > 0 && plane(out, a, ql) > n.lo[a][k]) --ql;
            while (ql < 255 && plane(out, a, ql + 1) <= n.lo[a][k]) ++ql;
            while (qh < 255 && plane(out, a, qh) < n.hi[a][k]) ++qh;
            while (qh > 0 && plane(out, a, qh - 1) >= n.hi[a][k]) --qh;
            out.lo[a][k] = std::uint8_t(ql);
            out.hi[a][k] = std::uint8_t(qh);
        }
    }
    return true;
}

/// Four triangles' vertices (v[vertex][axis][lane]) and their indices in the mesh. The padding
/// lanes of a leaf's last packet repeat its last triangle.
template <typename T> struct alignas(32) Packet {
    T v[3][3][4];
    std::uint32_t id[4];
};

/// Whether a bundle walk first tests each ray against the tree's root box (MeshBvh::nearest_bundle()).
enum class RootCull { test, skip };

/// The nearest hit so far: its t, triangle index (kNone: none yet), where its vertices are and
/// its edge functions with the ray (intersect()'s step 3, for the hit's barycentrics).
template <typename T> struct Best {
    T t;
    std::uint32_t id = kNone;
    const Packet<T>* packet = nullptr;
    unsigned lane = 0;
    T e[3] = {};

    /// Triangle k of the leaf whose packets start at `leaf` (lane k % 4 of packet k / 4), hit at
    /// t with edge functions e0, e1, e2.
    static Best of(const Packet<T>* leaf, unsigned k, T t, T e0, T e1, T e2) {
        const Packet<T>* p = leaf + k / 4;
        return {t, p->id[k % 4], p, k % 4, {e0, e1, e2}};
    }

    /// Takes triangle k of the leaf (as of()) when it is nearer: smaller t; at equal t, the
    /// smaller triangle index (pick()'s rule, whatever the order of the tests).
    void offer(const Packet<T>* leaf, unsigned k, T at, T e0, T e1, T e2) {
        const std::uint32_t triangle = leaf[k / 4].id[k % 4];
        if (at < t || (at == t && triangle < id)) *this = of(leaf, k, at, e0, e1, e2);
    }
};

/// Triangle `lane` of packet p (the mesh's vertex values, bit for bit).
template <typename T> inline Triangle<T> triangle_of(const Packet<T>& p, unsigned lane) {
    Triangle<T> tri;
    Vec3<T>* v[3] = {&tri.a, &tri.b, &tri.c};
    for (int j = 0; j < 3; ++j)
        for (int a = 0; a < 3; ++a) (*v[j])[a] = p.v[j][a][lane];
    return tri;
}

/// The node test's per-ray constants (NodeRay.h), and whether the walks compiled with fused
/// multiply-add may compute a slab distance as plane * inv - (origin * inv) in one rounding (see
/// test_vectors()): only where no product can overflow (ray_consts()). The shifted origins times
/// inv are then in near_scaled and far_scaled.
template <typename T> struct RayConsts : detail::RayConsts<T> {
    T near_scaled[4] = {}, far_scaled[4] = {};
    bool fused = false;
};

/// Per-ray constants of the watertight triangle test, as intersect() computes them
/// (detail::triangle_shear), and the ray itself.
template <typename T> struct ShearedRay : detail::TriangleShear<T> {
    Ray<T> ray;  ///< for the clamp of t to the triangle's bounds (intersect() step 5)
};

template <typename T> inline ShearedRay<T> sheared(const Ray<T>& ray) { return {detail::triangle_shear(ray), ray}; }

/// ray_consts()'s scale |origin|_inf + scene_mag, clamped: near the largest finite values the
/// sum can overflow, and an infinite delta would make the slab distances NaN. For a T or, lane by
/// lane with the same operations, a Lanes4<T> (written to `out`: a 32-byte vector is not returned
/// where AVX may be off, as in Lanes.h).
template <typename S, typename V, typename W>
inline void widening_scale(const V& origin_mag, const W& scene_mag, V& out) {
    const V sum = origin_mag + scene_mag, most = V{} + std::numeric_limits<S>::max();
    out = most < sum ? most : sum;  // std::min(sum, max)
}
/// ray_consts()'s widening delta for that scale: 128 eps mag (+ the least normal, so it is never 0).
template <typename S, typename V> inline void widening(const V& mag, V& out) {
    out = S(128) * std::numeric_limits<S>::epsilon() * mag + std::numeric_limits<S>::min();
}

/// RayConsts for a ray in a tree whose boxes reach at most `scene_mag` from the origin: boxes
/// widened by delta = 128 eps (|origin| + scene_mag), so culling never drops a triangle the test
/// accepts. The widest the test's t strays from the triangle's box is its clamp (intersect() step
/// 5): 64 eps of max(|lo|, |hi|), the line's passage through the box, in units of t; the point
/// there lies within 64 eps |t| |d|_inf <= 64 eps (|origin|_inf + scene_mag) of the box along each
/// axis. The other half covers the rounding of the slab test itself, which moves a plane by at
/// most 1.5 eps (|plane| + |origin|) (test_vectors()), and of the origin shifted by delta.
/// Fused when every |1 / direction| is at most max / (64 max(1, |origin|_inf + scene_mag)): a
/// node's planes lie within 5 scene_mag of 0 (a quantised node's decoded planes within twice its
/// box's extent of its low corner) and the shifted origin within 2 max(1, |origin|_inf +
/// scene_mag), so both products and their difference stay below max / 8. Rays with a zero direction component
/// (1 / direction infinite) or of extreme magnitudes are not fused.
template <typename T> inline RayConsts<T> ray_consts(const Ray<T>& ray, T scene_mag) {
    T mag, delta;
    widening_scale<T>(detail::max_abs(ray.origin), scene_mag, mag);
    widening<T>(mag, delta);
    RayConsts<T> rc{detail::widened_ray_consts(ray, delta)};
    using L = detail::Lanes4<T>;
    L inv, o_near, o_far;
    detail::load<T>(rc.inv, inv);
    detail::load<T>(rc.o_near, o_near);
    detail::load<T>(rc.o_far, o_far);
    // Products rather than quotients: an overflowing product is infinite and fails the test.
    const T scale = std::max(mag, T(1)), limit = std::numeric_limits<T>::max() / T(64);
    const L abs_inv = L(detail::Mask4<T>(inv) & ~detail::Mask4<T>(-L{}));  // every bit but the sign
    rc.fused = detail::all_xyz<T>(abs_inv * scale <= limit);
    detail::store<T>(o_near * inv, rc.near_scaled);
    detail::store<T>(o_far * inv, rc.far_scaled);
    return rc;
}

/// Whether a ray with constants rc meets the box [lo, hi] (widened by rc's delta) within [t0, t1]:
/// the node test's arithmetic (test_vectors()) for one box, so as conservative: the root box holds
/// every triangle's padded box, so a ray that misses it misses every triangle, and the walk stops
/// there before its first node (a picture's rays mostly miss a mesh).
template <typename T> inline bool enters(const RayConsts<T>& rc, const Vec3<T>& lo, const Vec3<T>& hi, T t0, T t1) {
    using L = detail::Lanes4<T>;
    L inv, o_near, o_far, lo4, hi4;
    detail::load<T>(rc.inv, inv);
    detail::load<T>(rc.o_near, o_near);
    detail::load<T>(rc.o_far, o_far);
    detail::load(lo, T(0), lo4);
    detail::load(hi, T(0), hi4);
    // The hi plane first where the direction is negative: 1 / direction has its sign (zeros too).
    detail::Mask4<T> neg;
    detail::sign_bits<T>(inv, neg);
    neg = neg != detail::Mask4<T>{};
    const L ta = ((neg ? hi4 : lo4) - o_near) * inv, tb = ((neg ? lo4 : hi4) - o_far) * inv;
    // A NaN distance never wins: the range's ends stand in for it.
    const L from = L{} + t0, to = L{} + t1;
    const L near = ta > from ? ta : from, far = tb < to ? tb : to;
    return detail::first_max_xyz<T>(near) <= detail::first_min_xyz<T>(far);
}

/// Box i padded outward by a few ulps of its largest coordinate (the scale at which the box and
/// the triangle test round).
template <typename T> inline Aabb<T> padded(const Aabb<T>& b) {
    const T m = std::max(detail::max_abs(b.min), detail::max_abs(b.max));
    const Vec3<T> pad(m * (T(8) * std::numeric_limits<T>::epsilon()) + std::numeric_limits<T>::min());
    return {b.min - pad, b.max + pad};
}

/// A collapsed tree: wide nodes (root at 0) built from the binary tree `bin`, chosen to minimise
/// the surface area heuristic's cost of the wide tree (the dynamic programme of Ylitie, Karras and
/// Laine, "Efficient Incoherent Ray Traversal on GPUs Through Compressed Wide BVHs", HPG 2017):
/// every binary subtree is costed as a leaf (when it holds at most max_leaf items: its area times
/// its packets of four), as a wide node (its area, plus its best split into at most kWidth child
/// slots), and as each number of slots up to kWidth; the cheapest is kept. So nodes fill up where
/// that pays and leaves merge small subtrees, where opening the largest child until a node is full
/// leaves nodes above two or three leaves half empty. make_leaf(first, count) stores the leaf of
/// slots [first, first + count) and returns its child reference (leaf_ref()). Nodes are numbered parents first.
template <typename T> struct Collapse {
    Collapse(const LargeVector<bvh_build::BinNode<T>>& bin_, LargeVector<Node<T>>& nodes_, std::uint32_t max_leaf_)
        : bin(bin_), nodes(nodes_), max_leaf(max_leaf_) {}

    const LargeVector<bvh_build::BinNode<T>>& bin;
    LargeVector<Node<T>>& nodes;
    std::uint32_t max_leaf;  ///< items a leaf may hold

    /// A node test costs as much as one packet (four triangles) of a leaf.
    static constexpr float kNodeCost = 1.0f;

    /// Per binary node: its slots, and per number of child slots j + 1 (at most kWidth) the least
    /// cost of covering it with that many and how: kOne (a single slot, a leaf or a node as
    /// as_leaf says), kFewer (as with j slots), else the left child's share of the slots.
    static constexpr std::int8_t kOne = 0, kFewer = -1;
    /// Costs are floats in units of the root's area (so whatever the coordinates' scale, the root
    /// costs about its node and leaves, far inside a float's range): a plan per binary node is
    /// most of the collapse's memory, and its first touch most of its time.
    struct Plan {
        float cost[kWidth];
        std::int8_t how[kWidth];
        std::int8_t node_left;  ///< as a node: the left child's share of its kWidth slots
        std::int8_t slots;      ///< the most slots it can fill: its binary leaves, at most kWidth
        bool as_leaf;
    };
    std::vector<std::uint32_t> first_, count_;
    std::vector<Plan> plan_;

    double area_scale_ = 1.0;  ///< 1 / the root's area, where that is finite and positive

    static double area(const bvh_build::BinNode<T>& b) {
        const Vec3<double> e = Vec3<double>(b.hi) - Vec3<double>(b.lo);
        const double a = e.x * e.y + e.y * e.z + e.z * e.x;
        return a == a ? std::max(a, 0.0) : infinity<double>();  // an infinite box: inf * 0
    }

    /// Costs every binary subtree, children before parents (depth-first order puts them after).
    void plan() {
        const std::size_t n = bin.size();
        first_.assign(n, 0);
        count_.assign(n, 0);
        plan_.assign(n, Plan{});
        const double root = area(bin[0]);
        area_scale_ = root > 0.0 && root < infinity<double>() ? 1.0 / root : 1.0;
        for (std::size_t i = n; i-- > 0;) {
            const bvh_build::BinNode<T>& b = bin[i];
            Plan& p = plan_[i];
            const float a = float(area(b) * area_scale_);
            if (b.count > 0) {
                first_[i] = b.first;
                count_[i] = b.count;
                p.as_leaf = true;
                p.slots = 1;
                for (int j = 0; j < kWidth; ++j) {
                    p.cost[j] = a * float((b.count + 3) / 4);
                    p.how[j] = kOne;
                }
                continue;
            }
            const std::size_t l = i + 1, r = b.first;
            first_[i] = first_[l];
            count_[i] = count_[l] + count_[r];
            // A child given more slots than it can fill costs what it costs with as many as it
            // can (its cost[] is flat beyond them), so only shares k of j + 1 slots with
            // k <= slots(l) and j + 1 - k <= slots(r) are tried: near the leaves, where most
            // binary nodes are, that is a few instead of all of them.
            const int sl = plan_[l].slots, sr = plan_[r].slots;
            p.slots = std::int8_t(std::min(kWidth, sl + sr));
            // As a node: the children share kWidth slots (when they cannot fill them all, the
            // left takes what it can fill).
            float split = infinity<float>();
            const int first_k = sl + sr < kWidth ? sl : std::max(1, kWidth - sr);
            p.node_left = std::int8_t(first_k);
            for (int k = first_k; k <= std::min(kWidth - 1, sl); ++k) {
                const float c = plan_[l].cost[k - 1] + plan_[r].cost[kWidth - k - 1];
                if (c < split) split = c, p.node_left = std::int8_t(k);
            }
            const float as_node = a * kNodeCost + split;
            const float as_leaf = count_[i] <= max_leaf ? a * float((count_[i] + 3) / 4) : infinity<float>();
            // Never a leaf beyond max_leaf, even where both costs are infinite (boxes of infinite
            // area, near the largest finite coordinates).
            p.as_leaf = count_[i] <= max_leaf && as_leaf <= as_node;
            p.cost[0] = p.as_leaf ? as_leaf : as_node;
            p.how[0] = kOne;
            for (int j = 1; j < kWidth; ++j) {
                p.cost[j] = p.cost[j - 1];
                p.how[j] = kFewer;
                if (j >= p.slots) continue;  // no more slots can be filled
                for (int k = std::max(1, j + 1 - sr); k <= std::min(j, sl); ++k) {
                    const float c = plan_[l].cost[k - 1] + plan_[r].cost[j - k];
                    if (c < p.cost[j]) p.cost[j] = c, p.how[j] = std::int8_t(k);
                }
            }
        }
    }

    /// The child slots covering binary node b with at most `slots` of them, appended to kids.
    void gather(std::uint32_t b, int slots, std::uint32_t* kids, int& n) const {
        for (;;) {
            const std::int8_t how = plan_[b].how[slots - 1];
            if (how == kFewer) {
                --slots;
                continue;
            }
            if (how == kOne) {
                kids[n++] = b;
                return;
            }
            gather(b + 1, how, kids, n);
            gather(bin[b].first, slots - how, kids, n);
            return;
        }
    }

    /// Builds the whole tree: its root node is nodes[0]. A lone leaf (at most max_leaf items) is
    /// the root's only child.
    template <typename MakeLeaf> void build(const MakeLeaf& make_leaf) {
        plan();
        node(0, make_leaf);
    }

    /// Node index of the wide node made of binary node b's descendants.
    template <typename MakeLeaf> std::uint32_t node(std::uint32_t b, const MakeLeaf& make_leaf) {
        std::uint32_t kids[kWidth];
        int n = 0;
        if (bin[b].count > 0 || plan_[b].as_leaf) {
            kids[n++] = b;  // a lone leaf: the root holds it
        } else {
            gather(b + 1, plan_[b].node_left, kids, n);
            gather(bin[b].first, kWidth - plan_[b].node_left, kids, n);
        }
        const auto index = std::uint32_t(nodes.size());
        nodes.emplace_back();
        for (int k = 0; k < kWidth; ++k) {
            nodes[index].child[k] = kNone;
            for (int a = 0; a < 3; ++a) {
                nodes[index].lo[a][k] = infinity<T>();
                nodes[index].hi[a][k] = -infinity<T>();
            }
        }
        nodes[index].occupied = (1u << n) - 1;
        for (int k = 0; k < n; ++k) {
            const bvh_build::BinNode<T>& c = bin[kids[k]];
            const std::uint32_t ref = plan_[kids[k]].as_leaf ? make_leaf(first_[kids[k]], count_[kids[k]])
                                                             : node(kids[k], make_leaf);
            Node<T>& out = nodes[index];  // after the recursion: nodes may have grown
            out.child[k] = ref;
            for (int a = 0; a < 3; ++a) {
                out.lo[a][k] = c.lo[a];
                out.hi[a][k] = c.hi[a];
            }
        }
        return index;
    }
};

}  // namespace mesh_bvh

namespace mesh_walk_sse2 {
constexpr int kVectorBytes = 16;
constexpr bool kFma = false;
#include <raypick/geometry/MeshWalk.inl>
#include <raypick/geometry/MeshBundleWalk.inl>
}  // namespace mesh_walk_sse2

RAYPICK_TARGET_BEGIN("avx2,fma")
namespace mesh_walk_avx2 {
constexpr int kVectorBytes = 32;
constexpr bool kFma = true;
#include <raypick/geometry/MeshWalk.inl>
#include <raypick/geometry/MeshBundleWalk.inl>
}  // namespace mesh_walk_avx2
RAYPICK_TARGET_END

RAYPICK_TARGET_BEGIN("avx2,fma,avx512f,avx512dq,avx512bw,avx512vl")
namespace mesh_walk_avx512 {
constexpr int kVectorBytes = 32;
constexpr bool kFma = true;
#include <raypick/geometry/MeshWalk.inl>
#include <raypick/geometry/MeshBundleWalk.inl>
}  // namespace mesh_walk_avx512
RAYPICK_TARGET_END

namespace mesh_bvh {
/// Calls fn with the walk compiled for `isa` (an effective_isa()): a Walks, whose static members
/// are that copy's entry points. Every copy picks the same, bit for bit.
template <typename Fn> inline void with_walk(BatchIsa isa, const Fn& fn) {
    switch (isa) {
        case BatchIsa::Avx512: return fn(mesh_walk_avx512::Walks{});
        case BatchIsa::Avx2: return fn(mesh_walk_avx2::Walks{});
        default: return fn(mesh_walk_sse2::Walks{});
    }
}
}  // namespace mesh_bvh

/// Triangle `id`'s hit h as a MeshHit: the interpolated vertex normals when the mesh has normals
/// (in `frame`, the one h's normal is in, then normalised; the geometric normal where they cancel
/// out). Requires id < triangle_count().
template <typename T, typename Frame = detail::SameFrame>
MeshHit<T> mesh_hit(const TriangleMesh<T>& mesh, std::uint32_t id, const TriangleHit<T>& h, const Frame& frame = {}) {
    MeshHit<T> out{id, h.t, h.barycentric, h.normal, h.front, std::nullopt};
    if (mesh.has_normals()) {
        const auto& v = mesh.indices[id];
        const Vec3<T>& w = h.barycentric;
        out.shading_normal = normalize_or(
            frame(Vec3<T>(w.x * mesh.normals[v[0]] + w.y * mesh.normals[v[1]] + w.z * mesh.normals[v[2]])), h.normal);
    }
    return out;
}

template <typename T> struct MeshClosest;  // MeshClosest.inl

/// A triangle mesh and its hierarchy, for nearest-hit and every-hit picking.
///
/// - Watertight: a ray through a point of an edge or vertex shared by triangles of a closed mesh
///   hits at least one of them (the leaves test the vertex positions themselves, exactly as
///   intersect() does).
/// - pick() is exactly the brute-force loop pick_nearest_triangle(): the same triangle and the
///   same t, bit for bit; ties in t go to the smaller triangle index.
/// - Node tests widen boxes by the ray's rounding scale (more than the triangle test's clamp and
///   the slab test's own rounding can stray), and triangle boxes are padded, so culling never
///   loses a triangle the test accepts.
/// - Immutable once built; const member functions may be called from any number of threads.
/// - A pick's traversal stack lives on the calling thread's stack (README, "Stack": about 18 KB
///   for a float pick, 36 KB for a double one, 53 and 86 KB for a bundle).
template <typename T> class MeshBvh {
public:
    using Node = mesh_bvh::Node<T>;
    using Packet = mesh_bvh::Packet<T>;

    MeshBvh() = default;

    /// Builds over `mesh` (kept inside). Throws std::invalid_argument with validate()'s message
    /// (naming the bad vertex or triangle) when the mesh is invalid. An empty mesh is never hit.
    /// `isa`: the instruction set of the walk (Auto: the widest the CPU has). A float tree
    /// whose exact nodes and packets take more than `compact_above_bytes` walks quantised nodes
    /// (QNode: three eighths of the node bytes, where some box is not finite the exact ones);
    /// unset, half the CPU's last-level cache: while the exact tree stays in cache, decoding costs
    /// more than it saves, beyond that the smaller node fetches win (the rule Bvh follows). Every
    /// choice of both picks the same.
    explicit MeshBvh(TriangleMesh<T> mesh, BatchIsa isa = BatchIsa::Auto,
                     std::optional<std::size_t> compact_above_bytes = std::nullopt)
        : mesh_(std::move(mesh)) {
        if (const auto err = validate(mesh_)) throw std::invalid_argument("raypick::MeshBvh: " + err->message);
        isa_ = effective_isa(isa);
        build(compact_above_bytes.value_or(detail::last_level_cache_bytes() / 2));
    }

    const TriangleMesh<T>& mesh() const { return mesh_; }
    std::size_t triangle_count() const { return mesh_.indices.size(); }
    /// Box of every triangle (padded by a few ulps); empty (min > max) for an empty mesh.
    Aabb<T> bounds() const { return {root_lo_, root_hi_}; }
    /// Up to kCoverBoxes boxes whose union holds every triangle that can be hit (a cut through the
    /// tree's top levels, the largest boxes opened first): under a rotation or shear, the box of
    /// their mapped corners is far tighter than that of bounds()' corners (InstanceBvh bounds its
    /// instances so). Empty for an empty mesh.
    const std::vector<Aabb<T>>& cover() const { return cover_; }
    static constexpr std::size_t kCoverBoxes = 256;
    /// Bytes of the hierarchy (nodes and triangle packets), not counting the mesh itself.
    std::size_t hierarchy_bytes() const {
        return nodes_.size() * sizeof(Node) + qnodes_.size() * sizeof(mesh_bvh::QNode) + packets_.size() * sizeof(Packet);
    }
    std::size_t node_count() const { return std::max(nodes_.size(), qnodes_.size()); }
    /// Whether the walks read quantised nodes (see the constructor).
    bool compact() const { return !qnodes_.empty(); }

    /// Nearest triangle hit with t in [t_min, t_max]; ties in t go to the smaller triangle index.
    /// Empty for a miss, an invalid ray (non-finite, zero direction) or t_min > t_max.
    std::optional<MeshHit<T>> pick(const Ray<T>& ray, T t_min = T(0), T t_max = infinity<T>()) const {
        mesh_bvh::Best<T> best{t_max};
        if (packets_.empty() || !is_valid(ray) || !detail::valid_range(t_min, t_max)) return std::nullopt;
        const auto sr = mesh_bvh::sheared(ray);
        if (!walk_nearest(sr, t_min, best)) return std::nullopt;
        return hit(sr, best);
    }

    /// Every triangle the ray hits with t in [t_min, t_max], sorted by t, then triangle index.
    /// Empty for an invalid ray or range.
    /// With a `frame` (as hit()'s), the hits' normals in that frame.
    template <typename Frame = detail::SameFrame>
    std::vector<MeshHit<T>> hits(const Ray<T>& ray, T t_min = T(0), T t_max = infinity<T>(), const Frame& frame = {}) const {
        std::vector<mesh_bvh::Best<T>> found;
        if (packets_.empty() || !is_valid(ray) || !detail::valid_range(t_min, t_max)) return {};
        const auto rc = mesh_bvh::ray_consts(ray, scene_mag_);
        const auto sr = mesh_bvh::sheared(ray);
        const auto visit = [&](const mesh_bvh::Best<T>& b) { found.push_back(b); };
        with_nodes([&](const auto* nodes) {
            mesh_bvh::with_walk(isa_, [&](auto w) { w.every_hit(nodes, packets_.data(), rc, sr, t_min, t_max, visit); });
        });
        std::sort(found.begin(), found.end(), [](const auto& a, const auto& b) {
            return a.t < b.t || (a.t == b.t && a.id < b.id);
        });
        std::vector<MeshHit<T>> out;
        out.reserve(found.size());
        for (const auto& f : found) out.push_back(hit(ray, f, frame));
        return out;
    }

    /// Calls visit(const mesh_bvh::Best<T>&) for the triangles the ray hits with t in [t_min,
    /// t_max] (intersect()'s hits: best.id the triangle, best.t its t; hit() gives the full hit),
    /// in the walk's order, not sorted, until visit returns true; returns whether it did. Nothing
    /// is visited for an invalid ray or range.
    template <typename Visit> bool visit_hits(const Ray<T>& ray, T t_min, T t_max, const Visit& visit) const {
        if (packets_.empty() || !is_valid(ray) || !detail::valid_range(t_min, t_max)) return false;
        const auto rc = mesh_bvh::ray_consts(ray, scene_mag_);
        if (!mesh_bvh::enters(rc, root_lo_, root_hi_, t_min, t_max)) return false;
        const auto sr = mesh_bvh::sheared(ray);
        bool stopped = false;
        with_nodes([&](const auto* nodes) {
            mesh_bvh::with_walk(isa_, [&](auto w) {
                stopped = w.every_hit_until(nodes, packets_.data(), rc, sr, t_min, t_max, visit);
            });
        });
        return stopped;
    }

    /// Whether the ray hits some triangle with t in [t_min, t_max]: exactly when pick() would not
    /// be empty, found by a walk that stops at the first hit. False for an invalid ray or range.
    bool occluded(const Ray<T>& ray, T t_min = T(0), T t_max = infinity<T>()) const {
        return visit_hits(ray, t_min, t_max, [](const mesh_bvh::Best<T>&) { return true; });
    }

    /// Calls fn(const Triangle<T>&, std::uint32_t index) once for each triangle of the leaves
    /// whose boxes the ray crosses within [t_min, t_max] (the walk's widened test): a superset of
    /// the triangles the ray or any line within rounding of it meets there. Zero-area triangles
    /// are not in the tree. Nothing for an invalid ray or range.
    template <typename Fn> void for_each_candidate(const Ray<T>& ray, T t_min, T t_max, const Fn& fn) const {
        if (packets_.empty() || !is_valid(ray) || !detail::valid_range(t_min, t_max)) return;
        const auto rc = mesh_bvh::ray_consts(ray, scene_mag_);
        if (!mesh_bvh::enters(rc, root_lo_, root_hi_, t_min, t_max)) return;
        const auto leaf = [&](std::uint32_t first, std::uint32_t count, T&) {
            for (std::uint32_t k = 0; k < count; ++k) {
                const Packet& p = packets_[first + k / 4];
                fn(mesh_bvh::triangle_of(p, k % 4), p.id[k % 4]);
            }
        };
        T limit = t_max;
        const char* leaves = reinterpret_cast<const char*>(packets_.data());
        with_nodes([&](const auto* nodes) {
            mesh_bvh::with_walk(isa_, [&](auto w) { w.walk_tree(nodes, leaves, sizeof(Packet), rc, t_min, limit, leaf); });
        });
    }

    /// The hierarchy's part of pick(), for callers that combine several meshes: replaces `best`
    /// when a triangle is hit at t in [t_min, best.t] with t < best.t, or t == best.t and an
    /// index below best.id. Returns whether it replaced it. An invalid ray or range changes nothing.
    bool nearest(const Ray<T>& ray, T t_min, mesh_bvh::Best<T>& best) const {
        if (packets_.empty() || !is_valid(ray) || !detail::valid_range(t_min, best.t)) return false;
        return walk_nearest(mesh_bvh::sheared(ray), t_min, best);
    }

    /// Picks for a bundle of rays at once (coherent rays such as an 8 x 8 tile of pixels from one
    /// eye): out[i] is exactly pick(rays[i], t_min, t_max), for any rays. The rays walk the tree
    /// together (MeshBundle.inl); bundles larger than kMaxBundle are split.
    void pick_bundle(const Ray<T>* rays, std::size_t count, std::optional<MeshHit<T>>* out, T t_min = T(0),
                     T t_max = infinity<T>()) const;
    /// The same with a range per ray: out[i] is exactly pick(rays[i], t_min, t_max[i]).
    void pick_bundle(const Ray<T>* rays, std::size_t count, std::optional<MeshHit<T>>* out, T t_min,
                     const T* t_max) const;
    /// Rays per bundle walk.
    static constexpr std::size_t kMaxBundle = 64;
    /// nearest() for the rays of `live` (bit i: rays[i]) at once, each with its own best[i]:
    /// returns the rays whose best was replaced. Exactly nearest(rays[i], t_min, best[i]) per ray.
    /// RootCull::skip leaves out the test of each ray against the root's box (entering_rays()), a
    /// cull only: for rays already culled by a box that holds the mesh, as an instance's does.
    std::uint64_t nearest_bundle(const Ray<T>* rays, std::uint64_t live, T t_min, mesh_bvh::Best<T>* best,
                                 mesh_bvh::RootCull cull = mesh_bvh::RootCull::test) const;

    /// The full hit (as intersect() gives it, plus the interpolated normal) of the triangle that
    /// nearest() or hits() found for this ray: intersect()'s step 7 for that triangle, with the t
    /// and edge functions the walk found (intersect()'s, bit for bit). Its vertices are read from
    /// the packet the walk tested, not from the mesh. Requires `best` set by this hierarchy's
    /// walk for this ray. `frame` maps the normals (and their fallback directions) before they are
    /// normalised: an instance's normal map (mesh_instances::NormalFrame) gives them in world
    /// space with one rounding; by default they stay in the mesh's.
    template <typename Frame = detail::SameFrame>
    MeshHit<T> hit(const Ray<T>& ray, const mesh_bvh::Best<T>& best, const Frame& frame = {}) const {
        return hit(mesh_bvh::sheared(ray), best, frame);
    }

    // Closest points (MeshClosest.inl).

    /// The triangle nearest to p within max_distance (distance <= max_distance), its closest point
    /// as closest_point_barycentric() gives it: exactly closest_triangle(mesh(), p, max_distance),
    /// the brute-force loop over every triangle (ties in distance go to the smaller index; zero-area
    /// triangles included). The tree is walked nearest box first; a node is skipped when its box
    /// lies farther than the nearest triangle so far (with the slack of the distances' rounding).
    /// Empty for a non-finite p, a negative or NaN max_distance, or no triangle within it.
    std::optional<MeshClosest<T>> closest_point(const Vec3<T>& p, T max_distance = infinity<T>()) const;
    /// closest_point()'s walk, for callers that combine meshes (InstanceBvh): calls
    /// visit(index, triangle) for every zero-area triangle, then for each triangle of every leaf
    /// whose box may lie within `limit` of q (mesh coordinates; visit() may lower limit, and boxes
    /// beyond the lowered limit are skipped from then on). A triangle's vertices are the mesh's.
    template <typename Visit> void closest_walk(const Vec3<T>& q, T& limit, const Visit& visit) const;
    /// The zero-area triangles' indices, ascending: never hit, so not in the hierarchy, but they
    /// have closest points (closest_walk() visits them all).
    const std::vector<std::uint32_t>& degenerate_triangles() const { return degenerate_; }

private:
    std::vector<std::uint32_t> degenerate_;  ///< see degenerate_triangles()

private:
    template <typename Frame = detail::SameFrame>
    MeshHit<T> hit(const mesh_bvh::ShearedRay<T>& sr, const mesh_bvh::Best<T>& best, const Frame& frame = {}) const {
        const Triangle<T> tri = mesh_bvh::triangle_of(*best.packet, best.lane);
        const T det = best.e[0] + best.e[1] + best.e[2];
        const TriangleHit<T> h =
            detail::triangle_hit<T>(sr.ray, detail::area_vector(tri), sr, best.e, det, best.t, frame);
        return mesh_hit(mesh_, best.id, h, frame);
    }

    /// nearest() for a valid ray and range.
    bool walk_nearest(const mesh_bvh::ShearedRay<T>& sr, T t_min, mesh_bvh::Best<T>& best) const {
        const auto rc = mesh_bvh::ray_consts(sr.ray, scene_mag_);
        if (!mesh_bvh::enters(rc, root_lo_, root_hi_, t_min, best.t)) return false;
        const mesh_bvh::Packet<T>* before = best.packet;
        const unsigned before_lane = best.lane;
        with_nodes([&](const auto* nodes) {
            mesh_bvh::with_walk(isa_, [&](auto w) { w.nearest_hit(nodes, packets_.data(), rc, sr, t_min, best); });
        });
        return best.packet != before || best.lane != before_lane;
    }

    /// Calls fn with the nodes the walks read: the quantised ones where the tree has them.
    template <typename Fn> void with_nodes(const Fn& fn) const {
        if constexpr (std::is_same_v<T, float>) {
            if (!qnodes_.empty()) return fn(qnodes_.data());
        }
        fn(nodes_.data());
    }

    void build(std::size_t compact_above_bytes) {
        const auto n = std::uint32_t(mesh_.indices.size());
        nodes_.clear();
        qnodes_.clear();
        packets_.clear();
        cover_.clear();
        root_lo_ = Vec3<T>(infinity<T>());
        root_hi_ = Vec3<T>(-infinity<T>());
        scene_mag_ = T(0);
        // Zero-area triangles are never hit (intersect()), so the hierarchy leaves them out: the
        // leaf test, which repeats intersect()'s arithmetic without its zero-area check, then
        // never sees one.
        std::vector<std::uint32_t> live;
        live.reserve(n);
        for (std::uint32_t i = 0; i < n; ++i)
            (is_degenerate(triangle(mesh_, i)) ? degenerate_ : live).push_back(i);
        if (live.empty()) return;
        bvh_build::Settings settings;
        settings.max_leaf_size = 4;  // one packet; the collapse merges subtrees into leaves of up to two
        // The binned SAH from the root down (no Morton-ordered top levels, which build faster but
        // split at spatial medians): a mesh is built once and picked many times.
        settings.morton_min = std::numeric_limits<std::uint32_t>::max();
        settings.max_depth = mesh_bvh::kMaxDepth;
        const bvh_build::Tree<T> tree = bvh_build::Builder<T>().build(
            std::uint32_t(live.size()),
            [&](std::uint32_t i) { return mesh_bvh::padded(raypick::bounds(triangle(mesh_, live[i]))); }, settings);
        root_lo_ = tree.nodes[0].lo;
        root_hi_ = tree.nodes[0].hi;
        // Finite even when padding took a box near the largest finite value to infinity.
        scene_mag_ = std::min(std::max(detail::max_abs(root_lo_), detail::max_abs(root_hi_)),
                              std::numeric_limits<T>::max());
        // Packets in leaf order: at most one partly filled per leaf.
        nodes_.reserve(tree.nodes.size() / 4 + 1);
        packets_.reserve(live.size() / 2 + 1);
        const auto make_leaf = [&](std::uint32_t first, std::uint32_t count) {
            const auto at = std::uint32_t(packets_.size());
            if (at > mesh_bvh::kFirstMask) throw std::length_error("raypick::MeshBvh: too many triangles");
            for (std::uint32_t k = 0; k < count; k += 4) {
                Packet& p = packets_.emplace_back();
                for (std::uint32_t l = 0; l < 4; ++l) {
                    const std::uint32_t id = live[tree.order[first + std::min(k + l, count - 1)]];
                    const Triangle<T> tri = triangle(mesh_, id);
                    const Vec3<T>* v[3] = {&tri.a, &tri.b, &tri.c};
                    for (int j = 0; j < 3; ++j)
                        for (int a = 0; a < 3; ++a) p.v[j][a][l] = (*v[j])[a];
                    p.id[l] = id;
                }
            }
            return mesh_bvh::leaf_ref(at, count);
        };
        mesh_bvh::Collapse<T>(tree.nodes, nodes_, mesh_bvh::kMaxLeaf).build(make_leaf);
        // The cover: from the root's child boxes, the inner one of largest extent replaced by its
        // children's while they fit in kCoverBoxes.
        struct Part {
            Aabb<T> box;
            std::uint32_t node;  ///< kNone: a leaf's box
        };
        std::vector<Part> parts;
        const auto open = [&](std::uint32_t index) {
            const Node& n = nodes_[index];
            for (int c = 0; c < mesh_bvh::kWidth; ++c) {
                if (!(n.occupied >> c & 1)) continue;
                const std::uint32_t ref = n.child[c];
                const Aabb<T> box{Vec3<T>(n.lo[0][c], n.lo[1][c], n.lo[2][c]),
                                  Vec3<T>(n.hi[0][c], n.hi[1][c], n.hi[2][c])};
                parts.push_back({box, ref & mesh_bvh::kLeaf ? mesh_bvh::kNone : ref});
            }
        };
        open(0);
        for (;;) {
            std::size_t widest = parts.size();
            T extent = -infinity<T>();
            for (std::size_t k = 0; k < parts.size(); ++k) {
                const Vec3<T> e = parts[k].box.max - parts[k].box.min;
                if (parts[k].node != mesh_bvh::kNone && e.x + e.y + e.z > extent) widest = k, extent = e.x + e.y + e.z;
            }
            if (widest == parts.size()) break;
            const std::uint32_t index = parts[widest].node;
            if (parts.size() - 1 + std::size_t(__builtin_popcount(nodes_[index].occupied)) > kCoverBoxes) break;
            parts[widest] = parts.back();
            parts.pop_back();
            open(index);
        }
        for (const Part& part : parts) cover_.push_back(part.box);
        // Large float trees walk quantised nodes (three eighths of the node bytes: a pick of a
        // large mesh waits on memory), unless some box is not finite; then the exact ones, which
        // are otherwise dropped.
        if constexpr (std::is_same_v<T, float>) {
            if (hierarchy_bytes() <= compact_above_bytes) return;
            qnodes_.resize(nodes_.size());
            for (std::size_t k = 0; k < nodes_.size(); ++k) {
                if (!mesh_bvh::encode(nodes_[k], qnodes_[k])) {
                    qnodes_.clear();
                    return;
                }
            }
            nodes_.clear();
            nodes_.shrink_to_fit();
        }
    }

    TriangleMesh<T> mesh_;
    LargeVector<Node> nodes_;  ///< exact nodes (double trees, and float trees that do not quantise)
    LargeVector<mesh_bvh::QNode> qnodes_;
    LargeVector<Packet> packets_;
    std::vector<Aabb<T>> cover_;  ///< see cover()
    Vec3<T> root_lo_{infinity<T>()}, root_hi_{-infinity<T>()};
    T scene_mag_ = T(0);
    BatchIsa isa_ = BatchIsa::Sse2;  ///< the walk's, an effective_isa()
};

/// Nearest triangle hit by brute force over every triangle in index order: the reference MeshBvh
/// is tested against, with the same contract as MeshBvh::pick (ties to the smaller index).
/// Requires a valid mesh.
template <typename T>
std::optional<MeshHit<T>> pick_nearest_triangle(const TriangleMesh<T>& mesh, const Ray<T>& ray, T t_min = T(0),
                                                 T t_max = infinity<T>()) {
    std::optional<MeshHit<T>> best;
    for (std::uint32_t i = 0; i < mesh.indices.size(); ++i) {
        const auto h = intersect(ray, triangle(mesh, i), t_min, best ? best->t : t_max);
        if (!h || (best && h->t == best->t)) continue;  // a tie keeps the smaller index
        best = mesh_hit(mesh, i, *h);
    }
    return best;
}

}  // namespace raypick

#include <raypick/geometry/MeshBundle.inl>
#include <raypick/geometry/MeshClosest.inl>
