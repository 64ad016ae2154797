// libFuzzer target: every cast function (sphere, aabb, obb, capsule, triangle) on decoded inputs, in the
// scalar RAYPICK_FUZZ_SCALAR (float or double; CMakeLists.txt builds one binary per precision).
//
// Input layout (fuzz/FuzzCommon.h): shape type byte, shape, ray, range mode, poison byte.
// Invariants (check_cast): no NaN/inf in a hit, t_near <= t_far, unit normals, the passage overlaps
// [t_min, t_max], origin_inside consistent, invalid input -> miss, variant dispatch == direct cast;
// plus: a capsule with a == b is exactly the sphere, a triangle's intersect() agrees with its cast
// (weights in [0, 1], unit normal on the side the face says; no hit on a zero-area triangle), the
// range can only drop hits, and the batch
// kernels give cast()'s hit and t values bit for bit: their SSE2 build (what the BVH's leaves
// run) in a whole group and in a partial one, and cast_batch() with every instruction set this
// CPU has (SSE2, AVX2, AVX-512: Batch.cpp) over one more shape than its widest group holds.
#include <cstddef>
#include <cstdint>

#include "FuzzCommon.h"
#include <raypick/geometry/Batch.h>
#include <raypick/geometry/BatchSse2.h>

#ifndef RAYPICK_FUZZ_SCALAR
#error "define RAYPICK_FUZZ_SCALAR to float or double"
#endif

using T = RAYPICK_FUZZ_SCALAR;
using namespace raypick;
using namespace raypick::fuzz;

namespace {
template <typename S> auto soa_of(const S&) {
    if constexpr (std::is_same_v<S, Sphere<T>>) return SphereSoA<T>{};
    else if constexpr (std::is_same_v<S, Aabb<T>>) return AabbSoA<T>{};
    else if constexpr (std::is_same_v<S, Obb<T>>) return ObbSoA<T>{};
    else return CapsuleSoA<T>{};
}

template <typename S> auto group(const Ray<T>& ray, const S& shape, std::size_t cnt, T t_min, T t_max,
                                 batch_sse2::VecT<T>& tn, batch_sse2::VecT<T>& tf) {
    auto soa = soa_of(shape);
    for (std::size_t l = 0; l < std::size_t(batch_sse2::Simd<T>::W); ++l) soa.push_back(shape);
    if constexpr (std::is_same_v<S, Sphere<T>>) return batch_sse2::sphere_group<T>(ray, soa.view(), 0, cnt, t_min, t_max, tn, tf);
    else if constexpr (std::is_same_v<S, Aabb<T>>) return batch_sse2::aabb_group<T>(ray, soa.view(), 0, cnt, t_min, t_max, tn, tf);
    else if constexpr (std::is_same_v<S, Obb<T>>) return batch_sse2::obb_group<T>(ray, soa.view(), 0, cnt, t_min, t_max, tn, tf);
    else return batch_sse2::capsule_group<T>(ray, soa.view(), 0, cnt, t_min, t_max, tn, tf);
}

/// One batch lane (hit flag and t values) against the scalar cast's result h, bit for bit; on a
/// mismatch, prints the inputs and both results and fails.
template <typename S>
void check_lane(const char* what, std::size_t lane, std::size_t count, bool hit, T tn, T tf, const Ray<T>& ray,
                const S& shape, T t_min, T t_max, const std::optional<RayHit<T>>& h) {
    if (hit == h.has_value() && (!h || (same_bits(tn, h->t_near) && same_bits(tf, h->t_far)))) return;
    print_ray(ray, t_min, t_max);
    print_shape(shape);
    if (h) print_hit("scalar cast", *h);
    std::fprintf(stderr, "%s lane %zu of %zu: hit %d, t_near %.9g, t_far %.9g\n", what, lane, count, int(hit),
                 double(tn), double(tf));
    fail("a batch kernel lane differs from the scalar cast");
}

/// The batch kernel's lanes against the scalar cast's result h (the batch entry points answer an
/// invalid ray or range before any kernel runs, so those are left out).
template <typename S>
void check_batch(const Ray<T>& ray, const S& shape, T t_min, T t_max, const std::optional<RayHit<T>>& h) {
    if (!is_valid(ray) || !(t_min <= t_max)) return;
    for (std::size_t cnt : {std::size_t(batch_sse2::Simd<T>::W), std::size_t(1)}) {
        batch_sse2::VecT<T> tn, tf;
        const auto hit = group(ray, shape, cnt, t_min, t_max, tn, tf);
        for (std::size_t l = 0; l < cnt; ++l)
            check_lane("batch_sse2 group", l, cnt, hit[l] != 0, tn[l], tf[l], ray, shape, t_min, t_max, h);
    }
    // cast_batch() per instruction set: 17 copies, so AVX-512's 16 floats get a whole group and a
    // tail (and every narrower width several groups).
    constexpr std::size_t kCopies = 17;
    auto soa = soa_of(shape);
    for (std::size_t i = 0; i < kCopies; ++i) soa.push_back(shape);
    BatchHits<T> out;
    out.resize(kCopies);
    for (BatchIsa isa : {BatchIsa::Sse2, BatchIsa::Avx2, BatchIsa::Avx512}) {
        if (!batch_isa_supported(isa)) continue;
        cast_batch(ray, soa, 0, kCopies, t_min, t_max, out, isa);
        for (std::size_t l = 0; l < kCopies; ++l)
            check_lane(batch_isa_name(isa), l, kCopies, out.hit[l] != 0, out.t_near[l], out.t_far[l], ray, shape,
                       t_min, t_max, h);
    }
}
/// intersect() against cast() of the same triangle: a hit exactly when cast() hits, at the same
/// t, with weights in [0, 1], a unit normal and n_near on the side `front` says; never a hit on
/// a zero-area triangle.
void check_triangle(const Ray<T>& ray, const Triangle<T>& tri, T t_min, T t_max, const std::optional<RayHit<T>>& h) {
    const auto th = intersect(ray, tri, t_min, t_max);
    const auto broken = [&](const char* what) {
        print_ray(ray, t_min, t_max);
        print_shape(tri);
        if (h) print_hit("cast", *h);
        fail(what);
    };
    if (th.has_value() != h.has_value()) broken("intersect() and cast() disagree on a hit");
    if (!th) return;
    if (is_degenerate(tri)) broken("hit on a zero-area triangle");
    if (!same_bits(th->t, h->t_near) || !same_bits(th->t, h->t_far)) broken("intersect()'s t differs from cast()'s");
    for (int k = 0; k < 3; ++k)
        if (!(th->barycentric[k] >= T(0) && th->barycentric[k] <= T(1))) broken("a barycentric weight outside [0, 1]");
    if (!is_unit(th->normal)) broken("intersect()'s normal is not unit length");
    if (!same_bits(h->n_near, th->front ? th->normal : -th->normal))
        broken("cast()'s n_near is not the normal on the side intersect() says the ray arrives at");
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    Reader in(data, size);
    Shape<T> shape = decode_shape<T>(in);
    Ray<T> ray = decode_ray<T>(in);
    T t_min, t_max;
    decode_range(in, t_min, t_max);
    maybe_poison(in, ray, shape);

    std::visit(
        [&](const auto& s) {
            using S = std::decay_t<decltype(s)>;
            const auto h = check_cast(ray, s, t_min, t_max);
            if constexpr (!std::is_same_v<S, Triangle<T>>) check_batch(ray, s, t_min, t_max, h);  // no batch kernel
            // Narrowing the range to [-inf, inf] can only add hits, never change a hit's values.
            const auto full = check_cast(ray, s, -infinity<T>(), infinity<T>());
            if (h && !same_hit(h, full)) {
                print_ray(ray, t_min, t_max);
                print_shape(s);
                print_hit("result in [t_min, t_max]", *h);
                if (full) print_hit("result in [-inf, inf]", *full);
                fail("the hit's values depend on the range [t_min, t_max]");
            }
            if constexpr (std::is_same_v<S, Triangle<T>>) check_triangle(ray, s, t_min, t_max, h);
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
