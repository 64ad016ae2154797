// Leaks through closed float meshes on rays exactly through their shared vertices and edges; each
// such ray crosses the surface there, so a miss is a leak:
//   - a closed UV sphere turned by an arbitrary rotation (its coordinates use every bit of a
//     float): rays from points inside through each vertex, kept where vertex - origin is exact;
//   - meshgen::cube_grid with integer vertices mapped by a small integer matrix (a parallelepiped
//     whose faces lie along no axis): rays from integer points inside through points of its grid
//     lines and diagonals every half unit, and from outside through such points inside a face.
//     Every value is exact here; what rounds is each triangle's division of its barycentric
//     numerators.
// Counted on the same rays for raypick's MeshBvh (watertight: 0), Möller–Trumbore by brute force
// over every triangle (textbook/TextbookTriangle.h), and Embree 3's rtcIntersect1 when installed.
//
//   cmake --build build --target raypick_mesh_leaks && build/bench/raypick_mesh_leaks
#include <cmath>
#include <cstdio>
#include <vector>

#include <raypick/geometry/MeshBvh.h>
#include <raypick/geometry/MeshGenerators.h>
#include <raypick/geometry/textbook/TextbookTriangle.h>
#ifdef RAYPICK_HAVE_EMBREE
#include "EmbreeMesh.h"
#endif

namespace {
using namespace raypick;

/// Prints the leaks of each method on `rays` through `mesh`; returns raypick's.
long report(const char* what, const TriangleMesh<float>& mesh, const std::vector<Ray<float>>& rays) {
    const MeshBvh<float> bvh(mesh);
    long raypick_leaks = 0, mt_leaks = 0;
    for (const Ray<float>& r : rays) {
        raypick_leaks += !bvh.pick(r).has_value();
        bool hit = false;
        for (std::size_t i = 0; i < mesh.indices.size() && !hit; ++i)
            hit = textbook::triangle_moller_trumbore(r, triangle(mesh, i)).has_value();
        mt_leaks += !hit;
    }
    std::printf("%s: %zu float triangles, %zu rays\n", what, mesh.indices.size(), rays.size());
    std::printf("  raypick MeshBvh (watertight): %ld leaks\n", raypick_leaks);
    std::printf("  Moller-Trumbore, brute force:  %ld leaks\n", mt_leaks);
#ifdef RAYPICK_HAVE_EMBREE
    bench::EmbreeMesh embree(mesh);
    embree.commit();
    long embree_leaks = 0;
    for (const Ray<float>& r : rays) {
        float t;
        unsigned prim;
        embree_leaks += !embree.pick(r, t, prim);
    }
    std::printf("  Embree 3 rtcIntersect1:        %ld leaks\n", embree_leaks);
#endif
    return raypick_leaks;
}

/// Rays through every vertex of a closed sphere of radius 1 turned by a rotation about (1, 2, 3),
/// from the centre and from three other points inside, where vertex - origin is exact in float.
long sphere_vertices() {
    TriangleMesh<float> mesh = meshgen::uv_sphere<float>(48, 96, 1.f);
    const glm::dvec3 axis = glm::normalize(glm::dvec3(1, 2, 3));
    const double c = std::cos(0.7), s = std::sin(0.7);
    for (Vec3<float>& p : mesh.positions) {  // Rodrigues, in double, rounded once
        const glm::dvec3 v(p);
        p = Vec3<float>(v * c + glm::cross(axis, v) * s + axis * glm::dot(axis, v) * (1 - c));
    }
    const Vec3<float> origins[] = {{0.f, 0.f, 0.f}, {0.125f, -0.25f, 0.0625f}, {-0.375f, 0.25f, 0.5f},
                                   {0.5f, 0.5f, -0.25f}};
    std::vector<Ray<float>> rays;
    for (const Vec3<float>& o : origins)
        for (const Vec3<float>& v : mesh.positions) {
            const Vec3<float> d = v - o;
            if (glm::dvec3(o) + glm::dvec3(d) == glm::dvec3(v)) rays.push_back({o, d});
        }
    return report("closed rotated UV sphere, rays exactly through its vertices", mesh, rays);
}

long cube_edges() {
    constexpr int n = 16;
    const Mat3<float> shear(3.f, 1.f, 2.f, 1.f, 5.f, 1.f, 1.f, 2.f, 7.f);  // columns
    TriangleMesh<float> mesh = meshgen::cube_grid<float>(n, float(n));  // vertices: even integers
    for (Vec3<float>& p : mesh.positions) p = shear * p;
    // Targets on every face, every half unit along its grid lines and diagonals.
    std::vector<Ray<float>> rays;
    const float half = float(n);  // grid squares are 2 wide: their midpoints are odd integers
    const Vec3<float> inside[] = {{0.f, 0.f, 0.f}, {3.f, -2.f, 5.f}, {-7.f, 4.f, -1.f}};
    for (int a = 0; a < 3; ++a)
        for (const float side : {-1.f, 1.f})
            for (int u = 0; u <= 4 * n; ++u)
                for (int v = 0; v <= 4 * n; ++v) {
                    // Points of the grid lines (u or v a multiple of 4: a vertex every 4) and of
                    // the squares' diagonals, which run from (i, j) to (i + 1, j + 1).
                    const bool on_line = u % 4 == 0 || v % 4 == 0;
                    const bool on_diagonal = u % 4 == v % 4;
                    if (!on_line && !on_diagonal) continue;
                    Vec3<float> target;
                    target[a] = side * half;
                    target[(a + 1) % 3] = -half + float(u) * 0.5f;
                    target[(a + 2) % 3] = -half + float(v) * 0.5f;
                    for (const Vec3<float>& o : inside) rays.push_back({shear * o, shear * target - shear * o});
                    // From outside only through the face's interior: through a cube edge or corner
                    // such a ray could merely touch the solid.
                    if (u == 0 || v == 0 || u == 4 * n || v == 4 * n) continue;
                    Vec3<float> out = target;  // outside the face it enters by
                    out[a] += side * 24.f;
                    out[(a + 1) % 3] += 6.f;
                    out[(a + 2) % 3] -= 4.f;
                    rays.push_back({shear * out, shear * target - shear * out});
                }
    return report("closed sheared cube grid, rays exactly through its vertices and edges", mesh, rays);
}

}  // namespace

int main() {
    const long leaks = sphere_vertices() + cube_edges();
    return leaks == 0 ? 0 : 1;
}
