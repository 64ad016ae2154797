// raypick geometry: a ray's constants for the slab test of a hierarchy's child boxes, the same for
// the shapes' Bvh (BvhNode.h) and MeshBvh; each computes its own widening delta.
#pragma once

#include <raypick/geometry/Lanes.h>
#include <raypick/geometry/Ray.h>

namespace raypick::detail {

/// Per-ray constants of the node test: per axis, the origin shifted for the near and far planes
/// (boxes widened by the ray's rounding scale), 1 / direction, and whether the hi plane is met
/// first. Each array is one vector; its lane 3 is unused.
template <typename T> struct RayConsts {
    T o_near[4], o_far[4], inv[4];
    bool neg[3];
};

/// RayConsts for boxes widened by delta on every side, folded into the origin: the plane lo -
/// delta is lo - (o + delta) from it. 1 / direction is +-inf for a zero component, its sign
/// that of the zero. In vector lanes (x, y, z), each lane what the scalar operation gives.
template <typename T> inline RayConsts<T> widened_ray_consts(const Ray<T>& ray, T delta) {
    Lanes4<T> o, d;
    // By component, not one load across the vector: a ray just written component by component
    // (a mapped one) would stall a wide load until the stores retire (no store forwarding).
    load(ray.origin, T(0), o);
    load(ray.direction, T(1), d);
    const Lanes4<T> inv = (Lanes4<T>{} + T(1)) / d;
    // copysign(delta, d) by bits (delta >= 0), not a branch on the sign, which mispredicts on rays
    // of random directions; o - delta is o + (-delta) exactly.
    Mask4<T> sign;
    sign_bits<T>(d, sign);
    const Lanes4<T> toward = Lanes4<T>(Mask4<T>(Lanes4<T>{} + delta) | sign);
    RayConsts<T> rc;
    store<T>(o + toward, rc.o_near);
    store<T>(o - toward, rc.o_far);
    store<T>(inv, rc.inv);
    const unsigned neg = lane_bits(Mask4<T>(sign != Mask4<T>{}));  // the hi plane first
    for (int a = 0; a < 3; ++a) rc.neg[a] = (neg >> a) & 1u;
    return rc;
}

}  // namespace raypick::detail
