// The textbook variants of the kernel benchmark, all four shapes, in a translation unit of their
// own, so that no edit to raypick's kernels changes how they are compiled (see KernelBench.h).
#include <raypick/geometry/textbook/TextbookAabb.h>
#include <raypick/geometry/textbook/TextbookCapsule.h>
#include <raypick/geometry/textbook/TextbookObb.h>
#include <raypick/geometry/textbook/TextbookSphere.h>
#include "KernelBench.h"

namespace raypick::bench {

void Sphere_TextbookAlgebraic(benchmark::State& s) { run(s, data().spheres, [](auto& r, auto& x) { return textbook::sphere_algebraic(r, x); }); }
void Sphere_TextbookGeometric(benchmark::State& s) { run(s, data().spheres, [](auto& r, auto& x) { return textbook::sphere_geometric(r, x); }); }
void Aabb_TextbookEpsilon(benchmark::State& s) { run(s, data().boxes, [](auto& r, auto& x) { return textbook::aabb_slab_epsilon(r, x); }); }
void Obb_TextbookAxisLoop(benchmark::State& s) { run(s, data().obbs, [](auto& r, auto& x) { return textbook::obb_axis_loop(r, x); }); }
void Capsule_TextbookPublished(benchmark::State& s) { run(s, data().capsules, [](auto& r, auto& x) { return textbook::capsule_published(r, x); }); }

}  // namespace raypick::bench
