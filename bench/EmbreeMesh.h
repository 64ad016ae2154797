// A triangle mesh, or instances of one, as an Embree 3 scene, for the mesh benchmarks (built only
// when libembree-dev is installed). Single-threaded device; the device's memory monitor counts the
// bytes Embree allocates (its hierarchy and its copy of the buffers).
#pragma once

#include <embree3/rtcore.h>

#include <atomic>
#include <cstring>
#include <vector>

#include <raypick/geometry/MeshGenerators.h>
#include <raypick/geometry/TriangleMesh.h>

#include "EmbreeRay.h"

namespace raypick::bench {

class EmbreeMesh {
public:
    /// One mesh; the scene is committed (built) only by commit().
    explicit EmbreeMesh(const TriangleMesh<float>& mesh) {
        open();
        attach(scene_, mesh);
    }
    /// Instances of one mesh placed by `places`; committed by commit().
    EmbreeMesh(const TriangleMesh<float>& mesh, const std::vector<meshgen::Placement<float>>& places) {
        open();
        prototype_ = rtcNewScene(device_);
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

private:
    void open() {
        device_ = rtcNewDevice("threads=1");
        rtcSetDeviceMemoryMonitorFunction(device_, &EmbreeMesh::monitor, this);
        scene_ = rtcNewScene(device_);
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
    RTCDevice device_ = nullptr;
    RTCScene scene_ = nullptr, prototype_ = nullptr;
    std::atomic<long long> bytes_{0};
};

}  // namespace raypick::bench
