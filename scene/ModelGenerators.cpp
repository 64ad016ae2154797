// raypick models: the generators (icosphere, torus, terrain, city, thin needle).
#include <raypick/scene/ModelGenerators.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <random>

#include <glm/geometric.hpp>
#include <glm/gtc/matrix_transform.hpp>

namespace raypick {

namespace {

constexpr double kPi = 3.14159265358979323846;

/// A model of one mesh placed once, as it is.
Model single(ModelMesh mesh) {
    Model m;
    m.instances.push_back(ModelInstance{0, glm::dmat4(1.0), mesh.name});
    m.meshes.push_back(std::move(mesh));
    return m;
}

/// The quads of a (cols + 1) × (rows + 1) vertex grid, vertex (i, j) at j * (cols + 1) + i, as two
/// triangles each, wound counter-clockwise seen from the side cross(d/di, d/dj) points away from.
void grid_triangles(int cols, int rows, std::vector<std::uint32_t>& out) {
    const auto at = [cols](int i, int j) { return std::uint32_t(j * (cols + 1) + i); };
    for (int j = 0; j < rows; ++j)
        for (int i = 0; i < cols; ++i) {
            const std::uint32_t a = at(i, j), b = at(i + 1, j), c = at(i + 1, j + 1), d = at(i, j + 1);
            out.insert(out.end(), {a, c, b, a, d, c});
        }
}

/// A number in [0, 1) from the generator's next output; the same on every standard library
/// (std::uniform_real_distribution is not).
double unit(std::mt19937& g) { return double(g() >> 8) * (1.0 / 16777216.0); }

}  // namespace

Model make_icosphere(int level, double radius) {
    level = std::max(0, std::min(level, 10));
    const double t = (1.0 + std::sqrt(5.0)) / 2.0;
    std::vector<glm::dvec3> p = {{-1, t, 0}, {1, t, 0},  {-1, -t, 0}, {1, -t, 0}, {0, -1, t},  {0, 1, t},
                                 {0, -1, -t}, {0, 1, -t}, {t, 0, -1},  {t, 0, 1},  {-t, 0, -1}, {-t, 0, 1}};
    for (auto& v : p) v = glm::normalize(v);
    std::vector<std::uint32_t> tri = {0, 11, 5, 0, 5, 1,  0, 1, 7,   0, 7,  10, 0, 10, 11, 1, 5, 9, 5, 11,
                                      4, 11, 10, 2, 10, 7, 6, 7, 1, 8, 3, 9, 4, 3, 4, 2,  3, 2, 6, 3,
                                      6, 8, 3, 8, 9, 4, 9, 5, 2, 4, 11, 6, 2, 10, 8, 6, 7, 9, 8, 1};
    for (int l = 0; l < level; ++l) {
        std::map<std::pair<std::uint32_t, std::uint32_t>, std::uint32_t> middle;
        auto mid = [&](std::uint32_t a, std::uint32_t b) {
            const std::pair<std::uint32_t, std::uint32_t> key = std::minmax(a, b);
            auto [it, added] = middle.emplace(key, std::uint32_t(p.size()));
            if (added) p.push_back(glm::normalize(p[a] + p[b]));
            return it->second;
        };
        std::vector<std::uint32_t> next;
        next.reserve(tri.size() * 4);
        for (std::size_t i = 0; i < tri.size(); i += 3) {
            const std::uint32_t a = tri[i], b = tri[i + 1], c = tri[i + 2];
            const std::uint32_t ab = mid(a, b), bc = mid(b, c), ca = mid(c, a);
            next.insert(next.end(), {a, ab, ca, b, bc, ab, c, ca, bc, ab, bc, ca});
        }
        tri = std::move(next);
    }
    ModelMesh mesh;
    mesh.name = "icosphere";
    for (const auto& v : p) {
        mesh.positions.push_back(glm::vec3(v * radius));
        mesh.normals.push_back(glm::vec3(v));
    }
    mesh.triangles = std::move(tri);
    return single(std::move(mesh));
}

Model make_torus(double major, double minor, int around, int across) {
    around = std::max(3, around);
    across = std::max(3, across);
    ModelMesh mesh;
    mesh.name = "torus";
    // A grid whose last row and column repeat the first, closed by reusing the first's indices.
    for (int j = 0; j < across; ++j)
        for (int i = 0; i < around; ++i) {
            const double u = 2 * kPi * i / around, v = 2 * kPi * j / across;
            const glm::dvec3 n(std::cos(v) * std::cos(u), std::sin(v), std::cos(v) * std::sin(u));
            const glm::dvec3 c(major * std::cos(u), 0, major * std::sin(u));
            mesh.positions.push_back(glm::vec3(c + minor * n));
            mesh.normals.push_back(glm::vec3(n));
        }
    const auto at = [&](int i, int j) { return std::uint32_t((j % across) * around + (i % around)); };
    for (int j = 0; j < across; ++j)
        for (int i = 0; i < around; ++i) {
            const std::uint32_t a = at(i, j), b = at(i + 1, j), c = at(i + 1, j + 1), d = at(i, j + 1);
            mesh.triangles.insert(mesh.triangles.end(), {a, c, b, a, d, c});
        }
    return single(std::move(mesh));
}

Model make_terrain(int cells, double size, double height, std::uint32_t seed) {
    cells = std::max(1, cells);
    std::mt19937 rng(seed);
    struct Wave { double fx, fz, px, pz, a; };
    Wave waves[4];
    double total = 0;
    for (int k = 0; k < 4; ++k) {
        const double f = (k + 1) * 2 * kPi / size;
        waves[k] = {f * (0.5 + unit(rng)), f * (0.5 + unit(rng)), 2 * kPi * unit(rng), 2 * kPi * unit(rng), 1.0 / (k + 1)};
        total += waves[k].a;
    }
    ModelMesh mesh;
    mesh.name = "terrain";
    for (int j = 0; j <= cells; ++j)
        for (int i = 0; i <= cells; ++i) {
            const double x = -size / 2 + size * i / cells, z = -size / 2 + size * j / cells;
            double h = 0, dx = 0, dz = 0;
            for (const Wave& w : waves) {
                const double sx = std::sin(w.fx * x + w.px), sz = std::sin(w.fz * z + w.pz);
                h += w.a * sx * sz;
                dx += w.a * w.fx * std::cos(w.fx * x + w.px) * sz;
                dz += w.a * sx * w.fz * std::cos(w.fz * z + w.pz);
            }
            const double s = height / (2 * total);  // heights in [0, height]
            mesh.positions.push_back(glm::vec3(glm::dvec3(x, s * (h + total), z)));
            mesh.normals.push_back(glm::vec3(glm::normalize(glm::dvec3(-s * dx, 1.0, -s * dz))));
        }
    grid_triangles(cells, cells, mesh.triangles);
    return single(std::move(mesh));
}

Model make_city(int blocks, std::uint32_t seed) {
    blocks = std::max(1, blocks);
    ModelMesh box;
    box.name = "building";
    // Each face: a corner and two edges whose cross product is the outward normal.
    const glm::vec3 faces[6][3] = {{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}, {{0, 0, 0}, {0, 0, 1}, {0, 1, 0}},
                                   {{0, 1, 0}, {0, 0, 1}, {1, 0, 0}}, {{0, 0, 0}, {1, 0, 0}, {0, 0, 1}},
                                   {{0, 0, 1}, {1, 0, 0}, {0, 1, 0}}, {{0, 0, 0}, {0, 1, 0}, {1, 0, 0}}};
    for (const auto& f : faces) {
        const std::uint32_t base = std::uint32_t(box.positions.size());
        const glm::vec3 n = glm::cross(f[1], f[2]);
        for (const glm::vec3& p : {f[0], f[0] + f[1], f[0] + f[1] + f[2], f[0] + f[2]}) {
            box.positions.push_back(p);
            box.normals.push_back(n);
        }
        box.triangles.insert(box.triangles.end(), {base, base + 1, base + 2, base, base + 2, base + 3});
    }
    Model m;
    m.meshes.push_back(std::move(box));
    std::mt19937 rng(seed);
    const double lot = 1.5;
    for (int bz = 0; bz < blocks; ++bz)
        for (int bx = 0; bx < blocks; ++bx) {
            const double w = 0.6 + 0.6 * unit(rng), d = 0.6 + 0.6 * unit(rng), h = 1.0 + 7.0 * unit(rng);
            const glm::dvec3 corner((bx - blocks / 2.0) * lot + (lot - w) / 2, 0.0, (bz - blocks / 2.0) * lot + (lot - d) / 2);
            const glm::dmat4 t = glm::scale(glm::translate(glm::dmat4(1.0), corner), glm::dvec3(w, h, d));
            m.instances.push_back(ModelInstance{0, t, "building " + std::to_string(bx) + "," + std::to_string(bz)});
        }
    return m;
}

Model make_thin(int segments, double length, double radius) {
    segments = std::max(3, segments);
    ModelMesh mesh;
    mesh.name = "thin";
    for (int end = 0; end < 2; ++end)
        for (int k = 0; k < segments; ++k) {
            const double a = 2 * kPi * k / segments;
            mesh.positions.push_back(glm::vec3(glm::dvec3(end * length, radius * std::cos(a), radius * std::sin(a))));
        }
    const std::uint32_t c0 = std::uint32_t(mesh.positions.size()), c1 = c0 + 1, n = std::uint32_t(segments);
    mesh.positions.push_back(glm::vec3(0.0f));
    mesh.positions.push_back(glm::vec3(glm::dvec3(length, 0, 0)));
    for (std::uint32_t k = 0; k < n; ++k) {
        const std::uint32_t k1 = (k + 1) % n;
        const std::uint32_t a = k, b = k1, c = n + k1, d = n + k;
        mesh.triangles.insert(mesh.triangles.end(), {a, b, c, a, c, d});  // side
        mesh.triangles.insert(mesh.triangles.end(), {c0, k1, k});          // cap at x = 0, facing -x
        mesh.triangles.insert(mesh.triangles.end(), {c1, n + k, n + k1});  // cap at x = length, facing +x
    }
    return single(std::move(mesh));
}

}  // namespace raypick
