// raypick geometry: one pick over a scene that mixes analytic shapes (a Bvh) and mesh instances
// (an InstanceBvh). The two hierarchies stay separate — the shapes' leaves store each type's fields
// for its batch kernels, an instance's leaf maps the ray into its mesh — and a pick walks the
// shapes first, then the instances with the range cut at the shapes' hit, so the second walk
// culls everything behind it.
#pragma once

#include <cstdint>
#include <optional>

#include <raypick/geometry/Bvh.h>
#include <raypick/geometry/MeshInstances.h>

namespace raypick {

/// Which side a pick over shapes and instances takes (nearer_side()).
enum class MixedSide { none, shape, instance };

/// The rule of every pick over shapes and instances, from each side's nearest hit in the ray's
/// range: `shape_t` points at the t of the shapes' nearest hit and `instance_t` at the t of the
/// instances' nearest hit, null for a side with no hit. The smaller t wins; at equal t the shape.
/// A shape hit therefore stays the answer when the instances are searched only up to its t
/// (inclusive), which is how the picks below cull the instances behind it.
template <typename T>
constexpr MixedSide nearer_side(const T* shape_t, const T* instance_t) noexcept {
    if (instance_t && (!shape_t || *instance_t < *shape_t)) return MixedSide::instance;
    return shape_t ? MixedSide::shape : MixedSide::none;
}

/// The nearest surface of a mixed scene: a shape (its index and Bvh::pick's hit) or an instance
/// (its index and the triangle's hit in world space). Exactly one of `shape`, `instance` is set.
template <typename T> struct MixedHit {
    std::optional<NearestHit<T>> shape;
    std::optional<InstanceHit<T>> instance;

    T t() const { return shape ? shape->surface.t : instance->hit.t; }
};

/// Nearest surface along the ray with t in [t_min, t_max] among the shapes and the instances, by
/// nearer_side(): the smaller t; at equal t the shape. Empty for a miss, an invalid ray or
/// t_min > t_max.
template <typename T>
std::optional<MixedHit<T>> pick_mixed(const Bvh<T>& shapes, const InstanceBvh<T>& instances, const Ray<T>& ray,
                                      T t_min = T(0), T t_max = infinity<T>()) {
    std::optional<MixedHit<T>> out;
    auto s = shapes.pick(ray, t_min, t_max);
    auto m = instances.pick(ray, t_min, s ? s->surface.t : t_max);
    switch (nearer_side(s ? &s->surface.t : nullptr, m ? &m->hit.t : nullptr)) {
        case MixedSide::shape: out = MixedHit<T>{std::move(s), std::nullopt}; break;
        case MixedSide::instance: out = MixedHit<T>{std::nullopt, std::move(m)}; break;
        case MixedSide::none: break;
    }
    return out;
}

}  // namespace raypick
