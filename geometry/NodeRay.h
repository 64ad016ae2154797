// raypick geometry: a ray's constants for the slab test of a hierarchy's child boxes, the same for
// the shapes' Bvh (BvhNode.h) and MeshBvh; each computes its own widening delta.
#pragma once

#include <cmath>

#include <raypick/geometry/Lanes.h>
#include <raypick/geometry/Ray.h>

namespace raypick::detail {

/// Per-ray constants of the node test: per axis, the origin shifted for the near and far planes
/// (boxes widened by the ray's rounding scale), 1 / direction, and whether the hi plane is met
/// first.
template <typename T> struct RayConsts {
    T o_near[3], o_far[3], inv[3];
    bool neg[3];
};

/// RayConsts for boxes widened by delta on every side, folded into the origin: the plane lo -
/// delta is lo - (o + delta) from it. 1 / direction is +-inf for a zero component, its sign
/// that of the zero.
template <typename T> inline RayConsts<T> widened_ray_consts(const Ray<T>& ray, T delta) {
    RayConsts<T> rc;
    const Vec3<T> inv = quotient(Vec3<T>(T(1)), ray.direction);
    for (int a = 0; a < 3; ++a) {
        rc.neg[a] = std::signbit(ray.direction[a]);  // the hi plane first
        // o - delta is o + (-delta) exactly; the sign by copysign rather than a branch on it,
        // which mispredicts on rays of random directions.
        const T toward = std::copysign(delta, ray.direction[a]);
        rc.o_near[a] = ray.origin[a] + toward;
        rc.o_far[a] = ray.origin[a] - toward;
    }
    // By component: a glm vector indexed at run time is a switch.
    rc.inv[0] = inv.x;
    rc.inv[1] = inv.y;
    rc.inv[2] = inv.z;
    return rc;
}

}  // namespace raypick::detail
