// raypick geometry: the ray/AABB slab test with epsilon face normals of "Ray Box Intersection and
// Normal Calculation" (blog post, 2015), kept as a
// named variant for comparison and benchmarks. Nothing else in raypick uses it.
#pragma once

#include <optional>

#include <raypick/geometry/Math.h>
#include <raypick/geometry/Ray.h>
#include <raypick/geometry/RayHit.h>
#include <raypick/geometry/Aabb.h>

namespace raypick::textbook {

/// Slab test as the post describes it: tnear = -inf, tfar = +inf; per axis, a zero direction
/// component rejects an origin outside the slab, otherwise t1 = (lo - o)/d, t2 = (hi - o)/d are
/// sorted and folded in; tnear > tfar or tfar < 0 is a miss; the result is tnear. The normal is
/// found afterwards by comparing the hit point with the faces in the order -x, +x, -y, +y, -z, +z
/// with EPS = 0.01.
/// Known weaknesses: an origin inside returns tnear < 0 (a point behind the ray); the epsilon
/// comparison gives the wrong face at edges (first match wins) and no face at all (zero normal)
/// when the hit point's rounding error exceeds 0.01 on large or far boxes; tiny boxes (< 0.01)
/// always report the -x face.
template <typename T> std::optional<SurfaceHit<T>> aabb_slab_epsilon(const Ray<T>& ray, const Aabb<T>& box) {
    T tnear = -infinity<T>(), tfar = infinity<T>();
    for (int i = 0; i < 3; ++i) {
        if (ray.direction[i] == T(0)) {
            if (ray.origin[i] < box.min[i] || ray.origin[i] > box.max[i]) return std::nullopt;
        } else {
            T t1 = (box.min[i] - ray.origin[i]) / ray.direction[i];
            T t2 = (box.max[i] - ray.origin[i]) / ray.direction[i];
            if (t1 > t2) std::swap(t1, t2);
            if (t1 > tnear) tnear = t1;
            if (t2 < tfar) tfar = t2;
            if (tnear > tfar) return std::nullopt;
            if (tfar < T(0)) return std::nullopt;
        }
    }
    SurfaceHit<T> h;
    h.t = tnear;
    h.point = ray.at(tnear);
    const T eps = T(0.01);
    const Vec3<T>& p = h.point;
    Vec3<T> n(T(0));
    if (std::abs(p.x - box.min.x) < eps) n = {-1, 0, 0};
    else if (std::abs(p.x - box.max.x) < eps) n = {1, 0, 0};
    else if (std::abs(p.y - box.min.y) < eps) n = {0, -1, 0};
    else if (std::abs(p.y - box.max.y) < eps) n = {0, 1, 0};
    else if (std::abs(p.z - box.min.z) < eps) n = {0, 0, -1};
    else if (std::abs(p.z - box.max.z) < eps) n = {0, 0, 1};
    h.normal = n;
    return h;
}

}  // namespace raypick::textbook
