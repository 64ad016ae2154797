// raypick geometry: procedural triangle meshes for tests, benchmarks and demos — a closed sphere of
// a chosen size, a terrain height field, a closed cylinder of long thin triangles, and a "city" of
// instances of one building. Every mesh shares its vertices between triangles (indexed), and the
// closed ones are closed: every edge belongs to exactly two triangles, with consistent winding
// (front faces outward).
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include <raypick/geometry/TriangleMesh.h>

namespace raypick::meshgen {

/// A closed UV sphere of 2 * segments * (rings - 1) triangles (rings >= 2, segments >= 3; smaller
/// values are raised to those), radius `radius` about `center`, with unit vertex normals. Poles are
/// single vertices, so it is closed.
template <typename T>
TriangleMesh<T> uv_sphere(int rings, int segments, T radius = T(1), const Vec3<T>& center = Vec3<T>(T(0))) {
    rings = std::max(rings, 2);
    segments = std::max(segments, 3);
    TriangleMesh<T> m;
    const double pi = 3.14159265358979323846;
    m.positions.push_back(center + Vec3<T>(T(0), T(0), radius));
    m.normals.push_back(Vec3<T>(T(0), T(0), T(1)));
    for (int r = 1; r < rings; ++r) {
        const double th = pi * r / rings;
        for (int s = 0; s < segments; ++s) {
            const double ph = 2 * pi * s / segments;
            const Vec3<T> n(T(std::sin(th) * std::cos(ph)), T(std::sin(th) * std::sin(ph)), T(std::cos(th)));
            m.positions.push_back(center + radius * n);
            m.normals.push_back(n);
        }
    }
    const auto south = std::uint32_t(m.positions.size());
    m.positions.push_back(center + Vec3<T>(T(0), T(0), -radius));
    m.normals.push_back(Vec3<T>(T(0), T(0), T(-1)));
    const auto at = [&](int r, int s) { return std::uint32_t(1 + (r - 1) * segments + (s % segments)); };
    for (int s = 0; s < segments; ++s) m.indices.push_back({0, at(1, s), at(1, s + 1)});
    for (int r = 1; r + 1 < rings; ++r)
        for (int s = 0; s < segments; ++s) {
            m.indices.push_back({at(r, s), at(r + 1, s), at(r + 1, s + 1)});
            m.indices.push_back({at(r, s), at(r + 1, s + 1), at(r, s + 1)});
        }
    for (int s = 0; s < segments; ++s) m.indices.push_back({south, at(rings - 1, s + 1), at(rings - 1, s)});
    return m;
}

/// A closed UV sphere of about `triangles` triangles (at least 6): rings and segments chosen so
/// that segments = 2 rings.
template <typename T> TriangleMesh<T> sphere(std::size_t triangles, T radius = T(1)) {
    // 2 * segments * (rings - 1) = 4 * rings * (rings - 1) ~ triangles.
    const int rings = std::max(2, int(std::lround(std::sqrt(double(triangles) / 4.0) + 0.5)));
    return uv_sphere<T>(rings, 2 * rings, radius);
}

/// A height field over [0, size] x [0, size] in x, y: (n + 1)^2 vertices, 2 n^2 triangles facing +z,
/// heights a sum of random sinusoids (amplitude about size / 20) from `seed`. Open (it has a rim).
template <typename T> TriangleMesh<T> terrain(int n, T size, std::uint32_t seed) {
    n = std::max(n, 1);
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> u(0.0, 1.0);
    double fx[6], fy[6], ph[6], amp[6];
    for (int k = 0; k < 6; ++k) {
        fx[k] = (1 + 6 * u(rng)) * (u(rng) < 0.5 ? -1 : 1);
        fy[k] = 1 + 6 * u(rng);
        ph[k] = 6.283 * u(rng);
        amp[k] = double(size) / 20.0 / (1 + k);
    }
    TriangleMesh<T> m;
    for (int j = 0; j <= n; ++j)
        for (int i = 0; i <= n; ++i) {
            const double x = double(size) * i / n, y = double(size) * j / n;
            double h = 0;
            for (int k = 0; k < 6; ++k) h += amp[k] * std::sin((fx[k] * x + fy[k] * y) / double(size) * 6.283 + ph[k]);
            m.positions.push_back(Vec3<T>(T(x), T(y), T(h)));
        }
    const auto at = [&](int i, int j) { return std::uint32_t(j * (n + 1) + i); };
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) {
            m.indices.push_back({at(i, j), at(i + 1, j), at(i + 1, j + 1)});
            m.indices.push_back({at(i, j), at(i + 1, j + 1), at(i, j + 1)});
        }
    return m;
}

/// A closed cylinder along z from 0 to `length`, radius `radius`, of `segments` sides (>= 3) split
/// into `stacks` rows (>= 1), each cap a fan about its centre: 2 * segments * (stacks + 1)
/// triangles. With length much greater than radius * stacks / segments its side triangles are
/// long and thin, the case where rounding is worst.
template <typename T> TriangleMesh<T> thin_cylinder(int segments, int stacks, T radius, T length) {
    segments = std::max(segments, 3);
    stacks = std::max(stacks, 1);
    TriangleMesh<T> m;
    const double pi = 3.14159265358979323846;
    for (int j = 0; j <= stacks; ++j)
        for (int s = 0; s < segments; ++s) {
            const double ph = 2 * pi * s / segments;
            m.positions.push_back(Vec3<T>(T(double(radius) * std::cos(ph)), T(double(radius) * std::sin(ph)),
                                          T(double(length) * j / stacks)));
        }
    const auto bottom = std::uint32_t(m.positions.size());
    m.positions.push_back(Vec3<T>(T(0), T(0), T(0)));
    const auto top = std::uint32_t(m.positions.size());
    m.positions.push_back(Vec3<T>(T(0), T(0), length));
    const auto at = [&](int s, int j) { return std::uint32_t(j * segments + (s % segments)); };
    for (int j = 0; j < stacks; ++j)
        for (int s = 0; s < segments; ++s) {
            m.indices.push_back({at(s, j), at(s + 1, j), at(s + 1, j + 1)});
            m.indices.push_back({at(s, j), at(s + 1, j + 1), at(s, j + 1)});
        }
    for (int s = 0; s < segments; ++s) {
        m.indices.push_back({bottom, at(s + 1, 0), at(s, 0)});
        m.indices.push_back({top, at(s, stacks), at(s + 1, stacks)});
    }
    return m;
}

/// The closed surface of the cube [-half, half]^3, each face an n x n grid of squares split along
/// the diagonal from (i, j) to (i + 1, j + 1) of its two other axes: 12 n^2 triangles, vertices
/// shared across faces and cube edges. With n and half powers of two every vertex, every edge
/// midpoint and every point of a grid line at a multiple of half / (2 n) is exact in float, so a ray
/// from such a point towards another passes exactly through it.
template <typename T> TriangleMesh<T> cube_grid(int n, T half) {
    n = std::max(n, 1);
    TriangleMesh<T> m;
    std::vector<std::uint32_t> index(std::size_t(n + 1) * std::size_t(n + 1) * std::size_t(n + 1),
                                     std::numeric_limits<std::uint32_t>::max());
    const auto vertex = [&](int i, int j, int k) {
        std::uint32_t& at = index[(std::size_t(i) * std::size_t(n + 1) + std::size_t(j)) * std::size_t(n + 1) + std::size_t(k)];
        if (at == std::numeric_limits<std::uint32_t>::max()) {
            at = std::uint32_t(m.positions.size());
            const auto c = [&](int q) { return half * T(2 * q - n) / T(n); };
            m.positions.push_back(Vec3<T>(c(i), c(j), c(k)));
        }
        return at;
    };
    for (int a = 0; a < 3; ++a) {
        const int b = (a + 1) % 3, c = (a + 2) % 3;
        for (const int side : {0, n}) {
            for (int u = 0; u < n; ++u)
                for (int v = 0; v < n; ++v) {
                    const auto at = [&](int du, int dv) {
                        int q[3];
                        q[a] = side;
                        q[b] = u + du;
                        q[c] = v + dv;
                        return vertex(q[0], q[1], q[2]);
                    };
                    const std::uint32_t p00 = at(0, 0), p10 = at(1, 0), p11 = at(1, 1), p01 = at(0, 1);
                    // (a, b, c) is right-handed: counter-clockwise in (b, c) faces +a.
                    if (side == n) {
                        m.indices.push_back({p00, p10, p11});
                        m.indices.push_back({p00, p11, p01});
                    } else {
                        m.indices.push_back({p00, p11, p10});
                        m.indices.push_back({p00, p01, p11});
                    }
                }
        }
    }
    return m;
}

/// Where the buildings of a city stand: count placements on a square grid of `spacing`, each a
/// rotation about z, a non-uniform scale (heights 1 to 4), and a mirror in x for every third one.
/// As (linear part, translation) pairs; deterministic for a seed.
template <typename T> struct Placement {
    Mat3<T> linear{T(1)};
    Vec3<T> translation{T(0)};
};
template <typename T> std::vector<Placement<T>> city_placements(std::size_t count, T spacing, std::uint32_t seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> u(0.0, 1.0);
    const auto side = std::size_t(std::ceil(std::sqrt(double(count))));
    std::vector<Placement<T>> out;
    for (std::size_t i = 0; i < count; ++i) {
        const double a = 6.283 * u(rng), sxy = 0.6 + 0.4 * u(rng), sz = 1.0 + 3.0 * u(rng);
        Mat3<T> rot(T(1));
        rot[0] = Vec3<T>(T(std::cos(a)), T(std::sin(a)), T(0));
        rot[1] = Vec3<T>(T(-std::sin(a)), T(std::cos(a)), T(0));
        Mat3<T> scale(T(1));
        scale[0][0] = T(sxy) * (i % 3 == 2 ? T(-1) : T(1));
        scale[1][1] = T(sxy);
        scale[2][2] = T(sz);
        out.push_back({rot * scale, Vec3<T>(spacing * T(i % side), spacing * T(i / side), T(0))});
    }
    return out;
}

}  // namespace raypick::meshgen
