// The same shapes as an Embree 3 scene, for the picking comparison (built only when libembree-dev
// is installed). Spheres are Embree's built-in sphere points, boxes (AABB and OBB) 12 triangles
// each, capsules round linear curves. Single-threaded device, as docs/performance.md's figures state.
#pragma once

#include <embree3/rtcore.h>

#include <vector>

#include <raypick/geometry/Shape.h>

#include "EmbreeRay.h"

namespace raypick::bench {

class EmbreeScene {
public:
    explicit EmbreeScene(const std::vector<Shape<float>>& shapes) {
        device_ = rtcNewDevice("threads=1");
        scene_ = rtcNewScene(device_);
        std::vector<float> spheres, caps;
        std::vector<Vec3<float>> tri_v;
        for (const auto& s : shapes) {
            if (const auto* sp = std::get_if<Sphere<float>>(&s)) {
                spheres.insert(spheres.end(), {sp->center.x, sp->center.y, sp->center.z, sp->radius});
            } else if (const auto* b = std::get_if<Aabb<float>>(&s)) {
                const Vec3<float> c = (b->min + b->max) * 0.5f, h = (b->max - b->min) * 0.5f;
                add_box(tri_v, c, Mat3<float>(1.f), h);
            } else if (const auto* o = std::get_if<Obb<float>>(&s)) {
                add_box(tri_v, o->center, o->rotation, o->half_extents);
            } else if (const auto* c = std::get_if<Capsule<float>>(&s)) {
                caps.insert(caps.end(), {c->a.x, c->a.y, c->a.z, c->radius, c->b.x, c->b.y, c->b.z, c->radius});
            }
        }
        if (!spheres.empty()) {
            RTCGeometry g = rtcNewGeometry(device_, RTC_GEOMETRY_TYPE_SPHERE_POINT);
            auto* v = static_cast<float*>(rtcSetNewGeometryBuffer(g, RTC_BUFFER_TYPE_VERTEX, 0, RTC_FORMAT_FLOAT4, 16, spheres.size() / 4));
            std::copy(spheres.begin(), spheres.end(), v);
            attach(g);
        }
        if (!tri_v.empty()) {
            RTCGeometry g = rtcNewGeometry(device_, RTC_GEOMETRY_TYPE_TRIANGLE);
            auto* v = static_cast<float*>(rtcSetNewGeometryBuffer(g, RTC_BUFFER_TYPE_VERTEX, 0, RTC_FORMAT_FLOAT3, 12, tri_v.size()));
            for (size_t i = 0; i < tri_v.size(); ++i) { v[3 * i] = tri_v[i].x; v[3 * i + 1] = tri_v[i].y; v[3 * i + 2] = tri_v[i].z; }
            const size_t boxes = tri_v.size() / 8;
            auto* idx = static_cast<unsigned*>(rtcSetNewGeometryBuffer(g, RTC_BUFFER_TYPE_INDEX, 0, RTC_FORMAT_UINT3, 12, boxes * 12));
            static const unsigned faces[12][3] = {{0, 1, 3}, {0, 3, 2}, {4, 6, 7}, {4, 7, 5}, {0, 4, 5}, {0, 5, 1},
                                                  {2, 3, 7}, {2, 7, 6}, {0, 2, 6}, {0, 6, 4}, {1, 5, 7}, {1, 7, 3}};
            for (size_t b = 0; b < boxes; ++b)
                for (int f = 0; f < 12; ++f)
                    for (int k = 0; k < 3; ++k) idx[(b * 12 + f) * 3 + k] = unsigned(b * 8) + faces[f][k];
            attach(g);
        }
        if (!caps.empty()) {
            RTCGeometry g = rtcNewGeometry(device_, RTC_GEOMETRY_TYPE_ROUND_LINEAR_CURVE);
            const size_t n = caps.size() / 8;
            auto* v = static_cast<float*>(rtcSetNewGeometryBuffer(g, RTC_BUFFER_TYPE_VERTEX, 0, RTC_FORMAT_FLOAT4, 16, n * 2));
            std::copy(caps.begin(), caps.end(), v);
            auto* idx = static_cast<unsigned*>(rtcSetNewGeometryBuffer(g, RTC_BUFFER_TYPE_INDEX, 0, RTC_FORMAT_UINT, 4, n));
            for (size_t i = 0; i < n; ++i) idx[i] = unsigned(2 * i);
            attach(g);
        }
        rtcCommitScene(scene_);
    }
    EmbreeScene(const EmbreeScene&) = delete;
    EmbreeScene& operator=(const EmbreeScene&) = delete;
    ~EmbreeScene() {
        rtcReleaseScene(scene_);
        rtcReleaseDevice(device_);
    }

    /// Nearest hit distance along the ray, or nothing.
    bool pick(const Ray<float>& ray, float& t) const {
        const RTCRayHit rh = embree_intersect(scene_, ray);
        t = rh.ray.tfar;
        return rh.hit.geomID != RTC_INVALID_GEOMETRY_ID;
    }

private:
    void attach(RTCGeometry g) {
        rtcCommitGeometry(g);
        rtcAttachGeometry(scene_, g);
        rtcReleaseGeometry(g);
    }
    static void add_box(std::vector<Vec3<float>>& v, const Vec3<float>& c, const Mat3<float>& r, const Vec3<float>& h) {
        for (int i = 0; i < 8; ++i) {
            const Vec3<float> local((i & 4) ? h.x : -h.x, (i & 2) ? h.y : -h.y, (i & 1) ? h.z : -h.z);
            v.push_back(c + r * local);
        }
    }
    RTCDevice device_ = nullptr;
    RTCScene scene_ = nullptr;
};

}  // namespace raypick::bench
