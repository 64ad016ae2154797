// libFuzzer target: every cast function (sphere, aabb, obb, capsule) on decoded inputs, in the
// scalar RAYPICK_FUZZ_SCALAR (float or double; CMakeLists.txt builds one binary per precision).
//
// Input layout (fuzz/FuzzCommon.h): shape type byte, shape, ray, range mode, poison byte.
// Invariants (check_cast): no NaN/inf in a hit, t_near <= t_far, unit normals, the passage overlaps
// [t_min, t_max], origin_inside consistent, invalid input -> miss, variant dispatch == direct cast;
// plus: a capsule with a == b is exactly the sphere, and the range can only drop hits.
#include <cstddef>
#include <cstdint>

#include "FuzzCommon.h"

#ifndef RAYPICK_FUZZ_SCALAR
#error "define RAYPICK_FUZZ_SCALAR to float or double"
#endif

using T = RAYPICK_FUZZ_SCALAR;
using namespace raypick;
using namespace raypick::fuzz;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    Reader in(data, size);
    Shape<T> shape = decode_shape<T>(in);
    Ray<T> ray = decode_ray<T>(in);
    T t_min, t_max;
    decode_range(in, t_min, t_max);
    maybe_poison(in, ray, shape);

    std::visit(
        [&](const auto& s) {
            const auto h = check_cast(ray, s, t_min, t_max);
            // Narrowing the range to [-inf, inf] can only add hits, never change a hit's values.
            const auto full = check_cast(ray, s, -infinity<T>(), infinity<T>());
            if (h && !same_hit(h, full)) {
                print_ray(ray, t_min, t_max);
                print_shape(s);
                print_hit("result in [t_min, t_max]", *h);
                if (full) print_hit("result in [-inf, inf]", *full);
                fail("the hit's values depend on the range [t_min, t_max]");
            }
            using S = std::decay_t<decltype(s)>;
            if constexpr (std::is_same_v<S, Capsule<T>>) {
                if (s.a == s.b) {
                    const auto sph = cast(ray, Sphere<T>{s.a, s.radius}, t_min, t_max);
                    if (!same_hit(h, sph)) {
                        print_ray(ray, t_min, t_max);
                        print_shape(s);
                        fail("capsule with a == b differs from cast(ray, Sphere{a, radius})");
                    }
                }
            }
        },
        shape);
    return 0;
}
