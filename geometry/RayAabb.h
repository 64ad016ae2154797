// raypick geometry: ray against axis-aligned box (the robust default).
#pragma once

#include <optional>

#include "geometry/Math.h"
#include "geometry/Ray.h"
#include "geometry/RayHit.h"
#include "geometry/Shapes.h"
#include "geometry/Validate.h"

namespace raypick {
namespace detail {

/// Slab passage of the line o + t*d through the box [lo, hi] (per axis, lo <= hi).
/// Reports which axis produced the entry and the exit and the sign of the outward normal there.
/// Exact for direction components that are exactly 0: such an axis constrains nothing when
/// lo <= o <= hi (an origin lying exactly on a slab plane is inside the closed slab) and rejects
/// the line otherwise. Uses (bound - o) / d, never an inverse direction times a possibly-zero
/// difference, so no 0 * inf = NaN can appear. Ties go to the lowest axis.
template <typename T> struct SlabPassage {
    T t_near = -infinity<T>();
    T t_far = infinity<T>();
    int near_axis = -1;
    int far_axis = -1;
    T near_sign = T(0);  ///< outward normal at entry is near_sign * axis
    T far_sign = T(0);   ///< outward normal at exit is far_sign * axis
};

template <typename T>
inline bool slab_passage(const Vec3<T>& o, const Vec3<T>& d, const Vec3<T>& lo, const Vec3<T>& hi,
                         SlabPassage<T>& p) {
    for (int i = 0; i < 3; ++i) {
        if (d[i] == T(0)) {
            if (o[i] < lo[i] || o[i] > hi[i]) return false;  // parallel and outside the slab
            continue;                                         // parallel and inside: no limit
        }
        const T t_lo = (lo[i] - o[i]) / d[i];
        const T t_hi = (hi[i] - o[i]) / d[i];
        const bool pos = d[i] > T(0);
        const T enter = pos ? t_lo : t_hi;
        const T leave = pos ? t_hi : t_lo;
        if (enter > p.t_near) {
            p.t_near = enter;
            p.near_axis = i;
            p.near_sign = pos ? T(-1) : T(1);
        }
        if (leave < p.t_far) {
            p.t_far = leave;
            p.far_axis = i;
            p.far_sign = pos ? T(1) : T(-1);
        }
        if (p.t_near > p.t_far) return false;  // early out: the slabs do not overlap
    }
    // A valid ray has a non-zero component, so both axes are set unless a bound overflowed to inf.
    return p.near_axis >= 0 && p.far_axis >= 0 && p.t_near <= p.t_far;
}

template <typename T> inline Vec3<T> unit_axis(int i, T sign) {
    Vec3<T> n(T(0));
    n[i] = sign;
    return n;
}

/// The line's passage through the box, t only (no validation): what cast() computes, bit for bit.
template <typename T> inline bool passage(const Ray<T>& ray, const Aabb<T>& box, T& t0, T& t1) {
    SlabPassage<T> p;
    if (!slab_passage(ray.origin, ray.direction, box.min, box.max, p)) return false;
    t0 = p.t_near;
    t1 = p.t_far;
    return true;
}

}  // namespace detail

/// Ray against axis-aligned box, robust default (slab method).
///
/// - `ray.direction` does not need to be normalised; t is in units of it.
/// - Returns the line's passage [t_near, t_far] (see RayHit) when it overlaps [t_min, t_max];
///   a box entirely behind the origin is a miss.
/// - Parallel ray (a direction component exactly 0): exact; a ray lying exactly in a face plane
///   hits (boxes are closed).
/// - Normals: the signed axis of the slab that produced the entry / exit (never an epsilon
///   comparison of the hit point with the faces, which breaks for large or far boxes). A ray
///   through an edge or corner takes the lowest such axis.
/// - Flat box (min == max on an axis): works; crossing the flat axis gives t_near == t_far with
///   opposite normals -/+ that axis (relative to the direction).
/// - Origin inside: t_near < 0 < t_far, origin_inside = true.
/// - Invalid input (min > max, non-finite, zero direction) or t_min > t_max: no hit; never NaN.
template <typename T>
std::optional<RayHit<T>> cast(const Ray<T>& ray, const Aabb<T>& box, T t_min = T(0),
                              T t_max = infinity<T>()) {
    if (!is_valid(ray) || !is_valid(box) || !detail::valid_range(t_min, t_max)) return std::nullopt;
    detail::SlabPassage<T> p;
    if (!detail::slab_passage(ray.origin, ray.direction, box.min, box.max, p)) return std::nullopt;
    return detail::finish(p.t_near, p.t_far, detail::unit_axis(p.near_axis, p.near_sign),
                          detail::unit_axis(p.far_axis, p.far_sign), t_min, t_max);
}

}  // namespace raypick
