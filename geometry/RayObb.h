// raypick geometry: ray against oriented box (the robust default).
#pragma once

#include <optional>

#include "geometry/Math.h"
#include "geometry/Ray.h"
#include "geometry/RayAabb.h"
#include "geometry/RayHit.h"
#include "geometry/Shapes.h"
#include "geometry/Validate.h"

namespace raypick {
namespace detail {

/// Slab passage of the ray taken into the box's frame.
template <typename T> inline bool obb_slabs(const Ray<T>& ray, const Obb<T>& box, SlabPassage<T>& p) {
    const Mat3<T> to_local = glm::transpose(box.rotation);
    const Vec3<T> o = to_local * (ray.origin - box.center);
    const Vec3<T> d = to_local * ray.direction;
    return slab_passage(o, d, -box.half_extents, box.half_extents, p);
}

/// The line's passage through the box, t only (no validation): what cast() computes, bit for bit.
template <typename T> inline bool passage(const Ray<T>& ray, const Obb<T>& box, T& t0, T& t1) {
    SlabPassage<T> p;
    if (!obb_slabs(ray, box, p)) return false;
    t0 = p.t_near;
    t1 = p.t_far;
    return true;
}

}  // namespace detail

/// Ray against oriented box, robust default.
///
/// The ray is taken into the box's frame (origin - centre, then rotation^T; the 0 A.D. note's
/// e = a_i . p and f = a_i . d) and cut by the slabs [-h, h] exactly as in the Aabb test, so every
/// contract of cast(Ray, Aabb) holds here too:
/// - `ray.direction` does not need to be normalised; t is in units of it.
/// - Origin inside: t_near < 0 < t_far; a box entirely behind the origin is a miss.
/// - Zero half extents work (a rectangle, a segment, a point): the slab of a zero extent gives
///   t = e / f on both sides, and the normal is the signed box axis (+-rotation column).
/// - Normals are unit (re-normalised box axes) and outward.
/// - Invalid input (non-orthonormal or reflecting rotation, negative or non-finite extents, ...)
///   or t_min > t_max: no hit; never NaN.
template <typename T>
std::optional<RayHit<T>> cast(const Ray<T>& ray, const Obb<T>& box, T t_min = T(0),
                              T t_max = infinity<T>()) {
    if (!is_valid(ray) || !is_valid(box) || !detail::valid_range(t_min, t_max)) return std::nullopt;
    detail::SlabPassage<T> p;
    if (!detail::obb_slabs(ray, box, p) || !detail::accepts(p.t_near, p.t_far, t_min, t_max)) return std::nullopt;
    const Vec3<T> up(T(0), T(0), T(1));
    const Vec3<T> n_near = normalize_or(p.near_sign * box.rotation[p.near_axis], up);
    const Vec3<T> n_far = normalize_or(p.far_sign * box.rotation[p.far_axis], up);
    // accepts() held above and normalize_or() never returns a non-finite vector.
    return detail::make_hit(p.t_near, p.t_far, n_near, n_far);
}

}  // namespace raypick
