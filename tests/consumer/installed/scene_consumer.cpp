// Loads the case file given as argument with the installed scene library, checks its
// expectations, and picks with each ray through a BVH of its shapes; exits 0 when every
// expectation passes and every BVH pick is the brute-force scene pick.
#include <cstdio>
#include <variant>
#include <vector>

#include <raypick/Version.h>
#include <raypick/geometry/Bvh.h>
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
    std::vector<Shape<double>> shapes;
    for (const SceneShape& s : scene.shapes) shapes.push_back(s.shape);
    const Bvh<double> bvh(shapes);
    for (const SceneRay& r : scene.rays) {
        const auto fast = bvh.pick(r.ray, r.t_min, r.t_max);
        const auto slow = pick_scene(r.ray, shapes, r.t_min, r.t_max);
        if (fast.has_value() != slow.has_value() || (fast && (fast->shape != slow->shape || fast->surface.t != slow->hit.t))) {
            std::fprintf(stderr, "ray %s: the BVH's pick differs from the scene pick\n", r.name.c_str());
            return 1;
        }
    }
    const CaseReport report = check_case(scene, Precision::Double);
    std::printf("raypick %s: %zu shapes, %zu rays, %zu of %zu expectations pass\n", RAYPICK_VERSION_STRING,
                shapes.size(), scene.rays.size(), report.passed, report.results.size());
    return report.ok() ? 0 : 1;
}
