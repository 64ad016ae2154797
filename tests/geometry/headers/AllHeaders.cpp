// Every public header of geometry/, its templates instantiated for float and double. Compiled
// syntax-only by clang with -Wall -Wextra -Werror (tests/geometry/CMakeLists.txt): the core is
// header-only, so a warning here is a warning in every clang user's build (the project itself is
// built with GCC, which checks the same code with the same flags).
#include <raypick/geometry/Batch.h>
#include <raypick/geometry/Bvh.h>
#include <raypick/geometry/ClosestPoint.h>
#include <raypick/geometry/MeshGenerators.h>
#include <raypick/geometry/MeshInstances.h>
#include <raypick/geometry/MixedPick.h>
#include <raypick/geometry/SceneBatch.h>
#include <raypick/geometry/SceneBvh.h>
#include <raypick/geometry/Shape.h>
#include <raypick/geometry/Validate.h>
#include <raypick/geometry/textbook/TextbookAabb.h>
#include <raypick/geometry/textbook/TextbookCapsule.h>
#include <raypick/geometry/textbook/TextbookObb.h>
#include <raypick/geometry/textbook/TextbookSphere.h>
#include <raypick/geometry/textbook/TextbookTriangle.h>

namespace {
using namespace raypick;

template <typename T> void instantiate_meshes(const Bvh<T>& shapes) {
    const Ray<T> ray;
    const TriangleMesh<T> mesh = meshgen::sphere<T>(100);
    (void)validate(mesh), (void)meshgen::terrain<T>(4, T(1), 1u), (void)meshgen::thin_cylinder<T>(4, 1, T(1), T(9));
    (void)meshgen::city_placements<T>(4, T(3), 1u);
    (void)pick_nearest_triangle(mesh, ray);
    auto bvh = std::make_shared<const MeshBvh<T>>(mesh);
    (void)bvh->pick(ray), (void)bvh->hits(ray);
    InstanceBvh<T> instances({bvh}, {Instance<T>{}});
    instances.set_transform(0, Affine<T>{});
    instances.refit();
    (void)instances.pick(ray), (void)instances.hits(ray), (void)pick_nearest_instance(instances, ray);
    (void)pick_mixed(shapes, instances, ray);
    (void)bvh->occluded(ray), (void)instances.occluded(ray);
    SceneBvh<T> scene;
    scene.add_instance(scene.add_mesh(mesh), Affine<T>{});
    scene.add_shape(Sphere<T>{});
    scene.commit();
    QueryFilter<T> filter;
    filter.accept = [](const HitCandidate<T>&) { return true; };
    (void)scene.pick(ray, T(0), infinity<T>(), filter), (void)scene.occluded(ray, T(0), infinity<T>(), filter);
    (void)scene.crossings(ray), (void)scene.contains(ray.origin), (void)scene.classify(ray.origin, 0);
    const std::vector<Ray<T>> rays{ray};
    const std::vector<Vec3<T>> points{ray.origin};
    bool flags[1];
    Containment where[1];
    (void)scene_batch::pick(scene, RayView<T>(rays)), (void)scene_batch::crossings(scene, RayView<T>(rays));
    scene_batch::occluded(scene, RayView<T>::rows(&ray.origin.x, 1), flags);
    (void)scene_batch::contains(scene, Vec3View<T>(points));
    scene_batch::classify(scene, Vec3View<T>(points), 0, where);
    scene_batch::contains_object(scene, Vec3View<T>(points), 0, flags);
    T distances[1];
    scene_batch::closest_point(scene, Vec3View<T>(points), ClosestOutput<T>{distances});
    scene_batch::signed_distance(scene, Vec3View<T>(points), distances, T(1));
    (void)scene.closest_point(ray.origin), (void)scene.signed_distance(ray.origin, T(1), filter);
    const Vec3<T> p(T(1));
    (void)bvh->closest_point(p), (void)closest_triangle(mesh, p), (void)bvh->degenerate_triangles();
    (void)instances.closest_point(p, T(2)), (void)closest_instance(instances, p);
}

template <typename T> void instantiate() {
    const Ray<T> ray;
    const Sphere<T> sphere;
    const Aabb<T> box;
    const Obb<T> obb;
    const Capsule<T> capsule;
    const Triangle<T> triangle;
    (void)cast(ray, triangle), (void)pick(ray, triangle), (void)intersect(ray, triangle), (void)validate(triangle);
    (void)is_degenerate(triangle), (void)textbook::triangle_moller_trumbore(ray, triangle);
    (void)cast(ray, sphere), (void)cast(ray, box), (void)cast(ray, obb), (void)cast(ray, capsule);
    (void)pick(ray, sphere), (void)pick(ray, box), (void)pick(ray, obb), (void)pick(ray, capsule);
    (void)validate(ray), (void)validate(sphere), (void)validate(box), (void)validate(obb), (void)validate(capsule);
    (void)textbook::sphere_algebraic(ray, sphere), (void)textbook::sphere_geometric(ray, sphere);
    (void)textbook::aabb_slab_epsilon(ray, box), (void)textbook::obb_axis_loop(ray, obb);
    (void)textbook::capsule_published(ray, capsule);
    const std::vector<Shape<T>> shapes{sphere, box, obb, capsule, triangle};
    (void)pick_nearest(shapes, ray);
    Bvh<T> bvh(shapes);
    (void)bvh.pick(ray);
    (void)bvh.pick(ray, T(0), infinity<T>(), 1u);
    bvh.update(0, Shape<T>(sphere));
    std::optional<NearestHit<T>> out[2];
    const Ray<T> rays[2];
    bvh.pick_bundle(rays, 2, out);
    bvh.for_each_hit(ray, [](std::uint32_t, const RayHit<T>&) {});
    const Vec3<T> p(T(0.5));
    (void)closest_point(p, sphere), (void)closest_point(p, box), (void)closest_point(p, obb);
    (void)closest_point(p, capsule), (void)closest_point(p, triangle), (void)closest_point_barycentric(p, triangle);
    (void)closest_point(p, shapes[0]), (void)closest_point(p, shapes[0])->signed_distance();
    (void)bvh.closest_point(p), (void)closest_shape(shapes, p, T(1));
    SphereSoA<T> spheres;
    spheres.push_back(sphere);
    BatchHits<T> hits;
    cast_batch(ray, spheres, hits);
    cast_batch(ray, spheres, 0, 1, T(0), infinity<T>(), hits);
    instantiate_meshes<T>(bvh);
}
}  // namespace

int main() {
    instantiate<float>();
    instantiate<double>();
}
