// raypick geometry: the ray/OBB axis loop of "Dev Log 5: Ray cast! (part2) Bonus!" (Pablo
// Narvaja, 2019), kept as a named variant for
// comparison and benchmarks. Nothing else in raypick uses it.
#pragma once

#include <algorithm>
#include <optional>

#include <raypick/geometry/Math.h>
#include <raypick/geometry/Ray.h>
#include <raypick/geometry/RayHit.h>
#include <raypick/geometry/Obb.h>

namespace raypick::textbook {

/// The dev log's loop over the box axes, as written: e = axis.(centre - o), f = axis.d; the
/// parallel early-out "|f| < 0 && (-e - h > 0 || -e + h > 0)" (which, as written, never fires);
/// t0 = (e + h)/f, t1 = (e - h)/f, sorted, tNear = max(t0, tNear), tFar = min(t1, tFar), miss on
/// tNear > tFar or tFar < 0; solution = tNear > 0 ? tNear : tFar. The normal is the first axis
/// whose +face, then -face, lies within EPS = 1e-3 of the hit point along that axis; when none
/// does, the last axis with sign +1 (the loop's fall-through).
/// Known weaknesses: the parallel early-out never fires, so a ray parallel to a face divides by
/// zero (0/0 = NaN when it lies on the face plane); the epsilon normal picks the wrong face at
/// edges and on far or large boxes.
template <typename T> std::optional<SurfaceHit<T>> obb_axis_loop(const Ray<T>& ray, const Obb<T>& box) {
    T tnear = -infinity<T>(), tfar = infinity<T>();
    for (int i = 0; i < 3; ++i) {
        const T h = box.half_extents[i];
        const Vec3<T> axis = box.rotation[i];
        const T e = glm::dot(axis, box.center - ray.origin);
        const T f = glm::dot(axis, ray.direction);
        if (std::abs(f) < T(0) && (-e - h > T(0) || -e + h > T(0))) return std::nullopt;
        T t0 = (e + h) / f;
        T t1 = (e - h) / f;
        if (t0 > t1) std::swap(t0, t1);
        tnear = std::max(t0, tnear);
        tfar = std::min(t1, tfar);
        if (tnear > tfar || tfar < T(0)) return std::nullopt;
    }
    SurfaceHit<T> hit;
    hit.t = tnear > T(0) ? tnear : tfar;
    hit.is_exit = !(tnear > T(0));
    hit.point = ray.at(hit.t);
    const T eps = T(1e-3);
    T sgn = T(1);
    Vec3<T> axis(T(0));
    for (int i = 0; i < 3; ++i) {
        axis = box.rotation[i];
        const Vec3<T> end = box.center + axis * box.half_extents[i];
        if (std::abs(glm::dot(hit.point - end, axis)) < eps) { sgn = T(1); break; }
        const Vec3<T> end_inv = box.center - axis * box.half_extents[i];
        if (std::abs(glm::dot(hit.point - end_inv, axis)) < eps) { sgn = T(-1); break; }
    }
    hit.normal = sgn * axis;
    return hit;
}

}  // namespace raypick::textbook
