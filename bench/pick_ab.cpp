// One figure per run for A/B comparisons of the shape BVH across commits (scripts/pick-ab.sh):
// picks among N shapes of one mix (bench::make_shapes, the picking benchmark's scenes) by one
// fixed loop, reported as nanoseconds per pick and, under callgrind, as instructions per pick
// (`--toggle-collect='run_*'` counts run_picks alone). Compiled against each commit's headers,
// so it includes them by whichever path that commit uses.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>

#include "BenchScenes.h"
#if __has_include(<raypick/geometry/Bvh.h>)
#include <raypick/geometry/Bvh.h>
#else
#include "geometry/Bvh.h"
#endif

using namespace raypick;

/// Picks every ray once; the number of hits keeps the loop from being optimised away.
[[gnu::noinline]] std::size_t run_picks(const Bvh<float>& bvh, const std::vector<Ray<float>>& rays) {
    std::size_t hits = 0;
    for (const Ray<float>& r : rays) hits += bvh.pick(r).has_value();
    return hits;
}

int main(int argc, char** argv) {
    if (argc < 3) {
        std::fprintf(stderr, "usage: %s MIX N [ROUNDS]   (MIX: 0 mixed, 1 spheres, 2 aabbs, 3 obbs, 4 capsules)\n",
                     argv[0]);
        return 2;
    }
    const int mix = std::atoi(argv[1]), n = std::atoi(argv[2]);
    const int rounds = argc > 3 ? std::max(1, std::atoi(argv[3])) : 1;
    const auto shapes = bench::make_shapes(bench::Mix(mix), n);
    const auto rays = bench::make_rays(1 << 14);
    const Bvh<float> bvh(shapes);
    std::size_t hits = run_picks(bvh, rays);  // warm the caches once
    const auto start = std::chrono::steady_clock::now();
    for (int r = 0; r < rounds; ++r) hits += run_picks(bvh, rays);
    const double ns = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count();
    std::printf("%s %d: %.1f ns/pick (%zu hits, %zu nodes)\n", bench::mix_name(bench::Mix(mix)), n,
                ns / (double(rounds) * double(rays.size())), hits, bvh.node_count());
}
