// The capsule kernels of the kernel benchmark: cast(), pick() and the batch cast
// (one translation unit per shape: see KernelBench.h).
#include <raypick/geometry/RayCapsule.h>
#include "KernelBench.h"

namespace raypick::bench {

RAYPICK_SHAPE_KERNEL_BENCHMARKS(Capsule, capsules, CapsuleSoA)

}  // namespace raypick::bench
