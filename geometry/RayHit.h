// raypick geometry: the one result type of every ray cast, and the picking helper built on it.
#pragma once

#include <optional>

#include <raypick/geometry/Math.h>
#include <raypick/geometry/Ray.h>

namespace raypick {

/// The line's passage through a convex shape.
///
/// Convention (the same for every shape): t_near and t_far are where the *line* origin + t*direction
/// enters and leaves the shape, NOT clipped to the ray's range. When the origin is inside,
/// t_near < 0 < t_far: the entry lies behind the origin and the first surface point ahead of the ray
/// is the exit (see first_surface()). A cast returns a RayHit only when [t_near, t_far] overlaps the
/// ray's range [t_min, t_max], so a hit that is entirely behind the origin is a miss.
///
///   - t_near <= t_far always; t_near == t_far for a tangent ray or a flat shape crossed once.
///   - n_near, n_far: outward unit normals of the surface at t_near and t_far. For a tangent ray
///     both are the tangent point's normal. Where the surface has no unique normal (a zero-radius
///     sphere or capsule) they are -unit(direction) at entry and +unit(direction) at exit.
///   - origin_inside: the ray's origin (t = 0) is strictly inside (t_near < 0 < t_far).
///   - No field is ever NaN or infinite.
template <typename T> struct RayHit {
    T t_near = T(0);
    T t_far = T(0);
    Vec3<T> n_near{T(0)};
    Vec3<T> n_far{T(0)};
    bool origin_inside = false;
};

/// One point on a surface: what picking needs.
template <typename T> struct SurfaceHit {
    T t = T(0);
    Vec3<T> point{T(0)};
    Vec3<T> normal{T(0)};  ///< outward unit normal at `point`
    bool is_exit = false;  ///< true when the ray starts inside the shape and this is where it leaves
};

/// First surface point of `hit` with t in [t_min, t_max]: the entry if it lies in the range, else
/// the exit (the origin is inside, or t_min is past the entry). Empty when the whole range lies
/// inside the shape, so no surface is crossed.
template <typename T>
std::optional<SurfaceHit<T>> first_surface(const Ray<T>& ray, const RayHit<T>& hit, T t_min = T(0),
                                           T t_max = infinity<T>()) {
    SurfaceHit<T> s;
    if (hit.t_near >= t_min) {
        s.t = hit.t_near;
        s.normal = hit.n_near;
    } else {
        s.t = hit.t_far;
        s.normal = hit.n_far;
        s.is_exit = true;
    }
    if (s.t < t_min || s.t > t_max) return std::nullopt;
    s.point = ray.at(s.t);
    return s;
}

namespace detail {

/// Whether a line passage [t0, t1] is a hit for the range [t_min, t_max]: ordered, overlapping the
/// range and finite. The one acceptance rule of every cast and of the hierarchy.
template <typename T> inline bool accepts(T t0, T t1, T t_min, T t_max) {
    return t0 <= t1 && !(t1 < t_min) && !(t0 > t_max) && is_finite(t0) && is_finite(t1);
}

/// valid_range(t_min, t_max) and accepts(t0, t1, t_min, t_max) in one branch, for a passage that
/// is already known to be ordered and finite (t0 <= t1, neither inf nor NaN): the same answer.
template <typename T> inline bool accepts_finite(T t0, T t1, T t_min, T t_max) {
    return every(t_min <= t_max, !(t1 < t_min), !(t0 > t_max));
}

/// The common tail of every cast: the public result, from a passage that accepts() took and two
/// finite unit normals (each cast's normal functions never return anything else, so no result
/// ever carries a NaN whatever the input), written straight into `out`. Each cast returns its
/// `out` by name, so the optional is built in the caller's return slot: no RayHit temporary
/// stored field by field and then copied whole, which cost a store-forwarding stall per cast
/// (a third of the OBB cast's time).
template <typename T>
inline void emplace_hit(std::optional<RayHit<T>>& out, T t_near, T t_far, const Vec3<T>& n_near, const Vec3<T>& n_far) {
    RayHit<T>& h = out.emplace();
    h.t_near = t_near;
    h.t_far = t_far;
    h.n_near = n_near;
    h.n_far = n_far;
    h.origin_inside = t_near < T(0) && T(0) < t_far;
}

/// pick()'s tail where a shape computes only the normal it returns: first_surface() of the hit
/// that emplace_hit() would build from the same passage [t0, t1] (accepted for [t_min, t_max]),
/// bit for bit, written straight into `out`; normal_at(t, is_exit) is the normal cast() gives at t
/// (n_near for the entry, n_far for the exit). The other normal is never computed: for a sphere or
/// a capsule that is a square root and a division saved per pick.
/// The passage need not have been accepted if it is ordered and finite (t0 <= t1, neither inf nor
/// NaN): then t_min <= t <= t_max, for t the surface first_surface() would take, holds exactly when
/// accepts_finite() and first_surface()'s own range test both do (t_min <= t0 <= t_max for the
/// entry; t0 < t_min and t_min <= t1 <= t_max for the exit; NaN t_min or t_max fails either way).
template <typename T, typename NormalAt>
inline void emplace_surface(std::optional<SurfaceHit<T>>& out, const Ray<T>& ray, T t0, T t1, T t_min, T t_max,
                            const NormalAt& normal_at) {
    const bool exit = !(t0 >= t_min);  // first_surface(): the entry when it lies in the range
    const T t = exit ? t1 : t0;
    if (!every(t >= t_min, t <= t_max)) return;
    SurfaceHit<T>& s = out.emplace();
    s.t = t;
    s.point = ray.at(t);
    s.normal = normal_at(t, exit);
    s.is_exit = exit;
}

/// Where a cast's fast path leaves it: no hit, a hit whose passage it computed, or an input it
/// does not take (outside its range, or invalid), which the cast's general path then decides.
enum class FastPassage { Miss, Hit, General };

/// A valid ray range: t_min <= t_max, neither NaN (infinities allowed).
template <typename T> inline bool valid_range(T t_min, T t_max) { return t_min <= t_max; }

}  // namespace detail
}  // namespace raypick
