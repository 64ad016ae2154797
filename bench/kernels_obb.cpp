// The oriented box kernels of the kernel benchmark: cast(), pick() and the batch cast
// (one translation unit per shape: see KernelBench.h).
#include <raypick/geometry/RayObb.h>
#include <raypick/geometry/Shape.h>  // pick() for boxes: first_surface() of cast()
#include "KernelBench.h"

namespace raypick::bench {

RAYPICK_SHAPE_KERNEL_BENCHMARKS(Obb, obbs, ObbSoA)

}  // namespace raypick::bench
