// Precision far from the origin: shapes of size ~1 at 10 000 units from the ray origin.
//
// Every input is drawn in double, rounded to float, and the float cast is compared with the double
// cast of exactly the same (float-representable) inputs. The robust defaults must keep the relative
// error of t_near and t_far within 1e-5 on every case, while the textbook quadratic
// (textbook::sphere_algebraic) and the published capsule test (textbook::capsule_published) exceed
// 1e-5 or miss on a large fraction of the same cases. Rays are aimed at points inside the shape
// with a margin (>= 10% of the size), so hit/miss is never legitimately ambiguous; cases that come
// within 1e-3 of tangency anyway (measured in double) are skipped. The measured worst errors are
// printed ([ precision ] lines) for docs/precision.md.
//
// RAYPICK_SEED=<n> overrides the seed (printed on failure and in the output).
#include <gtest/gtest.h>

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <random>
#include <string>

#include <glm/gtc/quaternion.hpp>

#include <raypick/geometry/Shape.h>
#include <raypick/geometry/textbook/TextbookCapsule.h>
#include <raypick/geometry/textbook/TextbookSphere.h>

namespace raypick {
namespace {

constexpr uint64_t kDefaultSeed = 0x5EED2026ull;
constexpr int kCases = 10000;
constexpr double kDistance = 10000.0;
constexpr double kBound = 1e-5;  // relative error allowed for float vs double

uint64_t seed() {
    const char* e = std::getenv("RAYPICK_SEED");
    return (e && *e) ? std::strtoull(e, nullptr, 0) : kDefaultSeed;
}

using V3 = Vec3<double>;

struct Gen {
    explicit Gen(uint64_t s, uint64_t stream) : rng(s ^ (stream * 0x9E3779B97F4A7C15ull)) {}
    std::mt19937_64 rng;
    double uniform(double a, double b) { return std::uniform_real_distribution<double>(a, b)(rng); }
    V3 unit() {
        for (;;) {
            const V3 v(uniform(-1, 1), uniform(-1, 1), uniform(-1, 1));
            const double n = glm::dot(v, v);
            if (n > 1e-4 && n <= 1) return v / std::sqrt(n);
        }
    }
    V3 ball(double r) { return unit() * (r * std::cbrt(uniform(0, 1))); }
};

/// Round to float and back: the inputs both precisions see.
V3 f(const V3& v) { return V3(Vec3<float>(v)); }
double f(double v) { return double(float(v)); }

/// Worst relative error and failure count of one method over the cases.
struct Tally {
    const char* name;
    double worst = 0;   ///< max relative error of t over the cases where it hit
    int cases = 0, over = 0, misses = 0;
    void add(std::optional<double> t, double ref) {
        ++cases;
        if (!t) {
            ++misses;
            return;
        }
        const double err = std::abs(*t - ref) / std::abs(ref);
        worst = std::max(worst, err);
        if (!(err <= kBound)) ++over;
    }
    int failing() const { return over + misses; }
    double fraction() const { return cases ? double(failing()) / cases : 0; }
    void print() const {
        std::printf("[ precision] %-46s worst relative error %.3g; %d of %d cases over 1e-5, %d misses (%.1f%% fail)\n",
                    name, worst, over, cases, misses, 100.0 * fraction());
    }
};

/// Relative error of the float default against the double default on the same inputs, t_near and
/// t_far; also requires both to hit.
///
/// With `grazing` given (OBB), entries / exits through a face at grazing incidence |cos| < kGrazing
/// (cos = normal . unit direction, from the double result) go to that tally instead, with the
/// error multiplied by |cos|: there the float rounding of the frame transform (absolute error
/// ~eps * |centre - origin| in the box frame) is amplified by 1/|cos|, for any float algorithm that
/// starts from the rounded transform, so 1e-5 relative is not reachable at all incidences.
constexpr double kGrazing = 0.05;
template <typename S>
void compare_default(Tally& tally, const Ray<double>& ray, const S& shape, int i, uint64_t s,
                     Tally* grazing = nullptr) {
    const auto hd = cast(ray, shape);
    const auto hf = cast(convert<float>(ray), convert<float>(shape));
    ASSERT_TRUE(hd.has_value()) << "case " << i << " seed " << s << ": the double default misses a ray aimed inside";
    EXPECT_TRUE(hf.has_value()) << "case " << i << " seed " << s << ": the float default misses a ray aimed inside";
    const V3 du = glm::normalize(ray.direction);
    for (int k = 0; k < 2; ++k) {
        const double td = k ? hd->t_far : hd->t_near;
        const double cos = std::abs(glm::dot(k ? hd->n_far : hd->n_near, du));
        Tally& into = (grazing && cos < kGrazing) ? *grazing : tally;
        const double scale = (grazing && cos < kGrazing) ? cos : 1.0;
        if (!hf) {
            if (k == 0) ++into.misses, ++into.cases;
            continue;
        }
        if (k == 0) ++into.cases;
        const double tf = k ? hf->t_far : hf->t_near;
        const double err = std::abs(tf - td) / std::abs(td) * scale;
        into.worst = std::max(into.worst, err);
        if (!(err <= kBound)) ++into.over;
    }
}

/// A random origin near 0 and a shape centre 10 000 units away.
struct Scene {
    V3 origin, centre;
};
Scene scene(Gen& g) { return {f(V3(g.uniform(-1, 1), g.uniform(-1, 1), g.uniform(-1, 1))), f(g.unit() * kDistance)}; }
Ray<double> aim(Gen& g, const V3& origin, const V3& target) {
    return {origin, f(glm::normalize(target - origin) * std::pow(10.0, g.uniform(-1, 1)))};
}

/// Distance between the ray's line and the segment a-b, in double (for the tangency margin).
double line_segment_distance(const Ray<double>& ray, const V3& a, const V3& b) {
    const V3 u = glm::normalize(ray.direction);
    auto perp = [&](const V3& p) {  // component of p - origin perpendicular to the line
        const V3 w = p - ray.origin;
        return w - u * glm::dot(w, u);
    };
    // |perp(a) + s (perp(b) - perp(a))| is minimised over s in [0, 1].
    const V3 pa = perp(a), pd = perp(b) - pa;
    const double dd = glm::dot(pd, pd);
    const double sm = dd > 0 ? std::clamp(-glm::dot(pa, pd) / dd, 0.0, 1.0) : 0.0;
    return glm::length(pa + pd * sm);
}

TEST(PrecisionTest, SphereFarAwayDefaultWithin1e5TextbookNot) {
    const uint64_t s = seed();
    Gen g(s, 1);
    Tally def{"sphere, default (float vs double)"};
    Tally alg{"sphere, textbook::sphere_algebraic (float)"};
    Tally geo{"sphere, textbook::sphere_geometric (float)"};
    int skipped = 0;
    for (int i = 0; i < kCases; ++i) {
        const Scene sc = scene(g);
        const Sphere<double> sphere{sc.centre, f(g.uniform(0.5, 2.0))};
        const Ray<double> ray = aim(g, sc.origin, sc.centre + g.ball(0.9999 * sphere.radius));
        // Distance of the line from the centre, in double: skip anything within 1e-3 r of tangency.
        const V3 oc = sphere.center - ray.origin, du = glm::normalize(ray.direction);
        const double dist = glm::length(oc - du * glm::dot(oc, du));
        if (sphere.radius - dist < 1e-3 * sphere.radius) {
            ++skipped;
            continue;
        }
        compare_default(def, ray, sphere, i, s);
        const auto hd = cast(ray, sphere);
        if (!hd) continue;
        const auto a = textbook::sphere_algebraic(convert<float>(ray), convert<float>(sphere));
        alg.add(a ? std::optional<double>(a->t) : std::nullopt, hd->t_near);
        const auto b = textbook::sphere_geometric(convert<float>(ray), convert<float>(sphere));
        geo.add(b ? std::optional<double>(b->t) : std::nullopt, hd->t_near);
    }
    def.print();
    alg.print();
    geo.print();
    std::printf("[ precision] sphere: %d near-tangent cases skipped, seed %" PRIu64 "\n", skipped, s);
    EXPECT_LE(def.worst, kBound) << "seed " << s;
    EXPECT_EQ(def.failing(), 0) << "seed " << s;
    // The textbook quadratic b^2 - 4ac cancels catastrophically here: it must visibly fail the bound
    // (if it ever stopped failing, this test would no longer show what it claims to show).
    EXPECT_GE(alg.fraction(), 0.25) << "textbook quadratic unexpectedly accurate; seed " << s;
    EXPECT_GT(alg.worst, 10 * kBound) << "seed " << s;
}

TEST(PrecisionTest, CapsuleFarAwayDefaultWithin1e5PublishedNot) {
    const uint64_t s = seed();
    Gen g(s, 2);
    Tally def{"capsule, default (float vs double)"};
    Tally pub{"capsule, textbook::capsule_published (float)"};
    int skipped = 0;
    for (int i = 0; i < kCases; ++i) {
        const Scene sc = scene(g);
        Capsule<double> c;
        c.a = sc.centre;
        c.b = f(sc.centre + g.unit() * g.uniform(0.5, 4.0));
        c.radius = f(g.uniform(0.5, 2.0));
        const V3 target = c.a + (c.b - c.a) * g.uniform(0, 1) + g.ball(0.9999 * c.radius);
        const Ray<double> ray = aim(g, sc.origin, target);
        if (c.radius - line_segment_distance(ray, c.a, c.b) < 1e-3 * c.radius) {
            ++skipped;
            continue;
        }
        compare_default(def, ray, c, i, s);
        const auto hd = cast(ray, c);
        if (!hd) continue;
        const auto p = textbook::capsule_published(convert<float>(ray), convert<float>(c));
        pub.add(p ? std::optional<double>(std::min(p->t1, p->t2)) : std::nullopt, hd->t_near);
    }
    def.print();
    pub.print();
    std::printf("[ precision] capsule: %d near-tangent cases skipped, seed %" PRIu64 "\n", skipped, s);
    EXPECT_LE(def.worst, kBound) << "seed " << s;
    EXPECT_EQ(def.failing(), 0) << "seed " << s;
    EXPECT_GE(pub.fraction(), 0.25) << "published capsule test unexpectedly accurate; seed " << s;
    EXPECT_GT(pub.worst, 10 * kBound) << "seed " << s;
}

// Rays that enter a long capsule through its lateral surface at a shallow angle to the axis: the
// entry depends on the direction's small component across the axis, so any float algorithm
// loses about eps / angle there (the projection across the axis cancels). The default must lose
// no more than that conditioning: relative error in t_near within 4 eps / sin(angle), and no
// miss. Measured over 20 000 cases an angle: 1.6-2.0 eps / sin(angle) (a projection by division
// first: 1.2-1.5); a formulation that cancels in float (D from
// d + 8 ab) gives 900-10 000 and misses. Inputs rounded to float, the reference the double cast
// of the same inputs.
TEST(PrecisionTest, CapsuleShallowLateralEntriesLoseOnlyTheirConditioning) {
    const uint64_t s = seed();
    Gen g(s, 5);
    const double eps = std::numeric_limits<float>::epsilon();
    for (const double angle : {1e-1, 1e-2, 1e-3}) {
        double worst = 0;  // relative error over eps / sin(angle)
        int misses = 0;
        for (int i = 0; i < 2000; ++i) {
            const V3 axis = g.unit(), across = glm::normalize(glm::cross(axis, g.unit()));
            const double r = g.uniform(0.5, 2.0), length = 8 * r / std::sin(angle) * g.uniform(0.5, 1.5);
            const V3 centre = g.ball(50);
            Capsule<double> c{f(centre - axis * (length / 2)), f(centre + axis * (length / 2)), f(r)};
            // Beside the cylinder, three radii off the axis, heading in at the given angle; the
            // lateral entry lies within the middle half of the segment's stretch.
            const V3 o = f(centre - axis * (length / 4) - across * (3 * r));
            const V3 d = f(axis * std::cos(angle) + across * std::sin(angle));
            const Ray<double> ray{o, d};
            const auto hd = cast(ray, c);
            ASSERT_TRUE(hd) << "case " << i << " seed " << s;
            const auto hf = cast(convert<float>(ray), convert<float>(c));
            if (!hf) {
                ++misses;
                continue;
            }
            worst = std::max(worst, std::abs(hf->t_near - hd->t_near) / std::abs(hd->t_near) / (eps / std::sin(angle)));
        }
        std::printf("[ precision] capsule, shallow lateral entry at %g rad: worst error %.2f eps / sin(angle), %d misses\n",
                    angle, worst, misses);
        EXPECT_LE(worst, 4.0) << "angle " << angle << " seed " << s;
        EXPECT_EQ(misses, 0) << "angle " << angle << " seed " << s;
    }
}

TEST(PrecisionTest, BoxesFarAwayDefaultWithin1e5) {
    const uint64_t s = seed();
    Gen g(s, 3);
    Tally aabb{"aabb, default (float vs double)"};
    Tally obb{"obb, default (float vs double)"};
    Tally obb_grazing{"obb, default, grazing faces: relative error * |cos|"};
    for (int i = 0; i < kCases; ++i) {
        const Scene sc = scene(g);
        const V3 h = f(V3(g.uniform(0.5, 2.0), g.uniform(0.5, 2.0), g.uniform(0.5, 2.0)));
        // AABB: min/max rounded to float; aim at a point inside by >= 10% of each extent.
        const Aabb<double> box{f(sc.centre - h), f(sc.centre + h)};
        const double m = 0.999;  // up to 0.1% of the extent from a face: edges and corners included
        V3 local(g.uniform(-m, m), g.uniform(-m, m), g.uniform(-m, m));
        compare_default(aabb, aim(g, sc.origin, (box.min + box.max) * 0.5 + local * h), box, i, s);
        // OBB: random rotation (rounded to float, still orthonormal within the float tolerance).
        glm::dquat q(g.uniform(-1, 1), g.uniform(-1, 1), g.uniform(-1, 1), g.uniform(-1, 1));
        const Mat3<double> r = Mat3<double>(Mat3<float>(glm::mat3_cast(glm::normalize(q))));
        const Obb<double> ob{sc.centre, r, h};
        local = V3(g.uniform(-m, m), g.uniform(-m, m), g.uniform(-m, m));
        compare_default(obb, aim(g, sc.origin, ob.center + r * (local * h)), ob, i, s, &obb_grazing);
    }
    aabb.print();
    obb.print();
    obb_grazing.print();
    EXPECT_LE(aabb.worst, kBound) << "seed " << s;
    EXPECT_EQ(aabb.failing(), 0) << "seed " << s;
    EXPECT_LE(obb.worst, kBound) << "seed " << s;
    EXPECT_EQ(obb.failing(), 0) << "seed " << s;
    EXPECT_LE(obb_grazing.worst, kBound) << "seed " << s;
    EXPECT_EQ(obb_grazing.failing(), 0) << "seed " << s;
}

}  // namespace
}  // namespace raypick
