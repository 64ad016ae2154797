// One ray through an Embree 3 scene as the benchmarks cast it (built only when libembree-dev is
// installed): rtcIntersect1 with a default context, every mask bit set, t in [0, inf).
#pragma once

#include <embree3/rtcore.h>

#include <limits>

#include <raypick/geometry/Ray.h>

namespace raypick::bench {

/// The nearest hit of `ray` in the committed `scene` with t in [0, inf): the RTCRayHit after
/// rtcIntersect1. A hit has hit.geomID != RTC_INVALID_GEOMETRY_ID, its t in ray.tfar and its
/// primitive in hit.primID; a miss leaves geomID invalid and tfar infinite.
inline RTCRayHit embree_intersect(RTCScene scene, const Ray<float>& ray) {
    RTCIntersectContext ctx;
    rtcInitIntersectContext(&ctx);
    RTCRayHit rh{};
    rh.ray.org_x = ray.origin.x;
    rh.ray.org_y = ray.origin.y;
    rh.ray.org_z = ray.origin.z;
    rh.ray.dir_x = ray.direction.x;
    rh.ray.dir_y = ray.direction.y;
    rh.ray.dir_z = ray.direction.z;
    rh.ray.tnear = 0.f;
    rh.ray.tfar = std::numeric_limits<float>::infinity();
    rh.ray.mask = ~0u;
    rh.hit.geomID = RTC_INVALID_GEOMETRY_ID;
    rtcIntersect1(scene, &ctx, &rh);
    return rh;
}

}  // namespace raypick::bench
