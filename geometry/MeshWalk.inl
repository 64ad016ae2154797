// raypick geometry: MeshBvh's node test, leaf test (triangle packets) and single-ray walk, written
// once with GCC vector extensions and included three times by MeshBvh.h — in namespace mesh_walk_sse2
// (16-byte vectors, any x86-64), mesh_walk_avx2 (32-byte vectors, compiled for AVX2 without
// contraction) and mesh_walk_avx512 (the same widths with AVX-512's mask registers, 32 vector
// registers and three-operand logic, without contraction).
// The includer defines kVectorBytes and kFma (whether the copy is compiled with fused
// multiply-add, which only the node test uses). Every lane of the leaf test does the same IEEE
// operations in the same order as the scalar intersect() (RayTriangle.h), so every copy picks the
// same triangles with the same t, bit for bit. Do not reassociate anything here.

template <typename T> struct Vec {
    static constexpr int kLanes = kVectorBytes / int(sizeof(T));
    typedef T V __attribute__((vector_size(kVectorBytes)));
    using M = decltype(V{} < V{});

    /// x in every lane. x - 0 is x exactly (-0 included), so this compiles to the broadcast alone;
    /// 0 + x would cost an addition on the way.
    static V splat(T x) { return x - V{}; }
};

/// Bit l set where lane l of the comparison result m is true.
template <typename T> __attribute__((always_inline)) inline unsigned bits_of(const typename Vec<T>::M& m) {
    if constexpr (kVectorBytes == 16) {
        if constexpr (sizeof(T) == 4) return unsigned(_mm_movemask_ps(__m128(m)));
        else return unsigned(_mm_movemask_pd(__m128d(m)));
    } else {
        if constexpr (sizeof(T) == 4) return unsigned(_mm256_movemask_ps(__m256(m)));
        else return unsigned(_mm256_movemask_pd(__m256d(m)));
    }
}

/// Bit l set where lane l of a comparison of L lanes of T (at most 32 bytes) is true.
template <typename T, int L, typename WM> __attribute__((always_inline)) inline unsigned lane_bits(const WM& m) {
    if constexpr (sizeof(T) * L == 16) {
        if constexpr (sizeof(T) == 4) return unsigned(_mm_movemask_ps(__m128(m)));
        else return unsigned(_mm_movemask_pd(__m128d(m)));
    } else {
        static_assert(sizeof(T) * L == 32);
        if constexpr (sizeof(T) == 4) return unsigned(_mm256_movemask_ps(__m256(m)));
        else return unsigned(_mm256_movemask_pd(__m256d(m)));
    }
}

/// L plane codes (bytes at p) as floats (T = float), exactly.
template <typename T, int L> __attribute__((always_inline)) inline typename Vec<T>::V codes(const std::uint8_t* p) {
    static_assert(sizeof(T) == 4 && L == Vec<T>::kLanes);
    using V = typename Vec<T>::V;  // dependent, so the branch not taken below is discarded
    std::uint64_t bytes = 0;
    std::memcpy(&bytes, p, L);
    const __m128i b = _mm_cvtsi64_si128(static_cast<long long>(bytes));
    if constexpr (L == 8) {
        return V(_mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(b)));
    } else {
        const __m128i w = _mm_unpacklo_epi16(_mm_unpacklo_epi8(b, _mm_setzero_si128()), _mm_setzero_si128());
        return V(_mm_cvtepi32_ps(w));
    }
}

/// a * b - c in one rounding, lane by lane (kFma copies only).
template <typename V> __attribute__((always_inline)) inline V fused_msub(V a, V b, V c) {
    static_assert(sizeof(V) == 32);
    if constexpr (sizeof(a[0]) == 4) return V(_mm256_fmsub_ps(__m256(a), __m256(b), __m256(c)));
    else return V(_mm256_fmsub_pd(__m256d(a), __m256d(b), __m256d(c)));
}

/// A ray's node-test constants for nodes of type N, prepared once per walk: RayConsts as vectors
/// (and the shifted origins times 1 / direction, for the fused test), and per axis the byte
/// offsets in N of the planes the ray meets first and last.
template <typename T, typename N> struct RayVecs {
    typename Vec<T>::V o_near[3], o_far[3], inv[3], near_scaled[3], far_scaled[3];
    std::size_t near_plane[3], far_plane[3];
};

template <typename N, typename T> inline RayVecs<T, N> ray_vecs(const mesh_bvh::RayConsts<T>& rc) {
    // Per axis a, N's lo and hi planes of slot 0 (lo[a][0], hi[a][0]), kWidth elements apart.
    constexpr std::size_t lo = offsetof(N, lo), hi = offsetof(N, hi);
    constexpr std::size_t axis = sizeof(N::lo[0]);
    RayVecs<T, N> rv;
    for (int a = 0; a < 3; ++a) {
        rv.o_near[a] = Vec<T>::splat(rc.o_near[a]);
        rv.o_far[a] = Vec<T>::splat(rc.o_far[a]);
        rv.inv[a] = Vec<T>::splat(rc.inv[a]);
        rv.near_scaled[a] = Vec<T>::splat(rc.near_scaled[a]);
        rv.far_scaled[a] = Vec<T>::splat(rc.far_scaled[a]);
        rv.near_plane[a] = (rc.neg[a] ? hi : lo) + std::size_t(a) * axis;
        rv.far_plane[a] = (rc.neg[a] ? lo : hi) + std::size_t(a) * axis;
    }
    return rv;
}

/// The slab test of a node's children within [t0, t1], L children (one vector) at a time:
/// planes(c, a, near, far) gives vector c's planes of axis a the ray meets first and last, and
/// each(c, tn, hit) receives vector c's entry distances and the lanes whose box the ray meets
/// (empty slots included: their infinite planes can make NaN or a wrong hit, so callers mask
/// them out). The planes are widened by the ray's delta (folded into o_near, o_far). The test's
/// rounding needs no margin of its own: each computed slab distance is the exact one of a plane
/// moved by at most 1.5 eps (|plane| + |origin|), far inside delta (ray_consts()), and max, min
/// and the comparison are exact; so no child that holds a hit at t in [t0, t1] is dropped, and
/// its entry distance is at most t. A NaN slab distance (origin exactly on a plane of an axis the
/// ray is parallel to) never wins the max/min.
/// Two forms of the distance, with that same bound (u = eps / 2, inv = (1 / d)(1 + e0)):
/// - (plane - o) * inv, two roundings: (plane - o)(1 + e1)(1 + e2)(1 + e0) / d, the plane moved by
///   at most (3u + O(u^2)) (|plane| + |o|);
/// - fused (kFma copies, rays with RayConsts::fused): plane * inv - (o * inv) in one rounding, one
///   dependent operation instead of two: (plane - o (1 + e1))(1 + e0)(1 + e2) / d, the plane moved
///   by at most u |o| + (2u + O(u^2)) (|plane| + |o|). Only for rays whose products cannot
///   overflow (mesh_bvh::ray_consts()), so no infinity stands in for a finite distance.
template <bool kFused, typename T, typename N, typename Planes, typename Each>
__attribute__((always_inline)) inline void test_vectors(const Planes& planes, const RayVecs<T, N>& rv, T t0, T t1,
                                                        const Each& each) {
    using V = typename Vec<T>::V;
    constexpr int L = Vec<T>::kLanes;
    for (int c = 0; c < mesh_bvh::kWidth / L; ++c) {
        V tn = Vec<T>::splat(t0), tf = Vec<T>::splat(t1);
#pragma GCC unroll 3
        for (int a = 0; a < 3; ++a) {
            V near_plane, far_plane, ta, tb;
            planes(c, a, near_plane, far_plane);
            if constexpr (kFused) {
                ta = fused_msub(near_plane, rv.inv[a], rv.near_scaled[a]);
                tb = fused_msub(far_plane, rv.inv[a], rv.far_scaled[a]);
            } else {
                ta = (near_plane - rv.o_near[a]) * rv.inv[a];
                tb = (far_plane - rv.o_far[a]) * rv.inv[a];
            }
            tn = ta > tn ? ta : tn;
            tf = tb < tf ? tb : tf;
        }
        each(c, tn, tn <= tf);
    }
}

/// test_vectors() as entry distances (into `entry`) and the hit mask of the occupied children.
template <bool kFused, typename T, typename N, typename Planes>
__attribute__((always_inline)) inline unsigned test_planes(const Planes& planes, std::uint32_t occupied,
                                                           const RayVecs<T, N>& rv, T t0, T t1, T* entry) {
    using V = typename Vec<T>::V;
    using M = typename Vec<T>::M;
    constexpr int L = Vec<T>::kLanes;
    unsigned mask = 0;
    test_vectors<kFused>(planes, rv, t0, t1, [&](int c, const V& tn, const M& hit) __attribute__((always_inline)) {
        std::memcpy(entry + c * L, &tn, sizeof(V));
        mask |= bits_of<T>(hit) << (L * c);
    });
    return mask & occupied;
}

/// The planes of exact node n for a ray's RayVecs, as test_vectors() asks for them.
template <typename T> struct ExactPlanes {
    using V = typename Vec<T>::V;
    const char* base;
    const RayVecs<T, mesh_bvh::Node<T>>& rv;
    __attribute__((always_inline)) void operator()(int c, int a, V& near_plane, V& far_plane) const {
        std::memcpy(&near_plane, base + rv.near_plane[a] + std::size_t(c) * sizeof(V), sizeof(V));
        std::memcpy(&far_plane, base + rv.far_plane[a] + std::size_t(c) * sizeof(V), sizeof(V));
    }
};

/// test_planes() on an exact node.
template <bool kFused, typename T>
__attribute__((always_inline)) inline unsigned test_node(const mesh_bvh::Node<T>& n,
                                                         const RayVecs<T, mesh_bvh::Node<T>>& rv, T t0, T t1,
                                                         T* entry) {
    const ExactPlanes<T> planes{reinterpret_cast<const char*>(&n), rv};
    return test_planes<kFused>(planes, n.occupied, rv, t0, t1, entry);
}

/// A vector of node n's quantised planes of axis a (the codes at p) decoded: origin + code * scale,
/// an exact product and one rounding, as mesh_bvh::plane() computes them (every decoded box
/// contains the exact one).
__attribute__((always_inline)) inline Vec<float>::V decode(const mesh_bvh::QNode& n, int a, const std::uint8_t* p) {
    return n.origin[a] + codes<float, Vec<float>::kLanes>(p) * n.scale[a];
}

/// test_planes() on a quantised node, its planes decode()d.
template <bool kFused>
__attribute__((always_inline)) inline unsigned test_node(const mesh_bvh::QNode& n,
                                                         const RayVecs<float, mesh_bvh::QNode>& rv, float t0, float t1,
                                                         float* entry) {
    using V = typename Vec<float>::V;
    constexpr int L = Vec<float>::kLanes;
    const auto* base = reinterpret_cast<const std::uint8_t*>(&n);
    const auto planes = [&](int c, int a, V& near_plane, V& far_plane) __attribute__((always_inline)) {
        near_plane = decode(n, a, base + rv.near_plane[a] + c * L);
        far_plane = decode(n, a, base + rv.far_plane[a] + c * L);
    };
    return test_planes<kFused>(planes, n.occupied, rv, t0, t1, entry);
}

/// test_vectors() on exact node n for a ray given by its RayConsts alone (a walk prepares RayVecs
/// once instead), in the ray's form.
template <typename T, typename Each>
__attribute__((always_inline)) inline void test_vectors(const mesh_bvh::Node<T>& n, const mesh_bvh::RayConsts<T>& rc,
                                                        T t0, T t1, const Each& each) {
    using N = mesh_bvh::Node<T>;
    const auto test = [&](auto fused) __attribute__((always_inline)) {
        const RayVecs<T, N> rv = ray_vecs<N>(rc);
        test_vectors<decltype(fused)::value>(ExactPlanes<T>{reinterpret_cast<const char*>(&n), rv}, rv, t0, t1, each);
    };
    if constexpr (kFma)
        if (rc.fused) return test(std::true_type{});
    test(std::false_type{});
}

/// Lanes [c, c + L) of a leaf's triangles (packets p[0], p[1], ...: lane k is lane k % 4 of
/// packet k / 4), coordinate a of vertex v. Reads only packets holding one of those lanes.
template <typename T, int L, typename W>
__attribute__((always_inline)) inline W leaf_lanes(const mesh_bvh::Packet<T>* p, int v, int a, int c) {
    W w;
    if constexpr (L == 8) {
        static_assert(sizeof(T) == 4 && kVectorBytes >= 32);
        w = W(_mm256_loadu2_m128(p[c / 4 + 1].v[v][a], p[c / 4].v[v][a]));
    } else {
        static_assert(4 % L == 0);
        std::memcpy(&w, &p[c / 4].v[v][a][c % 4], sizeof(W));
    }
    return w;
}

/// test_leaf() L triangles at a time.
template <typename T, int L, typename Hit>
__attribute__((always_inline)) inline void test_lanes(const mesh_bvh::Packet<T>* p, const mesh_bvh::ShearedRay<T>& r,
                                                      T t_min, T t_max, unsigned count, const Hit& hit) {
    typedef T W __attribute__((vector_size(L * sizeof(T))));
    typedef decltype(W{} < W{}) WM;
    const auto load = [&](int v, int a, int c) __attribute__((always_inline)) {
        return leaf_lanes<T, L, W>(p, v, a, c);
    };
    for (int c = 0; c < int(count); c += L) {
        // The vertices relative to the origin, permuted and sheared (intersect() step 2).
        W px[3], py[3], pz[3];
        for (int v = 0; v < 3; ++v) {
            const W qx = load(v, r.kx, c) - r.ox, qy = load(v, r.ky, c) - r.oy, qz = load(v, r.kz, c) - r.oz;
            px[v] = qx + r.sx * qz;
            py[v] = qy + r.sy * qz;
            pz[v] = qz;
        }
        // Edge functions (step 3); a zero one is recomputed sign-exactly, lane by lane.
        W e0 = px[1] * py[2] - py[1] * px[2];
        W e1 = px[2] * py[0] - py[2] * px[0];
        W e2 = px[0] * py[1] - py[0] * px[1];
        const W zero{};
        if (__builtin_expect(lane_bits<T, L>((e0 == zero) | (e1 == zero) | (e2 == zero)) != 0, 0)) {
            for (int l = 0; l < L; ++l) {
                if (e0[l] == T(0)) e0[l] = raypick::detail::edge_function(px[1][l], py[1][l], px[2][l], py[2][l]);
                if (e1[l] == T(0)) e1[l] = raypick::detail::edge_function(px[2][l], py[2][l], px[0][l], py[0][l]);
                if (e2[l] == T(0)) e2[l] = raypick::detail::edge_function(px[0][l], py[0][l], px[1][l], py[1][l]);
            }
        }
        const WM has_neg = (e0 < zero) | (e1 < zero) | (e2 < zero);
        const WM has_pos = (e0 > zero) | (e1 > zero) | (e2 > zero);
        const W det = e0 + e1 + e2;
        // Most triangles are missed by the ray in every lane: nothing more for them.
        const WM inside = ~(has_neg & has_pos) & (det != zero);
        if (__builtin_expect(lane_bits<T, L>(inside) == 0, 1)) continue;
        // Step 4: t, the barycentric mix of the vertices' z, scaled by 1 / d.z.
        W t = (e0 * pz[0] + e1 * pz[1] + e2 * pz[2]) * r.sz * (T(1) / det);
        // A triangle tiny across the ray: t and the edge functions from coordinates scaled up,
        // as intersect() computes them (rescaled_t()).
        const W abs_det = W(WM(det) & ~WM(-zero)), tiny = zero + raypick::detail::tiny_det<T>();
        if (__builtin_expect(lane_bits<T, L>(inside & (abs_det < tiny)) != 0, 0)) {
            for (int l = 0; l < L; ++l) {
                if (!(inside[l] && abs_det[l] < tiny[l])) continue;
                T e[3] = {e0[l], e1[l], e2[l]};
                t[l] = raypick::detail::rescaled_t<T>(r, mesh_bvh::triangle_of(p[(c + l) / 4], unsigned(c + l) % 4), e);
                e0[l] = e[0];
                e1[l] = e[1];
                e2[l] = e[2];
            }
        }
        const W big = zero + std::numeric_limits<T>::max();
        WM keep = inside & (t == t) & (t <= big) & (t >= -big);
        // Step 5: a line missing the triangle's bounds misses, and t is kept within 64 eps of its
        // passage through them (glm's min, max and clamp as intersect() calls them, ternaries in
        // the same operand order).
        W lo = zero - infinity<T>(), hi = zero + infinity<T>();
        for (int a = 0; a < 3; ++a) {
            if (r.ray.direction[a] == T(0)) continue;
            const W va = load(0, a, c), vb = load(1, a, c), vc = load(2, a, c);
            const W min_bc = vc < vb ? vc : vb, max_bc = vb < vc ? vc : vb;
            const W box_min = min_bc < va ? min_bc : va, box_max = va < max_bc ? max_bc : va;
            const W ta = (box_min - r.ray.origin[a]) / r.ray.direction[a];
            const W tb = (box_max - r.ray.origin[a]) / r.ray.direction[a];
            const W near = tb < ta ? tb : ta, far = ta < tb ? tb : ta;
            lo = lo < near ? near : lo;
            hi = far < hi ? far : hi;
        }
        const WM magnitude = ~WM(-zero);  // every bit but the sign: std::abs
        const W abs_lo = W(WM(lo) & magnitude), abs_hi = W(WM(hi) & magnitude);
        const W margin = T(64) * std::numeric_limits<T>::epsilon() * (abs_lo < abs_hi ? abs_hi : abs_lo);
        keep &= ~(hi + margin < lo);
        const W from = (hi < lo ? hi : lo) - margin, to = (lo < hi ? hi : lo) + margin;
        t = t < from ? from : t;
        t = to < t ? to : t;
        keep &= (t >= t_min - zero) & (t <= t_max - zero);  // broadcasts (x - 0 is x)
        unsigned bits = lane_bits<T, L>(keep) & ((1u << (count - unsigned(c))) - 1);
        while (bits) {
            const int l = __builtin_ctz(bits);
            bits &= bits - 1;
            hit(unsigned(c + l), t[l], e0[l], e1[l], e2[l]);
        }
    }
}

/// Tests the ray against the `count` (1 to kMaxLeaf) triangles of a leaf, packets p[0], p[1], ...
/// (lane k is lane k % 4 of packet k / 4), and calls hit(k, t, e0, e1, e2) for each lane k whose
/// triangle intersect() hits with t in [t_min, t_max], with intersect()'s t and edge functions
/// (its step 3, which give the barycentrics). Every lane does intersect()'s
/// steps 2 to 5 operation for operation (the sheared vertices, the edge functions with their
/// sign-exact recheck, the determinant, t, the miss of a line outside the triangle's bounds and
/// t's clamp to the line's passage through them), so the lanes kept and their t are
/// intersect()'s, bit for bit.
/// intersect()'s remaining checks hold by construction: the walk's ray and range are valid, the
/// mesh's triangles finite, and zero-area triangles are not in the tree. Float leaves of more than
/// four triangles are tested eight lanes at once where vectors are 32 bytes wide.
template <typename T, typename Hit>
__attribute__((always_inline)) inline void test_leaf(const mesh_bvh::Packet<T>* p, const mesh_bvh::ShearedRay<T>& r,
                                                     T t_min, T t_max, unsigned count, const Hit& hit) {
    static_assert(mesh_bvh::kMaxLeaf <= 8);
    constexpr int kLanes = Vec<T>::kLanes;
    if constexpr (kLanes >= 8) {
        if (count > 4) return test_lanes<T, 8>(p, r, t_min, t_max, count, hit);
        return test_lanes<T, 4>(p, r, t_min, t_max, count, hit);
    } else {
        return test_lanes<T, (kLanes < 4 ? kLanes : 4)>(p, r, t_min, t_max, count, hit);
    }
}

/// A stack entry: a child reference and its entry distance.
template <typename T> struct Entry {
    std::uint32_t ref;
    T t;
};

/// Node n's children in `mask`, as stack entries (from their entry distances): the nearest in
/// `next`, the others written to kids farthest first. Returns how many (0: `next` unset). A node
/// mostly has no hit child or one, less often two: one and two take the same path (no branch on
/// which, as that one mispredicted about twice a pick), a loop over the mask's bits would
/// mispredict its exit, and the nearest stays in registers.
template <typename T, typename N>
__attribute__((always_inline)) inline int sorted_children(const N& n, unsigned mask, const T* entry, Entry<T>* kids,
                                                          Entry<T>& next) {
    const auto make = [&](int k) __attribute__((always_inline)) { return Entry<T>{n.child[k], entry[k]}; };
    if (mask == 0) return 0;
    const unsigned rest = mask & (mask - 1);
    if ((rest & (rest - 1)) == 0) {
        // a is the lowest child, b the highest: the same child when there is one (kids[0] is then
        // written but not counted). At equal distances the lower goes on the stack.
        const Entry<T> a = make(__builtin_ctz(mask)), b = make(31 - __builtin_clz(mask));
        const bool b_farther = a.t < b.t;
        kids[0] = b_farther ? b : a;
        next = b_farther ? a : b;
        return 1 + (rest != 0);
    }
    // Three or more: the first three by three fixed compare-exchanges in registers (an insertion
    // loop's exit mispredicts about once a pick, and its moves go through the stack), any more
    // inserted. Both keep equal distances in child order.
    const auto exchange = [](Entry<T>& farther, Entry<T>& nearer) __attribute__((always_inline)) {
        const bool swap = farther.t < nearer.t;
        const Entry<T> f = swap ? nearer : farther, c = swap ? farther : nearer;
        farther = f;
        nearer = c;
    };
    Entry<T> x = make(__builtin_ctz(mask));
    mask &= mask - 1;
    Entry<T> y = make(__builtin_ctz(mask));
    mask &= mask - 1;
    Entry<T> z = make(__builtin_ctz(mask));
    mask &= mask - 1;
    exchange(x, y);
    exchange(y, z);
    exchange(x, y);
    kids[0] = x;
    kids[1] = y;
    kids[2] = z;
    int count = 3;
    while (mask) {
        const int k = __builtin_ctz(mask);
        mask &= mask - 1;
        const Entry<T> c = make(k);
        int j = count++;
        while (j > 0 && kids[j - 1].t < c.t) {
            kids[j] = kids[j - 1];
            --j;
        }
        kids[j] = c;
    }
    next = kids[count - 1];
    return count;
}

/// Starts loading a pushed child `ref` (a node's cache lines, or its leaf's first item's: a
/// pushed leaf is often culled by the nearer child's hit, and fetching all its packets measured
/// slower), so the misses overlap the work on the nearer child.
template <typename N>
__attribute__((always_inline)) inline void prefetch_child(const N* nodes, const char* leaves, std::size_t leaf_bytes,
                                                          std::uint32_t ref) {
    const bool is_leaf = ref & mesh_bvh::kLeaf;
    const char* p = is_leaf ? leaves + std::size_t(mesh_bvh::leaf_first(ref)) * leaf_bytes
                            : reinterpret_cast<const char*>(&nodes[ref]);
    const std::size_t bytes = is_leaf ? leaf_bytes : sizeof(N);
    for (std::size_t l = 0; l < bytes; l += 64) __builtin_prefetch(p + l);
}

/// walk() with the node test in one form (test_planes()).
template <bool kFused, typename T, typename N, typename Leaf>
inline void walk_as(const N* nodes, const char* leaves, std::size_t leaf_bytes, const mesh_bvh::RayConsts<T>& rc,
                    T t_min, T& limit, const Leaf& leaf) {
    // Local, so its vectors stay in registers (and those the form does not use are never made).
    const RayVecs<T, N> rv = ray_vecs<N>(rc);
    Entry<T> stack[mesh_bvh::kStack];
    int top = 0;
    alignas(64) T entry[mesh_bvh::kWidth];
    // The root is entered directly, not through the stack: an entry written as two fields and
    // read back whole at once stalls the load until the stores retire (no store forwarding).
    std::uint32_t ref = 0;
    for (;;) {
        // Descend: the nearest hit child directly, the others pushed farthest first.
        for (;;) {
            const N& n = nodes[ref];
            Entry<T>* kids = &stack[top];
            Entry<T> next;
            const int count = sorted_children(n, test_node<kFused>(n, rv, t_min, limit, entry), entry, kids, next);
            if (count == 0) break;
            // Only quantised trees are large (MeshBvh's rule): an exact tree is in cache, where a
            // prefetch costs instructions and gains nothing.
            if constexpr (std::is_same_v<N, mesh_bvh::QNode>)
                for (int k = 0; k < count - 1; ++k) prefetch_child(nodes, leaves, leaf_bytes, kids[k].ref);
            top += count - 1;
            if (next.ref & mesh_bvh::kLeaf) {
                leaf(mesh_bvh::leaf_first(next.ref), mesh_bvh::leaf_count(next.ref), limit);
                break;
            }
            ref = next.ref;
        }
        // Then the nearest pushed child still within the limit; leaves are tested where popped.
        for (;;) {
            if (top == 0) return;
            const Entry<T> e = stack[--top];
            if (e.t > limit) continue;  // entered beyond the nearest hit found since it was pushed
            if (!(e.ref & mesh_bvh::kLeaf)) {
                ref = e.ref;
                break;
            }
            leaf(mesh_bvh::leaf_first(e.ref), mesh_bvh::leaf_count(e.ref), limit);
        }
    }
}

/// The walk: nodes nearest child first, leaves handed to leaf(first, count, limit), which may
/// lower `limit` (the far end of the range still searched; children entered beyond it are
/// skipped). Leaf items (triangle packets, instances) start at `leaves`, `leaf_bytes` apart.
/// The node test's form is chosen once per walk, not per node.
template <typename T, typename N, typename Leaf>
inline void walk(const N* nodes, const char* leaves, std::size_t leaf_bytes, const mesh_bvh::RayConsts<T>& rc, T t_min,
                 T& limit, const Leaf& leaf) {
    if constexpr (kFma)
        if (rc.fused) return walk_as<true>(nodes, leaves, leaf_bytes, rc, t_min, limit, leaf);
    walk_as<false>(nodes, leaves, leaf_bytes, rc, t_min, limit, leaf);
}

/// Nearest triangle of the mesh tree along the ray in [t_min, best.t]: `best` replaced where a
/// packet lane beats it (smaller t; equal t, smaller index).
template <typename T, typename N>
inline void nearest(const N* nodes, const mesh_bvh::Packet<T>* packets,
                    const mesh_bvh::RayConsts<T>& rc, const mesh_bvh::ShearedRay<T>& sr, T t_min,
                    mesh_bvh::Best<T>& best) {
    const auto leaf = [&](std::uint32_t first, std::uint32_t count, T& limit) __attribute__((always_inline)) {
        const mesh_bvh::Packet<T>* p = packets + first;
        test_leaf(p, sr, t_min, limit, count,
                  [&](unsigned k, T t, T e0, T e1, T e2) { best.offer(p, k, t, e0, e1, e2); });
        limit = best.t;
    };
    T limit = best.t;
    walk(nodes, reinterpret_cast<const char*>(packets), sizeof(mesh_bvh::Packet<T>), rc, t_min, limit, leaf);
}

/// Every triangle of the mesh tree the ray hits in [t_min, t_max], as visit(Best::of(...)) (t and
/// the edge functions as test_leaf() gives them).
template <typename T, typename N, typename Visit>
inline void every(const N* nodes, const mesh_bvh::Packet<T>* packets,
                  const mesh_bvh::RayConsts<T>& rc, const mesh_bvh::ShearedRay<T>& sr, T t_min, T t_max,
                  const Visit& visit) {
    const auto leaf = [&](std::uint32_t first, std::uint32_t count, T&) {
        const mesh_bvh::Packet<T>* p = packets + first;
        test_leaf(p, sr, t_min, t_max, count,
                  [&](unsigned k, T t, T e0, T e1, T e2) { visit(mesh_bvh::Best<T>::of(p, k, t, e0, e1, e2)); });
    };
    T limit = t_max;
    walk(nodes, reinterpret_cast<const char*>(packets), sizeof(mesh_bvh::Packet<T>), rc, t_min, limit, leaf);
}

/// every() until visit returns true: then the walk stops (the rest of the leaf's hits and every
/// node still on the stack are skipped). Returns whether visit stopped it.
template <typename T, typename N, typename Visit>
inline bool every_until(const N* nodes, const mesh_bvh::Packet<T>* packets, const mesh_bvh::RayConsts<T>& rc,
                        const mesh_bvh::ShearedRay<T>& sr, T t_min, T t_max, const Visit& visit) {
    bool stop = false;
    const auto leaf = [&](std::uint32_t first, std::uint32_t count, T& limit) {
        if (stop) return;
        const mesh_bvh::Packet<T>* p = packets + first;
        test_leaf(p, sr, t_min, t_max, count, [&](unsigned k, T t, T e0, T e1, T e2) {
            if (!stop) stop = visit(mesh_bvh::Best<T>::of(p, k, t, e0, e1, e2));
        });
        if (stop) limit = -std::numeric_limits<T>::infinity();  // no child is entered below -inf
    };
    T limit = t_max;
    walk(nodes, reinterpret_cast<const char*>(packets), sizeof(mesh_bvh::Packet<T>), rc, t_min, limit, leaf);
    return stop;
}

