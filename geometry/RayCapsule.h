// raypick geometry: ray against capsule (the robust default), built from the sphere test.
#pragma once

#include <optional>

#include "geometry/Math.h"
#include "geometry/Ray.h"
#include "geometry/RayHit.h"
#include "geometry/RaySphere.h"
#include "geometry/Shapes.h"
#include "geometry/Validate.h"

namespace raypick {

/// Ray against capsule, robust default.
///
/// The capsule is the union of the two end balls and the finite cylinder between them; it is
/// convex, so the line enters it at the earliest entry of the three parts and leaves at the
/// latest exit. The cylinder contributes only crossings of its lateral surface whose axial
/// position lies within the segment (its flat cap discs are inside the end balls). Each part uses
/// the stable quadratic of the sphere test (the cylinder's in the plane perpendicular to the axis).
///
/// - `ray.direction` does not need to be normalised; t is in units of it.
/// - Entry and exit with outward normals on the cylinder or on either cap (see RayHit).
/// - Ray parallel to the axis: never crosses the lateral surface; enters and leaves through the
///   caps (or misses) — no division by zero, no special "infinite solutions" case.
/// - a == b: exactly cast(ray, Sphere{a, radius}).
/// - A capsule entirely behind the origin is a miss (the published test reported it as a hit).
/// - Origin inside: t_near < 0 < t_far, origin_inside = true; first_surface() gives the exit.
/// - Radius 0 (a segment): hit only if the line meets the segment exactly; normals -/+unit(dir).
/// - Invalid input or t_min > t_max: no hit; never NaN.
template <typename T>
std::optional<RayHit<T>> cast(const Ray<T>& ray, const Capsule<T>& capsule, T t_min = T(0),
                              T t_max = infinity<T>()) {
    if (!is_valid(ray) || !is_valid(capsule) || !detail::valid_range(t_min, t_max)) return std::nullopt;
    const Vec3<T> ab = capsule.b - capsule.a;
    const T abab = glm::dot(ab, ab);
    if (!(abab > T(0))) return cast(ray, Sphere<T>{capsule.a, capsule.radius}, t_min, t_max);

    const Vec3<T>& d = ray.direction;
    const T r = capsule.radius;
    T t_near = infinity<T>(), t_far = -infinity<T>();
    auto consider = [&](T t0, T t1) {
        if (t0 < t_near) t_near = t0;
        if (t1 > t_far) t_far = t1;
    };

    // The two end balls.
    const Vec3<T> fa = ray.origin - capsule.a;
    T t0, t1;
    if (detail::sphere_roots(fa, d, r, t0, t1)) consider(t0, t1);
    if (detail::sphere_roots(ray.origin - capsule.b, d, r, t0, t1)) consider(t0, t1);

    // The lateral surface: the problem projected on the plane perpendicular to the axis.
    // s(t) = (fa.ab + t d.ab) / ab.ab is the axial position (0 at a, 1 at b) of the point at t.
    const T fa_ab = glm::dot(fa, ab);
    const T d_ab = glm::dot(d, ab);
    const Vec3<T> f_perp = fa - (fa_ab / abab) * ab;
    const Vec3<T> d_perp = d - (d_ab / abab) * ab;
    if (glm::dot(d_perp, d_perp) > T(0) && detail::sphere_roots(f_perp, d_perp, r, t0, t1)) {
        auto on_segment = [&](T t) {
            const T s = (fa_ab + t * d_ab) / abab;
            return s >= T(0) && s <= T(1);
        };
        consider(on_segment(t0) ? t0 : infinity<T>(), on_segment(t1) ? t1 : -infinity<T>());
    }
    if (!(t_near <= t_far)) return std::nullopt;

    // Normals from the final points, whichever part gave t: unit(p - closest point of the segment).
    // (Taking the winning part's own normal is wrong near a cap seam, where a ball's root can beat
    // the cylinder's by rounding although the point lies on the cylinder.)
    auto normal_at = [&](T t, bool exit) {
        if (r == T(0)) return normalize_or(exit ? d : -d, Vec3<T>(T(0), T(0), T(1)));  // a segment
        const T s = glm::clamp((fa_ab + t * d_ab) / abab, T(0), T(1));
        return normalize_or_dir(fa + t * d - s * ab, exit ? d : -d);
    };
    const Vec3<T> n_near = normal_at(t_near, false);
    const Vec3<T> n_far = normal_at(t_far, true);
    return detail::finish(t_near, t_far, n_near, n_far, t_min, t_max);
}

}  // namespace raypick
