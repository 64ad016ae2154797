// raypick geometry: MeshBvh::pick_bundle() and nearest_bundle(): coherent rays walking a mesh's tree
// together. Part of MeshBvh.h (included at its end); not a header of its own.
#pragma once

namespace raypick {

namespace mesh_bvh {

/// The rays of `live` whose pick can hit anything: a valid ray (finite, non-zero direction) with
/// a valid range [t_min, t_max[i]].
template <typename T>
inline std::uint64_t valid_rays(const Ray<T>* rays, std::uint64_t live, T t_min, const T* t_max) {
    std::uint64_t out = 0;
    for (; live; live &= live - 1) {
        const int i = __builtin_ctzll(live);
        if (is_valid(rays[i]) && detail::valid_range(t_min, t_max[i])) out |= std::uint64_t(1) << i;
    }
    return out;
}

/// The rays of `live` that are valid (valid_rays()) and enter the box [lo, hi] within [t_min,
/// t_max[i]] by their own root test: lane by lane, four rays at a time, the operations of
/// is_valid(rays[i]), valid_range(t_min, t_max[i]) and enters(ray_consts(rays[i], sm), lo, hi,
/// t_min, t_max[i]), with sm what the caller gives ray_consts() for |rays[i].origin|_inf
/// (scene_mag(origin_mag, sm) on Lanes4<T>, lane by lane), so each bit is that ray's answer.
/// A bundle's rays that miss the tree's box stop here, before their per-ray constants (a
/// picture's rays mostly miss).
template <typename T, typename SceneMag>
inline std::uint64_t entering_rays(const Ray<T>* rays, std::uint64_t live, const Vec3<T>& lo, const Vec3<T>& hi,
                                   T t_min, const T* t_max, const SceneMag& scene_mag) {
    using L = detail::Lanes4<T>;
    using M = detail::Mask4<T>;
    std::uint64_t out = 0;
    for (std::uint64_t left = live; left;) {
        const int j = __builtin_ctzll(left) & ~3;
        const unsigned group = unsigned(live >> j) & 15u;
        left &= ~(std::uint64_t(15) << j);
        // A lane whose ray is not live repeats a live one: rays past the bundle may not exist.
        const int some = j + __builtin_ctz(group);
        int at[4];
        for (int l = 0; l < 4; ++l) at[l] = group >> l & 1u ? j + l : some;
        T o_lanes[3][4], d_lanes[3][4], t1[4];
        for (int l = 0; l < 4; ++l) {
            for (int a = 0; a < 3; ++a) {
                o_lanes[a][l] = rays[at[l]].origin[a];
                d_lanes[a][l] = rays[at[l]].direction[a];
            }
            t1[l] = t_max[at[l]];
        }
        L o[3], d[3], to;
        for (int a = 0; a < 3; ++a) {
            detail::load(o_lanes[a], o[a]);
            detail::load(d_lanes[a], d[a]);
        }
        detail::load(t1, to);
        // is_valid() and valid_range(), as there: x * 0 is 0 for finite x only.
        const L zero{}, dd = (d[0] * d[0] + d[1] * d[1]) + d[2] * d[2];
        const M valid = ((o[0] * T(0) + o[1] * T(0)) + o[2] * T(0) == zero) &
                        ((d[0] * T(0) + d[1] * T(0)) + d[2] * T(0) == zero) & (dd > zero) &
                        (dd <= zero + std::numeric_limits<T>::max()) & (zero + t_min <= to);
        const M no_sign = ~M(-L{});
        const L ax = L(M(o[0]) & no_sign), ay = L(M(o[1]) & no_sign), az = L(M(o[2]) & no_sign);
        const L yz = az > ay ? az : ay, origin_mag = yz > ax ? yz : ax;  // max_abs(): max(|x|, max(|y|, |z|))
        L sm, mag, delta;
        scene_mag(origin_mag, sm);
        widening_scale<T>(origin_mag, sm, mag);
        widening<T>(mag, delta);
        const L from = L{} + t_min;
        to = L{} + to;
        L near[3], far[3];
        for (int a = 0; a < 3; ++a) {
            // widened_ray_consts() and enters() for axis a, each operation as there.
            const L inv = (L{} + T(1)) / d[a];
            M sign;
            detail::sign_bits<T>(d[a], sign);
            const L toward = L(M(L{} + delta) | sign);
            const M neg = sign != M{};
            const L lo_a{lo[a], lo[a], lo[a], lo[a]}, hi_a{hi[a], hi[a], hi[a], hi[a]};
            const L ta = ((neg ? hi_a : lo_a) - (o[a] + toward)) * inv;
            const L tb = ((neg ? lo_a : hi_a) - (o[a] - toward)) * inv;
            near[a] = ta > from ? ta : from;
            far[a] = tb < to ? tb : to;
        }
        const L near_xy = near[1] > near[0] ? near[1] : near[0], far_xy = far[1] < far[0] ? far[1] : far[0];
        const L enter = near[2] > near_xy ? near[2] : near_xy, leave = far[2] < far_xy ? far[2] : far_xy;
        out |= std::uint64_t(detail::lane_bits(valid & M(enter <= leave)) & group) << j;
    }
    return out;
}

/// Storage for up to N values of X, none constructed: a bundle's per-ray arrays are filled for
/// its live rays only, each value constructed in place (::new (slots.at(i)) X(f(...)) builds f's
/// result right there). Copying a freshly returned struct into an array element instead reloads
/// its narrow stores with wider loads, a store-forwarding stall per ray.
template <typename X, std::size_t N> struct Slots {
    static_assert(std::is_trivially_destructible_v<X>, "values are never destroyed");
    alignas(X) unsigned char bytes[N * sizeof(X)];
    void* at(std::size_t i) { return bytes + i * sizeof(X); }
    X& operator[](std::size_t i) { return *std::launder(reinterpret_cast<X*>(bytes + i * sizeof(X))); }
    const X& operator[](std::size_t i) const {
        return *std::launder(reinterpret_cast<const X*>(bytes + i * sizeof(X)));
    }
    X* data() { return std::launder(reinterpret_cast<X*>(bytes)); }
};

}  // namespace mesh_bvh

template <typename T>
void MeshBvh<T>::pick_bundle(const Ray<T>* rays, std::size_t count, std::optional<MeshHit<T>>* out, T t_min,
                             T t_max) const {
    T limits[kMaxBundle];
    std::fill(limits, limits + kMaxBundle, t_max);
    for (std::size_t done = 0; done < count; done += kMaxBundle)
        pick_bundle(rays + done, std::min(kMaxBundle, count - done), out + done, t_min, limits);
}

template <typename T>
void MeshBvh<T>::pick_bundle(const Ray<T>* rays, std::size_t count, std::optional<MeshHit<T>>* out, T t_min,
                             const T* t_max) const {
    for (; count > kMaxBundle; count -= kMaxBundle, rays += kMaxBundle, out += kMaxBundle, t_max += kMaxBundle)
        pick_bundle(rays, kMaxBundle, out, t_min, t_max);
    mesh_bvh::Slots<mesh_bvh::Best<T>, kMaxBundle> best;
    for (std::size_t i = 0; i < count; ++i) ::new (best.at(i)) mesh_bvh::Best<T>{t_max[i]};
    const std::uint64_t all = count == 64 ? ~std::uint64_t(0) : (std::uint64_t(1) << count) - 1;
    const std::uint64_t found = nearest_bundle(rays, all, t_min, best.data());
    // The hits built in place first, copied out once all are built: a copy of a struct just
    // returned reloads its narrow stores with wider loads (a store-forwarding stall per ray).
    mesh_bvh::Slots<MeshHit<T>, kMaxBundle> hits;
    for (std::uint64_t m = found; m; m &= m - 1) {
        const std::size_t i = std::size_t(__builtin_ctzll(m));
        ::new (hits.at(i)) MeshHit<T>(hit(rays[i], best[i]));
    }
    for (std::size_t i = 0; i < count; ++i) {
        if (found >> i & 1u) out[i] = hits[i];
        else out[i].reset();
    }
}

template <typename T>
std::uint64_t MeshBvh<T>::nearest_bundle(const Ray<T>* rays, std::uint64_t live, T t_min, mesh_bvh::Best<T>* best,
                                         mesh_bvh::RootCull cull) const {
    static_assert(kMaxBundle == std::size_t(mesh_walk_sse2::kBundleRays), "one bit per ray in the walk's masks");
    if (packets_.empty()) return 0;
    T limit[kMaxBundle];
    for (std::uint64_t m = live; m; m &= m - 1) limit[__builtin_ctzll(m)] = best[__builtin_ctzll(m)].t;
    if (cull == mesh_bvh::RootCull::test)
        live = mesh_bvh::entering_rays(rays, live, root_lo_, root_hi_, t_min, limit, [&](const auto&, auto& sm) {
            sm = std::remove_reference_t<decltype(sm)>{} + scene_mag_;
        });
    else
        live = mesh_bvh::valid_rays(rays, live, t_min, limit);
    if (live == 0) return 0;
    mesh_bvh::Slots<mesh_bvh::RayConsts<T>, kMaxBundle> rc;
    const mesh_bvh::Packet<T>* before[kMaxBundle];
    unsigned before_lane[kMaxBundle];
    for (std::uint64_t m = live; m; m &= m - 1) {
        const int i = __builtin_ctzll(m);
        ::new (rc.at(std::size_t(i))) mesh_bvh::RayConsts<T>(mesh_bvh::ray_consts(rays[i], scene_mag_));
        before[i] = best[i].packet;
        before_lane[i] = best[i].lane;
    }
    with_nodes([&](const auto* nodes) {
        mesh_bvh::with_walk(isa_, [&](auto w) { w.nearest_hits(nodes, packets_.data(), rays, rc.data(), live, t_min, best); });
    });
    std::uint64_t replaced = 0;
    for (std::uint64_t m = live; m; m &= m - 1) {
        const int i = __builtin_ctzll(m);
        if (best[i].packet != before[i] || best[i].lane != before_lane[i]) replaced |= std::uint64_t(1) << i;
    }
    return replaced;
}

}  // namespace raypick
