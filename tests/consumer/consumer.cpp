// Casts a ray at a capsule and picks the nearest of three shapes through a BVH; exits 0 when both
// give the expected answer.
#include <cstdio>
#include <vector>

#include <raypick/geometry/Bvh.h>

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
    std::printf("cast t = %g, picked shape %u at t = %g\n", double(hit->t_near), picked->shape, double(picked->surface.t));
    return 0;
}
