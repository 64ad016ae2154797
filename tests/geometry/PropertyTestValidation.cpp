// Input validation and fuzzing of the geometry core, in float and double:
//   - validate() and is_valid() agree and reject every kind of invalid input (zero / underflowing
//     direction, NaN / inf in any field, negative radius or extent, non-orthonormal or reflecting
//     rotation, min > max), naming the offending field; a cast (direct, through Shape<T>, and
//     pick) on such input returns nothing; an empty range (t_min > t_max or NaN) returns nothing;
//   - seeded random corruption of random inputs: validate() / is_valid() agree, and cast returns
//     nothing whenever either input is invalid;
//   - a seeded fuzz loop over random finite inputs spanning the whole exponent range (huge, tiny,
//     subnormal, zero components): no result ever has a NaN or inf, t_near <= t_far, normals are
//     unit, origin_inside == (t_near < 0 < t_far), the result overlaps the range.
// Failures print the seed and the case index; RAYPICK_SEED=<n> overrides the seed.
#include <gtest/gtest.h>

#include <cinttypes>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <typeinfo>
#include <utility>
#include <vector>

#include <glm/gtc/quaternion.hpp>

#include "TestUtil.h"
#include <raypick/geometry/Shape.h>

namespace raypick {
namespace {

constexpr uint64_t kDefaultSeed = 0x5EED2026ull;
uint64_t seed() {
    const char* e = std::getenv("RAYPICK_SEED");
    return (e && *e) ? std::strtoull(e, nullptr, 0) : kDefaultSeed;
}

template <typename T> class PropertyTestValidation : public ::testing::Test {};
using Scalars = ::testing::Types<float, double>;
TYPED_TEST_SUITE(PropertyTestValidation, Scalars);

template <typename T> constexpr T qnan() { return std::numeric_limits<T>::quiet_NaN(); }
template <typename T> constexpr T inf() { return std::numeric_limits<T>::infinity(); }

/// validate() and is_valid() agree; when invalid, validate names `field` (if given) and explains.
template <typename X>
void expect_rejected(const X& x, const std::string& field, const std::string& what) {
    const auto err = validate(x);
    EXPECT_FALSE(is_valid(x)) << what;
    ASSERT_TRUE(err.has_value()) << what;
    if (!field.empty()) {
        EXPECT_EQ(err->field, field) << what << ": " << err->message;
    }
    EXPECT_FALSE(err->message.empty()) << what;
}
template <typename X> void expect_accepted(const X& x, const std::string& what) {
    const auto err = validate(x);
    EXPECT_TRUE(is_valid(x)) << what;
    EXPECT_FALSE(err.has_value()) << what << ": " << (err ? err->message : "");
}

/// A shape and a ray that hit each other when both are valid, so "no hit" really comes from the
/// validation.
template <typename T> Ray<T> good_ray() { return {{T(0.25), T(0.125), T(-5)}, {T(0), T(0), T(1)}}; }
template <typename T> Sphere<T> good_sphere() { return {{T(0), T(0), T(0)}, T(1)}; }
template <typename T> Aabb<T> good_aabb() { return {Vec3<T>(T(-1)), Vec3<T>(T(1))}; }
template <typename T> Obb<T> good_obb() { return {Vec3<T>(T(0)), Mat3<T>(T(1)), Vec3<T>(T(1))}; }
template <typename T> Capsule<T> good_capsule() { return {{T(0), T(-1), T(0)}, {T(0), T(1), T(0)}, T(0.5)}; }

/// Every way to cast returns nothing: the per-type cast, the Shape<T> dispatch, and pick().
template <typename T, typename S> void expect_no_hit(const Ray<T>& ray, const S& shape, const std::string& what) {
    EXPECT_FALSE(cast(ray, shape).has_value()) << what;
    EXPECT_FALSE(cast(ray, shape, -inf<T>(), inf<T>()).has_value()) << what;
    EXPECT_FALSE(cast(ray, Shape<T>(shape)).has_value()) << what << " (through Shape<T>)";
    EXPECT_FALSE(pick(ray, shape).has_value()) << what << " (pick)";
}
template <typename T, typename S> void expect_invalid_shape(const S& shape, const std::string& field, const std::string& what) {
    expect_rejected(shape, field, what);
    const auto via_variant = validate(Shape<T>(shape));
    EXPECT_TRUE(via_variant.has_value()) << what << " (validate through Shape<T>)";
    EXPECT_FALSE(is_valid(Shape<T>(shape))) << what << " (is_valid through Shape<T>)";
    expect_no_hit(good_ray<T>(), shape, what);
}

TYPED_TEST(PropertyTestValidation, GoodInputsAreAcceptedAndHit) {
    using T = TypeParam;
    expect_accepted(good_ray<T>(), "ray");
    expect_accepted(good_sphere<T>(), "sphere");
    expect_accepted(good_aabb<T>(), "aabb");
    expect_accepted(good_obb<T>(), "obb");
    expect_accepted(good_capsule<T>(), "capsule");
    // The reference inputs of the rejection tests below really hit, so their "no hit" is meaningful.
    EXPECT_TRUE(cast(good_ray<T>(), good_sphere<T>()).has_value());
    EXPECT_TRUE(cast(good_ray<T>(), good_aabb<T>()).has_value());
    EXPECT_TRUE(cast(good_ray<T>(), good_obb<T>()).has_value());
    EXPECT_TRUE(cast(good_ray<T>(), good_capsule<T>()).has_value());
    // Degenerate but valid: radius 0, zero extents, min == max, a == b, -0 radius.
    expect_accepted(Sphere<T>{{T(0), T(0), T(0)}, T(0)}, "radius 0");
    expect_accepted(Sphere<T>{{T(0), T(0), T(0)}, -T(0)}, "radius -0");
    expect_accepted(Aabb<T>{Vec3<T>(T(2)), Vec3<T>(T(2))}, "point box");
    expect_accepted(Obb<T>{Vec3<T>(T(0)), Mat3<T>(T(1)), Vec3<T>(T(0))}, "point obb");
    expect_accepted(Capsule<T>{Vec3<T>(T(1)), Vec3<T>(T(1)), T(0)}, "point capsule");
}

TYPED_TEST(PropertyTestValidation, InvalidRaysAreRejectedAndNeverHit) {
    using T = TypeParam;
    const T tiny = sizeof(T) == 4 ? T(1e-30) : T(1e-170);  // squared length underflows to 0
    struct Bad {
        Ray<T> ray;
        const char* field;
        const char* what;
    };
    std::vector<Bad> bad = {
        {{{T(0), T(0), T(-5)}, {T(0), T(0), T(0)}}, "direction", "zero direction"},
        {{{T(0), T(0), T(-5)}, {-T(0), T(0), -T(0)}}, "direction", "negative-zero direction"},
        {{{T(0), T(0), T(-5)}, {tiny, T(0), tiny}}, "direction", "direction whose squared length underflows"},
    };
    for (int i = 0; i < 3; ++i)
        for (T v : {qnan<T>(), inf<T>(), -inf<T>()}) {
            Ray<T> r = good_ray<T>();
            r.origin[i] = v;
            bad.push_back({r, "origin", "non-finite origin component"});
            r = good_ray<T>();
            r.direction[i] = v;
            bad.push_back({r, "direction", "non-finite direction component"});
        }
    for (const Bad& b : bad) {
        const std::string what = std::string(b.what) + " (" + typeid(T).name() + ")";
        expect_rejected(b.ray, b.field, what);
        expect_no_hit(b.ray, good_sphere<T>(), what + ", sphere");
        expect_no_hit(b.ray, good_aabb<T>(), what + ", aabb");
        expect_no_hit(b.ray, good_obb<T>(), what + ", obb");
        expect_no_hit(b.ray, good_capsule<T>(), what + ", capsule");
    }
    // Tiny but representable: accepted (any non-zero length whose square does not underflow).
    expect_accepted(Ray<T>{{T(0), T(0), T(-5)}, {T(0), T(0), sizeof(T) == 4 ? T(1e-18) : T(1e-150)}}, "tiny direction");
}

TYPED_TEST(PropertyTestValidation, InvalidShapesAreRejectedAndNeverHit) {
    using T = TypeParam;
    const T nan = qnan<T>(), in = inf<T>();
    for (int i = 0; i < 3; ++i) {
        for (T v : {nan, in, -in}) {
            Sphere<T> s = good_sphere<T>();
            s.center[i] = v;
            expect_invalid_shape<T>(s, "center", "sphere centre non-finite");
            Aabb<T> b = good_aabb<T>();
            b.min[i] = v;
            expect_invalid_shape<T>(b, "", "aabb min non-finite");
            b = good_aabb<T>();
            b.max[i] = v;
            expect_invalid_shape<T>(b, "", "aabb max non-finite");
            Obb<T> o = good_obb<T>();
            o.center[i] = v;
            expect_invalid_shape<T>(o, "center", "obb centre non-finite");
            o = good_obb<T>();
            o.half_extents[i] = v;
            expect_invalid_shape<T>(o, "half_extents", "obb half extent non-finite");
            o = good_obb<T>();
            o.rotation[i][(i + 1) % 3] = v;
            expect_invalid_shape<T>(o, "rotation", "obb rotation non-finite");
            Capsule<T> c = good_capsule<T>();
            c.a[i] = v;
            expect_invalid_shape<T>(c, "a", "capsule a non-finite");
            c = good_capsule<T>();
            c.b[i] = v;
            expect_invalid_shape<T>(c, "b", "capsule b non-finite");
        }
        // min > max on each axis (also by the smallest possible amount).
        Aabb<T> b = good_aabb<T>();
        b.min[i] = T(2);
        expect_invalid_shape<T>(b, "min", "aabb min > max");
        b = good_aabb<T>();
        b.min[i] = std::nextafter(b.max[i], in);
        expect_invalid_shape<T>(b, "min", "aabb min > max by one ulp");
        // Negative half extent on each axis.
        Obb<T> o = good_obb<T>();
        o.half_extents[i] = T(-1);
        expect_invalid_shape<T>(o, "half_extents", "obb negative half extent");
        o.half_extents[i] = -std::numeric_limits<T>::denorm_min();
        expect_invalid_shape<T>(o, "half_extents", "obb half extent -denorm_min");
    }
    for (T r : {T(-1), -std::numeric_limits<T>::denorm_min(), nan, in, -in}) {
        expect_invalid_shape<T>(Sphere<T>{Vec3<T>(T(0)), r}, "radius", "sphere bad radius");
        Capsule<T> c = good_capsule<T>();
        c.radius = r;
        expect_invalid_shape<T>(c, "radius", "capsule bad radius");
    }
}

TYPED_TEST(PropertyTestValidation, RotationsMustBeProperAndOrthonormal) {
    using T = TypeParam;
    const T tol = orthonormality_tolerance<T>();
    auto obb = [](const Mat3<T>& r) { return Obb<T>{Vec3<T>(T(0)), r, Vec3<T>(T(1))}; };
    // Reflections (determinant -1), orthonormal otherwise.
    Mat3<T> m(T(1));
    m[2][2] = T(-1);
    expect_invalid_shape<T>(obb(m), "rotation", "reflection diag(1,1,-1)");
    m = Mat3<T>(T(1));
    std::swap(m[0], m[1]);
    expect_invalid_shape<T>(obb(m), "rotation", "swapped axes");
    expect_invalid_shape<T>(obb(-Mat3<T>(T(1))), "rotation", "point reflection -I");
    // Not orthonormal: scaled, sheared, zero, rank-deficient.
    expect_invalid_shape<T>(obb(Mat3<T>(T(1.01))), "rotation", "scaled by 1.01");
    expect_invalid_shape<T>(obb(Mat3<T>(T(2))), "rotation", "scaled by 2");
    m = Mat3<T>(T(1));
    m[1][0] = T(0.1);
    expect_invalid_shape<T>(obb(m), "rotation", "sheared");
    expect_invalid_shape<T>(obb(Mat3<T>(T(0))), "rotation", "zero matrix");
    m = Mat3<T>(T(1));
    m[2] = m[1];
    expect_invalid_shape<T>(obb(m), "rotation", "two equal axes");
    // The tolerance boundary: a uniform scale (1 + s) gives an error of about 2s.
    expect_accepted(obb(Mat3<T>(T(1) + tol / 8)), "scaled within tolerance");
    expect_invalid_shape<T>(obb(Mat3<T>(T(1) + 4 * tol)), "rotation", "scaled beyond tolerance");
    // Random proper rotations (in double, rounded to T) are accepted; the same with a flipped axis not.
    std::mt19937_64 rng(seed());
    std::uniform_real_distribution<double> u(-1, 1);
    for (int i = 0; i < 2000; ++i) {
        glm::dquat q(u(rng), u(rng), u(rng), u(rng));
        if (glm::dot(q, q) < 1e-3) continue;
        const Mat3<T> r = Mat3<T>(glm::mat3_cast(glm::normalize(q)));
        ASSERT_TRUE(is_valid(obb(r))) << "random rotation " << i << ", seed " << seed();
        Mat3<T> f = r;
        f[i % 3] = -f[i % 3];
        ASSERT_FALSE(is_valid(obb(f))) << "random reflection " << i << ", seed " << seed();
        ASSERT_TRUE(validate(obb(f)).has_value());
        EXPECT_FALSE(cast(good_ray<T>(), obb(f)).has_value());
    }
}

TYPED_TEST(PropertyTestValidation, EmptyOrNaNRangeNeverHits) {
    using T = TypeParam;
    const Ray<T> r = good_ray<T>();
    for (auto [a, b] : {std::pair<T, T>{T(2), T(1)}, {qnan<T>(), T(1)}, {T(0), qnan<T>()},
                        {qnan<T>(), qnan<T>()}, {inf<T>(), -inf<T>()}}) {
        EXPECT_FALSE(cast(r, good_sphere<T>(), a, b).has_value()) << a << " " << b;
        EXPECT_FALSE(cast(r, good_aabb<T>(), a, b).has_value()) << a << " " << b;
        EXPECT_FALSE(cast(r, good_obb<T>(), a, b).has_value()) << a << " " << b;
        EXPECT_FALSE(cast(r, good_capsule<T>(), a, b).has_value()) << a << " " << b;
        EXPECT_FALSE(pick(r, good_sphere<T>(), a, b).has_value()) << a << " " << b;
    }
}

// ---- seeded random corruption and fuzzing ------------------------------------------------------

/// Random values for fuzzing: mostly "any finite float/double" with a uniformly random exponent
/// (huge, tiny and subnormal magnitudes), sometimes zero or an ordinary value.
template <typename T> class Fuzz {
public:
    explicit Fuzz(uint64_t s) : rng_(s) {}
    double uniform(double a, double b) { return std::uniform_real_distribution<double>(a, b)(rng_); }
    int below(int n) { return int(rng_() % uint64_t(n)); }
    bool chance(double p) { return uniform(0, 1) < p; }
    T any() {
        const int k = below(10);
        if (k == 0) return T(0);
        if (k <= 3) return T(uniform(-10, 10));
        using L = std::numeric_limits<T>;
        const int e = L::min_exponent - L::digits + below(L::max_exponent - L::min_exponent + L::digits);
        const T v = T(std::ldexp(uniform(0.5, 1.0), e));
        const T r = std::isfinite(v) ? v : L::max();
        return chance(0.5) ? -r : r;
    }
    T nonneg() { return std::abs(any()); }
    Vec3<T> vec() { return {any(), any(), any()}; }
    /// The same magnitude family for all three components (so things actually meet).
    Vec3<T> vec_scaled(T s) { return {T(uniform(-1, 1)) * s, T(uniform(-1, 1)) * s, T(uniform(-1, 1)) * s}; }
    Mat3<T> rotation() {
        if (chance(0.2)) return Mat3<T>(T(1));
        glm::dquat q(uniform(-1, 1), uniform(-1, 1), uniform(-1, 1), uniform(-1, 1));
        while (glm::dot(q, q) < 1e-3) q = glm::dquat(uniform(-1, 1), uniform(-1, 1), uniform(-1, 1), uniform(-1, 1));
        return Mat3<T>(glm::mat3_cast(glm::normalize(q)));
    }
    T bad() {
        switch (below(5)) {
            case 0: return qnan<T>();
            case 1: return inf<T>();
            case 2: return -inf<T>();
            case 3: return -nonneg() - std::numeric_limits<T>::denorm_min();
            default: return any();
        }
    }
    std::mt19937_64& rng() { return rng_; }

private:
    std::mt19937_64 rng_;
};

template <typename T> Sphere<T> fuzz_shape(Fuzz<T>& z, T s, Sphere<T>*) { return {z.vec_scaled(s), std::abs(z.any())}; }
template <typename T> Aabb<T> fuzz_shape(Fuzz<T>& z, T s, Aabb<T>*) {
    const Vec3<T> a = z.vec_scaled(s), b = z.chance(0.5) ? z.vec_scaled(s) : z.vec();
    return {glm::min(a, b), glm::max(a, b)};
}
template <typename T> Obb<T> fuzz_shape(Fuzz<T>& z, T s, Obb<T>*) {
    return {z.vec_scaled(s), z.rotation(), {z.nonneg(), z.nonneg(), z.nonneg()}};
}
template <typename T> Capsule<T> fuzz_shape(Fuzz<T>& z, T s, Capsule<T>*) {
    const Vec3<T> a = z.vec_scaled(s);
    return {a, z.chance(0.1) ? a : (z.chance(0.5) ? z.vec_scaled(s) : z.vec()), z.nonneg()};
}

template <typename T> Vec3<T> centre_of(const Sphere<T>& s) { return s.center; }
template <typename T> Vec3<T> centre_of(const Aabb<T>& b) { return b.min * T(0.5) + b.max * T(0.5); }
template <typename T> Vec3<T> centre_of(const Obb<T>& b) { return b.center; }
template <typename T> Vec3<T> centre_of(const Capsule<T>& c) { return c.a * T(0.5) + c.b * T(0.5); }

/// Every invariant of a result, for any input.
template <typename T>
void check_result(const std::optional<RayHit<T>>& h, T t_min, T t_max, const std::string& where) {
    if (!h) return;
    const T e = std::numeric_limits<T>::epsilon();
    ASSERT_TRUE(is_finite(h->t_near) && is_finite(h->t_far) && is_finite(h->n_near) && is_finite(h->n_far))
        << "non-finite field: t " << h->t_near << " " << h->t_far << "; " << where;
    ASSERT_LE(h->t_near, h->t_far) << where;
    ASSERT_NEAR(glm::length(h->n_near), T(1), 16 * e) << where;
    ASSERT_NEAR(glm::length(h->n_far), T(1), 16 * e) << where;
    ASSERT_EQ(h->origin_inside, h->t_near < T(0) && T(0) < h->t_far) << where;
    ASSERT_TRUE(h->t_far >= t_min && h->t_near <= t_max) << "result outside the range; " << where;
}

template <typename T, typename S> void fuzz_shape_type(const char* name, uint64_t stream) {
    const uint64_t s = seed();
    Fuzz<T> z(s ^ (stream * 0x9E3779B97F4A7C15ull));
    long hits = 0;
    const int n = 40000;
    for (int i = 0; i < n; ++i) {
        const T scale = std::abs(z.any()) + std::numeric_limits<T>::denorm_min();
        const S shape = fuzz_shape(z, scale, static_cast<S*>(nullptr));
        Ray<T> ray{z.chance(0.7) ? z.vec_scaled(scale) : z.vec(), z.vec()};
        if (z.chance(0.2)) ray.direction[z.below(3)] = T(0);
        if (z.chance(0.3)) ray.direction = centre_of(shape) - ray.origin;  // aimed: many hits
        T a = z.chance(0.5) ? T(0) : z.any(), b = z.chance(0.5) ? inf<T>() : z.any();
        if (a > b) std::swap(a, b);
        const std::string where = std::string(name) + " fuzz case " + std::to_string(i) + ", seed " + std::to_string(s) +
                                  " (RAYPICK_SEED to reproduce)";
        const bool valid = is_valid(ray) && is_valid(shape);
        ASSERT_EQ(is_valid(ray), !validate(ray).has_value()) << where;
        ASSERT_EQ(is_valid(shape), !validate(shape).has_value()) << where;
        for (const auto& [lo, hi] : {std::pair<T, T>{T(0), inf<T>()}, {a, b}, {-inf<T>(), inf<T>()}}) {
            const auto h = cast(ray, shape, lo, hi);
            if (!valid) {
                ASSERT_FALSE(h.has_value()) << "invalid input hit; " << where;
            }
            ASSERT_NO_FATAL_FAILURE(check_result(h, lo, hi, where));
            if (h) ++hits;
            const auto p = pick(ray, shape, lo, hi);
            ASSERT_EQ(p.has_value(), h && (h->t_near >= lo || h->t_far <= hi)) << where;
            // pick() is first_surface() of the hit, bit for bit (spheres and capsules compute only
            // the one normal), also through Shape<T>.
            const auto first = h ? first_surface(ray, *h, lo, hi) : std::nullopt;
            for (const auto& q : {p, pick(ray, Shape<T>(shape), lo, hi)}) {
                ASSERT_EQ(q.has_value(), first.has_value()) << where;
                if (q) {
                    ASSERT_TRUE(test::same_bits(q->t, first->t) && test::same_bits(q->point, first->point) &&
                                test::same_bits(q->normal, first->normal) && q->is_exit == first->is_exit)
                        << "pick differs from first_surface(cast): t " << q->t << " vs " << first->t << "; " << where;
                }
            }
            if (p) {
                ASSERT_TRUE(is_finite(p->t) && is_finite(p->normal) && is_finite(p->point))
                    << "pick: t " << p->t << " point " << p->point.x << " " << p->point.y << " " << p->point.z << "; " << where;
                ASSERT_TRUE(p->t >= lo && p->t <= hi) << where;
            }
        }
    }
    std::printf("[ fuzz     ] %s: %d cases x 3 ranges, %ld results checked, seed %" PRIu64 "\n", name, n, hits, s);
    EXPECT_GT(hits, n / 20) << "the fuzz loop should produce results to check";
}

TYPED_TEST(PropertyTestValidation, FuzzFiniteInputsNeverGiveNaNOrBrokenResults) {
    using T = TypeParam;
    fuzz_shape_type<T, Sphere<T>>("sphere", 11);
    fuzz_shape_type<T, Aabb<T>>("aabb", 12);
    fuzz_shape_type<T, Obb<T>>("obb", 13);
    fuzz_shape_type<T, Capsule<T>>("capsule", 14);
}

template <typename T> void corrupt(Fuzz<T>& z, Sphere<T>& s) {
    if (z.chance(0.5)) s.radius = z.bad();
    else s.center[z.below(3)] = z.bad();
}
template <typename T> void corrupt(Fuzz<T>& z, Aabb<T>& b) {
    if (z.chance(0.5)) std::swap(b.min[z.below(3)], b.max[z.below(3)]);
    else (z.chance(0.5) ? b.min : b.max)[z.below(3)] = z.bad();
}
template <typename T> void corrupt(Fuzz<T>& z, Obb<T>& b) {
    switch (z.below(4)) {
        case 0: b.center[z.below(3)] = z.bad(); break;
        case 1: b.half_extents[z.below(3)] = z.bad(); break;
        case 2: b.rotation[z.below(3)][z.below(3)] += T(z.uniform(-0.5, 0.5)); break;
        default: b.rotation[z.below(3)] = -b.rotation[z.below(3)]; break;
    }
}
template <typename T> void corrupt(Fuzz<T>& z, Capsule<T>& c) {
    switch (z.below(3)) {
        case 0: c.a[z.below(3)] = z.bad(); break;
        case 1: c.b[z.below(3)] = z.bad(); break;
        default: c.radius = z.bad(); break;
    }
}

/// Random inputs with one random field corrupted (or not): validate and is_valid agree, and a cast
/// never hits when either input is invalid.
template <typename T, typename S> void corrupt_shape_type(const char* name, uint64_t stream) {
    const uint64_t s = seed();
    Fuzz<T> z(s ^ (stream * 0xD1B54A32D192ED03ull));
    long invalid = 0;
    for (int i = 0; i < 20000; ++i) {
        S shape = fuzz_shape(z, T(z.uniform(0.1, 10)), static_cast<S*>(nullptr));
        Ray<T> ray{z.vec_scaled(T(10)), z.vec_scaled(T(1))};
        // Corrupt one scalar among the ray's 6 and the shape's fields.
        const int field = z.below(8);
        if (field < 3) ray.origin[field] = z.bad();
        else if (field < 6) ray.direction[field - 3] = z.chance(0.3) ? T(0) : z.bad();
        else if (field == 6) corrupt(z, shape);
        const std::string where = std::string(name) + " corruption case " + std::to_string(i) + ", seed " + std::to_string(s);
        ASSERT_EQ(is_valid(ray), !validate(ray).has_value()) << where;
        ASSERT_EQ(is_valid(shape), !validate(shape).has_value()) << where;
        ASSERT_EQ(is_valid(Shape<T>(shape)), !validate(Shape<T>(shape)).has_value()) << where;
        if (!is_valid(ray) || !is_valid(shape)) {
            ++invalid;
            ASSERT_FALSE(cast(ray, shape).has_value()) << where;
            ASSERT_FALSE(cast(ray, shape, -inf<T>(), inf<T>()).has_value()) << where;
            ASSERT_FALSE(cast(ray, Shape<T>(shape)).has_value()) << where;
        }
    }
    EXPECT_GT(invalid, 2000) << name;
}
TYPED_TEST(PropertyTestValidation, RandomCorruptionValidateAgreesAndNeverHits) {
    using T = TypeParam;
    corrupt_shape_type<T, Sphere<T>>("sphere", 21);
    corrupt_shape_type<T, Aabb<T>>("aabb", 22);
    corrupt_shape_type<T, Obb<T>>("obb", 23);
    corrupt_shape_type<T, Capsule<T>>("capsule", 24);
}

// ---- scale invariance over the whole range --------------------------------------------------------
// A sphere or capsule and a ray on a coarse grid (multiples of 1/64 below 16), and the same scene
// with every position and radius multiplied by 2^e and the direction by 2^ed: exact, and with e
// and ed spanning T's whole range (subnormal positions up to coordinates near max, where
// origin - centre and the capsule's lateral terms overflow T, and directions from the shortest
// whose square does not underflow to the longest whose square is finite). The scaled cast must
// be the unscaled one: the same hit or miss (unless the hit is a near tangent, chord < 1 % of the
// scene), t times 2^(e - ed) and the same normals, to a few thousand ulps (float) or 1e-9
// relative (double) of the scene's size. Roots outside the fast range rescaled instead of computed
// in a wider type make scaled scenes near the top of the range misses.

template <typename T> struct ScaleRange {
    int e_lo, e_hi, ed_lo, ed_hi, net;  // position exponents, direction exponents, |e - ed| bound
};
template <typename T> ScaleRange<T> scale_range() {
    if constexpr (sizeof(T) == 4) return {-143, 124, -68, 57, 110};
    else return {-1068, 1019, -531, 505, 1000};
}

template <typename T> T grid(Fuzz<T>& z, int lo, int hi) { return T(lo + z.below(hi - lo + 1)) / T(64); }
template <typename T> Vec3<T> grid3(Fuzz<T>& z, int lo, int hi) { return {grid(z, lo, hi), grid(z, lo, hi), grid(z, lo, hi)}; }
template <typename T> Vec3<T> scaled(const Vec3<T>& v, int e) {
    return {std::ldexp(v.x, e), std::ldexp(v.y, e), std::ldexp(v.z, e)};
}
template <typename T> Sphere<T> scaled(const Sphere<T>& s, int e) { return {scaled(s.center, e), std::ldexp(s.radius, e)}; }
template <typename T> Capsule<T> scaled(const Capsule<T>& c, int e) {
    return {scaled(c.a, e), scaled(c.b, e), std::ldexp(c.radius, e)};
}
template <typename T> Sphere<T> grid_shape(Fuzz<T>& z, Sphere<T>*) { return {grid3(z, -1023, 1023), grid(z, 16, 256)}; }
template <typename T> Capsule<T> grid_shape(Fuzz<T>& z, Capsule<T>*) {
    const Vec3<T> a = grid3(z, -800, 800);  // both ends below 16 (scaled by 2^124: below max)
    return {a, z.chance(0.1) ? a : a + grid3(z, -200, 200), grid(z, 16, 160)};
}
template <typename T> std::string describe_shape(const Sphere<T>& s) {
    std::ostringstream o;
    o << std::hexfloat << "centre " << s.center.x << " " << s.center.y << " " << s.center.z << " radius " << s.radius;
    return o.str();
}
template <typename T> std::string describe_shape(const Capsule<T>& c) {
    std::ostringstream o;
    o << std::hexfloat << "a " << c.a.x << " " << c.a.y << " " << c.a.z << " b " << c.b.x << " " << c.b.y << " "
      << c.b.z << " radius " << c.radius;
    return o.str();
}
template <typename T> Vec3<T> middle(const Sphere<T>& s) { return s.center; }
template <typename T> Vec3<T> middle(const Capsule<T>& c) { return (c.a + c.b) * T(0.5); }
/// A grid point near the shape: its centre (a point of its axis) plus up to 1.5 radii.
template <typename T> Vec3<T> shape_point(const Sphere<T>& s, Fuzz<T>& z) {
    return s.center + grid3(z, -96, 96) * (s.radius / T(64));
}
template <typename T> Vec3<T> shape_point(const Capsule<T>& c, Fuzz<T>& z) {
    const T u = grid(z, 0, 64);  // 0 .. 1
    return c.a + (c.b - c.a) * u + grid3(z, -96, 96) * (c.radius / T(64));
}

template <typename T, typename S> void scale_invariance(const char* name, uint64_t stream) {
    const uint64_t sd = seed();
    Fuzz<T> z(sd ^ (stream * 0x9E3779B97F4A7C15ull));
    const ScaleRange<T> range = scale_range<T>();
    const T tol = sizeof(T) == 4 ? T(2e-4) : T(1e-9);
    int hits = 0, wide = 0;
    for (int i = 0; i < 20000; ++i) {
        const S shape = grid_shape(z, static_cast<S*>(nullptr));
        const Vec3<T> origin = grid3(z, -1023, 1023);
        // Aimed near the shape (a point of its bounding box, give or take a radius): hits and misses.
        const Vec3<T> target = (z.chance(0.5) ? shape_point(shape, z) : origin + grid3(z, -512, 512));
        const Vec3<T> dir = target - origin;
        if (dir == Vec3<T>(0)) continue;
        int e = range.e_lo + z.below(range.e_hi - range.e_lo + 1);
        int ed = range.ed_lo + z.below(range.ed_hi - range.ed_lo + 1);
        if (e - ed > range.net) ed = e - range.net;
        if (ed - e > range.net) ed = e + range.net;
        if (ed < range.ed_lo || ed > range.ed_hi) continue;
        const Ray<T> unit{origin, dir}, big{scaled(origin, e), scaled(dir, ed)};
        const S shape_big = scaled(shape, e);
        std::ostringstream unscaled;  // the inputs before scaling, exactly
        unscaled << std::hexfloat << "origin " << origin.x << " " << origin.y << " " << origin.z << " direction "
                 << dir.x << " " << dir.y << " " << dir.z << " " << describe_shape(shape);
        const std::string where = std::string(name) + " case " + std::to_string(i) + " e " + std::to_string(e) +
                                  " ed " + std::to_string(ed) + ", seed " + std::to_string(sd) + "\n" + unscaled.str();
        ASSERT_TRUE(is_valid(big)) << where;
        ASSERT_TRUE(is_valid(shape_big)) << where;
        const auto a = cast(unit, shape), b = cast(big, shape_big);
        const T k = std::ldexp(T(1), e - ed);  // t_big = t_unit * k
        const T size = T(16) / glm::length(dir);  // the scene's size in t units (unscaled)
        if (!detail::sphere_roots_in_safe_range(big.origin - middle(shape_big), big.direction, T(0))) ++wide;
        if (bool(a) != bool(b)) {
            const T chord = a ? a->t_far - a->t_near : (b->t_far - b->t_near) / k;
            EXPECT_LT(chord, T(0.01) * size) << where << ": hit only " << (a ? "unscaled" : "scaled");
            continue;
        }
        if (!a) continue;
        ++hits;
        EXPECT_NEAR(b->t_near / k, a->t_near, tol * size) << where;
        EXPECT_NEAR(b->t_far / k, a->t_far, tol * size) << where;
        const T ntol = sizeof(T) == 4 ? T(2e-3) : T(1e-8);
        if (a->t_far - a->t_near > T(0.01) * size) {  // normals of near tangents are ill-conditioned
            EXPECT_LT(glm::length(b->n_near - a->n_near), ntol) << where;
            EXPECT_LT(glm::length(b->n_far - a->n_far), ntol) << where;
        }
        if (::testing::Test::HasFailure()) return;
    }
    EXPECT_GT(hits, 3000) << name;
    EXPECT_GT(wide, 2000) << name << ": cases outside the fast range";
}

TYPED_TEST(PropertyTestValidation, SpheresAndCapsulesAreScaleInvariantOverTheWholeRange) {
    using T = TypeParam;
    scale_invariance<T, Sphere<T>>("sphere", 31);
    scale_invariance<T, Capsule<T>>("capsule", 32);
}

}  // namespace
}  // namespace raypick
