// raypick geometry: MeshBvh's node test, triangle-packet test and single-ray walk, written once with
// GCC vector extensions and included twice by MeshBvh.h — in namespace mesh_walk_sse2 (16-byte
// vectors, any x86-64) and mesh_walk_avx2 (32-byte vectors, compiled for AVX2 without contraction).
// The includer defines kVectorBytes. Every lane does the same IEEE operations in the same order
// as the scalar intersect() (RayTriangle.h), so both copies pick the same triangles with the same
// t, bit for bit. Do not reassociate anything here.

template <typename T> struct Vec {
    static constexpr int kLanes = kVectorBytes / int(sizeof(T));
    typedef T V __attribute__((vector_size(kVectorBytes)));
    using M = decltype(V{} < V{});
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
        static_assert(sizeof(T) == 8 && L == 4);
        return unsigned(_mm256_movemask_pd(__m256d(m)));
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

/// Entry distances (into `entry`) and hit mask of a node's occupied children within [t0, t1]:
/// planes(c, a, lo, hi) gives vector c's lo and hi planes of axis a. The slab test with the planes
/// widened by the ray's delta (folded into o_near, o_far) and both ends by 4 ulps (Ize 2013), so
/// rounding never drops a child that holds a hit. A NaN slab distance (origin exactly on a plane
/// of an axis the ray is parallel to) never wins the max/min.
template <typename T, typename Planes>
__attribute__((always_inline)) inline unsigned test_planes(const Planes& planes, std::uint32_t occupied,
                                                           const mesh_bvh::RayConsts<T>& rc, T t0, T t1, T* entry) {
    using V = typename Vec<T>::V;
    using M = typename Vec<T>::M;
    constexpr int L = Vec<T>::kLanes;
    const V zero{};
    const T eps = T(4) * std::numeric_limits<T>::epsilon();
    const M magnitude = ~M(-zero);
    unsigned mask = 0;
    for (int c = 0; c < mesh_bvh::kWidth / L; ++c) {
        V tn = zero + t0, tf = zero + t1;
        for (int a = 0; a < 3; ++a) {
            V lo, hi;
            planes(c, a, lo, hi);
            const V near_plane = rc.neg[a] ? hi : lo, far_plane = rc.neg[a] ? lo : hi;
            const V ta = (near_plane - rc.o_near[a]) * rc.inv[a];
            const V tb = (far_plane - rc.o_far[a]) * rc.inv[a];
            tn = ta > tn ? ta : tn;
            tf = tb < tf ? tb : tf;
        }
        std::memcpy(entry + c * L, &tn, sizeof(V));
        const V atn = V(M(tn) & magnitude), atf = V(M(tf) & magnitude);
        mask |= bits_of<T>((tn - atn * eps) <= (tf + atf * eps)) << (L * c);
    }
    // Occupied slots only: an empty slot's infinite planes can make NaN or a wrong hit.
    return mask & occupied;
}

/// test_planes() on an exact node.
template <typename T>
__attribute__((always_inline)) inline unsigned test_node(const mesh_bvh::Node<T>& n, const mesh_bvh::RayConsts<T>& rc,
                                                         T t0, T t1, T* entry) {
    using V = typename Vec<T>::V;
    constexpr int L = Vec<T>::kLanes;
    const auto planes = [&](int c, int a, V& lo, V& hi) __attribute__((always_inline)) {
        std::memcpy(&lo, &n.lo[a][c * L], sizeof(V));
        std::memcpy(&hi, &n.hi[a][c * L], sizeof(V));
    };
    return test_planes(planes, n.occupied, rc, t0, t1, entry);
}

/// test_planes() on a quantised node: the planes decoded as origin + code * scale per axis (an
/// exact product and one rounding, as mesh_bvh::plane() computes them; every decoded box contains
/// the exact one).
__attribute__((always_inline)) inline unsigned test_node(const mesh_bvh::QNode& n, const mesh_bvh::RayConsts<float>& rc,
                                                         float t0, float t1, float* entry) {
    using V = typename Vec<float>::V;
    constexpr int L = Vec<float>::kLanes;
    const auto planes = [&](int c, int a, V& lo, V& hi) __attribute__((always_inline)) {
        lo = n.origin[a] + codes<float, L>(&n.lo[a][c * L]) * n.scale[a];
        hi = n.origin[a] + codes<float, L>(&n.hi[a][c * L]) * n.scale[a];
    };
    return test_planes(planes, n.occupied, rc, t0, t1, entry);
}

/// Tests the ray against lanes [0, lanes) of packet p (its triangles' vertices structure-of-arrays)
/// and calls hit(lane, t) for each lane whose triangle intersect() hits with t in [t_min, t_max],
/// with intersect()'s t. The vector part repeats intersect()'s steps 1 to 3 bit for bit (the edge
/// functions and the determinant), so a lane it drops is one intersect() misses; the few lanes the
/// ray's line passes through are then decided by intersect() itself (its t, range and rounding
/// rules), so the walk answers exactly as testing every triangle would.
template <typename T, typename Hit>
__attribute__((always_inline)) inline void test_packet(const mesh_bvh::Packet<T>& p, const mesh_bvh::ShearedRay<T>& r,
                                                       T t_min, T t_max, unsigned lanes, const Hit& hit) {
    using V = typename Vec<T>::V;
    using M = typename Vec<T>::M;
    constexpr int L = Vec<T>::kLanes < 4 ? Vec<T>::kLanes : 4;
    typedef T W __attribute__((vector_size(L * sizeof(T))));
    typedef decltype(W{} < W{}) WM;
    static_assert(sizeof(W) <= sizeof(V) && sizeof(WM) <= sizeof(M));
    for (int c = 0; c < 4; c += L) {
        if (unsigned(c) >= lanes) break;
        // The vertices relative to the origin, permuted and sheared (intersect() step 2).
        W px[3], py[3];
        for (int v = 0; v < 3; ++v) {
            W x, y, z;
            std::memcpy(&x, &p.v[v][r.kx][c], sizeof(W));
            std::memcpy(&y, &p.v[v][r.ky][c], sizeof(W));
            std::memcpy(&z, &p.v[v][r.kz][c], sizeof(W));
            const W qx = x - r.ox, qy = y - r.oy, qz = z - r.oz;
            px[v] = qx + r.sx * qz;
            py[v] = qy + r.sy * qz;
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
        // Most packets are missed by the ray in every lane: no division for them.
        unsigned bits = lane_bits<T, L>(~(has_neg & has_pos) & (det != zero)) & ((1u << (lanes - unsigned(c))) - 1);
        while (bits) {
            const int l = __builtin_ctz(bits);
            bits &= bits - 1;
            const unsigned lane = unsigned(c + l);
            if (const auto h = intersect(r.ray, mesh_bvh::triangle_of(p, lane), t_min, t_max)) hit(lane, h->t);
        }
    }
}

/// A stack entry: a child reference (with its triangle count for a leaf) and its entry distance.
template <typename T> struct Entry {
    std::uint32_t ref, count;
    T t;
};

/// The walk: nodes nearest child first, leaves handed to leaf(ref, count, limit), which may lower
/// `limit` (the far end of the range still searched; children entered beyond it are skipped).
/// Leaf items (triangle packets, instances) start at `leaves`, `leaf_bytes` apart; a leaf
/// reference's offset counts items.
template <typename T, typename N, typename Leaf>
inline void walk(const N* nodes, const char* leaves, std::size_t leaf_bytes, const mesh_bvh::RayConsts<T>& rc, T t_min,
                 T& limit, const Leaf& leaf) {
    // Starts loading a pushed child (a node's cache lines, or its leaf's first item's), so the
    // misses overlap the work on nearer children.
    const auto prefetch = [&](const Entry<T>& c) __attribute__((always_inline)) {
        const bool is_leaf = c.ref & mesh_bvh::kLeaf;
        const char* p = is_leaf ? leaves + std::size_t(c.ref & ~mesh_bvh::kLeaf) * leaf_bytes
                                : reinterpret_cast<const char*>(&nodes[c.ref]);
        const std::size_t bytes = is_leaf ? leaf_bytes : sizeof(N);
        for (std::size_t l = 0; l < bytes; l += 64) __builtin_prefetch(p + l);
    };
    Entry<T> stack[mesh_bvh::kStack];
    int top = 0;
    stack[top++] = {0, 0, t_min};
    const T eps = T(4) * std::numeric_limits<T>::epsilon();
    alignas(64) T entry[mesh_bvh::kWidth];
    while (top > 0) {
        const Entry<T> e = stack[--top];
        if (e.t - std::abs(e.t) * eps > limit + std::abs(limit) * eps) continue;
        if (e.ref & mesh_bvh::kLeaf) {
            leaf(e.ref & ~mesh_bvh::kLeaf, e.count, limit);
            continue;
        }
        const N& n = nodes[e.ref];
        unsigned mask = test_node(n, rc, t_min, limit, entry);
        if (mask == 0) continue;
        // Push the hit children farthest first, so the nearest is popped next.
        const int base = top;
        while (mask) {
            const int k = __builtin_ctz(mask);
            mask &= mask - 1;
            const Entry<T> c{n.child[k], n.count[k], entry[k]};
            int j = top++;
            while (j > base && stack[j - 1].t < c.t) {
                stack[j] = stack[j - 1];
                --j;
            }
            stack[j] = c;
            prefetch(c);
        }
    }
}

/// Nearest triangle of the mesh tree along the ray in [t_min, best.t]: `best` replaced where a
/// packet lane beats it (smaller t; equal t, smaller index).
template <typename T, typename N>
inline void nearest(const N* nodes, const mesh_bvh::Packet<T>* packets,
                    const mesh_bvh::RayConsts<T>& rc, const mesh_bvh::ShearedRay<T>& sr, T t_min,
                    mesh_bvh::Best<T>& best) {
    const auto leaf = [&](std::uint32_t first, std::uint32_t count, T& limit) __attribute__((always_inline)) {
        for (std::uint32_t k = 0; k < count; k += 4) {
            const mesh_bvh::Packet<T>& p = packets[first + k / 4];
            test_packet(p, sr, t_min, limit, std::min(4u, count - k), [&](unsigned lane, T t) {
                const std::uint32_t id = p.id[lane];
                if (t < best.t || (t == best.t && id < best.id)) best = {t, id, &p, lane};
            });
            limit = best.t;
        }
    };
    T limit = best.t;
    walk(nodes, reinterpret_cast<const char*>(packets), sizeof(mesh_bvh::Packet<T>), rc, t_min, limit, leaf);
}

/// Every triangle of the mesh tree the ray hits in [t_min, t_max], as visit(packet, lane, t).
template <typename T, typename N, typename Visit>
inline void every(const N* nodes, const mesh_bvh::Packet<T>* packets,
                  const mesh_bvh::RayConsts<T>& rc, const mesh_bvh::ShearedRay<T>& sr, T t_min, T t_max,
                  const Visit& visit) {
    const auto leaf = [&](std::uint32_t first, std::uint32_t count, T&) {
        for (std::uint32_t k = 0; k < count; k += 4) {
            const mesh_bvh::Packet<T>& p = packets[first + k / 4];
            test_packet(p, sr, t_min, t_max, std::min(4u, count - k), [&](unsigned lane, T t) { visit(p, lane, t); });
        }
    };
    T limit = t_max;
    walk(nodes, reinterpret_cast<const char*>(packets), sizeof(mesh_bvh::Packet<T>), rc, t_min, limit, leaf);
}
