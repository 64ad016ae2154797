// raypick geometry: the textbook ray/triangle test, kept as a named variant so the harness can
// show where it differs from intersect(Ray, Triangle) and the benchmarks and the watertightness
// tests can measure against it. Nothing else in raypick uses it.
#pragma once

#include <optional>

#include <raypick/geometry/Math.h>
#include <raypick/geometry/Ray.h>
#include <raypick/geometry/RayHit.h>
#include <raypick/geometry/Triangle.h>

namespace raypick::textbook {

/// Möller and Trumbore, "Fast, Minimum Storage Ray/Triangle Intersection" (1997), two-sided, as
/// widely copied: det = e1 . (d x e2); |det| < 1e-6 is a miss; u = (o - a) . (d x e2) / det and
/// v = d . ((o - a) x e1) / det must lie in [0, 1] with u + v <= 1; t = e2 . ((o - a) x e1) / det
/// must exceed 1e-6. Normal: unit(e1 x e2), facing the ray.
/// Known weaknesses: each triangle rounds u and v from its own edge vectors, so a ray through an
/// edge shared by two triangles can fall outside both (a leak); the fixed epsilon on det misses
/// small or distant triangles and grazing rays whose det is legitimately tiny, and the one on t
/// misses hits near the origin.
template <typename T> std::optional<SurfaceHit<T>> triangle_moller_trumbore(const Ray<T>& ray, const Triangle<T>& tri) {
    const T eps = T(1e-6);
    const Vec3<T> e1 = tri.b - tri.a;
    const Vec3<T> e2 = tri.c - tri.a;
    const Vec3<T> p = glm::cross(ray.direction, e2);
    const T det = glm::dot(e1, p);
    if (det > -eps && det < eps) return std::nullopt;
    const T inv_det = T(1) / det;
    const Vec3<T> s = ray.origin - tri.a;
    const T u = glm::dot(s, p) * inv_det;
    if (u < T(0) || u > T(1)) return std::nullopt;
    const Vec3<T> q = glm::cross(s, e1);
    const T v = glm::dot(ray.direction, q) * inv_det;
    if (v < T(0) || u + v > T(1)) return std::nullopt;
    const T t = glm::dot(e2, q) * inv_det;
    if (!(t > eps)) return std::nullopt;
    SurfaceHit<T> h;
    h.t = t;
    h.point = ray.at(t);
    const Vec3<T> n = glm::normalize(glm::cross(e1, e2));
    h.normal = glm::dot(n, ray.direction) < T(0) ? n : -n;
    return h;
}

}  // namespace raypick::textbook
