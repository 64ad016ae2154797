// raypick geometry: the BVH node test, leaf test and single-ray walk, written once with GCC vector
// extensions and included three times by BvhNode.h — in namespace bvh_walk_sse2 (16-byte vectors,
// any x86-64), and in bvh_walk_avx2 and bvh_walk_avx512 (32-byte vectors, compiled for AVX2 and
// for AVX-512). The includer defines kVectorBytes (the node test's vector width).
// Every lane does the same IEEE operations in the same order at any width, so all copies make
// the same decisions, bit for bit. Do not reassociate anything here.

/// The batch kernels at the leaves' width of 16 bytes (BvhLeaf.h), built for this copy's
/// instruction set.
namespace leaf_kernels {
constexpr int kFloatLanes = 4;
constexpr int kDoubleLanes = 2;
#include <raypick/geometry/BatchKernels.inl>
}  // namespace leaf_kernels

/// Each shape type's batch kernels (BatchKernels.inl) on the leaves' lanes (ShapeTraits.h's order:
/// the fields' scalars, then is_valid() for a type with cached_validity): group() is one ray
/// against a vector of shapes; shape() is one shape as leaf_kernels::cast_rays() takes it against a
/// vector of rays. A type without an entry
/// here is tested by its scalar code, shape by shape and ray by ray, with the same results.
template <typename S> struct LeafKernel {
    static constexpr bool exists = false;
};
template <typename T> struct LeafKernel<Sphere<T>> {
    static constexpr bool exists = true;
    static leaf_kernels::MaskT<T> group(const Ray<T>& ray, const T* f, std::size_t L, std::size_t g, std::size_t cnt,
                                        T t_min, T t_max, leaf_kernels::VecT<T>& tn, leaf_kernels::VecT<T>& tf) {
        return leaf_kernels::sphere_group<T>(ray, SphereView<T>{f, f + L, f + 2 * L, f + 3 * L}, g, cnt, t_min, t_max,
                                             tn, tf);
    }
    static Sphere<T> shape(const T* f, std::size_t L, std::size_t s) { return load_lanes<Sphere<T>>(f + s, L); }
};
template <typename T> struct LeafKernel<Aabb<T>> {
    static constexpr bool exists = true;
    static leaf_kernels::MaskT<T> group(const Ray<T>& ray, const T* f, std::size_t L, std::size_t g, std::size_t cnt,
                                        T t_min, T t_max, leaf_kernels::VecT<T>& tn, leaf_kernels::VecT<T>& tf) {
        return leaf_kernels::aabb_group<T>(ray, AabbView<T>{f, f + L, f + 2 * L, f + 3 * L, f + 4 * L, f + 5 * L}, g,
                                           cnt, t_min, t_max, tn, tf);
    }
    static Aabb<T> shape(const T* f, std::size_t L, std::size_t s) { return load_lanes<Aabb<T>>(f + s, L); }
};
/// Lanes: centre 0-2, half extents 3-5, rotation 6-14 (column-major), is_valid() 15.
template <typename T> struct LeafKernel<Obb<T>> {
    static constexpr bool exists = true;
    static ObbView<T> view(const T* f, std::size_t L) {
        ObbView<T> v{f, f + L, f + 2 * L, f + 3 * L, f + 4 * L, f + 5 * L, {}, f + 15 * L};
        for (int k = 0; k < 9; ++k) v.m[k] = f + std::size_t(6 + k) * L;
        return v;
    }
    static leaf_kernels::MaskT<T> group(const Ray<T>& ray, const T* f, std::size_t L, std::size_t g, std::size_t cnt,
                                        T t_min, T t_max, leaf_kernels::VecT<T>& tn, leaf_kernels::VecT<T>& tf) {
        return leaf_kernels::obb_group<T>(ray, view(f, L), g, cnt, t_min, t_max, tn, tf);
    }
    /// The box goes with the validity stored in the leaf (not checked again per group of rays).
    static leaf_kernels::CheckedObb<T> shape(const T* f, std::size_t L, std::size_t s) {
        return {load_lanes<Obb<T>>(f + s, L), f[15 * L + s] != T(0)};
    }
};
template <typename T> struct LeafKernel<Capsule<T>> {
    static constexpr bool exists = true;
    static leaf_kernels::MaskT<T> group(const Ray<T>& ray, const T* f, std::size_t L, std::size_t g, std::size_t cnt,
                                        T t_min, T t_max, leaf_kernels::VecT<T>& tn, leaf_kernels::VecT<T>& tf) {
        return leaf_kernels::capsule_group<T>(
            ray, CapsuleView<T>{f, f + L, f + 2 * L, f + 3 * L, f + 4 * L, f + 5 * L, f + 6 * L}, g, cnt, t_min, t_max,
            tn, tf);
    }
    static Capsule<T> shape(const T* f, std::size_t L, std::size_t s) { return load_lanes<Capsule<T>>(f + s, L); }
};

/// The vector type of the node test.
template <typename T> struct NodeVec {
    static constexpr int kLanes = kVectorBytes / int(sizeof(T));
    typedef T V __attribute__((vector_size(kVectorBytes)));
};

/// Bit l set where [tn, tf] is non-empty after widening both ends by a few ulps (Ize 2013), so
/// rounding never drops a box. A NaN (0 * inf: zero direction component and origin exactly on
/// that plane) never wins the max/min that made tn and tf, so it constrains nothing.
template <typename T>
__attribute__((always_inline)) inline unsigned widened_hits(typename NodeVec<T>::V tn, typename NodeVec<T>::V tf) {
    using V = typename NodeVec<T>::V;
    using M = decltype(V{} < V{});
    const V zero{};
    const T eps = T(4) * std::numeric_limits<T>::epsilon();
    // |tn|, |tf| by clearing the sign bits (one AND each; the select form takes seven instructions).
    // -0 has only the sign bit set; vector casts reinterpret the bits.
    const M magnitude = ~M(-zero);
    const V atn = V(M(tn) & magnitude), atf = V(M(tf) & magnitude);
    const M hit = (tn - atn * eps) <= (tf + atf * eps);
    constexpr bool f = sizeof(T) == 4;
    if constexpr (kVectorBytes == 16) {
        if constexpr (f) return unsigned(_mm_movemask_ps(__m128(hit)));
        else return unsigned(_mm_movemask_pd(__m128d(hit)));
    } else {
        if constexpr (f) return unsigned(_mm256_movemask_ps(__m256(hit)));
        else return unsigned(_mm256_movemask_pd(__m256d(hit)));
    }
}

/// Entry distances and hit mask (bit k) of a node's child boxes within [t0, t1], one vector of
/// children at a time: planes(c, a, near_plane, far_plane) gives vector c's planes of axis a met
/// first and last, slab(a, near_plane, far_plane, ta, tb) their entry and exit distances.
template <typename T, typename Planes, typename Slab>
__attribute__((always_inline)) inline unsigned test_planes(const Planes& planes, T t0, T t1, T* entry, const Slab& slab) {
    using V = typename NodeVec<T>::V;
    constexpr int L = NodeVec<T>::kLanes;
    const V zero{};
    unsigned mask = 0;
    for (int c = 0; c < bvh_node::kWidth / L; ++c) {
        V tn = zero + t0, tf = zero + t1;
        for (int a = 0; a < 3; ++a) {
            V near_plane, far_plane, ta, tb;
            planes(c, a, near_plane, far_plane);
            slab(a, near_plane, far_plane, ta, tb);
            tn = ta > tn ? ta : tn;
            tf = tb < tf ? tb : tf;
        }
        std::memcpy(entry + c * L, &tn, sizeof(V));
        mask |= widened_hits<T>(tn, tf) << (L * c);
    }
    return mask;
}

/// test_planes() on an exact node n: near_off / far_off are the byte offsets in a Node of each
/// axis's plane met first / last.
template <typename T, typename Slab>
__attribute__((always_inline)) inline unsigned test_children(const bvh_node::Node<T>& n, const std::size_t* near_off,
                                                             const std::size_t* far_off, T t0, T t1, T* entry,
                                                             const Slab& slab) {
    using V = typename NodeVec<T>::V;
    const char* base = reinterpret_cast<const char*>(&n);
    const auto planes = [&](int c, int a, V& near_plane, V& far_plane) __attribute__((always_inline)) {
        std::memcpy(&near_plane, base + near_off[a] + std::size_t(c) * sizeof(V), sizeof(V));
        std::memcpy(&far_plane, base + far_off[a] + std::size_t(c) * sizeof(V), sizeof(V));
    };
    return test_planes(planes, t0, t1, entry, slab);
}

/// Children of n with their bit set in mask, empty slots left out (near the largest finite
/// values the widened origin can be infinite, and inf - inf = NaN would let an empty box
/// through), made into stack entries by make(k) and sorted farthest first. Returns how many.
/// A node test mostly finds no hit child or one (two less often): each of these cases takes
/// one branch here, where a loop over the mask's bits mispredicted its exit about once a node.
template <typename N, typename E, typename Make>
__attribute__((always_inline)) inline int sorted_children(const N& n, unsigned mask, E* kids, const Make& make) {
    mask &= bvh_node::occupied(n);
    if (mask == 0) return 0;
    const unsigned rest = mask & (mask - 1);
    if (rest == 0) {
        kids[0] = make(__builtin_ctz(mask));
        return 1;
    }
    if ((rest & (rest - 1)) == 0) {  // two: the farther first, as the loop below orders them
        const E a = make(__builtin_ctz(mask)), b = make(__builtin_ctz(rest));
        const bool b_farther = a.t < b.t;
        kids[0] = b_farther ? b : a;
        kids[1] = b_farther ? a : b;
        return 2;
    }
    int nk = 0;
    while (mask) {
        const int k = __builtin_ctz(mask);
        mask &= mask - 1;
        const E c = make(k);
        int j = nk++;
        while (j > 0 && kids[j - 1].t < c.t) { kids[j] = kids[j - 1]; --j; }
        kids[j] = c;
    }
    return nk;
}

/// A single ray's node test: its RayConsts per vector, and which plane of each axis is met
/// first as a byte offset in a Node and in a Compact node.
template <typename T> struct RayVectors {
    typename NodeVec<T>::V o_near[3], o_far[3], inv[3];
    std::size_t near_off[3], far_off[3];
    std::size_t near_code[3], far_code[3];
};

template <typename T> inline RayVectors<T> ray_vectors(const bvh_node::RayConsts<T>& rc) {
    using Node = bvh_node::Node<T>;
    const typename NodeVec<T>::V zero{};
    RayVectors<T> rv;
    for (int a = 0; a < 3; ++a) {
        rv.o_near[a] = zero + rc.o_near[a];
        rv.o_far[a] = zero + rc.o_far[a];
        rv.inv[a] = zero + rc.inv[a];
        const std::size_t lo_off = offsetof(Node, lo) + std::size_t(a) * bvh_node::kWidth * sizeof(T);
        const std::size_t hi_off = offsetof(Node, hi) + std::size_t(a) * bvh_node::kWidth * sizeof(T);
        rv.near_off[a] = rc.neg[a] ? hi_off : lo_off;
        rv.far_off[a] = rc.neg[a] ? lo_off : hi_off;
        using C = bvh_node::Compact<T>;
        const std::size_t lo_code = offsetof(C, lo) + std::size_t(a) * bvh_node::kWidth;
        const std::size_t hi_code = offsetof(C, hi) + std::size_t(a) * bvh_node::kWidth;
        rv.near_code[a] = rc.neg[a] ? hi_code : lo_code;
        rv.far_code[a] = rc.neg[a] ? lo_code : hi_code;
    }
    return rv;
}

/// The single-ray slab: entry and exit distances of a vector of planes of axis a.
template <typename T> struct RaySlab {
    using V = typename NodeVec<T>::V;
    const RayVectors<T>& rv;
    __attribute__((always_inline)) void operator()(int a, V np, V fp, V& ta, V& tb) const {
        ta = (np - rv.o_near[a]) * rv.inv[a];
        tb = (fp - rv.o_far[a]) * rv.inv[a];
    }
};

/// test_children() for one ray: entry distances and hit mask of node n's children in [t0, t1].
template <typename T>
__attribute__((always_inline)) inline unsigned test_node(const RayVectors<T>& rv, const bvh_node::Node<T>& n, T t0,
                                                         T t1, T* entry) {
    return test_children(n, rv.near_off, rv.far_off, t0, t1, entry, RaySlab<T>{rv});
}

/// L plane codes (bytes at p) as a vector of T, exactly (the generic conversion became a scalar
/// conversion per lane).
template <typename T> __attribute__((always_inline)) inline typename NodeVec<T>::V codes_at(const char* p) {
    using V = typename NodeVec<T>::V;
    constexpr int L = NodeVec<T>::kLanes;
    std::uint64_t bytes = 0;
    std::memcpy(&bytes, p, L);
    const __m128i b = _mm_cvtsi64_si128(static_cast<long long>(bytes));
    if constexpr (kVectorBytes == 32) {
        if constexpr (sizeof(T) == 4) return V(_mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(b)));
        else return V(_mm256_cvtepi32_pd(_mm_cvtepu8_epi32(b)));
    } else {
        const __m128i w = _mm_unpacklo_epi16(_mm_unpacklo_epi8(b, _mm_setzero_si128()), _mm_setzero_si128());
        if constexpr (sizeof(T) == 4) return V(_mm_cvtepi32_ps(w));
        else return V(_mm_cvtepi32_pd(w));
    }
}

/// test_node() on a Compact node: the same slab arithmetic on the decoded planes, origin + code *
/// scale per axis (an exact product and one rounding: bvh_node::plane()).
template <typename T>
__attribute__((always_inline)) inline unsigned test_node(const RayVectors<T>& rv, const bvh_node::Compact<T>& n, T t0,
                                                         T t1, T* entry) {
    using V = typename NodeVec<T>::V;
    constexpr int L = NodeVec<T>::kLanes;
    const char* base = reinterpret_cast<const char*>(&n);
    const V zero{};
    V origin[3], scale[3];
    for (int a = 0; a < 3; ++a) {
        origin[a] = zero + n.origin[a];
        scale[a] = zero + n.scale[a];
    }
    const auto planes = [&](int c, int a, V& near_plane, V& far_plane) __attribute__((always_inline)) {
        near_plane = origin[a] + codes_at<T>(base + rv.near_code[a] + std::size_t(c) * L) * scale[a];
        far_plane = origin[a] + codes_at<T>(base + rv.far_code[a] + std::size_t(c) * L) * scale[a];
    };
    return test_planes(planes, t0, t1, entry, RaySlab<T>{rv});
}

/// One type's section of a leaf (its `count` shapes' fields, padded to `padded` lanes per field,
/// and their indices in the caller's order).
template <typename T> struct LeafSection {
    int type;
    std::size_t count, padded;
    const T* f;
    const std::uint32_t* ids;
};

/// Calls fn(section) for each type's section of a leaf, in type order (once for a leaf of one type).
template <typename T, typename Fn>
[[gnu::always_inline]] inline void for_each_section(const bvh_leaf::Chunk* leaf, bvh_leaf::LeafInfo info, Fn&& fn) {
    bvh_leaf::for_each_section<T>(leaf, info, [&](const bvh_leaf::Section<T, const bvh_leaf::Chunk>& s) {
        fn(LeafSection<T>{s.type, s.count, s.padded, s.fields(), s.ids()});
    });
}

/// Tests a section's shapes against the ray and updates `best`: the same decisions and t values as
/// the scalar cast() + first_surface() per shape, with limit best.t (or t_max).
template <typename T>
inline void test_section(const LeafSection<T>& sec, const Ray<T>& ray, T t_min, T t_max, bvh_leaf::Candidate<T>& best) {
    using V = leaf_kernels::VecT<T>;
    using M = leaf_kernels::MaskT<T>;
    using namespace bvh_leaf;
    constexpr std::size_t L = lanes<T>();
    const T* f = sec.f;
    const std::size_t padded = sec.padded, count = sec.count;
    const int type = sec.type;
    if (count == 1) {  // a lone shape: the scalar code (what the kernels match bit for bit)
        test_scalar(Candidate<T>{T(0), sec.ids[0], f, 1, 0, type}, ray, t_min, t_max, best);
        return;
    }
    visit_shape_type(ShapeType(type), [&](auto tag) {
        using K = LeafKernel<typename decltype(tag)::template type<T>>;
        if constexpr (K::exists) {
            for (std::size_t g = 0; g < count; g += L) {
                const T lim = best.none() ? t_max : best.t;
                V tn, tf;
                const M hit = K::group(ray, f, padded, g, L, t_min, lim, tn, tf);
                if (!leaf_kernels::any<T>(hit)) continue;
                const std::size_t n = std::min(L, count - g);
                for (std::size_t l = 0; l < n; ++l) {
                    if (!hit[l]) continue;
                    const T t = tn[l] >= t_min ? tn[l] : tf[l];
                    if (t < t_min || t > lim) continue;
                    const std::uint32_t id = sec.ids[g + l];
                    if (best.beaten_by(t, id)) best = {t, id, f, std::uint32_t(padded), std::uint32_t(g + l), type};
                }
            }
        } else {
            for (std::size_t i = 0; i < count; ++i)
                test_scalar(Candidate<T>{T(0), sec.ids[i], f, std::uint32_t(padded), std::uint32_t(i), type}, ray, t_min,
                            t_max, best);
        }
    });
}

/// Tests every shape of a leaf against the ray and updates `best` (test_section() per type).
template <typename T>
inline void test_leaf(const bvh_leaf::Chunk* leaf, bvh_leaf::LeafInfo info, const Ray<T>& ray, T t_min, T t_max,
                      bvh_leaf::Candidate<T>& best) {
    for_each_section<T>(leaf, info, [&](const LeafSection<T>& sec) { test_section(sec, ray, t_min, t_max, best); });
}

/// Rays of a bundle, structure of arrays padded to whole vectors of the leaf width (o[axis][ray],
/// d[axis][ray]), with each ray's best candidate and limit (its best t, else t_max).
template <typename T> struct BundleRays {
    const T* o[3];
    const T* d[3];
    bvh_leaf::Candidate<T>* best;
    T* lim;
};

/// test_section() for the bundle's rays with bits set in `rays` (in vectors of the leaf width that
/// hold at least one of them: `groups`, bit g for rays g*L .. g*L+L-1): each shape against W rays
/// at a time, the kernels with a ray per lane. The same decisions and t values as test_section()
/// per ray (the kernels are the scalar code lane by lane), and so the same best candidates.
template <typename T>
inline void test_section_rays(const LeafSection<T>& sec, std::uint64_t rays, std::uint64_t groups,
                              const BundleRays<T>& b, T t_min, T t_max) {
    using V = leaf_kernels::VecT<T>;
    using M = leaf_kernels::MaskT<T>;
    constexpr std::size_t L = bvh_leaf::lanes<T>();
    constexpr unsigned kLaneBits = (1u << L) - 1;
    visit_shape_type(ShapeType(sec.type), [&](auto tag) {
        using K = LeafKernel<typename decltype(tag)::template type<T>>;
        for (std::size_t s = 0; s < sec.count; ++s) {
            const bvh_leaf::Candidate<T> c{T(0), sec.ids[s], sec.f, std::uint32_t(sec.padded), std::uint32_t(s), sec.type};
            if constexpr (K::exists) {
                const auto shape = K::shape(sec.f, sec.padded, s);
                for (std::uint64_t gm = groups; gm; gm &= gm - 1) {
                    const std::size_t i0 = std::size_t(__builtin_ctzll(gm)) * L;
                    const unsigned want = unsigned(rays >> i0) & kLaneBits;
                    const leaf_kernels::RaySoA<T> lanes{b.o, b.d, i0};
                    V tn, tf;
                    const M hit = leaf_kernels::cast_rays(lanes, want, shape, t_min, t_max, tn, tf);
                    for (unsigned m = want; m; m &= m - 1) {
                        const int l = __builtin_ctz(m);
                        if (!hit[l]) continue;
                        const std::size_t i = i0 + std::size_t(l);
                        const T t = tn[l] >= t_min ? tn[l] : tf[l];
                        bvh_leaf::Candidate<T>& best = b.best[i];
                        if (t < t_min || t > b.lim[i]) continue;
                        if (best.beaten_by(t, c.id)) {
                            best = c;
                            best.t = t;
                            b.lim[i] = t;
                        }
                    }
                }
            } else {
                for (std::uint64_t m = rays; m; m &= m - 1) {
                    const std::size_t i = std::size_t(__builtin_ctzll(m));
                    const Ray<T> ray{{b.o[0][i], b.o[1][i], b.o[2][i]}, {b.d[0][i], b.d[1][i], b.d[2][i]}};
                    bvh_leaf::test_scalar(c, ray, t_min, t_max, b.best[i]);
                    if (!b.best[i].none()) b.lim[i] = b.best[i].t;
                }
            }
        }
    });
}

/// Bvh::pick()'s walk from the root (entered at distance root_t): nearest child first, early
/// termination against best, which it updates with every leaf's shapes.
template <typename T, typename N>
inline void walk_pick(const bvh_node::TreeOf<N>& tree, const bvh_node::RayConsts<T>& rc, const Ray<T>& ray, T t_min,
                      T t_max, T root_t, bvh_leaf::Candidate<T>& best) {
    using bvh_node::kLeaf;
    using bvh_node::kOffsetMask;
    const T eps = T(4) * std::numeric_limits<T>::epsilon();
    const RayVectors<T> rv = ray_vectors(rc);
    struct Entry { std::uint32_t ref; bvh_leaf::LeafInfo info; T t; };
    std::array<Entry, bvh_node::kStack> stack;
    int sp = 0;
    stack[sp++] = {0, {}, root_t};
    while (sp > 0) {
        const Entry e = stack[--sp];
        const T limit = best.none() ? t_max : best.t;
        if (e.t > limit + std::abs(limit) * eps) continue;
        if (e.ref & kLeaf) {
            test_leaf(&tree.leaves[e.ref & kOffsetMask], e.info, ray, t_min, t_max, best);
            continue;
        }
        std::uint32_t ref = e.ref;
        // Descend: the nearest hit child directly, the others pushed farthest first.
        for (;;) {
            const N& n = tree.nodes[ref];
            alignas(32) T entry[bvh_node::kWidth];
            const T lim = best.none() ? t_max : best.t;
            // Sorted straight onto the stack (no copy: the copy loop became a memcpy call).
            Entry* kids = &stack[std::size_t(sp)];
            const int nk = sorted_children(n, test_node(rv, n, t_min, lim, entry), kids,
                                                     [&](int k) { return Entry{n.child[k], n.leaf[k], entry[k]}; });
            if (nk == 0) break;
            // Start loading every pushed child now, so that their cache misses overlap.
            for (int k = 0; k < nk - 1; ++k) bvh_node::prefetch(tree, kids[k].ref);
            sp += nk - 1;
            const Entry next = kids[nk - 1];
            if (next.ref & kLeaf) {
                test_leaf(&tree.leaves[next.ref & kOffsetMask], next.info, ray, t_min, t_max, best);
                break;
            }
            ref = next.ref;
        }
    }
}

/// Bvh::for_each_hit()'s walk: every leaf whose box the ray crosses within [t_min, t_max] (no
/// culling by distance), handed to leaf(ctx, reference, info) in no particular order. The
/// callback is a plain function pointer, so this copy of the walk (compiled for its instruction
/// set) serves any visitor; a leaf's shapes cost far more than the indirect call.
template <typename T>
inline void walk_every(const bvh_node::Tree<T>& tree, const bvh_node::RayConsts<T>& rc, T t_min, T t_max,
                       void (*leaf)(void* ctx, std::uint32_t ref, bvh_leaf::LeafInfo info), void* ctx) {
    using bvh_node::kLeaf;
    const RayVectors<T> rv = ray_vectors(rc);
    // Every crossed child is pushed, still at most W - 1 per level.
    struct Entry { std::uint32_t ref; bvh_leaf::LeafInfo info; };
    std::array<Entry, bvh_node::kStack> stack;
    int sp = 0;
    stack[sp++] = {0, {}};
    while (sp > 0) {
        const Entry e = stack[--sp];
        if (e.ref & kLeaf) {
            leaf(ctx, e.ref, e.info);
            continue;
        }
        const bvh_node::Node<T>& n = tree.nodes[e.ref];
        alignas(32) T entry[bvh_node::kWidth];
        for (unsigned mask = test_node(rv, n, t_min, t_max, entry) & bvh_node::occupied(n); mask; mask &= mask - 1) {
            const int k = __builtin_ctz(mask);
            stack[std::size_t(sp++)] = {n.child[k], n.leaf[k]};
        }
    }
}
