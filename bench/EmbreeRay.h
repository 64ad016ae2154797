// One ray through an Embree 3 scene as the benchmarks cast it (built only when libembree-dev is
// installed): rtcIntersect1 with a default context, every mask bit set, t in [0, inf); the ray itself.
#pragma once

#include <embree3/rtcore.h>

#include <limits>

#include <raypick/geometry/Ray.h>

namespace raypick::bench {

/// `ray` as Embree's, t in [0, t_max], every mask bit set.
inline RTCRay embree_ray(const Ray<float>& ray, float t_max) {
    RTCRay r{};
    r.org_x = ray.origin.x;
    r.org_y = ray.origin.y;
    r.org_z = ray.origin.z;
    r.dir_x = ray.direction.x;
    r.dir_y = ray.direction.y;
    r.dir_z = ray.direction.z;
    r.tnear = 0.f;
    r.tfar = t_max;
    r.mask = ~0u;
    return r;
}

/// The nearest hit of `ray` in the committed `scene` with t in [0, inf): the RTCRayHit after
/// rtcIntersect1. A hit has hit.geomID != RTC_INVALID_GEOMETRY_ID, its t in ray.tfar and its
/// primitive in hit.primID; a miss leaves geomID invalid and tfar infinite.
inline RTCRayHit embree_intersect(RTCScene scene, const Ray<float>& ray) {
    RTCIntersectContext ctx;
    rtcInitIntersectContext(&ctx);
    RTCRayHit rh{};
    rh.ray = embree_ray(ray, std::numeric_limits<float>::infinity());
    rh.hit.geomID = RTC_INVALID_GEOMETRY_ID;
    rtcIntersect1(scene, &ctx, &rh);
    return rh;
}

}  // namespace raypick::bench
