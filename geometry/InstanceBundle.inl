// raypick geometry: InstanceBvh::pick_bundle(): coherent rays walking the instance tree together,
// each instance's mesh searched by the mesh's bundle walk with the rays mapped into mesh space.
// Part of MeshInstances.h (included at its end); not a header of its own.
#pragma once

namespace raypick {

template <typename T>
void InstanceBvh<T>::pick_bundle(const Ray<T>* rays, std::size_t count, std::optional<InstanceHit<T>>* out,
                                 T t_min, T t_max) const {
    T limits[kMaxBundle];
    std::fill(limits, limits + kMaxBundle, t_max);
    for (std::size_t done = 0; done < count; done += kMaxBundle)
        pick_bundle(rays + done, std::min(kMaxBundle, count - done), out + done, t_min, limits);
}

template <typename T>
void InstanceBvh<T>::pick_bundle(const Ray<T>* rays, std::size_t count, std::optional<InstanceHit<T>>* out,
                                 T t_min, const T* t_max) const {
    for (; count > kMaxBundle; count -= kMaxBundle, rays += kMaxBundle, out += kMaxBundle, t_max += kMaxBundle)
        pick_bundle(rays, kMaxBundle, out, t_min, t_max);
    for (std::size_t i = 0; i < count; ++i) out[i].reset();
    if (nodes_.empty() || count == 0) return;
    const std::uint64_t all = count == 64 ? ~std::uint64_t(0) : (std::uint64_t(1) << count) - 1;
    // Valid rays that meet the root's box, by the arithmetic of walk()'s test of its children:
    // the rest stop before their constants.
    const std::uint64_t live = mesh_bvh::entering_rays(rays, all, root_.min, root_.max, t_min, t_max,
                                                       [&](const auto& m, auto& sm) { walk_mag(m, sm); });
    if (live == 0) return;
    // Per ray exactly as pick(): its nearest hit so far, the instance that holds it and the ray
    // mapped into that instance's mesh.
    mesh_bvh::Slots<mesh_bvh::Best<T>, kMaxBundle> best;
    const Placed* best_at[kMaxBundle];
    mesh_bvh::Slots<Ray<T>, kMaxBundle> best_ray;
    for (std::uint64_t m = live; m; m &= m - 1) {
        const int i = __builtin_ctzll(m);
        ::new (best.at(std::size_t(i))) mesh_bvh::Best<T>{t_max[i]};
        best_at[i] = nullptr;
    }
    mesh_bvh::Slots<Ray<T>, kMaxBundle> local;
    mesh_bvh::Slots<mesh_bvh::Best<T>, kMaxBundle> b;
    const auto leaf = [&](std::uint32_t first, std::uint32_t n, std::uint64_t in, T* limit) {
        for (std::uint32_t s = first; s < first + n; ++s) {
            const Placed& p = placed_[s];
            for (std::uint64_t m = in; m; m &= m - 1) {
                const int i = __builtin_ctzll(m);
                ::new (local.at(std::size_t(i))) Ray<T>(mesh_instances::to_mesh(p, rays[i]));
                ::new (b.at(std::size_t(i))) mesh_bvh::Best<T>{best[i].t};
            }
            // The tie rule of pick(): a nearer hit, or an equal one in a smaller instance. The
            // rays met the instance's box, which holds the mapped mesh: the mesh's root test would
            // cull few of them.
            const std::uint64_t found =
                p.mesh->nearest_bundle(local.data(), in, t_min, b.data(), mesh_bvh::RootCull::skip);
            for (std::uint64_t m = found; m; m &= m - 1) {
                const int i = __builtin_ctzll(m);
                if (b[i].t < best[i].t || !best_at[i] || p.instance < best_at[i]->instance) {
                    best[i] = b[i];
                    best_at[i] = &p;
                    ::new (best_ray.at(std::size_t(i))) Ray<T>(local[i]);
                }
            }
        }
        for (std::uint64_t m = in; m; m &= m - 1) limit[__builtin_ctzll(m)] = best[__builtin_ctzll(m)].t;
    };
    alignas(64) T limit[kMaxBundle];
    for (std::size_t i = 0; i < kMaxBundle; ++i) limit[i] = live >> i & 1u ? t_max[i] : -std::numeric_limits<T>::max();
    if (placed_.size() == 1) {
        // The root's one child is the instance's leaf and root_ its box: entering_rays() has
        // already tested each ray against it with the node test's conservative arithmetic, so
        // the walk would only repeat that test.
        leaf(0, 1, live, limit);
    } else {
        // Each ray's node-test constants, walk()'s.
        mesh_bvh::Slots<mesh_bvh::RayConsts<T>, kMaxBundle> rc;
        for (std::uint64_t m = live; m; m &= m - 1) {
            const int i = __builtin_ctzll(m);
            T mag;
            walk_mag(detail::max_abs(rays[i].origin), mag);
            ::new (rc.at(std::size_t(i))) mesh_bvh::RayConsts<T>(mesh_bvh::ray_consts(rays[i], mag));
        }
        const char* leaves = reinterpret_cast<const char*>(placed_.data());
        mesh_bvh::with_walk(isa_, [&](auto w) {
            w.walk_tree(nodes_.data(), leaves, sizeof(Placed), rc.data(), live, t_min, limit, leaf);
        });
    }
    // The hits built in place (in world space), copied out once all are built, as in
    // MeshBvh::pick_bundle; a normal frame made once per run of rays hitting the same instance (a
    // tile's rays mostly hit one).
    mesh_bvh::Slots<MeshHit<T>, kMaxBundle> world;
    std::uint64_t found = 0;
    const Placed* framed = nullptr;
    mesh_instances::NormalFrame<T> frame{Mat3<T>(T(1))};
    for (std::uint64_t m = live; m; m &= m - 1) {
        const std::size_t i = std::size_t(__builtin_ctzll(m));
        if (!best_at[i]) continue;
        found |= std::uint64_t(1) << i;
        if (best_at[i] != framed) {
            framed = best_at[i];
            frame = mesh_instances::NormalFrame<T>(framed->inverse);
        }
        ::new (world.at(i)) MeshHit<T>(best_at[i]->mesh->hit(best_ray[i], best[i], frame));
    }
    for (std::uint64_t m = found; m; m &= m - 1) {
        const std::size_t i = std::size_t(__builtin_ctzll(m));
        out[i].emplace();
        out[i]->instance = best_at[i]->instance;
        out[i]->hit = world[i];
    }
}

}  // namespace raypick
