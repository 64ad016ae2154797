// Shared random data for the benchmarks: N shapes in a cube, rays from outside into the cube.
#pragma once

#include <cmath>
#include <random>
#include <vector>

#include <glm/gtc/matrix_transform.hpp>

#include <raypick/geometry/Shape.h>

namespace raypick::bench {

enum class Mix { Mixed, Spheres, Boxes, Obbs, Capsules };
inline const char* mix_name(Mix m) {
    switch (m) {
        case Mix::Mixed: return "mixed";
        case Mix::Spheres: return "spheres";
        case Mix::Boxes: return "aabbs";
        case Mix::Obbs: return "obbs";
        case Mix::Capsules: return "capsules";
    }
    return "?";
}

/// N shapes of the given mix in the cube [-1, 1]^3 * side, sized so that the cube stays about
/// equally full whatever N (shape size ~ spacing / 2).
inline std::vector<Shape<float>> make_shapes(Mix mix, int n, std::uint32_t seed = 1) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> u(-1.f, 1.f), s(0.5f, 1.f);
    const float side = 100.f;
    const float size = side / std::cbrt(float(std::max(n, 1))) * 0.25f;
    std::vector<Shape<float>> out;
    out.reserve(size_t(n));
    for (int i = 0; i < n; ++i) {
        const Vec3<float> c(u(rng) * side, u(rng) * side, u(rng) * side);
        int type = mix == Mix::Mixed ? i % 4 : int(mix) - 1;
        const Vec3<float> h = Vec3<float>(s(rng), s(rng), s(rng)) * size;
        switch (type) {
            case 0: out.push_back(Sphere<float>{c, size * s(rng)}); break;
            case 1: out.push_back(Aabb<float>{c - h, c + h}); break;
            case 2: {
                const glm::vec3 axis = glm::normalize(glm::vec3(u(rng), u(rng), u(rng)) + glm::vec3(1e-3f));
                const glm::mat3 r(glm::rotate(glm::mat4(1.f), u(rng) * 3.14159f, axis));
                out.push_back(Obb<float>{c, r, h});
                break;
            }
            default: {
                const Vec3<float> d = glm::normalize(Vec3<float>(u(rng), u(rng), u(rng)) + Vec3<float>(1e-3f)) * size;
                out.push_back(Capsule<float>{c - d, c + d, size * 0.5f * s(rng)});
            }
        }
    }
    return out;
}

/// Rays from a sphere of radius 3 * side around the cube towards random points inside it.
inline std::vector<Ray<float>> make_rays(int n, std::uint32_t seed = 2) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> u(-1.f, 1.f);
    std::vector<Ray<float>> rays;
    for (int i = 0; i < n; ++i) {
        const Vec3<float> o = glm::normalize(Vec3<float>(u(rng), u(rng), u(rng)) + Vec3<float>(1e-3f)) * 300.f;
        const Vec3<float> target(u(rng) * 100.f, u(rng) * 100.f, u(rng) * 100.f);
        rays.push_back({o, target - o});
    }
    return rays;
}

}  // namespace raypick::bench
