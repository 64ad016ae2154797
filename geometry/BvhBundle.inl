// raypick geometry: Bvh::pick_bundle(): coherent rays walking the tree together.
// Part of Bvh.h (included at its end); not a header of its own.
#pragma once

namespace raypick {

template <typename T>
void Bvh<T>::pick_bundle(const Ray<T>* rays, std::size_t count, std::optional<NearestHit<T>>* out, T t_min,
                         T t_max) const {
    for (; count > kMaxBundle; count -= kMaxBundle, rays += kMaxBundle, out += kMaxBundle)
        pick_bundle(rays, kMaxBundle, out, t_min, t_max);
    for (std::size_t i = 0; i < count; ++i) out[i].reset();
    if (nodes_.empty() || count == 0 || !(t_min <= t_max)) return;
    constexpr std::size_t N = kMaxBundle;
    // Node tests at the baseline width (the bundle's own interval arithmetic, below).
    namespace walk = bvh_walk_sse2;
    constexpr int L = walk::NodeVec<T>::kLanes;
    using V = typename walk::NodeVec<T>::V;
    const V zero{};
    const T eps = T(4) * std::numeric_limits<T>::epsilon();
    const T inf = infinity<T>();
    static_assert(N <= 64, "one bit per ray in live_mask");
    std::uint64_t live_mask = 0;  // bit i: rays[i] is valid
    bool neg[3];                  // per axis: the bundle's rays meet the hi plane first
    V vnl[3], vnh[3], vfl[3], vfh[3], vil[3], vih[3];  // interval bounds of on, of, iv over the rays
    using M = decltype(V{} < V{});
    auto bits = [](M m) {  // bit l set where lane l of m is set
        if constexpr (sizeof(T) == 4) return unsigned(_mm_movemask_ps(__m128(m)));
        else return unsigned(_mm_movemask_pd(__m128d(m)));
    };
    auto vmin = [](V x, V y) { return x < y ? x : y; };
    auto vmax = [](V x, V y) { return x > y ? x : y; };
    auto vabs = [](V x) { return V(M(x) & ~M(-V{})); };  // clears the sign bits
    // Per ray, structure of arrays padded to whole vectors: the single-ray node test's constants
    // (ray_consts()'s arithmetic, L rays at a time), and each ray's limit: t_max, then its best t so
    // far; -inf for a lane without a valid ray, which then never enters a box.
    const std::size_t padded = (count + L - 1) / L * L;
    alignas(16) T on[3][N], of[3][N], iv[3][N], lim[N];
    bvh_leaf::Candidate<T> best[N];
    alignas(16) T org[3][N], dir[3][N];
    {
        for (std::size_t i = 0; i < count; ++i)
            for (int a = 0; a < 3; ++a) org[a][i] = rays[i].origin[a], dir[a][i] = rays[i].direction[a];
        for (std::size_t i = count; i < padded; ++i)  // padding lanes: invalid (a NaN direction)
            for (int a = 0; a < 3; ++a) org[a][i] = T(0), dir[a][i] = std::numeric_limits<T>::quiet_NaN();
        const T big = std::numeric_limits<T>::max();
        const T scene_mag = std::max(detail::finite_max_abs(root_lo_), detail::finite_max_abs(root_hi_));
        const V tmax_v = zero + t_max, ninf = zero - inf, pinf = zero + inf;
        M any_neg[3] = {}, all_neg[3], finite = ~M{};
        V on_lo[3], on_hi[3], of_lo[3], of_hi[3], iv_lo[3], iv_hi[3];
        for (int a = 0; a < 3; ++a) {
            all_neg[a] = ~M{};
            on_lo[a] = of_lo[a] = iv_lo[a] = pinf;
            on_hi[a] = of_hi[a] = iv_hi[a] = ninf;
        }
        for (std::size_t i0 = 0; i0 < padded; i0 += L) {
            V o[3], d[3];
            for (int a = 0; a < 3; ++a) {
                std::memcpy(&o[a], &org[a][i0], sizeof(V));
                std::memcpy(&d[a], &dir[a][i0], sizeof(V));
            }
            // is_valid(Ray): finite origin and direction, 0 < d.d <= max.
            const V dd = (d[0] * d[0] + d[1] * d[1]) + d[2] * d[2];
            M valid = (dd > T(0)) & (dd <= big);
            for (int a = 0; a < 3; ++a) valid &= (o[a] - o[a] == T(0)) & (d[a] - d[a] == T(0));
            live_mask |= std::uint64_t(bits(valid)) << i0;
            const V tl = valid ? tmax_v : ninf;
            std::memcpy(&lim[i0], &tl, sizeof(V));
            const V delta = (T(16) * std::numeric_limits<T>::epsilon()) *
                                (vmax(vabs(o[0]), vmax(vabs(o[1]), vabs(o[2]))) + scene_mag) +
                            std::numeric_limits<T>::min();
            for (int a = 0; a < 3; ++a) {
                const M neg = M(d[a]) < 0;  // the sign bit: hi plane first
                const V n = neg ? o[a] - delta : o[a] + delta, f = neg ? o[a] + delta : o[a] - delta;
                const V v = T(1) / d[a];
                std::memcpy(&on[a][i0], &n, sizeof(V));
                std::memcpy(&of[a][i0], &f, sizeof(V));
                std::memcpy(&iv[a][i0], &v, sizeof(V));
                // Interval bounds need one plane order per axis and finite values (no 0 * inf).
                any_neg[a] |= neg & valid;
                all_neg[a] &= neg | ~valid;
                finite &= ((vabs(v) <= big) & (vabs(n) <= big) & (vabs(f) <= big)) | ~valid;
                on_lo[a] = vmin(on_lo[a], valid ? n : pinf), on_hi[a] = vmax(on_hi[a], valid ? n : ninf);
                of_lo[a] = vmin(of_lo[a], valid ? f : pinf), of_hi[a] = vmax(of_hi[a], valid ? f : ninf);
                iv_lo[a] = vmin(iv_lo[a], valid ? v : pinf), iv_hi[a] = vmax(iv_hi[a], valid ? v : ninf);
            }
        }
        if (live_mask == 0) return;
        const unsigned all_lanes = (1u << L) - 1;
        bool coherent = bits(finite) == all_lanes;
        for (int a = 0; a < 3; ++a) {
            neg[a] = bits(any_neg[a]) != 0;
            coherent = coherent && neg[a] == (bits(all_neg[a]) == all_lanes);
            // Each bound's extreme over its lanes, splat into every lane.
            T x[6] = {inf, -inf, inf, -inf, inf, -inf};
            for (int l = 0; l < L; ++l) {
                x[0] = std::min(x[0], on_lo[a][l]), x[1] = std::max(x[1], on_hi[a][l]);
                x[2] = std::min(x[2], of_lo[a][l]), x[3] = std::max(x[3], of_hi[a][l]);
                x[4] = std::min(x[4], iv_lo[a][l]), x[5] = std::max(x[5], iv_hi[a][l]);
            }
            vnl[a] = zero + x[0], vnh[a] = zero + x[1], vfl[a] = zero + x[2], vfh[a] = zero + x[3];
            vil[a] = zero + x[4], vih[a] = zero + x[5];
        }
        if (!coherent) {  // ray by ray (each result constructed in place: see the end)
            for (std::size_t i = 0; i < count; ++i)
                if (live_mask >> i & 1u) ::new (static_cast<void*>(&out[i])) std::optional<NearestHit<T>>(pick(rays[i], t_min, t_max));
            return;
        }
    }
    // Bounds of a child's slab entry and exit over every ray of the bundle. Each ray computes
    // fl(fl(plane - o) * inv); rounding is monotone and the product bilinear, so its value lies
    // between the least and greatest of the four corner products of the intervals of (plane - o)
    // and inv. The widened comparison is monotone too, so a box some ray would enter passes.
    std::size_t near_off[3], far_off[3];
    for (int a = 0; a < 3; ++a) {
        const std::size_t lo_off = offsetof(Node, lo) + std::size_t(a) * W * sizeof(T);
        const std::size_t hi_off = offsetof(Node, hi) + std::size_t(a) * W * sizeof(T);
        near_off[a] = neg[a] ? hi_off : lo_off;
        far_off[a] = neg[a] ? lo_off : hi_off;
    }
    // A pinhole camera's tile: every ray starts at the same point, so each plane's offset from the
    // (widened) origins is one value, x1 == x2 and y1 == y2 below, and the four corner products
    // are two. The same bits: the minimum of {p, q, p, q} taken as below is min(p, q), NaN or not.
    bool one_origin = true;
    for (int a = 0; a < 3; ++a) one_origin = one_origin && vnl[a][0] == vnh[a][0] && vfl[a][0] == vfh[a][0];
    auto test_node = [&](const Node& n, T t0, T t1, T* entry) __attribute__((always_inline)) {
        if (one_origin)
            return walk::test_children(n, near_off, far_off, t0, t1, entry, [&](int a, V np, V fp, V& ta, V& tb) __attribute__((always_inline)) {
                const V x = np - vnh[a], y = fp - vfh[a];
                ta = vmin(x * vil[a], x * vih[a]);
                tb = vmax(y * vil[a], y * vih[a]);
            });
        return walk::test_children(n, near_off, far_off, t0, t1, entry, [&](int a, V np, V fp, V& ta, V& tb) __attribute__((always_inline)) {
            const V x1 = np - vnh[a], x2 = np - vnl[a], y1 = fp - vfh[a], y2 = fp - vfl[a];
            ta = vmin(vmin(x1 * vil[a], x1 * vih[a]), vmin(x2 * vil[a], x2 * vih[a]));
            tb = vmax(vmax(y1 * vil[a], y1 * vih[a]), vmax(y2 * vil[a], y2 * vih[a]));
        });
    };
    // The bundle's limit: the farthest of its rays' limits (each ray's best t so far, or t_max).
    T bundle_lim = t_max;
    static_assert(std::size_t(L) == bvh_leaf::lanes<T>(), "the leaf kernels test rays L at a time");
    const walk::BundleRays<T> bundle{{org[0], org[1], org[2]}, {dir[0], dir[1], dir[2]}, best, lim};
    auto visit_leaf = [&](std::uint32_t ref, bvh_leaf::LeafInfo info, const Node& parent, int k) {
        // Each ray's own node test on the leaf's box (as in pick()), then its shapes.
        const bvh_leaf::Chunk* leaf = &leaves_[ref & kOffsetMask];
        std::uint64_t entered = 0, groups = 0;  // rays that enter the box; vectors of L holding any
        V near_plane[3], far_plane[3];          // the box's planes, minus the origins if all rays share one
        for (int a = 0; a < 3; ++a) {
            const T np = neg[a] ? parent.hi[a][k] : parent.lo[a][k];
            const T fp = neg[a] ? parent.lo[a][k] : parent.hi[a][k];
            // (The shared origin's planes from the bounds over the valid rays: ray 0 may be invalid.)
            near_plane[a] = zero + (one_origin ? np - vnh[a][0] : np);
            far_plane[a] = zero + (one_origin ? fp - vfh[a][0] : fp);
        }
        for (std::size_t i0 = 0; i0 < padded; i0 += L) {
            V tn, tf;
            std::memcpy(&tf, &lim[i0], sizeof(V));
            tn = zero + t_min;
            for (int a = 0; a < 3; ++a) {
                V v, x = near_plane[a], y = far_plane[a];
                std::memcpy(&v, &iv[a][i0], sizeof(V));
                if (!one_origin) {  // (one origin: the same subtraction, done once above)
                    V o1, o2;
                    std::memcpy(&o1, &on[a][i0], sizeof(V));
                    std::memcpy(&o2, &of[a][i0], sizeof(V));
                    x = x - o1;
                    y = y - o2;
                }
                const V ta = x * v, tb = y * v;
                tn = ta > tn ? ta : tn;
                tf = tb < tf ? tb : tf;
            }
            // A lane without a valid ray has limit -inf: tf + |tf| eps is NaN, so it never hits.
            if (const unsigned hit = walk::widened_hits<T>(tn, tf)) {
                entered |= std::uint64_t(hit) << i0;
                groups |= std::uint64_t(1) << (i0 / L);
            }
        }
        if (entered) {
            // Per section, whichever takes fewer kernel calls: each shape against the entering
            // rays L at a time, or each entering ray against the section's shapes L at a time
            // (a lone shape: the scalar code). Both give every ray exactly its own test's result.
            const std::size_t rays_in = std::size_t(__builtin_popcountll(entered));
            const std::size_t vectors = std::size_t(__builtin_popcountll(groups));
            walk::for_each_section<T>(leaf, info, [&](const walk::LeafSection<T>& sec) {
                if (sec.count * vectors < rays_in * ((sec.count + L - 1) / L)) {
                    walk::test_section_rays(sec, entered, groups, bundle, t_min, t_max);
                    return;
                }
                for (std::uint64_t m = entered; m; m &= m - 1) {
                    const std::size_t i = std::size_t(__builtin_ctzll(m));
                    walk::test_section(sec, rays[i], t_min, t_max, best[i]);
                    if (!best[i].none()) lim[i] = best[i].t;
                }
            });
        }
        V far = zero - inf;
        for (std::size_t i0 = 0; i0 < padded; i0 += L) {
            V l;
            std::memcpy(&l, &lim[i0], sizeof(V));
            far = vmax(far, l);
        }
        bundle_lim = -inf;
        for (int j = 0; j < L; ++j) bundle_lim = std::max(bundle_lim, far[j]);
    };
    struct Entry { std::uint32_t ref; bvh_leaf::LeafInfo info; std::uint32_t node, k; T t; };
    std::array<Entry, kStack> stack;
    int sp = 0;
    {
        // The root box, as a child of a virtual node.
        Node root{};
        for (int k = 0; k < W; ++k)
            for (int a = 0; a < 3; ++a) root.lo[a][k] = inf, root.hi[a][k] = -inf;
        for (int a = 0; a < 3; ++a) root.lo[a][0] = root_lo_[a], root.hi[a][0] = root_hi_[a];
        alignas(16) T entry[W];
        if (!(test_node(root, t_min, t_max, entry) & 1u)) return;
        stack[sp++] = {0, {}, 0, 0, entry[0]};
    }
    while (sp > 0) {
        const Entry e = stack[--sp];
        if (e.t > bundle_lim + std::abs(bundle_lim) * eps) continue;
        if (e.ref & kLeaf) {
            visit_leaf(e.ref, e.info, nodes_[e.node], int(e.k));
            continue;
        }
        const Node& n = nodes_[e.ref];
        alignas(16) T entry[W];
        // Sorted straight onto the stack (no copy).
        sp += walk::sorted_children(n, test_node(n, t_min, bundle_lim, entry), &stack[std::size_t(sp)], [&](int k) {
            return Entry{n.child[k], n.leaf[k], e.ref, std::uint32_t(k), entry[k]};
        });
    }
    // Constructed in place: finish() returns straight into out[i]. (An assignment returns into a
    // temporary and copies its 76 bytes with wider loads than the callee's stores: a
    // store-forwarding stall on every ray, a seventh of this function's time.)
    static_assert(std::is_trivially_destructible_v<std::optional<NearestHit<T>>>, "replaced in place");
    for (std::size_t i = 0; i < count; ++i)
        if (live_mask >> i & 1u) ::new (static_cast<void*>(&out[i])) std::optional<NearestHit<T>>(finish(rays[i], best[i], t_min, t_max));
}

}  // namespace raypick
