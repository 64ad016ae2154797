// A triangle mesh, or instances of one, as an Embree 3 scene, for the mesh benchmarks (built only
// when libembree-dev is installed). Single-threaded device; the device's memory monitor counts the
// bytes Embree allocates (its hierarchy and its copy of the buffers).
#pragma once

#include <embree3/rtcore.h>

#include <atomic>
#include <cstring>
#include <limits>
#include <vector>

#include <raypick/geometry/ClosestPoint.h>
#include <raypick/geometry/MeshGenerators.h>
#include <raypick/geometry/TriangleMesh.h>

#include "EmbreeRay.h"

namespace raypick::bench {

class EmbreeMesh {
public:
    /// One mesh; the scene is committed (built) only by commit(). `flags`: the scenes' flags, e.g.
    /// RTC_SCENE_FLAG_ROBUST (Embree's mode that avoids most cracks at edges and vertices) and
    /// RTC_SCENE_FLAG_CONTEXT_FILTER_FUNCTION (for count_hits()).
    explicit EmbreeMesh(const TriangleMesh<float>& mesh, RTCSceneFlags flags = RTC_SCENE_FLAG_NONE) : mesh_(&mesh) {
        open(flags);
        attach(scene_, mesh);
    }
    /// Instances of one mesh placed by `places`; committed by commit().
    EmbreeMesh(const TriangleMesh<float>& mesh, const std::vector<meshgen::Placement<float>>& places,
               RTCSceneFlags flags = RTC_SCENE_FLAG_NONE) {
        open(flags);
        prototype_ = rtcNewScene(device_);
        rtcSetSceneFlags(prototype_, flags);
        attach(prototype_, mesh);
        rtcCommitScene(prototype_);
        for (const auto& p : places) {
            RTCGeometry g = rtcNewGeometry(device_, RTC_GEOMETRY_TYPE_INSTANCE);
            rtcSetGeometryInstancedScene(g, prototype_);
            float m[12];  // 3x4 column major: the linear part's columns, then the translation
            for (int c = 0; c < 3; ++c)
                for (int r = 0; r < 3; ++r) m[3 * c + r] = p.linear[c][r];
            for (int r = 0; r < 3; ++r) m[9 + r] = p.translation[r];
            rtcSetGeometryTransform(g, 0, RTC_FORMAT_FLOAT3X4_COLUMN_MAJOR, m);
            rtcCommitGeometry(g);
            rtcAttachGeometry(scene_, g);
            rtcReleaseGeometry(g);
        }
    }
    EmbreeMesh(const EmbreeMesh&) = delete;
    EmbreeMesh& operator=(const EmbreeMesh&) = delete;
    ~EmbreeMesh() {
        rtcReleaseScene(scene_);
        if (prototype_) rtcReleaseScene(prototype_);
        rtcReleaseDevice(device_);
    }

    /// Builds the hierarchy (rtcCommitScene).
    void commit() { rtcCommitScene(scene_); }
    /// Bytes Embree holds now (hierarchies and buffers).
    long long bytes() const { return bytes_.load(); }

    /// Nearest hit along the ray in [0, inf): t and the triangle (primID), or false.
    bool pick(const Ray<float>& ray, float& t, unsigned& prim) const {
        const RTCRayHit rh = embree_intersect(scene_, ray);
        t = rh.ray.tfar;
        prim = rh.hit.primID;
        return rh.hit.geomID != RTC_INVALID_GEOMETRY_ID;
    }

    /// Whether anything is hit along the ray with t in [0, t_max] (rtcOccluded1).
    bool occluded(const Ray<float>& ray, float t_max) const {
        RTCIntersectContext ctx;
        rtcInitIntersectContext(&ctx);
        RTCRay r = embree_ray(ray, t_max);
        rtcOccluded1(scene_, &ctx, &r);
        return r.tfar < 0.f;  // Embree sets tfar to -inf on a hit
    }

    /// Every hit along the ray with t in [0, inf), counted by a context filter function that
    /// rejects each hit so the traversal goes on: how Open3D counts crossings for its inside test.
    /// Needs RTC_SCENE_FLAG_CONTEXT_FILTER_FUNCTION.
    unsigned count_hits(const Ray<float>& ray) const {
        struct Counting : RTCIntersectContext {
            unsigned hits = 0;
        } ctx;
        rtcInitIntersectContext(&ctx);
        ctx.filter = [](const RTCFilterFunctionNArguments* args) {
            auto* c = static_cast<Counting*>(args->context);
            for (unsigned i = 0; i < args->N; ++i)
                if (args->valid[i] != 0) {
                    ++c->hits;
                    args->valid[i] = 0;
                }
        };
        RTCRayHit rh{};
        rh.ray = embree_ray(ray, std::numeric_limits<float>::infinity());
        rh.hit.geomID = RTC_INVALID_GEOMETRY_ID;
        rtcIntersect1(scene_, &ctx, &rh);
        return ctx.hits;
    }

    /// The triangle nearest to p (one mesh only: rtcPointQuery with the usual callback, the
    /// closest point on each candidate triangle shrinking the query's radius). False when the
    /// scene holds instances.
    bool closest(const Vec3<float>& p, float& distance, unsigned& prim) const {
        if (prototype_) return false;
        struct Query {
            const TriangleMesh<float>* mesh;
            Vec3<float> p;
            float best = std::numeric_limits<float>::infinity();
            unsigned prim = RTC_INVALID_GEOMETRY_ID;
        } data{mesh_, p};
        RTCPointQuery q;
        q.x = p.x;
        q.y = p.y;
        q.z = p.z;
        q.time = 0.f;
        q.radius = std::numeric_limits<float>::infinity();
        RTCPointQueryContext ctx;
        rtcInitPointQueryContext(&ctx);
        rtcPointQuery(scene_, &q, &ctx, [](RTCPointQueryFunctionArguments* args) {
            auto* d = static_cast<Query*>(args->userPtr);
            const auto c = closest_point_barycentric(d->p, triangle(*d->mesh, args->primID));
            if (!c || !(c->surface.distance < args->query->radius)) return false;
            args->query->radius = c->surface.distance;
            d->best = c->surface.distance;
            d->prim = args->primID;
            return true;  // the radius shrank
        }, &data);
        distance = data.best;
        prim = data.prim;
        return prim != RTC_INVALID_GEOMETRY_ID;
    }

private:
    void open(RTCSceneFlags flags) {
        device_ = rtcNewDevice("threads=1");
        rtcSetDeviceMemoryMonitorFunction(device_, &EmbreeMesh::monitor, this);
        scene_ = rtcNewScene(device_);
        rtcSetSceneFlags(scene_, flags);
    }
    static bool monitor(void* self, ssize_t bytes, bool) {
        static_cast<EmbreeMesh*>(self)->bytes_ += bytes;
        return true;
    }
    void attach(RTCScene scene, const TriangleMesh<float>& mesh) {
        RTCGeometry g = rtcNewGeometry(device_, RTC_GEOMETRY_TYPE_TRIANGLE);
        auto* v = static_cast<float*>(rtcSetNewGeometryBuffer(g, RTC_BUFFER_TYPE_VERTEX, 0, RTC_FORMAT_FLOAT3,
                                                              12, mesh.positions.size()));
        std::memcpy(v, mesh.positions.data(), mesh.positions.size() * 12);
        auto* idx = static_cast<unsigned*>(
            rtcSetNewGeometryBuffer(g, RTC_BUFFER_TYPE_INDEX, 0, RTC_FORMAT_UINT3, 12, mesh.indices.size()));
        std::memcpy(idx, mesh.indices.data(), mesh.indices.size() * 12);
        rtcCommitGeometry(g);
        rtcAttachGeometry(scene, g);
        rtcReleaseGeometry(g);
    }
    const TriangleMesh<float>* mesh_ = nullptr;  ///< for closest(): the one mesh, kept by the caller
    RTCDevice device_ = nullptr;
    RTCScene scene_ = nullptr, prototype_ = nullptr;
    std::atomic<long long> bytes_{0};
};

}  // namespace raypick::bench
