// Loads the case file given as argument with the installed scene library (and the model files it
// names, through the installed model library), checks its expectations, and picks with each ray
// through a BVH of its shapes and one of its mesh instances; exits 0 when every expectation passes
// and every BVH pick is the brute-force pick.
#include <cstdio>
#include <variant>
#include <vector>

#include <raypick/Version.h>
#include <raypick/geometry/Bvh.h>
#include <raypick/geometry/MeshInstances.h>
#include <raypick/scene/CaseCheck.h>
#include <raypick/scene/SceneFile.h>

int main(int argc, char** argv) {
    using namespace raypick;
    static_assert(kVersion >= 100, "raypick 0.1 or later");
    if (argc != 2) {
        std::fprintf(stderr, "usage: scene_consumer CASE.json\n");
        return 2;
    }
    auto loaded = load_scene_file(argv[1]);
    if (const auto* err = std::get_if<SceneLoadError>(&loaded)) {
        std::fprintf(stderr, "%s\n", err->what().c_str());
        return 1;
    }
    const Scene& scene = std::get<Scene>(loaded);
    const CastScene<double> cast = prepare_scene<double>(scene);
    const Bvh<double> bvh(cast.shapes);
    for (std::size_t i = 0; i < cast.rays.size(); ++i) {
        const Ray<double>& ray = cast.rays[i];
        const double t_min = cast.t_min[i], t_max = cast.t_max[i];
        const auto fast = bvh.pick(ray, t_min, t_max);
        const auto slow = pick_scene(ray, cast.shapes, t_min, t_max);
        if (fast.has_value() != slow.has_value() || (fast && (fast->shape != slow->shape || fast->surface.t != slow->hit.t))) {
            std::fprintf(stderr, "ray %s: the BVH's pick differs from the scene pick\n", scene.rays[i].name.c_str());
            return 1;
        }
        const auto tree = cast.instances.pick(ray, t_min, t_max);
        const auto each = pick_nearest_instance(cast.instances, ray, t_min, t_max);
        if (tree.has_value() != each.has_value() ||
            (tree && (tree->instance != each->instance || tree->hit.triangle != each->hit.triangle || tree->hit.t != each->hit.t))) {
            std::fprintf(stderr, "ray %s: the instance BVH's pick differs from testing each instance\n",
                         scene.rays[i].name.c_str());
            return 1;
        }
    }
    const CaseReport report = check_case(scene, Precision::Double);
    std::printf("raypick %s: %zu shapes, %zu mesh instances, %zu rays, %zu of %zu expectations pass\n",
                RAYPICK_VERSION_STRING, cast.shapes.size(), cast.meshes.instances.size(), scene.rays.size(),
                report.passed, report.results.size());
    return report.ok() ? 0 : 1;
}
