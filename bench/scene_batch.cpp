// Times the batch picks of SceneBatch.h: 10^6 random rays at a closed UV sphere of 10^6 triangles
// (one mesh instance in a SceneBvh<float>), for 1 and 2 threads (or those given), median of five
// runs each. python/bench.py times the same picks through the Python module, so the difference is
// the binding's cost. The rays: origins uniform on the sphere of radius 3 about the centre, each
// aimed at a point uniform in the cube [-1, 1]^3 (about 65 % hit the unit sphere); a fixed seed.
//   raypick_bench_scene_batch [rays] [triangles] [threads...]
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <random>
#include <vector>

#include <raypick/geometry/MeshGenerators.h>
#include <raypick/geometry/SceneBatch.h>

using namespace raypick;

int main(int argc, char** argv) {
    const std::size_t rays = argc > 1 ? std::size_t(std::atoll(argv[1])) : 1000000;
    const std::size_t triangles = argc > 2 ? std::size_t(std::atoll(argv[2])) : 1000000;
    std::vector<unsigned> thread_counts;
    for (int k = 3; k < argc; ++k) thread_counts.push_back(unsigned(std::atoi(argv[k])));
    if (thread_counts.empty()) thread_counts = {1, 2};

    const auto t0 = std::chrono::steady_clock::now();
    SceneBvh<float> scene;
    const auto mesh = scene.add_mesh(meshgen::sphere<float>(triangles, 1.0f));
    scene.add_instance(mesh, Affine<float>{});
    scene.commit();
    const double build_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();

    std::mt19937_64 rng(12345);
    std::normal_distribution<double> normal;
    std::uniform_real_distribution<double> cube(-1.0, 1.0);
    std::vector<float> origins(3 * rays), directions(3 * rays);
    for (std::size_t i = 0; i < rays; ++i) {
        double u[3] = {normal(rng), normal(rng), normal(rng)};
        const double len = std::sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
        for (int k = 0; k < 3; ++k) {
            origins[3 * i + k] = float(3.0 * u[k] / len);
            directions[3 * i + k] = float(cube(rng) - 3.0 * u[k] / len);
        }
    }
    const RayView<float> view(Vec3View<float>(origins.data(), rays), Vec3View<float>(directions.data(), rays));
    std::vector<float> t(rays), point(3 * rays), normal_out(3 * rays), bary(3 * rays);
    std::vector<ObjectId> object(rays);
    std::vector<std::uint32_t> triangle(rays);
    std::unique_ptr<bool[]> front(new bool[rays]);
    const PickOutput<float> out{t.data(), object.data(), triangle.data(), point.data(), normal_out.data(), bary.data(), front.get()};

    std::printf("scene batch picks (C++): %zu rays at a UV sphere of %zu triangles, float; build %.0f ms\n", rays,
                scene.meshes()[0]->mesh().triangle_count(), build_ms);
    for (unsigned threads : thread_counts) {
        BatchOptions<float> options;
        options.threads = threads;
        std::vector<double> ms;
        for (int run = 0; run < 5; ++run) {
            const auto a = std::chrono::steady_clock::now();
            scene_batch::pick(scene, view, out, options);
            ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - a).count());
        }
        std::sort(ms.begin(), ms.end());
        const std::size_t hits = std::size_t(std::count_if(object.begin(), object.end(), [](ObjectId o) { return o != kNoObject; }));
        std::printf("  threads %u: median %.1f ms (min %.1f, max %.1f), %.2f Mrays/s, %zu hits\n", threads, ms[2], ms[0], ms[4],
                    double(rays) / ms[2] / 1e3, hits);
    }
}
