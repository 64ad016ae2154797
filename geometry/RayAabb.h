// raypick geometry: ray against axis-aligned box (the robust default).
#pragma once

#include <limits>
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

/// sign * (unit vector of axis i). Built with selects, not by storing into a component chosen at
/// run time, which would cost a store-forwarding stall when the vector is read back whole.
template <typename T> inline Vec3<T> unit_axis(int i, T sign) {
    return Vec3<T>(i == 0 ? sign : T(0), i == 1 ? sign : T(0), i == 2 ? sign : T(0));
}

/// slab_passage() for the common case, with fewer branches: every input finite, no direction
/// component 0, min <= max. Returns false when the case does not apply (the caller then takes
/// slab_passage(), which also handles it) and sets `applies`; when it applies, the result and p
/// are bit for bit those of slab_passage() (same divisions, same comparisons, ties to the lowest
/// axis).
template <typename T>
inline bool slab_passage_fast(const Vec3<T>& o, const Vec3<T>& d, const Vec3<T>& lo, const Vec3<T>& hi,
                              SlabPassage<T>& p, bool& applies) {
    // x*0 is 0 for finite x and NaN otherwise: one compare checks all twelve inputs (summed as a
    // tree, not a chain, to keep the latency short).
    const T z = T(0);
    const T fo = (o.x * z + o.y * z) + o.z * z, fd = (d.x * z + d.y * z) + d.z * z;
    const T fl = (lo.x * z + lo.y * z) + lo.z * z, fh = (hi.x * z + hi.y * z) + hi.z * z;
    applies = ((fo + fd) + (fl + fh) == z) & (d.x != z) & (d.y != z) & (d.z != z) & (lo.x <= hi.x) &
              (lo.y <= hi.y) & (lo.z <= hi.z);
    if (!applies) return false;
    // Per axis, entry and exit are the smaller and larger of the two plane distances: with
    // lo <= hi and d != 0 the division is monotonic, so min/max pick exactly the values the
    // sign test of slab_passage() picks, without a branch on the direction's signs, which vary
    // from ray to ray (a mispredicted branch per axis was most of this test's cost).
    T tn = -infinity<T>(), tf = infinity<T>();
    int na = -1, fa = -1;
    for (int i = 0; i < 3; ++i) {
        const T t_lo = (lo[i] - o[i]) / d[i];
        const T t_hi = (hi[i] - o[i]) / d[i];
        T enter = t_lo < t_hi ? t_lo : t_hi;
        T leave = t_lo < t_hi ? t_hi : t_lo;
        if (__builtin_expect(t_lo == t_hi, 0)) {  // a flat slab: -0 and +0 compare equal but
            enter = d[i] > z ? t_lo : t_hi;       // are different bits; choose as slab_passage()
            leave = d[i] > z ? t_hi : t_lo;
        }
        // Strict comparisons in axis order, as the loop: ties go to the lowest axis; an entry of
        // -inf (overflow) never beats the initial -inf, leaving the axis unset as there.
        const bool new_near = enter > tn, new_far = leave < tf;
        tn = new_near ? enter : tn;
        na = new_near ? i : na;
        tf = new_far ? leave : tf;
        fa = new_far ? i : fa;
    }
    const bool ok = (na >= 0) & (fa >= 0) & (tn <= tf);
    p.t_near = tn;
    p.t_far = tf;
    p.near_axis = na;
    p.far_axis = fa;
    p.near_sign = ok && d[na] > z ? T(-1) : T(1);
    p.far_sign = ok && d[fa] > z ? T(1) : T(-1);
    return ok;
}

/// The line's passage through the box, t only (no validation): what cast() computes, bit for bit.
template <typename T> inline bool passage(const Ray<T>& ray, const Aabb<T>& box, T& t0, T& t1) {
    SlabPassage<T> p;
    bool applies;
    const bool hit = slab_passage_fast(ray.origin, ray.direction, box.min, box.max, p, applies);
    if (!(applies ? hit : slab_passage(ray.origin, ray.direction, box.min, box.max, p))) return false;
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
    detail::SlabPassage<T> p;
    bool applies;
    // Fast path: finite input, no zero direction component, min <= max, so the ray and box are
    // valid (a non-zero finite direction still needs dot(d, d) in range, checked below).
    const bool hit = detail::slab_passage_fast(ray.origin, ray.direction, box.min, box.max, p, applies);
    const T dd = glm::dot(ray.direction, ray.direction);
    if (__builtin_expect(applies & (dd > T(0)) & (dd <= std::numeric_limits<T>::max()), 1)) {
        if (!hit || !detail::valid_range(t_min, t_max) || !detail::accepts(p.t_near, p.t_far, t_min, t_max))
            return std::nullopt;
    } else {
        if (!is_valid(ray) || !is_valid(box) || !detail::valid_range(t_min, t_max)) return std::nullopt;
        p = detail::SlabPassage<T>{};
        if (!detail::slab_passage(ray.origin, ray.direction, box.min, box.max, p) ||
            !detail::accepts(p.t_near, p.t_far, t_min, t_max))
            return std::nullopt;
    }
    return detail::make_hit(p.t_near, p.t_far, detail::unit_axis(p.near_axis, p.near_sign),
                            detail::unit_axis(p.far_axis, p.far_sign));
}

}  // namespace raypick
