// Watertightness of intersect(Ray, Triangle): rays through the shared edges and vertices of closed
// meshes, each mesh a plain list of triangles (the same vertex values in every triangle that
// shares them), never pass between its triangles. Möller–Trumbore's count on the same rays is
// printed beside it, not asserted.
//
// Targets lie exactly on the meshes: the vertices, and points v0 + s (v1 - v0) of shared edges
// with every coordinate exact (the vertices sit on a dyadic grid and s has few bits, so the sum
// needs no rounding; checked in long double). A ray leaves a random origin in front of every
// triangle around its target and passes through the target, or within the rounding of its
// direction of it, into the mesh: it enters the solid there, so at least one of the triangles
// around the target must be hit. A ray that hits none of them is a leak.
#include <array>
#include <cmath>
#include <cstdint>
#include <iostream>
#include <limits>
#include <map>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "TestUtil.h"
#include <raypick/geometry/RayTriangle.h>
#include <raypick/geometry/textbook/TextbookTriangle.h>

namespace raypick {
namespace {

using V3 = Vec3<double>;

/// A triangle mesh as an indexed list, its vertices on the grid of multiples of 2^-grid_bits with
/// magnitudes at most 2, faces wound counter-clockwise seen from outside.
struct Mesh {
    std::string name;
    std::vector<V3> vertices;
    std::vector<std::array<int, 3>> faces;
    int grid_bits = 0;
};

V3 face_normal(const Mesh& m, int f) {
    const auto& [a, b, c] = m.faces[std::size_t(f)];
    return glm::normalize(glm::cross(m.vertices[std::size_t(b)] - m.vertices[std::size_t(a)],
                                     m.vertices[std::size_t(c)] - m.vertices[std::size_t(a)]));
}

/// Winds every face counter-clockwise seen from outside (the meshes are convex: outside is away
/// from the centroid).
void orient_outwards(Mesh& m) {
    V3 centre(0);
    for (const V3& v : m.vertices) centre += v;
    centre /= double(m.vertices.size());
    for (std::size_t f = 0; f < m.faces.size(); ++f) {
        const auto& [a, b, c] = m.faces[f];
        const V3 mid = (m.vertices[std::size_t(a)] + m.vertices[std::size_t(b)] + m.vertices[std::size_t(c)]) / 3.0;
        if (glm::dot(face_normal(m, int(f)), mid - centre) < 0) std::swap(m.faces[f][1], m.faces[f][2]);
    }
}

Mesh cube() {
    Mesh m{"cube", {}, {}, 0};
    for (int i = 0; i < 8; ++i) m.vertices.push_back(V3(i & 1 ? 1 : -1, i & 2 ? 1 : -1, i & 4 ? 1 : -1));
    // Two triangles per face, split along alternating diagonals.
    const int quads[6][4] = {{0, 1, 3, 2}, {4, 5, 7, 6}, {0, 1, 5, 4}, {2, 3, 7, 6}, {0, 2, 6, 4}, {1, 3, 7, 5}};
    for (int q = 0; q < 6; ++q) {
        const int* v = quads[q];
        if (q % 2) m.faces.push_back({v[0], v[1], v[2]}), m.faces.push_back({v[0], v[2], v[3]});
        else m.faces.push_back({v[0], v[1], v[3]}), m.faces.push_back({v[1], v[2], v[3]});
    }
    return m;
}

Mesh octahedron() {
    Mesh m{"octahedron", {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}}, {}, 0};
    for (int x : {0, 1})
        for (int y : {2, 3})
            for (int z : {4, 5}) m.faces.push_back({x, y, z});
    return m;
}

/// An icosahedron subdivided once (42 vertices, 80 faces), vertices on the unit sphere rounded to
/// multiples of 2^-10.
Mesh icosphere() {
    const double p = (1 + std::sqrt(5.0)) / 2;
    std::vector<V3> v{{-1, p, 0}, {1, p, 0}, {-1, -p, 0}, {1, -p, 0}, {0, -1, p}, {0, 1, p},
                      {0, -1, -p}, {0, 1, -p}, {p, 0, -1}, {p, 0, 1}, {-p, 0, -1}, {-p, 0, 1}};
    const std::vector<std::array<int, 3>> ico{{0, 11, 5}, {0, 5, 1},  {0, 1, 7},   {0, 7, 10}, {0, 10, 11},
                                              {1, 5, 9},  {5, 11, 4}, {11, 10, 2}, {10, 7, 6}, {7, 1, 8},
                                              {3, 9, 4},  {3, 4, 2},  {3, 2, 6},   {3, 6, 8},  {3, 8, 9},
                                              {4, 9, 5},  {2, 4, 11}, {6, 2, 10},  {8, 6, 7},  {9, 8, 1}};
    Mesh m{"icosphere", {}, {}, 10};
    std::map<std::pair<int, int>, int> midpoint;
    const auto mid = [&](int a, int b) {
        const auto key = std::minmax(a, b);
        if (const auto it = midpoint.find(key); it != midpoint.end()) return it->second;
        v.push_back((v[std::size_t(a)] + v[std::size_t(b)]) * 0.5);
        return midpoint[key] = int(v.size()) - 1;
    };
    for (const auto& [a, b, c] : ico) {
        const int ab = mid(a, b), bc = mid(b, c), ca = mid(c, a);
        m.faces.push_back({a, ab, ca});
        m.faces.push_back({b, bc, ab});
        m.faces.push_back({c, ca, bc});
        m.faces.push_back({ab, bc, ca});
    }
    for (const V3& x : v) m.vertices.push_back(glm::round(glm::normalize(x) * 1024.0) / 1024.0);
    return m;
}

/// A fan of 11 triangles around an apex, over an irregular 11-gon, closed by a fan around the
/// base's centre: two vertices of high valence.
Mesh pyramid() {
    Mesh m{"pyramid", {{0, 0, 1.5}, {0, 0, -0.5}}, {}, 6};
    const int n = 11;
    for (int i = 0; i < n; ++i) {
        const double a = 2 * 3.14159265358979 * (i + 0.3 * std::sin(i * 1.7)) / n;
        const double r = 1 + 0.2 * std::cos(i * 2.3);
        m.vertices.push_back(glm::round(V3(r * std::cos(a), r * std::sin(a), -0.5) * 64.0) / 64.0);
    }
    for (int i = 0; i < n; ++i) {
        const int u = 2 + i, w = 2 + (i + 1) % n;
        m.faces.push_back({0, u, w});
        m.faces.push_back({1, w, u});
    }
    return m;
}

/// Two triangles making the unit square, split along its diagonal: not closed, but its diagonal is
/// a shared edge with the square on both sides.
Mesh quad() { return {"quad diagonal", {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}}, {{0, 1, 2}, {0, 2, 3}}, 0}; }

/// What the rays aim at: shared edges (two faces each) and interior vertices (every edge at them
/// shared), with the faces around each.
struct Targets {
    std::vector<std::pair<std::array<int, 2>, std::vector<int>>> edges;
    std::vector<std::pair<int, std::vector<int>>> vertices;
};

Targets targets_of(const Mesh& m) {
    std::map<std::pair<int, int>, std::vector<int>> edge_faces;
    std::vector<std::vector<int>> vertex_faces(m.vertices.size());
    for (std::size_t f = 0; f < m.faces.size(); ++f)
        for (int k = 0; k < 3; ++k) {
            const int a = m.faces[f][std::size_t(k)], b = m.faces[f][std::size_t((k + 1) % 3)];
            edge_faces[std::minmax(a, b)].push_back(int(f));
            vertex_faces[std::size_t(a)].push_back(int(f));
        }
    Targets t;
    std::vector<bool> on_boundary(m.vertices.size(), false);
    for (const auto& [e, faces] : edge_faces) {
        if (faces.size() == 2) t.edges.push_back({{e.first, e.second}, faces});
        else on_boundary[std::size_t(e.first)] = on_boundary[std::size_t(e.second)] = true;
    }
    for (std::size_t v = 0; v < m.vertices.size(); ++v)
        if (!on_boundary[v]) t.vertices.push_back({int(v), vertex_faces[v]});
    return t;
}

struct Leaks {
    long rays = 0, watertight = 0, moller_trumbore = 0;
};

/// `rays` rays at the mesh's shared edges (half) and interior vertices (half) in precision T.
template <typename T> Leaks shoot(const Mesh& m, long rays, std::mt19937_64& rng) {
    std::vector<Triangle<T>> tris;
    for (const auto& [a, b, c] : m.faces)
        tris.push_back({Vec3<T>(m.vertices[std::size_t(a)]), Vec3<T>(m.vertices[std::size_t(b)]),
                        Vec3<T>(m.vertices[std::size_t(c)])});
    const Targets targets = targets_of(m);
    // Edge parameters s = k 2^-bits: v0 + s (v1 - v0) needs at most digits - 2 bits, so it is exact.
    const int bits = std::numeric_limits<T>::digits - m.grid_bits - 4;
    std::uniform_int_distribution<std::int64_t> k_of(1, (std::int64_t(1) << bits) - 1);
    std::uniform_real_distribution<double> uni(0, 1);
    const auto unit = [&] {
        for (;;) {
            const V3 x(2 * uni(rng) - 1, 2 * uni(rng) - 1, 2 * uni(rng) - 1);
            const double l = glm::length(x);
            if (l > 0.1 && l <= 1) return x / l;
        }
    };
    Leaks leaks;
    for (long i = 0; i < rays; ++i) {
        Vec3<T> target;
        const std::vector<int>* faces;
        if (i % 2 == 0 || targets.vertices.empty()) {
            const auto& [e, fs] = targets.edges[std::size_t(rng() % targets.edges.size())];
            const Vec3<T> v0(m.vertices[std::size_t(e[0])]), v1(m.vertices[std::size_t(e[1])]);
            const T s = std::ldexp(T(k_of(rng)), -bits);
            target = v0 + s * (v1 - v0);
            for (int c = 0; c < 3; ++c) {
                const long double exact = (long double)v0[c] + (long double)s * ((long double)v1[c] - (long double)v0[c]);
                EXPECT_EQ((long double)target[c], exact) << m.name << ": edge point not exact";
            }
            faces = &fs;
        } else {
            const auto& [v, fs] = targets.vertices[std::size_t(rng() % targets.vertices.size())];
            target = Vec3<T>(m.vertices[std::size_t(v)]);
            faces = &fs;
        }
        // An origin in front of every face around the target, by a margin, so that the ray enters
        // the solid through the target.
        V3 around(0);
        for (int f : *faces) around += face_normal(m, f);
        Ray<T> ray;
        for (;;) {
            const V3 u = glm::normalize(glm::normalize(around) + unit() * 0.9);
            ray.origin = target + Vec3<T>(u * (0.25 + 4 * uni(rng)));
            ray.direction = target - ray.origin;
            const V3 d = glm::normalize(V3(ray.direction));
            bool enters = true;
            for (int f : *faces) enters = enters && glm::dot(d, face_normal(m, f)) < -0.05;
            if (enters) break;
        }
        bool hit = false, hit_mt = false;
        for (int f : *faces) {
            hit = hit || intersect(ray, tris[std::size_t(f)]).has_value();
            hit_mt = hit_mt || textbook::triangle_moller_trumbore(ray, tris[std::size_t(f)]).has_value();
        }
        ++leaks.rays;
        leaks.watertight += !hit;
        leaks.moller_trumbore += !hit_mt;
        if (!hit) {
            ADD_FAILURE() << m.name << ": ray " << i << " from (" << ray.origin.x << ", " << ray.origin.y << ", "
                          << ray.origin.z << ") through (" << target.x << ", " << target.y << ", " << target.z
                          << ") passes between the triangles";
            if (leaks.watertight > 5) return leaks;
        }
    }
    return leaks;
}

template <typename T> class RayTriangleWatertight : public ::testing::Test {};
TYPED_TEST_SUITE(RayTriangleWatertight, test::Scalars);

TYPED_TEST(RayTriangleWatertight, RaysThroughSharedEdgesAndVerticesOfClosedMeshesNeverLeak) {
    using T = TypeParam;
    const std::uint32_t seed = test::seed_from_env(sizeof(T) == 4 ? 9101 : 9102);
    std::cout << "seed " << seed << " (RAYPICK_SEED to rerun)\n";
    std::mt19937_64 rng(seed);
    std::vector<Mesh> meshes{cube(), octahedron(), icosphere(), pyramid()};
    for (Mesh& m : meshes) orient_outwards(m);
    meshes.push_back(quad());
    for (const Mesh& m : meshes) {
        // Closed (but the quad): every edge shared by two faces.
        const Targets t = targets_of(m);
        if (m.name != "quad diagonal") {
            ASSERT_EQ(t.edges.size() * 2, m.faces.size() * 3) << m.name;
        }
        const Leaks leaks = shoot<T>(m, 100000, rng);
        std::cout << (sizeof(T) == 4 ? "float " : "double ") << m.name << " (" << m.faces.size()
                  << " triangles): " << leaks.watertight << " leaks watertight, " << leaks.moller_trumbore
                  << " leaks Möller–Trumbore, of " << leaks.rays << " rays\n";
        EXPECT_EQ(leaks.watertight, 0) << m.name << " seed " << seed;
    }
}

}  // namespace
}  // namespace raypick
