// The mesh benchmarks' scenes and rays, shared by bench_mesh.cpp and bench_queries.cpp: a sphere
// and a terrain of 10^6 triangles, incoherent rays at them, and a city of 10^3 instances of a
// 960-triangle sphere with rays from above.
#pragma once

#include <map>
#include <random>
#include <vector>

#include <raypick/geometry/MeshGenerators.h>

namespace raypick::bench::scenes {

enum class Kind { Sphere, Terrain };
constexpr std::size_t kTriangles = 1000000;

inline const TriangleMesh<float>& mesh(Kind k) {
    static std::map<Kind, TriangleMesh<float>> cache;
    auto& m = cache[k];
    if (m.indices.empty()) {
        // The terrain is 1 x 1 in x, y, moved to be centred on the origin as the sphere is.
        if (k == Kind::Sphere) m = meshgen::sphere<float>(kTriangles);
        else m = meshgen::terrain<float>(707, 2.f, 7u);
        if (k == Kind::Terrain)
            for (auto& p : m.positions) p -= Vec3<float>(1.f, 1.f, 0.f);
        m.normals.clear();  // Embree's pick does not interpolate them either
    }
    return m;
}
inline const char* name(Kind k) { return k == Kind::Sphere ? "sphere" : "terrain"; }

/// Incoherent rays: from random points three units from the origin towards random points of the
/// ball of radius 1 (most hit).
inline const std::vector<Ray<float>>& rays() {
    static const std::vector<Ray<float>> r = [] {
        std::mt19937 rng(12345);
        std::uniform_real_distribution<float> u(-1.f, 1.f);
        const auto ball = [&] {
            for (;;) {
                const Vec3<float> v(u(rng), u(rng), u(rng));
                if (glm::dot(v, v) <= 1.f) return v;
            }
        };
        std::vector<Ray<float>> out;
        for (int i = 0; i < (1 << 16); ++i) {
            const Vec3<float> from = glm::normalize(ball()) * 3.f;
            out.push_back({from, ball() - from});
        }
        return out;
    }();
    return r;
}

/// The city: 10^3 buildings, each a 960-triangle sphere placed by meshgen::city_placements (3 units
/// apart on a 32 x 32 grid, rotated, scaled, a third mirrored), and rays from 12 units up towards
/// random ground points.
inline const TriangleMesh<float>& building() {
    static const TriangleMesh<float> m = [] {
        TriangleMesh<float> b = meshgen::sphere<float>(1000);
        b.normals.clear();
        return b;
    }();
    return m;
}
inline const std::vector<meshgen::Placement<float>>& city() {
    static const auto p = meshgen::city_placements<float>(1000, 3.f, 11u);
    return p;
}
inline const std::vector<Ray<float>>& city_rays() {
    static const std::vector<Ray<float>> r = [] {
        std::mt19937 rng(777);
        std::uniform_real_distribution<float> u(-1.f, 97.f);
        std::vector<Ray<float>> out;
        for (int i = 0; i < (1 << 16); ++i) {
            const Vec3<float> from(u(rng), u(rng), 12.f), to(u(rng), u(rng), 0.f);
            out.push_back({from, to - from});
        }
        return out;
    }();
    return r;
}
}  // namespace raypick::bench::scenes
