// raypick geometry: the two textbook ray/sphere tests of the source documents, kept as named
// variants so the harness can show where they differ from cast(Ray, Sphere) and the benchmarks
// can measure against them. Nothing else in raypick uses them.
#pragma once

#include <cmath>
#include <optional>

#include <raypick/geometry/Math.h>
#include <raypick/geometry/Ray.h>
#include <raypick/geometry/RayHit.h>
#include <raypick/geometry/Sphere.h>

namespace raypick::textbook {

/// The algebraic test of "Dev Log 5: Ray cast! (part2) Bonus!" (Pablo Narvaja, 2019), as described:
/// a = d.d, b = 2 d.(o-c), c = (o-c).(o-c) - r^2, discriminant b^2 - 4ac; discriminant == 0 gives
/// t = -b/2a, otherwise t0 = (-b+sqrt)/2a, t1 = (-b-sqrt)/2a, t = min if both > 0, else
/// (t0 < 0 ? t1 : t0); normal = unit(P - C).
/// Known weaknesses: b^2 - 4ac cancels catastrophically for a small sphere far away (wrong
/// hit/miss and t); -b + sqrt cancels too; a sphere entirely behind the origin is reported as a hit
/// with a negative t.
template <typename T> std::optional<SurfaceHit<T>> sphere_algebraic(const Ray<T>& ray, const Sphere<T>& s) {
    const Vec3<T> oc = ray.origin - s.center;
    const T a = glm::dot(ray.direction, ray.direction);
    const T b = T(2) * glm::dot(ray.direction, oc);
    const T c = glm::dot(oc, oc) - s.radius * s.radius;
    const T disc = b * b - T(4) * a * c;
    if (disc < T(0)) return std::nullopt;
    T t;
    if (disc == T(0)) {
        t = -b / (T(2) * a);
    } else {
        const T sd = std::sqrt(disc);
        const T t0 = (-b + sd) / (T(2) * a);
        const T t1 = (-b - sd) / (T(2) * a);
        if (t1 > T(0) && t0 > T(0)) t = glm::min(t0, t1);
        else t = t0 < T(0) ? t1 : t0;
    }
    SurfaceHit<T> h;
    h.t = t;
    h.point = ray.at(t);
    h.normal = glm::normalize(h.point - s.center);
    h.is_exit = glm::dot(oc, oc) < s.radius * s.radius;
    return h;
}

/// The geometric test of the tutorial chapter "Ray Against Sphere": e = c - p0, a = e.d (d unit),
/// b^2 = |e|^2 - a^2, f = sqrt(r^2 - b^2); no hit when r^2 - |e|^2 + a^2 < 0; origin inside
/// (|e|^2 < r^2) gives t = a + f, otherwise t = a - f; a negative t means no collision.
/// The tutorial assumes a unit direction (its Ray normalises); this variant normalises and returns
/// t in the caller's units. Known weaknesses: b = sqrt(|e|^2 - a^2) is NaN when rounding makes the
/// argument negative (a ray aimed at the centre), which then reads as "no collision"; the same
/// cancellation as the algebraic form far away. The tutorial returns no normal; unit(P - C) here.
template <typename T> std::optional<SurfaceHit<T>> sphere_geometric(const Ray<T>& ray, const Sphere<T>& s) {
    const T len = glm::length(ray.direction);
    const Vec3<T> d = ray.direction / len;
    const Vec3<T> e = s.center - ray.origin;
    const T esq = glm::dot(e, e);
    const T a = glm::dot(e, d);
    const T b = std::sqrt(esq - a * a);
    const T f = std::sqrt(s.radius * s.radius - b * b);
    T t;
    bool inside = false;
    if (s.radius * s.radius - esq + a * a < T(0)) return std::nullopt;  // no collision
    if (esq < s.radius * s.radius) {
        t = a + f;
        inside = true;
    } else {
        t = a - f;
    }
    if (!(t >= T(0))) return std::nullopt;  // "if it returns negative, no collision" (NaN too)
    SurfaceHit<T> h;
    h.t = t / len;
    h.point = ray.origin + d * t;
    h.normal = glm::normalize(h.point - s.center);
    h.is_exit = inside;
    return h;
}

}  // namespace raypick::textbook
