// Batch casts must give exactly the scalar cast()'s answers: the same hit/miss for every shape and
// bit-identical t_near and t_far, on both instruction sets, for random shapes including invalid and
// degenerate ones, axis-parallel rays, partial tails and sub-ranges. RAYPICK_SEED=<n> reruns a seed.
#include <cstdlib>
#include <cstdio>
#include <cstring>
#include <random>

#include <glm/gtc/matrix_transform.hpp>

#include "TestUtil.h"
#include <raypick/geometry/Batch.h>
#include <raypick/geometry/Shape.h>

namespace raypick {
namespace {

std::uint32_t base_seed() {
    const char* s = std::getenv("RAYPICK_SEED");
    return s ? std::uint32_t(std::strtoul(s, nullptr, 10)) : 777u;
}

/// Every instruction set; one this CPU lacks runs its narrower fallback (see batch_isa_supported).
constexpr BatchIsa kIsas[] = {BatchIsa::Sse2, BatchIsa::Avx2, BatchIsa::Avx512};

template <typename T> bool same_bits(T a, T b) { return std::memcmp(&a, &b, sizeof(T)) == 0; }

template <typename T> struct Gen {
    std::mt19937 rng;
    explicit Gen(std::uint32_t seed) : rng(seed) {}
    T uni(T a, T b) { return std::uniform_real_distribution<T>(a, b)(rng); }
    int pick(int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng); }
    T coord() { return pick(3) == 0 ? std::round(uni(-5, 5)) : uni(-5, 5); }
    Vec3<T> p() { return {coord(), coord(), coord()}; }
    T size() {
        switch (pick(10)) {
            case 0: return 0;
            case 1: return -1;  // invalid
            case 2: return std::numeric_limits<T>::quiet_NaN();
            default: return uni(T(0.01), 3);
        }
    }
    Mat3<T> rotation() {
        const glm::mat4 r = glm::rotate(glm::mat4(1.f), float(uni(0, 6.3)), glm::normalize(glm::vec3(p()) + glm::vec3(1e-3f)));
        Mat3<T> m = Mat3<T>(glm::mat3(r));
        // Invalid rotations break one term of is_valid at a time: a reflection (determinant), one
        // column's length (a diagonal term of R^T R), one pair's angle (an off-diagonal term), or
        // one non-finite entry.
        const int j = pick(3), k = (j + 1 + pick(2)) % 3;
        switch (pick(11)) {
            case 0: return Mat3<T>(T(1));
            case 1: m[2] = -m[2]; return m;                             // reflection
            case 2: m[j] *= T(1.01); return m;                          // column j not unit
            case 3: m[j] = glm::normalize(m[j] + T(0.01) * m[k]); return m;  // columns j, k not orthogonal
            case 4: m[j][pick(3)] = pick(2) ? std::numeric_limits<T>::quiet_NaN() : std::numeric_limits<T>::infinity(); return m;
            default: return m;
        }
    }
    Ray<T> ray() {
        Ray<T> r{p() * T(2), p() - p()};
        // Zero components of either sign: -0 must reach the kernels as -0 (0 * -0 = -0 decides the
        // sign of b' for an origin at a centre, and so which formula gives which root).
        if (pick(4) == 0) r.direction[pick(3)] = pick(2) ? T(0) : -T(0);
        if (pick(8) == 0) r.origin[pick(3)] = -T(0);
        if (pick(6) == 0) { r.direction = Vec3<T>(0); r.direction[pick(3)] = pick(2) ? T(1) : T(-1); }
        if (pick(50) == 0) r.direction = Vec3<T>(0);  // invalid ray
        return r;
    }
};

template <typename T> class Batch : public ::testing::Test {};
TYPED_TEST_SUITE(Batch, test::Scalars);

template <typename T, typename SoA, typename MakeShape>
void check_type(std::uint32_t seed, MakeShape make, int max_shapes = 37, int rays = 400) {
    Gen<T> g(seed);
    SoA soa;
    const int n = 1 + g.pick(max_shapes);  // the default exercises partial tails of every vector width
    for (int i = 0; i < n; ++i) soa.push_back(make(g));
    BatchHits<T> out;
    for (int k = 0; k < rays; ++k) {
        const Ray<T> ray = g.ray();
        const T t_min = g.pick(4) == 0 ? g.uni(-3, 3) : T(0);
        const T t_max = g.pick(4) == 0 ? t_min + g.uni(0, 10) : std::numeric_limits<T>::infinity();
        const std::size_t begin = std::size_t(g.pick(n)), end = begin + std::size_t(g.pick(n - int(begin) + 1));
        for (BatchIsa isa : kIsas) {
            out.resize(std::size_t(n));
            cast_batch(ray, soa, begin, end, t_min, t_max, out, isa);
            for (std::size_t i = begin; i < end; ++i) {
                const auto h = cast(ray, soa.get(i), t_min, t_max);
                const std::size_t k2 = i - begin;
                ASSERT_EQ(h.has_value(), out.hit[k2] != 0)
                    << "seed " << seed << " ray " << k << " shape " << i << " isa " << int(isa);
                if (h) {
                    EXPECT_TRUE(same_bits(h->t_near, out.t_near[k2])) << "seed " << seed << " ray " << k << " shape " << i << ": " << h->t_near << " vs " << out.t_near[k2];
                    EXPECT_TRUE(same_bits(h->t_far, out.t_far[k2])) << "seed " << seed << " ray " << k << " shape " << i << ": " << h->t_far << " vs " << out.t_far[k2];
                }
            }
            if (::testing::Test::HasFailure()) return;
        }
    }
}

TYPED_TEST(Batch, SpheresMatchScalarBitForBit) {
    using T = TypeParam;
    for (std::uint32_t s = 0; s < 40; ++s)
        check_type<T, SphereSoA<T>>(base_seed() + s, [](Gen<T>& g) { return Sphere<T>{g.p(), g.size()}; });
}
TYPED_TEST(Batch, AabbsMatchScalarBitForBit) {
    using T = TypeParam;
    for (std::uint32_t s = 0; s < 40; ++s)
        check_type<T, AabbSoA<T>>(base_seed() + s, [](Gen<T>& g) {
            const Vec3<T> c = g.p();
            Vec3<T> h(g.size(), g.size(), g.size());
            if (g.pick(10) == 0) h.x = -1;  // min > max: invalid
            return Aabb<T>{c - h, c + h};
        });
}
TYPED_TEST(Batch, ObbsMatchScalarBitForBit) {
    using T = TypeParam;
    for (std::uint32_t s = 0; s < 40; ++s)
        check_type<T, ObbSoA<T>>(base_seed() + s, [](Gen<T>& g) {
            return Obb<T>{g.p(), g.rotation(), Vec3<T>(g.size(), g.size(), g.size())};
        });
}
TYPED_TEST(Batch, CapsulesMatchScalarBitForBit) {
    using T = TypeParam;
    for (std::uint32_t s = 0; s < 40; ++s)
        check_type<T, CapsuleSoA<T>>(base_seed() + s, [](Gen<T>& g) {
            const Vec3<T> a = g.p();
            const int kind = g.pick(5);
            const Vec3<T> b = kind == 0 ? a : kind == 1 ? a + Vec3<T>(0, g.coord(), 0) : g.p();
            return Capsule<T>{a, b, g.size()};
        });
}

// The capsule kernel (and the sphere kernel at SSE2's width) works in blocks of 256 shapes, in two
// passes: the clear misses first, then the whole kernel on the rest, gathered W at a time. Up to
// 1 200 shapes in sub-ranges that start anywhere, some scenes sparse (most shapes clear misses) and
// some dense (most needing the whole kernel, so that blocks hand many full groups and a partial
// one to the second pass).
TYPED_TEST(Batch, ShapesAcrossBlocksMatchScalarBitForBit) {
    using T = TypeParam;
    for (std::uint32_t s = 0; s < 6; ++s) {
        const T spread = s % 2 ? T(1) : T(40);
        check_type<T, CapsuleSoA<T>>(base_seed() + s, [spread](Gen<T>& g) {
            const Vec3<T> a = g.p() * (spread / 5);
            const Vec3<T> b = g.pick(8) == 0 ? a : a + g.p() * T(0.2);
            return Capsule<T>{a, b, g.size()};
        }, 1200, 40);
        check_type<T, SphereSoA<T>>(base_seed() + s, [spread](Gen<T>& g) {
            return Sphere<T>{g.p() * (spread / 5), g.size()};
        }, 1200, 40);
    }
}

// The sphere and capsule kernels leave a lane whose centre, end or radius is NaN or infinite to
// the scalar code (such a lane is outside the safe range) and test only the radius' sign
// themselves: every field of either shape made NaN, +inf or -inf, among valid shapes, must still
// give exactly the scalar cast's answer (a miss).
TYPED_TEST(Batch, NonFiniteSpheresAndCapsulesMatchScalar) {
    using T = TypeParam;
    const T bad[3] = {std::numeric_limits<T>::quiet_NaN(), infinity<T>(), -infinity<T>()};
    for (int field = 0; field < 7; ++field)
        for (const T v : bad) {
            check_type<T, SphereSoA<T>>(base_seed() + std::uint32_t(field), [&](Gen<T>& g) {
                Sphere<T> sp{g.p(), g.size()};
                if (field < 4 && g.pick(3) == 0) (field < 3 ? sp.center[field] : sp.radius) = v;
                return sp;
            });
            check_type<T, CapsuleSoA<T>>(base_seed() + std::uint32_t(field), [&](Gen<T>& g) {
                const Vec3<T> a = g.p();
                Capsule<T> c{a, g.pick(4) == 0 ? a : g.p(), g.size()};
                if (g.pick(3) == 0) (field < 3 ? c.a[field] : field < 6 ? c.b[field - 3] : c.radius) = v;
                if (g.pick(8) == 0) c.b = c.a;  // a == b, both non-finite alike
                return c;
            });
            if (::testing::Test::HasFailure()) return;
        }
}

// Capsules with a == b (spheres) whose origin - a overflows T, among ordinary ones: the scalar cast
// finds them in its wide type; the capsule kernel's common-miss test must not skip their group
// (0 * inf makes its lateral discriminant NaN for a == b; a fuzz_cast_float regression input).
TYPED_TEST(Batch, CapsulesWithAEqualsBBeyondTheRangeAreNotSkipped) {
    using T = TypeParam;
    const T big = std::numeric_limits<T>::max() * T(0.9);
    CapsuleSoA<T> soa;
    constexpr int kCapsules = 19;
    for (int i = 0; i < kCapsules; ++i) {
        const Vec3<T> far(-big, 0, 0), near(T(i), T(50), 0);
        soa.push_back(i % 3 == 0 ? Capsule<T>{far, far, 1} : Capsule<T>{near, near + Vec3<T>(0, 0, 1), 1});
    }
    const Ray<T> ray{{big, T(0.5), 0}, {-4, 0, 0}};
    BatchHits<T> out;
    for (BatchIsa isa : kIsas) {
        cast_batch(ray, soa, out, T(0), infinity<T>(), isa);
        for (int j = 0; j < kCapsules; ++j) {
            const auto h = cast(ray, soa.get(std::size_t(j)));
            ASSERT_EQ(h.has_value(), j % 3 == 0) << "capsule " << j;
            ASSERT_EQ(out.hit[std::size_t(j)] != 0, h.has_value()) << "capsule " << j << " isa " << int(isa);
            if (h) {
                EXPECT_TRUE(same_bits(out.t_near[std::size_t(j)], h->t_near)) << "capsule " << j;
            }
        }
    }
}

// ObbSoA stores whether each box is valid when the box is stored (the kernels read that instead of
// checking rotations): set() must refresh it, both ways, in every lane position of a vector.
TYPED_TEST(Batch, ObbSetKeepsValidityInStep) {
    using T = TypeParam;
    const Mat3<T> rot(glm::mat3(glm::rotate(glm::mat4(1.f), 0.7f, glm::normalize(glm::vec3(1, 2, 3)))));
    Mat3<T> reflection = rot;
    reflection[2] = -reflection[2];
    ObbSoA<T> soa;
    constexpr int kBoxes = 19;  // more than one vector of every width, plus a tail
    for (int i = 0; i < kBoxes; ++i) soa.push_back(Obb<T>{{T(4 * i), 0, 0}, rot, {1, 1, 1}});
    BatchHits<T> out;
    auto expect_hits = [&](int invalid) {  // only box `invalid` (or none: -1) misses
        for (int i = 0; i < kBoxes; ++i) {
            const Ray<T> ray{{T(4 * i), 0, T(10)}, {0, 0, -1}};
            for (BatchIsa isa : kIsas) {
                cast_batch(ray, soa, out, T(0), infinity<T>(), isa);
                for (int j = 0; j < kBoxes; ++j) {
                    const bool want = cast(ray, soa.get(std::size_t(j))).has_value();
                    ASSERT_EQ(want, i == j && j != invalid) << "box " << j << " invalid " << invalid;
                    EXPECT_EQ(out.hit[std::size_t(j)] != 0, want)
                        << "ray " << i << " box " << j << " invalid " << invalid << " isa " << int(isa);
                }
            }
        }
    };
    expect_hits(-1);
    for (int k : {0, 5, 18}) {
        soa.set(std::size_t(k), Obb<T>{{T(4 * k), 0, 0}, reflection, {1, 1, 1}});
        EXPECT_EQ(soa.get(std::size_t(k)).rotation, reflection);
        expect_hits(k);
        soa.set(std::size_t(k), Obb<T>{{T(4 * k), 0, 0}, rot, {1, 1, 1}});
        expect_hits(-1);
    }
}

// A ray from a sphere's centre: f = 0, so b' = -(f.d) is a signed zero whose sign comes from the
// direction's zero components, and it decides which formula yields which root (the two round
// differently). The kernels must see -0 as -0 (a splat written as 0 + x made it +0; fuzz_bvh
// found the hierarchy picking a different shape for it).
TYPED_TEST(Batch, SignedZeroComponentsMatchScalarBitForBit) {
    using T = TypeParam;
    const Vec3<T> c(32, 32, 32);
    SphereSoA<T> spheres;
    CapsuleSoA<T> capsules;
    for (int i = 0; i < 17; ++i) {  // more than one vector of every width, plus a tail
        spheres.push_back(Sphere<T>{c, T(32)});
        capsules.push_back(Capsule<T>{c, c, T(32)});
    }
    const T z = T(0), nz = -T(0);
    const Vec3<T> dirs[] = {{-1, -38, nz}, {-1, -38, z}, {nz, nz, -1}, {z, nz, 1}, {3, nz, nz}, {nz, 2, z}};
    BatchHits<T> out;
    for (const Vec3<T>& d : dirs)
        for (BatchIsa isa : kIsas) {
            const Ray<T> ray{c, d};
            const auto want = cast(ray, spheres.get(0), -infinity<T>(), infinity<T>());
            ASSERT_TRUE(want);
            cast_batch(ray, spheres, out, -infinity<T>(), infinity<T>(), isa);
            for (std::size_t i = 0; i < spheres.size(); ++i) {
                EXPECT_TRUE(same_bits(out.t_near[i], want->t_near) && same_bits(out.t_far[i], want->t_far))
                    << "sphere " << i << " direction " << detail::str(d) << ": " << out.t_near[i] << ", "
                    << out.t_far[i] << " vs " << want->t_near << ", " << want->t_far;
            }
            cast_batch(ray, capsules, out, -infinity<T>(), infinity<T>(), isa);
            for (std::size_t i = 0; i < capsules.size(); ++i)
                EXPECT_TRUE(same_bits(out.t_near[i], want->t_near) && same_bits(out.t_far[i], want->t_far))
                    << "capsule " << i << " direction " << detail::str(d);
        }
}

// q = b' + sign(b') sqrt(disc) == 0: a line tangent at the origin, the foot of the perpendicular
// from the centre, and a point sphere at the origin (where c/q is 0/0). The kernels have no case of
// their own for it either: the choice of the second root's formula must give +0 as the scalar does.
TYPED_TEST(Batch, ZeroQMatchesScalarBitForBit) {
    using T = TypeParam;
    SphereSoA<T> spheres;
    for (int i = 0; i < 17; ++i) spheres.push_back(i % 2 ? Sphere<T>{{0, 0, 0}, 2} : Sphere<T>{{0, 2, 0}, 0});
    for (const Vec3<T>& d : {Vec3<T>(1, 0, 0), Vec3<T>(-1, 0, -T(0)), Vec3<T>(0, 0, T(0.5))}) {
        const Ray<T> ray{{0, 2, 0}, d};
        BatchHits<T> out;
        for (BatchIsa isa : kIsas) {
            cast_batch(ray, spheres, out, -infinity<T>(), infinity<T>(), isa);
            for (std::size_t i = 0; i < spheres.size(); ++i) {
                const auto want = cast(ray, spheres.get(i), -infinity<T>(), infinity<T>());
                ASSERT_TRUE(want) << "sphere " << i;
                ASSERT_NE(out.hit[i], 0) << "sphere " << i << " isa " << int(isa);
                EXPECT_TRUE(same_bits(out.t_near[i], want->t_near) && same_bits(out.t_far[i], want->t_far))
                    << "sphere " << i << " direction " << detail::str(d) << " isa " << int(isa) << ": "
                    << out.t_near[i] << ", " << out.t_far[i] << " vs " << want->t_near << ", " << want->t_far;
            }
        }
    }
}

// Tiny and huge scenes: the scalar code rescales such magnitudes (so squares neither underflow nor
// overflow); the batch kernels hand those lanes to it, and must still agree bit for bit.
TYPED_TEST(Batch, TinyAndHugeScalesMatchScalarBitForBit) {
    using T = TypeParam;
    const int e = sizeof(T) >= 8 ? 400 : 60;
    for (int scale_exp : {-e, -e / 2, e / 2, e}) {
        const T k = std::ldexp(T(1), scale_exp);
        auto scaled = [k](Gen<T>& g) { return g.p() * k; };
        for (std::uint32_t s = 0; s < 10; ++s) {
            check_type<T, SphereSoA<T>>(base_seed() + s, [&](Gen<T>& g) { return Sphere<T>{scaled(g), g.size() * k}; });
            check_type<T, CapsuleSoA<T>>(base_seed() + s, [&](Gen<T>& g) {
                const Vec3<T> a = scaled(g);
                return Capsule<T>{a, g.pick(4) == 0 ? a : scaled(g), g.size() * k};
            });
        }
    }
}

// Auto runs the widest instruction set the CPU has, and says which.
TEST(BatchIsaName, AutoIsTheWidestSupported) {
    const std::string isa = batch_isa();
    const BatchIsa widest = batch_isa_supported(BatchIsa::Avx512) ? BatchIsa::Avx512
                            : batch_isa_supported(BatchIsa::Avx2) ? BatchIsa::Avx2
                                                                  : BatchIsa::Sse2;
    EXPECT_EQ(isa, batch_isa_name(widest));
    EXPECT_TRUE(batch_isa_supported(BatchIsa::Sse2));
    ::testing::Test::RecordProperty("batch_isa", isa);
    std::printf("batch kernels on this CPU: %s (every narrower one is tested too)\n", isa.c_str());
}

}  // namespace
}  // namespace raypick
