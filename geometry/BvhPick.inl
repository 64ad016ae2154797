// raypick geometry: Bvh's single-ray walks: pick() (with and without a hint) and for_each_hit().
// Part of Bvh.h (included at its end); not a header of its own.
#pragma once

namespace raypick {

template <typename T>
std::optional<NearestHit<T>> Bvh<T>::pick(const Ray<T>& ray, T t_min, T t_max) const {
    return pick(ray, t_min, t_max, kNone);
}

template <typename T>
std::optional<NearestHit<T>> Bvh<T>::pick(const Ray<T>& ray, T t_min, T t_max, std::uint32_t hint) const {
    if (nodes_.empty() || !is_valid(ray) || !(t_min <= t_max)) return std::nullopt;
    bvh_leaf::Candidate<T> best;
    if (hint < slot_of_.size()) {
        // The same arithmetic as a leaf lane (the batch kernels are bit for bit the scalar code).
        bvh_leaf::test_scalar(candidate_at(slot_of_[hint]), ray, t_min, t_max, best);
    }
    const RayConsts rc = ray_consts(ray);
    T root_t;
    if (enters_root(rc, t_min, t_max, root_t)) {
        auto walk = [&](const auto& tree) {
            switch (isa_) {
                case BatchIsa::Avx512: bvh_walk_avx512::walk_pick(tree, rc, ray, t_min, t_max, root_t, best); break;
                case BatchIsa::Avx2: bvh_walk_avx2::walk_pick(tree, rc, ray, t_min, t_max, root_t, best); break;
                default: bvh_walk_sse2::walk_pick(tree, rc, ray, t_min, t_max, root_t, best); break;
            }
        };
        if (!compact_.empty()) walk(bvh_node::TreeOf<bvh_node::Compact<T>>{compact_.data(), leaves_.data()});
        else walk(bvh_node::Tree<T>{nodes_.data(), leaves_.data()});
    }
    return finish(ray, best, t_min, t_max);
}

template <typename T> typename Bvh<T>::RayConsts Bvh<T>::ray_consts(const Ray<T>& ray) const {
    // Boxes are widened by delta for this ray: a cast's accept/reject decisions carry rounding of
    // about eps * (|origin| + |shape|) in space (a zero-radius shape at a rounding-level distance
    // from the line may count as hit), so culling must be at least that conservative to agree
    // with brute force exactly.
    const T scene_mag = std::max(detail::finite_max_abs(root_lo_), detail::finite_max_abs(root_hi_));
    const T delta = T(16) * std::numeric_limits<T>::epsilon() * (detail::max_abs(ray.origin) + scene_mag) +
                    std::numeric_limits<T>::min();
    return detail::widened_ray_consts(ray, delta);
}

template <typename T> bool Bvh<T>::enters_root(const RayConsts& rc, T t_min, T t_max, T& entry) const {
    const T eps = T(4) * std::numeric_limits<T>::epsilon();
    T tn = t_min, tf = t_max;
    for (int a = 0; a < 3; ++a) {
        const bool neg = rc.neg[a];
        const T ta = ((neg ? root_hi_[a] : root_lo_[a]) - rc.o_near[a]) * rc.inv[a];
        const T tb = ((neg ? root_lo_[a] : root_hi_[a]) - rc.o_far[a]) * rc.inv[a];
        if (ta > tn) tn = ta;
        if (tb < tf) tf = tb;
    }
    entry = tn;
    return tn - std::abs(tn) * eps <= tf + std::abs(tf) * eps;
}

template <typename T>
std::optional<NearestHit<T>> Bvh<T>::finish(const Ray<T>& ray, const bvh_leaf::Candidate<T>& best, T t_min,
                                            T t_max) const {
    if (best.none()) return std::nullopt;
    const auto h = best.visit([&](const auto& s) { return cast(ray, s, t_min, t_max); });
    if (!h) return std::nullopt;  // unreachable: the leaf test accepted it
    const auto surf = first_surface(ray, *h, t_min, t_max);
    if (!surf) return std::nullopt;
    return NearestHit<T>{best.id, *surf, *h};
}

template <typename T>
template <typename Visit>
void Bvh<T>::for_each_hit(const Ray<T>& ray, Visit&& visit, T t_min, T t_max) const {
    for_each_candidate(
        ray,
        [&](std::uint32_t id, const Shape<T>& s) {
            if (const auto h = cast(ray, s, t_min, t_max)) visit(id, *h);
        },
        t_min, t_max);
}

template <typename T>
template <typename Visit>
void Bvh<T>::for_each_candidate(const Ray<T>& ray, Visit&& visit, T t_min, T t_max) const {
    if (nodes_.empty() || !is_valid(ray) || !(t_min <= t_max)) return;
    const RayConsts rc = ray_consts(ray);
    T root_entry;
    if (!enters_root(rc, t_min, t_max, root_entry)) return;
    // The walk runs in the instruction set's own copy (BvhNode.h) and hands each crossed leaf back
    // here, where the visitor's type is known.
    struct Context {
        const Bvh& bvh;
        Visit& visit;
    } ctx{*this, visit};
    auto leaf = [](void* p, std::uint32_t ref, bvh_leaf::LeafInfo info) {
        Context& c = *static_cast<Context*>(p);
        bvh_leaf::for_each_shape<T>(&c.bvh.leaves_[ref & kOffsetMask], info,
                                    [&](std::uint32_t id, const Shape<T>& s) { c.visit(id, s); });
    };
    const bvh_node::Tree<T> tree{nodes_.data(), leaves_.data()};
    switch (isa_) {
        case BatchIsa::Avx512: bvh_walk_avx512::walk_every(tree, rc, t_min, t_max, +leaf, &ctx); break;
        case BatchIsa::Avx2: bvh_walk_avx2::walk_every(tree, rc, t_min, t_max, +leaf, &ctx); break;
        default: bvh_walk_sse2::walk_every(tree, rc, t_min, t_max, +leaf, &ctx); break;
    }
}

}  // namespace raypick
