// The sphere kernels of the kernel benchmark: cast(), pick() and the batch cast
// (one translation unit per shape: see KernelBench.h).
#include <raypick/geometry/RaySphere.h>
#include "KernelBench.h"

namespace raypick::bench {

RAYPICK_SHAPE_KERNEL_BENCHMARKS(Sphere, spheres, SphereSoA)

}  // namespace raypick::bench
