// raypick geometry: axis-aligned bounds of every shape (for framing, hierarchies, culling).
#pragma once

#include "geometry/Math.h"
#include "geometry/Shapes.h"

namespace raypick {

template <typename T> Aabb<T> bounds(const Sphere<T>& s) {
    return {s.center - Vec3<T>(s.radius), s.center + Vec3<T>(s.radius)};
}
template <typename T> Aabb<T> bounds(const Aabb<T>& b) { return b; }
template <typename T> Aabb<T> bounds(const Obb<T>& b) {
    // Half-size of the rotated box along world axis i is sum_j |R[j][i]| * h[j].
    Vec3<T> ext(T(0));
    for (int j = 0; j < 3; ++j) ext += glm::abs(b.rotation[j]) * b.half_extents[j];
    return {b.center - ext, b.center + ext};
}
template <typename T> Aabb<T> bounds(const Capsule<T>& c) {
    return {glm::min(c.a, c.b) - Vec3<T>(c.radius), glm::max(c.a, c.b) + Vec3<T>(c.radius)};
}

template <typename T> Aabb<T> merge(const Aabb<T>& x, const Aabb<T>& y) {
    return {glm::min(x.min, y.min), glm::max(x.max, y.max)};
}

}  // namespace raypick
