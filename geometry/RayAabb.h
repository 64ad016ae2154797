// raypick geometry: ray against axis-aligned box (the robust default).
#pragma once

#include <limits>
#include <optional>

#include <raypick/geometry/Lanes.h>
#include <raypick/geometry/Math.h>
#include <raypick/geometry/Ray.h>
#include <raypick/geometry/RayHit.h>
#include <raypick/geometry/Aabb.h>
#include <raypick/geometry/Validate.h>

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

/// The lanes slab_span_fast() decides on, kept for slab_axes(): each axis' entry and exit, and where
/// the direction is positive.
template <typename T> struct SlabLanes {
    Lanes4<T> enter, leave;
    Mask4<T> pos;
};

/// slab_passage_fast() up to its decision: p.t_near and p.t_far (p's axes untouched), the returned
/// hit, `applies`, and the lanes slab_axes() needs. Kept apart so that a cast looks up the axes
/// only for a hit it keeps: on random rays half the casts miss, and the lookups (two compares and
/// movemasks, the signs stored and read back by index) would otherwise be paid by them too.
template <typename T>
inline bool slab_span_fast(const Lanes4<T>& o4, const Lanes4<T>& d4, const Lanes4<T>& lo4, const Lanes4<T>& hi4,
                           SlabPassage<T>& p, bool& applies, SlabLanes<T>& lanes) {
    // x*0 is 0 for finite x and NaN otherwise: one compare per lane checks all twelve inputs.
    const T z = T(0);
    applies = all_xyz<T>(((o4 * z + d4 * z) + (lo4 * z + hi4 * z) == z) & (d4 != z) & (lo4 <= hi4));
    if (!applies) return false;
    // The six plane distances in two vector divisions, not six scalar ones.
    const Lanes4<T> t_lo = (lo4 - o4) / d4, t_hi = (hi4 - o4) / d4;
    // Entry and exit chosen by the direction's sign, as slab_passage() does, with selects rather
    // than a branch per axis (the signs vary from ray to ray: a mispredicted branch per axis would be
    // most of this test's cost). No lane is NaN: finite inputs, d != 0.
    lanes.pos = d4 > z;
    lanes.enter = lanes.pos ? t_lo : t_hi;
    lanes.leave = lanes.pos ? t_hi : t_lo;
    // The latest entry and earliest exit, each with the bits of the lowest axis among equal values
    // (the loop's strict comparisons); the hit decision needs nothing else.
    p.t_near = first_max_xyz<T>(lanes.enter);
    p.t_far = first_min_xyz<T>(lanes.leave);
    // An entry of -inf or an exit of +inf (a bound overflowed) leaves the loop's axis unset: miss.
    return every(p.t_near > -infinity<T>(), p.t_far < infinity<T>(), p.t_near <= p.t_far);
}

/// The rest of slab_passage_fast() after slab_span_fast() returned `ok` for p: which axes gave the
/// entry and the exit (the lowest lane holding each value) and the outward normals' signs there.
template <typename T> inline void slab_axes(const SlabLanes<T>& lanes, bool ok, SlabPassage<T>& p) {
    const T tn = p.t_near, tf = p.t_far;
    const int na = __builtin_ctz(lane_bits(lanes.enter == Lanes4<T>{tn, tn, tn, tn}));
    const int fa = __builtin_ctz(lane_bits(lanes.leave == Lanes4<T>{tf, tf, tf, tf}));
    // Outward normal signs: -1 where the line enters through the lower plane (d > 0), +1 at exit.
    const Lanes4<T> one{T(1), T(1), T(1), T(1)};
    const Lanes4<T> near_sign = lanes.pos ? -one : one;
    p.near_sign = near_sign[na & 3];
    p.far_sign = -near_sign[fa & 3];
    p.near_axis = ok ? na : -1;
    p.far_axis = ok ? fa : -1;
}

/// slab_passage() for the common case, with fewer branches and divisions: every input finite, no
/// direction component 0, min <= max. The inputs are lanes 0..2 (x, y, z) of o4, d4, lo4, hi4;
/// lane 3 is ignored (it must hold copies of lanes 0..2 of the inputs, so that it is finite and
/// divides by a non-zero when they are). Returns false when the case does not apply (the caller
/// then takes slab_passage(), which also handles it) and sets `applies`; when it applies, the
/// result and p are bit for bit those of slab_passage() (same divisions, same comparisons, ties to
/// the lowest axis): slab_span_fast() then slab_axes().
template <typename T>
inline bool slab_passage_fast(const Lanes4<T>& o4, const Lanes4<T>& d4, const Lanes4<T>& lo4, const Lanes4<T>& hi4,
                              SlabPassage<T>& p, bool& applies) {
    SlabLanes<T> lanes;
    const bool ok = slab_span_fast(o4, d4, lo4, hi4, p, applies, lanes);
    if (!applies) return false;
    slab_axes(lanes, ok, p);
    return ok;
}

/// The same for the box [lo, hi] and the line o + t*d given as vectors.
template <typename T>
inline bool slab_passage_fast(const Vec3<T>& o, const Vec3<T>& d, const Vec3<T>& lo, const Vec3<T>& hi,
                              SlabPassage<T>& p, bool& applies) {
    Lanes4<T> o4, d4, lo4, hi4;
    load(o, o.z, o4);
    load(d, d.z, d4);
    load(lo, lo.z, lo4);
    load(hi, hi.z, hi4);
    return slab_passage_fast(o4, d4, lo4, hi4, p, applies);
}

/// slab_span_fast() for a ray and a box, each loaded as two overlapping vectors.
template <typename T>
inline bool slab_span_fast(const Ray<T>& ray, const Aabb<T>& box, SlabPassage<T>& p, bool& applies, SlabLanes<T>& lanes) {
    static_assert(sizeof(Ray<T>) == 6 * sizeof(T) && sizeof(Aabb<T>) == 6 * sizeof(T), "x, y, z of both vectors contiguous");
    // Lane 3: direction.x, direction.z, max.x, max.z, all checked in lanes 0..2.
    Lanes4<T> o4, d4, lo4, hi4;
    load_followed(ray.origin, o4);
    load_preceded(ray.direction, d4);
    load_followed(box.min, lo4);
    load_preceded(box.max, hi4);
    return slab_span_fast(o4, d4, lo4, hi4, p, applies, lanes);
}

/// The line's passage through the box, t only (no validation): what cast() computes, bit for bit.
template <typename T> inline bool passage(const Ray<T>& ray, const Aabb<T>& box, T& t0, T& t1) {
    SlabPassage<T> p;
    bool applies;
    SlabLanes<T> lanes;  // t only: no axes
    const bool hit = slab_span_fast(ray, box, p, applies, lanes);
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
///
/// Always inlined, as the other shapes' casts are: left to GCC, it is inlined or called out of
/// line depending on the rest of the translation unit. Its general path stays in line: out of
/// line it is slower, whether it returns by value or takes `hit` by reference (figures:
/// docs/performance.md).
template <typename T>
[[gnu::always_inline]] inline std::optional<RayHit<T>> cast(const Ray<T>& ray, const Aabb<T>& box, T t_min = T(0),
                                                            T t_max = infinity<T>()) {
    std::optional<RayHit<T>> hit;  // the one value returned, built in place (see emplace_hit)
    detail::SlabPassage<T> p;
    bool applies;
    detail::SlabLanes<T> lanes;
    // Fast path: finite input, no zero direction component, min <= max, so the ray and box are
    // valid (a non-zero finite direction still needs dot(d, d) in range, checked below).
    const bool crossed = detail::slab_span_fast(ray, box, p, applies, lanes);
    const T dd = glm::dot(ray.direction, ray.direction);
    if (__builtin_expect(applies & (dd > T(0)) & (dd <= std::numeric_limits<T>::max()), 1)) {
        if (!crossed || !detail::valid_range(t_min, t_max) || !detail::accepts(p.t_near, p.t_far, t_min, t_max))
            return hit;
        detail::slab_axes(lanes, true, p);  // for the hit only
    } else {
        if (!is_valid(ray) || !is_valid(box) || !detail::valid_range(t_min, t_max)) return hit;
        p = detail::SlabPassage<T>{};
        if (!detail::slab_passage(ray.origin, ray.direction, box.min, box.max, p) ||
            !detail::accepts(p.t_near, p.t_far, t_min, t_max))
            return hit;
    }
    detail::emplace_hit(hit, p.t_near, p.t_far, detail::unit_axis(p.near_axis, p.near_sign),
                        detail::unit_axis(p.far_axis, p.far_sign));
    return hit;
}

}  // namespace raypick
