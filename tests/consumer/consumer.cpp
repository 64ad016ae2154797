// Casts a ray at a capsule, picks the nearest of three shapes through a BVH, and picks a triangle
// mesh (an octahedron) alone and placed twice, once mirrored; exits 0 when each gives the expected
// answer.
#include <cmath>
#include <cstdio>
#include <memory>
#include <vector>

#include <raypick/geometry/Bvh.h>
#include <raypick/geometry/MeshInstances.h>

int main() {
    using namespace raypick;
    const Ray<float> ray{{-5, 2, 0}, {1, 0, 0}};
    const Capsule<float> pill{{0, 0, 0}, {0, 4, 0}, 1.0f};
    const auto hit = cast(ray, pill);
    if (!hit || hit->t_near != 4.0f || hit->n_near != Vec3<float>(-1, 0, 0)) {
        std::printf("cast: wrong hit\n");
        return 1;
    }
    const std::vector<Shape<float>> shapes{Sphere<float>{{0, 0, 10}, 1}, pill, Aabb<float>{{-1, -1, 4}, {1, 1, 6}}};
    const Bvh<float> bvh(shapes);
    const auto picked = bvh.pick(Ray<float>{{0, 0, 20}, {0, 0, -1}});
    if (!picked || picked->shape != 0 || picked->surface.t != 9.0f) {
        std::printf("pick: wrong shape\n");
        return 1;
    }

    // Face 0 (+x, +y, +z) lies in the plane x + y + z = 1: a ray down at (0.25, 0.25) meets it at
    // z = 0.5, from its front.
    TriangleMesh<float> octahedron;
    octahedron.positions = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
    octahedron.indices = {{0, 2, 4}, {2, 1, 4}, {1, 3, 4}, {3, 0, 4}, {2, 0, 5}, {1, 2, 5}, {3, 1, 5}, {0, 3, 5}};
    const auto mesh = std::make_shared<const MeshBvh<float>>(octahedron);
    const auto face = mesh->pick(Ray<float>{{0.25f, 0.25f, 5}, {0, 0, -1}});
    const auto near = [](float a, float b) { return std::abs(a - b) <= 1e-6f; };
    if (!face || face->triangle != 0 || !near(face->t, 4.5f) || !face->front || !near(face->normal.z, 1 / std::sqrt(3.0f))) {
        std::printf("mesh pick: wrong triangle\n");
        return 1;
    }
    // Instance 1 mirrors x, doubles it and moves the octahedron to x = 10: world x = 9.5 is the
    // mesh's x = 0.25, and the normal (1, 1, 1) maps by the inverse transpose to (-1, 2, 2) / 3.
    Instance<float> mirrored{0, {}};
    mirrored.transform.linear[0][0] = -2;
    mirrored.transform.translation = {10, 0, 0};
    const InstanceBvh<float> instances({mesh}, {Instance<float>{}, mirrored});
    const auto placed = instances.pick(Ray<float>{{9.5f, 0.25f, 5}, {0, 0, -1}});
    if (!placed || placed->instance != 1 || placed->hit.triangle != 0 || !near(placed->hit.t, 4.5f) ||
        !placed->hit.front || !near(placed->hit.normal.x, -1 / 3.0f) || !near(placed->hit.normal.z, 2 / 3.0f)) {
        std::printf("instance pick: wrong hit\n");
        return 1;
    }
    std::printf("cast t = %g, picked shape %u at t = %g, triangle %u of instance %u at t = %g\n", double(hit->t_near),
                picked->shape, double(picked->surface.t), placed->hit.triangle, placed->instance, double(placed->hit.t));
    return 0;
}
