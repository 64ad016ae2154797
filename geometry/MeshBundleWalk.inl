// raypick geometry: the bundle walk of MeshBvh and InstanceBvh — up to 64 rays through one 16-wide
// tree together. Included by MeshBvh.h right after MeshWalk.inl, in namespaces mesh_walk_sse2,
// mesh_walk_avx2 and mesh_walk_avx512, so it uses that copy's node test (test_node) and leaf test
// (test_leaf); it ends with the copy's entry points for both walks (Walks).
//
// Why it equals the single-ray walk: a ray takes part in a child only when its own node test (the
// single-ray walk's widened slab test, with its own RayConsts and its own limit) hits that child,
// and leaves are decided by test_leaf() per ray. The node test never drops a child holding a hit
// the triangle test accepts, so every triangle that could be a ray's answer is tested for it; the
// answer (least t, then least index) does not depend on the order triangles are tested in.

/// The planes of a quantised node decode()d once for the bundle, as test_node(QNode) decodes them,
/// into an exact node: each ray's test_node() on it gives the same mask and entry distances as on
/// the quantised node.
__attribute__((always_inline)) inline const mesh_bvh::Node<float>& bundle_node(const mesh_bvh::QNode& n,
                                                                              mesh_bvh::Node<float>& decoded) {
    using V = typename Vec<float>::V;
    constexpr int L = Vec<float>::kLanes;
    for (int a = 0; a < 3; ++a)
        for (int c = 0; c < mesh_bvh::kWidth / L; ++c) {
            const V lo = decode(n, a, &n.lo[a][c * L]);
            const V hi = decode(n, a, &n.hi[a][c * L]);
            std::memcpy(&decoded.lo[a][c * L], &lo, sizeof(V));
            std::memcpy(&decoded.hi[a][c * L], &hi, sizeof(V));
        }
    decoded.occupied = n.occupied;
    return decoded;
}

template <typename T>
__attribute__((always_inline)) inline const mesh_bvh::Node<T>& bundle_node(const mesh_bvh::Node<T>& n,
                                                                          mesh_bvh::Node<T>&) {
    return n;
}

/// A bundle stack entry: a child reference, the least entry distance over its rays, and the rays
/// whose own node test hit it (bit i: ray i).
template <typename T> struct BundleEntry {
    std::uint32_t ref;
    T t;
    std::uint64_t rays;
};

/// Rays per bundle walk: one bit each in a 64-bit mask.
constexpr int kBundleRays = 64;

/// Bit i set where byte i of the kBundleRays bytes at p has bit k (0 to 7) set.
template <int Bytes = kVectorBytes>
__attribute__((always_inline)) inline std::uint64_t byte_bits(const std::uint8_t* p, int k) {
    assert(k >= 0 && k < 8);
    typedef std::uint8_t B __attribute__((vector_size(Bytes)));
    B bit;
    std::memset(&bit, int(1u << k), sizeof(B));  // every byte 1 << k (a scalar would promote to int)
    std::uint64_t out = 0;
    for (int c = 0; c < kBundleRays; c += Bytes) {
        B b;
        std::memcpy(&b, p + c, sizeof(B));
        const B set = (b & bit) == bit;  // 0xff where the bit is set
        if constexpr (Bytes == 16) out |= std::uint64_t(unsigned(_mm_movemask_epi8(__m128i(set)))) << c;
        else out |= std::uint64_t(unsigned(_mm256_movemask_epi8(__m256i(set)))) << c;
    }
    return out;
}

/// The bundle walk over rays `live` (bit i: ray i, i < kBundleRays), each with its node-test
/// constants rc[i] and its limit limit[i] (the far end of its range still searched; every one of
/// the kBundleRays entries finite or infinite, not NaN). Children are visited nearest (least entry
/// over their rays) first; a popped child keeps only the rays whose limit still reaches its entry
/// distance (as in walk()). Leaves are handed to
/// leaf(first, count, rays, limit), which may lower limit[i] for the rays it is given.
template <typename T, typename N, typename Leaf>
inline void walk_bundle(const N* nodes, const char* leaves, std::size_t leaf_bytes, const mesh_bvh::RayConsts<T>* rc,
                        std::uint64_t live, T t_min, T* limit, const Leaf& leaf) {
    using Node = mesh_bvh::Node<T>;
    using V = typename Vec<T>::V;
    using M = typename Vec<T>::M;
    constexpr int L = Vec<T>::kLanes;
    using I = std::conditional_t<sizeof(T) == 4, std::int32_t, std::int64_t>;
    typedef I VI __attribute__((vector_size(kVectorBytes)));
    static_assert(sizeof(VI) == sizeof(M), "lane masks as integers");
    VI lane_bit;  // lane l: 1 << l
    for (int l = 0; l < L; ++l) lane_bit[l] = I(1) << l;
    const V zero{};
    BundleEntry<T> stack[mesh_bvh::kStack];
    int top = 0;
    stack[top++] = {0, t_min, live};
    alignas(64) Node decoded;
    // Per group of eight children, per ray: its node test's hits among them (a byte each, so
    // byte_bits() transposes 16 or 32 rays at once).
    static_assert(mesh_bvh::kWidth % 8 == 0);
    alignas(64) std::uint8_t hit_children[mesh_bvh::kWidth / 8][kBundleRays];
    while (top > 0) {
        const BundleEntry<T> e = stack[--top];
        // The rays whose limit reaches the entry: walk()'s test, L rays at a time.
        std::uint64_t rays = 0;
        {
            for (int c = 0; c < kBundleRays; c += L) {
                if (!(e.rays >> c & ((std::uint64_t(1) << L) - 1))) continue;
                V lim;
                std::memcpy(&lim, limit + c, sizeof(V));
                rays |= std::uint64_t(~bits_of<T>(e.t > lim) & ((1u << L) - 1)) << c;
            }
            rays &= e.rays;
        }
        if (rays == 0) continue;
        if (e.ref & mesh_bvh::kLeaf) {
            leaf(mesh_bvh::leaf_first(e.ref), mesh_bvh::leaf_count(e.ref), rays, limit);
            continue;
        }
        const N& stored = nodes[e.ref];
        const Node& n = bundle_node(stored, decoded);
        // Each ray's own node test; per child the least entry over the rays that hit it. The
        // node's occupied slots as lane masks, made once for all its rays.
        std::memset(hit_children, 0, sizeof(hit_children));
        V child_t[mesh_bvh::kWidth / L];
        M occupied[mesh_bvh::kWidth / L];
        for (int c = 0; c < mesh_bvh::kWidth / L; ++c) {
            child_t[c] = zero + infinity<T>();
            occupied[c] = M(((VI{} + I(n.occupied >> (c * L))) & lane_bit) != 0);
        }
        unsigned children = 0;
        for (; rays; rays &= rays - 1) {
            const int i = __builtin_ctzll(rays);
            unsigned mask = 0;
            const auto merge = [&](int c, const V& tn, const M& lanes) __attribute__((always_inline)) {
                const M hit = lanes & occupied[c];
                mask |= bits_of<T>(hit) << (L * c);
                const V t = hit ? tn : zero + infinity<T>();
                child_t[c] = t < child_t[c] ? t : child_t[c];
            };
            test_vectors(n, rc[i], t_min, limit[i], merge);
            for (int g = 0; g < mesh_bvh::kWidth / 8; ++g) hit_children[g][i] = std::uint8_t(mask >> (8 * g));
            children |= mask;
        }
        // Push the hit children farthest first, so the nearest is popped next.
        const int base = top;
        for (; children; children &= children - 1) {
            const int k = __builtin_ctz(children);
            const BundleEntry<T> c{stored.child[k], child_t[k / L][k % L], byte_bits(hit_children[k / 8], k % 8)};
            int j = top++;
            while (j > base && stack[j - 1].t < c.t) {
                stack[j] = stack[j - 1];
                --j;
            }
            stack[j] = c;
            prefetch_child(nodes, leaves, leaf_bytes, c.ref);
        }
    }
}

/// Nearest triangle of the mesh tree for each ray i of `live`, in [t_min, best[i].t]: best[i]
/// replaced where a packet lane beats it (smaller t; equal t, smaller index), exactly as nearest()
/// would for that ray alone. A ray's triangle-test constants (sheared()) are computed when it
/// first reaches a leaf: most rays of a picture's bundles reach none.
template <typename T, typename N>
inline void nearest_bundle(const N* nodes, const mesh_bvh::Packet<T>* packets, const Ray<T>* rays,
                           const mesh_bvh::RayConsts<T>* rc, std::uint64_t live, T t_min, mesh_bvh::Best<T>* best) {
    using Sheared = mesh_bvh::ShearedRay<T>;
    static_assert(std::is_trivially_destructible_v<Sheared>, "never destroyed");
    alignas(Sheared) unsigned char sheared_bytes[kBundleRays * sizeof(Sheared)];
    std::uint64_t sheared_rays = 0;  // the rays whose constants are in sheared_bytes
    const auto leaf = [&](std::uint32_t first, std::uint32_t count, std::uint64_t in, T* limit) {
        for (std::uint64_t fresh = in & ~sheared_rays; fresh; fresh &= fresh - 1) {
            const int i = __builtin_ctzll(fresh);
            ::new (sheared_bytes + std::size_t(i) * sizeof(Sheared)) Sheared(mesh_bvh::sheared(rays[i]));
        }
        sheared_rays |= in;
        const Sheared* sr = std::launder(reinterpret_cast<const Sheared*>(sheared_bytes));
        const mesh_bvh::Packet<T>* p = packets + first;
        for (std::uint64_t m = in; m; m &= m - 1) {
            const int i = __builtin_ctzll(m);
            mesh_bvh::Best<T>& b = best[i];
            test_leaf(p, sr[i], t_min, limit[i], count,
                      [&](unsigned k, T t, T e0, T e1, T e2) { b.offer(p, k, t, e0, e1, e2); });
            limit[i] = b.t;
        }
    };
    alignas(64) T limit[kBundleRays];
    for (int i = 0; i < kBundleRays; ++i) limit[i] = live >> i & 1u ? best[i].t : -std::numeric_limits<T>::max();
    walk_bundle(nodes, reinterpret_cast<const char*>(packets), sizeof(mesh_bvh::Packet<T>), rc, live, t_min, limit,
                leaf);
}

/// This copy's entry points, single-ray and bundle walks, as static members, for
/// mesh_bvh::with_walk().
struct Walks {
    template <typename T, typename N, typename Leaf>
    static void walk_tree(const N* nodes, const char* leaves, std::size_t leaf_bytes, const mesh_bvh::RayConsts<T>& rc,
                          T t_min, T& limit, const Leaf& leaf) {
        walk(nodes, leaves, leaf_bytes, rc, t_min, limit, leaf);
    }
    template <typename T, typename N>
    static void nearest_hit(const N* nodes, const mesh_bvh::Packet<T>* packets, const mesh_bvh::RayConsts<T>& rc,
                            const mesh_bvh::ShearedRay<T>& sr, T t_min, mesh_bvh::Best<T>& best) {
        nearest(nodes, packets, rc, sr, t_min, best);
    }
    template <typename T, typename N, typename Visit>
    static void every_hit(const N* nodes, const mesh_bvh::Packet<T>* packets, const mesh_bvh::RayConsts<T>& rc,
                          const mesh_bvh::ShearedRay<T>& sr, T t_min, T t_max, const Visit& visit) {
        every(nodes, packets, rc, sr, t_min, t_max, visit);
    }
    template <typename T, typename N, typename Visit>
    static bool every_hit_until(const N* nodes, const mesh_bvh::Packet<T>* packets, const mesh_bvh::RayConsts<T>& rc,
                                const mesh_bvh::ShearedRay<T>& sr, T t_min, T t_max, const Visit& visit) {
        return every_until(nodes, packets, rc, sr, t_min, t_max, visit);
    }
    // Bundles: the rays of `live`, each with its own RayConsts and limit.
    template <typename T, typename N, typename Leaf>
    static void walk_tree(const N* nodes, const char* leaves, std::size_t leaf_bytes, const mesh_bvh::RayConsts<T>* rc,
                          std::uint64_t live, T t_min, T* limit, const Leaf& leaf) {
        walk_bundle(nodes, leaves, leaf_bytes, rc, live, t_min, limit, leaf);
    }
    template <typename T, typename N>
    static void nearest_hits(const N* nodes, const mesh_bvh::Packet<T>* packets, const Ray<T>* rays,
                             const mesh_bvh::RayConsts<T>* rc, std::uint64_t live, T t_min, mesh_bvh::Best<T>* best) {
        nearest_bundle(nodes, packets, rays, rc, live, t_min, best);
    }
};
