// raypick geometry: axis-aligned bounds of every shape (for framing, hierarchies, culling).
#pragma once

#include "geometry/Math.h"
#include "geometry/Shapes.h"

namespace raypick {

template <typename T> Aabb<T> bounds(const Sphere<T>& s) {
    return {s.center - Vec3<T>(s.radius), s.center + Vec3<T>(s.radius)};
}
template <typename T> Aabb<T> bounds(const Aabb<T>& b) { return b; }
/// Contains every point cast(ray, obb) can hit. The cast takes a point into the box frame as
/// R^T (p - c) and tests it against [-h, h], so the box is c + R^-T [-h, h]: for a rotation that
/// is orthonormal only within validate()'s tolerance (a column of length 1 - 1e-10 shrinks the
/// extent along it by 1e-10), that is slightly larger than c + R [-h, h]. With e the largest entry
/// of |R^T R - I|, ||R^-T - R|| <= 3e / (1 - 3e) (spectral norm), so growing every axis by
/// 4 e (h.x + h.y + h.z) covers it; 0 for an exactly orthonormal rotation. (Found by fuzzing: a
/// hierarchy culled a hit 6e-10 outside the old bounds.)
template <typename T> Aabb<T> bounds(const Obb<T>& b) {
    // Half-size of the rotated box along world axis i is sum_j |R[j][i]| * h[j].
    Vec3<T> ext(T(0));
    for (int j = 0; j < 3; ++j) ext += glm::abs(b.rotation[j]) * b.half_extents[j];
    const T e = orthonormality_error(b.rotation);
    const Vec3<T>& h = b.half_extents;
    if (e > T(0) && e <= T(0.01)) ext += Vec3<T>(T(4) * e * ((h.x + h.y) + h.z));  // else invalid or exact
    return {b.center - ext, b.center + ext};
}
template <typename T> Aabb<T> bounds(const Capsule<T>& c) {
    return {glm::min(c.a, c.b) - Vec3<T>(c.radius), glm::max(c.a, c.b) + Vec3<T>(c.radius)};
}

template <typename T> Aabb<T> merge(const Aabb<T>& x, const Aabb<T>& y) {
    return {glm::min(x.min, y.min), glm::max(x.max, y.max)};
}

}  // namespace raypick
