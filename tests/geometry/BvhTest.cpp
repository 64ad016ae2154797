// The hierarchy must pick exactly what brute force picks: same shape, same t, for random mixed
// scenes with degenerate shapes, axis-parallel rays and origins lying on node slab planes, before
// and after refits. Seeds are printed on failure; RAYPICK_SEED=<n> reruns one.
#include <algorithm>
#include <array>
#include <cstdlib>
#include <cstring>
#include <random>

#include <glm/gtc/matrix_transform.hpp>

#include "TestUtil.h"
#include <raypick/geometry/Bvh.h>

namespace raypick {
namespace {

std::uint32_t base_seed() {
    const char* s = std::getenv("RAYPICK_SEED");
    return s ? std::uint32_t(std::strtoul(s, nullptr, 10)) : 20261121u;
}

template <typename T> struct Gen {
    std::mt19937 rng;
    explicit Gen(std::uint32_t seed) : rng(seed) {}
    T uni(T a, T b) { return std::uniform_real_distribution<T>(a, b)(rng); }
    int pick(int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng); }
    Vec3<T> v(T a, T b) { return {uni(a, b), uni(a, b), uni(a, b)}; }
    // Snap to a coarse grid half of the time so that shapes share slab planes with rays.
    T snap(T x) { return pick(2) ? std::round(x) : x; }
    Vec3<T> p(T a, T b) { return {snap(uni(a, b)), snap(uni(a, b)), snap(uni(a, b))}; }

    Shape<T> shape(T extent) {
        const Vec3<T> c = p(-extent, extent);
        const int degenerate = pick(6);  // 0: zero size
        const T s = degenerate == 0 ? T(0) : uni(T(0.1), T(2));
        switch (pick(5)) {
            case 0: return Sphere<T>{c, s};
            case 1: {
                Vec3<T> h(snap(uni(0, 2)), snap(uni(0, 2)), snap(uni(0, 2)));
                if (degenerate == 0) h[pick(3)] = 0;
                return Aabb<T>{c - h, c + h};
            }
            case 2: {
                const glm::mat4 r = glm::rotate(glm::mat4(1.f), float(uni(0, 6.3)),
                                                glm::normalize(glm::vec3(v(-1, 1)) + glm::vec3(1e-3f)));
                Vec3<T> h(uni(0, 2), uni(0, 2), uni(0, 2));
                if (degenerate == 0) h[pick(3)] = 0;
                Obb<T> b{c, Mat3<T>(glm::mat3(r)), h};
                if (pick(3) == 0) b.rotation = Mat3<T>(T(1));
                return b;
            }
            case 3: {
                const Vec3<T> b = degenerate == 0 ? c : c + p(-2, 2);
                return Capsule<T>{c, b, uni(0, 1)};
            }
            default: {
                const Vec3<T> b = c + p(-2, 2);
                return Triangle<T>{c, b, degenerate == 0 ? b : c + p(-2, 2)};
            }
        }
    }
    Ray<T> ray(T extent) {
        Ray<T> r{p(-extent * T(1.5), extent * T(1.5)), v(-1, 1)};
        const int kind = pick(4);
        if (kind == 0) {  // axis-parallel: two exact zero components
            const int axis = pick(3);
            r.direction = Vec3<T>(0);
            r.direction[axis] = pick(2) ? T(1) : T(-1);
        } else if (kind == 1) {  // one zero component
            r.direction[pick(3)] = 0;
        }
        if (glm::dot(r.direction, r.direction) == T(0)) r.direction = {1, 0, 0};
        return r;
    }
};

template <typename T> class BvhPick : public ::testing::Test {};
TYPED_TEST_SUITE(BvhPick, test::Scalars);

template <typename T>
void expect_same(const std::optional<NearestHit<T>>& a, const std::optional<NearestHit<T>>& b,
                 std::uint32_t seed, int i) {
    ASSERT_EQ(a.has_value(), b.has_value()) << "seed " << seed << " ray " << i;
    if (!a) return;
    EXPECT_EQ(a->shape, b->shape) << "seed " << seed << " ray " << i;
    EXPECT_EQ(a->surface.t, b->surface.t) << "seed " << seed << " ray " << i;
    EXPECT_EQ(a->surface.normal, b->surface.normal) << "seed " << seed << " ray " << i;
}

template <typename T> void random_scenes_match_brute_force(BvhOptions options) {
    for (std::uint32_t scene = 0; scene < 6; ++scene) {
        const std::uint32_t seed = base_seed() + scene;
        Gen<T> g(seed);
        const int n = scene < 2 ? 1 + g.pick(8) : 400 + g.pick(800);
        std::vector<Shape<T>> shapes;
        for (int i = 0; i < n; ++i) shapes.push_back(g.shape(T(8)));
        const Bvh<T> bvh(shapes, options);
        ASSERT_EQ(bvh.size(), shapes.size());
        EXPECT_EQ(bvh.compact(), options.compact_above_bytes == std::size_t(0)) << "seed " << seed;
        int hits = 0;
        for (int i = 0; i < 3000; ++i) {
            const Ray<T> ray = g.ray(T(8));
            const auto a = bvh.pick(ray);
            const auto b = pick_nearest(shapes, ray);
            expect_same(a, b, seed, i);
            hits += b ? 1 : 0;
            if (::testing::Test::HasFailure()) return;
        }
        if (n > 100) { EXPECT_GT(hits, 300) << "seed " << seed << ": the scene should be hit often"; }
    }
}

/// Options that make pick() walk the compact nodes (BvhOptions::compact_above_bytes) of any scene.
BvhOptions compact() {
    BvhOptions o;
    o.compact_above_bytes = 0;
    return o;
}

TYPED_TEST(BvhPick, MatchesBruteForceOnRandomMixedScenes) { random_scenes_match_brute_force<TypeParam>(compact()); }

// The exact nodes: pick()'s walk in small scenes and wherever a box is not finite.
TYPED_TEST(BvhPick, ExactNodesMatchBruteForce) {
    BvhOptions options;
    options.compact_above_bytes = std::numeric_limits<std::size_t>::max();
    random_scenes_match_brute_force<TypeParam>(options);
}

// bvh_node::encode(): every decoded child box holds the exact one, and is the tightest the node's
// frame allows (one code less on either side would cut into it), at every scale from subnormal
// to near the largest finite value, for bounds lying on, just below and just above a plane of
// the frame, zero extents and empty children; a non-finite bound cannot be encoded.
TYPED_TEST(BvhPick, CompactNodesHoldEveryChildBoxTightly) {
    using T = TypeParam;
    using bvh_node::kWidth;
    const std::uint32_t seed = base_seed() + 31;
    Gen<T> g(seed);
    const int lo_exp = std::numeric_limits<T>::min_exponent - std::numeric_limits<T>::digits - 2;
    const int hi_exp = std::numeric_limits<T>::max_exponent - 12;
    int boundary = 0;
    for (int trial = 0; trial < 3000; ++trial) {
        const T unit = std::ldexp(T(1), lo_exp + g.pick(hi_exp - lo_exp));
        const T offset = unit * T(g.pick(3) == 0 ? 0 : g.uni(-1000, 1000));
        bvh_node::Node<T> n{};
        for (int k = 0; k < kWidth; ++k) {
            n.child[k] = g.pick(8) == 0 ? bvh_node::kNone : std::uint32_t(k);
            for (int a = 0; a < 3; ++a) {
                const T lo = offset + unit * g.uni(-100, 100);
                const T w = g.pick(5) == 0 ? T(0) : unit * g.uni(0, 50);
                n.lo[a][k] = lo;
                n.hi[a][k] = lo + w;
            }
            if (g.pick(10) == 0) n.lo[0][k] = std::numeric_limits<T>::infinity(), n.hi[0][k] = -n.lo[0][k];  // empty
        }
        bvh_node::Compact<T> c;
        ASSERT_TRUE(bvh_node::encode(n, c)) << "seed " << seed << " trial " << trial;
        // Again with some bounds moved onto a plane of the frame, or one ulp either side of it
        // (the extremes that fix the frame kept), where a rounded estimate of the code goes wrong.
        for (int k = 0; k < kWidth; ++k)
            for (int a = 0; a < 3; ++a) {
                T& x = g.pick(2) ? n.lo[a][k] : n.hi[a][k];
                if (!(n.lo[a][k] <= n.hi[a][k]) || g.pick(2)) continue;
                const T old = x;
                T v = bvh_node::plane(c, a, unsigned(g.pick(256)));
                const int nudge = g.pick(3);
                if (nudge == 1) v = std::nextafter(v, -std::numeric_limits<T>::infinity());
                if (nudge == 2) v = std::nextafter(v, std::numeric_limits<T>::infinity());
                x = v;
                if (!(n.lo[a][k] <= n.hi[a][k]) || !(x > c.origin[a]) || !(x < bvh_node::plane(c, a, 255)) ||
                    std::abs(x) > std::numeric_limits<T>::max())
                    x = old;
                else
                    ++boundary;
            }
        ASSERT_TRUE(bvh_node::encode(n, c)) << "seed " << seed << " trial " << trial;
        // The frame: from the least lo, in the finest power-of-two steps that reach the greatest hi.
        for (int a = 0; a < 3; ++a) {
            T mn = std::numeric_limits<T>::infinity(), mx = -mn;
            for (int k = 0; k < kWidth; ++k)
                if (n.child[k] != bvh_node::kNone && n.lo[a][k] <= n.hi[a][k])
                    mn = std::min(mn, n.lo[a][k]), mx = std::max(mx, n.hi[a][k]);
            if (mn > mx) continue;
            const T s = c.scale[a];
            EXPECT_EQ(c.origin[a], mn) << "seed " << seed << " trial " << trial;
            EXPECT_GE(bvh_node::plane(c, a, 255), mx) << "seed " << seed << " trial " << trial;
            if (s > std::numeric_limits<T>::denorm_min()) {
                EXPECT_LT(mn + T(255) * (s / T(2)), mx) << "seed " << seed << " trial " << trial;
            }
        }
        for (int k = 0; k < kWidth; ++k) {
            EXPECT_EQ(c.child[k], n.child[k]);
            if (n.child[k] == bvh_node::kNone) continue;
            for (int a = 0; a < 3; ++a) {
                const T lo = n.lo[a][k], hi = n.hi[a][k];
                const unsigned ql = c.lo[a][k], qh = c.hi[a][k];
                if (!(lo <= hi)) {
                    EXPECT_GT(ql, qh) << "an empty box stays empty; seed " << seed << " trial " << trial;
                    continue;
                }
                EXPECT_LE(bvh_node::plane(c, a, ql), lo) << "seed " << seed << " trial " << trial << " child " << k;
                EXPECT_GE(bvh_node::plane(c, a, qh), hi) << "seed " << seed << " trial " << trial << " child " << k;
                if (c.scale[a] == T(0)) continue;  // no extent: every code is the one plane
                if (ql < 255) {
                    EXPECT_GT(bvh_node::plane(c, a, ql + 1), lo) << "seed " << seed << " trial " << trial;
                }
                if (qh > 0) {
                    EXPECT_LT(bvh_node::plane(c, a, qh - 1), hi) << "seed " << seed << " trial " << trial;
                }
            }
        }
        if (::testing::Test::HasFailure()) return;
    }
    EXPECT_GT(boundary, 10000) << "bounds on and next to the frame's planes";
    bvh_node::Node<T> n{};
    for (int k = 0; k < kWidth; ++k)
        for (int a = 0; a < 3; ++a) n.lo[a][k] = T(0), n.hi[a][k] = T(1);
    n.hi[1][3] = std::numeric_limits<T>::infinity();
    bvh_node::Compact<T> c;
    EXPECT_FALSE(bvh_node::encode(n, c));
}

// for_each_hit() reports exactly the shapes whose own cast hits, each once, with that cast's
// result bit for bit, for every range (including rays from inside shapes and ranges behind).
template <typename T> void every_hit_matches_brute_force(BatchIsa isa) {
    BvhOptions options = compact();
    options.node_test_isa = isa;
    for (std::uint32_t scene = 0; scene < 4; ++scene) {
        const std::uint32_t seed = base_seed() + 100 + scene;
        Gen<T> g(seed);
        const int n = scene == 0 ? 1 + g.pick(8) : 300 + g.pick(600);
        std::vector<Shape<T>> shapes;
        for (int i = 0; i < n; ++i) shapes.push_back(g.shape(T(8)));
        if (scene == 1) shapes[0] = Sphere<T>{Vec3<T>(0), T(-1)};  // invalid: never hit
        const Bvh<T> bvh(shapes, options);
        std::size_t total = 0;
        for (int i = 0; i < 1500; ++i) {
            const Ray<T> ray = g.ray(T(8));
            T t_min = T(0), t_max = infinity<T>();
            if (i % 3 == 1) t_min = -infinity<T>();
            if (i % 3 == 2) t_min = g.uni(-4, 2), t_max = t_min + g.uni(0, 6);
            std::vector<std::pair<std::uint32_t, RayHit<T>>> got;
            bvh.for_each_hit(ray, [&](std::uint32_t id, const RayHit<T>& h) { got.emplace_back(id, h); }, t_min, t_max);
            std::sort(got.begin(), got.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
            std::size_t k = 0;
            for (std::uint32_t s = 0; s < shapes.size(); ++s) {
                const auto want = cast(ray, shapes[s], t_min, t_max);
                if (!want) continue;
                ASSERT_LT(k, got.size()) << "seed " << seed << " ray " << i << ": shape " << s << " hit but not reported";
                ASSERT_EQ(got[k].first, s) << "seed " << seed << " ray " << i << ": reported " << got[k].first
                                           << " (a miss, or twice) where shape " << s << " is the next hit";
                const RayHit<T>& h = got[k].second;
                EXPECT_TRUE(h.t_near == want->t_near && h.t_far == want->t_far && h.n_near == want->n_near &&
                            h.n_far == want->n_far && h.origin_inside == want->origin_inside)
                    << "seed " << seed << " ray " << i << " shape " << s;
                ++k;
            }
            ASSERT_EQ(k, got.size()) << "seed " << seed << " ray " << i << ": a shape that misses was reported";
            total += k;
        }
        if (n > 100) { EXPECT_GT(total, 1500u) << "seed " << seed << ": rays should cross several shapes"; }
    }
}
// The walk runs in each instruction set's own copy, as pick()'s does.
TYPED_TEST(BvhPick, EveryHitMatchesBruteForceWithEveryNodeTestIsa) {
    for (BatchIsa isa : {BatchIsa::Sse2, BatchIsa::Avx2, BatchIsa::Avx512}) {
        if (effective_isa(isa) != isa) continue;  // this CPU lacks it (Auto would fall back)
        SCOPED_TRACE(batch_isa_name(isa));
        every_hit_matches_brute_force<TypeParam>(isa);
    }
}

// Shapes on a grid share slab planes with the rays' origins; without padding, node planes are
// exactly those planes, so parallel rays hit the 0 * inf = NaN case of the node test.
TYPED_TEST(BvhPick, UnpaddedNodesStillLoseNothing) {
    BvhOptions options = compact();
    options.pad_bounds = false;
    random_scenes_match_brute_force<TypeParam>(options);
}

// Every build of the node and leaf tests (SSE2, and AVX2 and AVX-512 where the CPU has them)
// picks exactly what brute force picks, padded or not; the other tests run the widest the CPU
// has (node_test_isa Auto, the default).
TYPED_TEST(BvhPick, EveryNodeTestIsaMatchesBruteForce) {
    for (BatchIsa isa : {BatchIsa::Sse2, BatchIsa::Avx2, BatchIsa::Avx512}) {
        if (effective_isa(isa) != isa) continue;  // this CPU lacks it (Auto would fall back)
        SCOPED_TRACE(batch_isa_name(isa));
        for (bool pad : {true, false}) {
            BvhOptions options = compact();
            options.node_test_isa = isa;
            options.pad_bounds = pad;
            random_scenes_match_brute_force<TypeParam>(options);
        }
    }
}

TYPED_TEST(BvhPick, NodeTestIsaIsTheWidestTheCpuHasUpToTheOneAskedFor) {
    using T = TypeParam;
    const std::vector<Shape<T>> shapes{Sphere<T>{Vec3<T>(0), T(1)}};
    const BatchIsa widest = cpu_has_avx512() ? BatchIsa::Avx512 : cpu_has_avx2() ? BatchIsa::Avx2 : BatchIsa::Sse2;
    EXPECT_EQ(Bvh<T>(shapes).node_test_isa(), widest);
    for (BatchIsa isa : {BatchIsa::Sse2, BatchIsa::Avx2, BatchIsa::Avx512}) {
        BvhOptions options = compact();
        options.node_test_isa = isa;
        EXPECT_EQ(Bvh<T>(shapes, options).node_test_isa(), int(isa) <= int(widest) ? isa : widest)
            << batch_isa_name(isa);
    }
}

// Leaves of one type hold full vectors (and several of them with larger leaves), so every lane of
// the batch kernels the leaves use is exercised; some shapes sit outside the kernels' safe range
// (tiny or huge magnitudes: those lanes take the scalar path) and some are invalid.
TYPED_TEST(BvhPick, FullLeavesOfEachTypeMatchBruteForce) {
    using T = TypeParam;
    for (int type = 0; type < kShapeTypeCount; ++type)
        for (int leaf : {1, 3, 4, 8, 16}) {
            const std::uint32_t seed = base_seed() + 300 + std::uint32_t(type * 100 + leaf);
            Gen<T> g(seed);
            std::vector<Shape<T>> shapes;
            while (shapes.size() < 600) {
                Shape<T> s = g.shape(T(8));
                if (int(s.index()) != type) continue;
                if (g.pick(40) == 0) {  // rescale far outside the safe range, or make it invalid
                    const T k = g.pick(2) ? T(1e-30) : T(1e25);
                    std::visit([&](auto& x) {
                        using S = std::decay_t<decltype(x)>;
                        if constexpr (std::is_same_v<S, Sphere<T>>) { x.center *= k; x.radius *= k; }
                        else if constexpr (std::is_same_v<S, Aabb<T>>) { x.min *= k; x.max *= k; }
                        else if constexpr (std::is_same_v<S, Obb<T>>) { x.center *= k; x.half_extents *= k; }
                        else if constexpr (std::is_same_v<S, Capsule<T>>) { x.a *= k; x.b *= k; x.radius *= k; }
                        else { x.a *= k; x.b *= k; x.c *= k; }
                    }, s);
                    if (g.pick(3) == 0) s = Sphere<T>{{0, 0, 0}, T(-1)};
                    if (int(s.index()) != type) continue;
                }
                shapes.push_back(s);
            }
            BvhOptions options = compact();
            options.max_leaf_size = leaf;
            const Bvh<T> bvh(shapes, options);
            for (int i = 0; i < 1500; ++i) {
                Ray<T> ray = g.ray(T(8));
                if (i % 50 == 0) ray.origin *= T(1e-30);  // near the tiny shapes
                expect_same(bvh.pick(ray), pick_nearest(shapes, ray), seed, i);
                if (::testing::Test::HasFailure()) return;
            }
        }
}

// A bundle of rays gives exactly each ray's own pick: tiles of rays from one eye (the ray-cast
// view's use, culled with interval bounds), bundles from several origins, rays along slab planes,
// mixed direction signs (picked ray by ray), invalid rays, ranges, and before and after refits.
TYPED_TEST(BvhPick, BundlesMatchBruteForce) {
    using T = TypeParam;
    for (std::uint32_t scene = 0; scene < 4; ++scene) {
        const std::uint32_t seed = base_seed() + 400 + scene;
        Gen<T> g(seed);
        std::vector<Shape<T>> shapes;
        const int n = scene == 0 ? 3 : 300 + g.pick(900);
        for (int i = 0; i < n; ++i) shapes.push_back(g.shape(T(8)));
        Bvh<T> bvh(shapes, scene == 3 ? BvhOptions{1, 4, false} : BvhOptions{});
        for (int b = 0; b < 150; ++b) {
            if (b == 75) {  // a few drags, then bundles again
                for (int k = 0; k < 20; ++k) {
                    const auto idx = std::uint32_t(g.pick(n));
                    Shape<T> moved = g.shape(T(10));
                    if (moved.index() != shapes[idx].index()) continue;
                    shapes[idx] = moved;
                    bvh.update(idx, moved);
                }
            }
            const int kind = g.pick(5);
            const std::size_t count = std::size_t(1 + g.pick(kind == 4 ? 150 : 64));
            const Vec3<T> eye = g.p(T(-16), T(16));
            const Vec3<T> centre = g.v(T(-1), T(1));
            const T spread = kind == 1 ? T(0.02) : T(0.3);
            std::vector<Ray<T>> rays;
            for (std::size_t i = 0; i < count; ++i) {
                Ray<T> r{eye, centre + g.v(-spread, spread)};
                if (kind == 2) r.origin = eye + g.v(T(-1), T(1));              // several origins
                if (kind == 3 && g.pick(4) == 0) r.direction[g.pick(3)] = 0;   // along slab planes
                if (kind == 4) r = g.ray(T(8));                                // incoherent
                if (g.pick(60) == 0) r.direction = Vec3<T>(0);                 // invalid
                rays.push_back(r);
            }
            const T t_min = g.pick(4) == 0 ? g.uni(0, 5) : T(0);
            const T t_max = g.pick(4) == 0 ? g.uni(5, 20) : infinity<T>();
            std::vector<std::optional<NearestHit<T>>> got(count);
            bvh.pick_bundle(rays.data(), count, got.data(), t_min, t_max);
            for (std::size_t i = 0; i < count; ++i) {
                expect_same(got[i], pick_nearest(shapes, rays[i], t_min, t_max), seed, int(b * 1000 + i));
                if (::testing::Test::HasFailure()) return;
            }
        }
    }
}

// pick_bundle over `rays` against brute force ray by ray (seed and bundle b for the message);
// returns how many of the rays hit something.
template <typename T>
int expect_bundle_matches(const Bvh<T>& bvh, const std::vector<Shape<T>>& shapes, const std::vector<Ray<T>>& rays,
                          std::uint32_t seed, int b) {
    std::vector<std::optional<NearestHit<T>>> got(rays.size());
    bvh.pick_bundle(rays.data(), rays.size(), got.data());
    int hits = 0;
    for (std::size_t i = 0; i < rays.size(); ++i) {
        const auto want = pick_nearest(shapes, rays[i]);
        expect_same(got[i], want, seed, b * 1000 + int(i));
        if (::testing::Test::HasFailure()) break;
        hits += want.has_value();
    }
    return hits;
}

// A tile from one eye whose first ray is invalid and starts elsewhere (a zero direction, or a NaN
// origin): the shared-origin shortcut takes the origin from the valid rays, not from ray 0.
TYPED_TEST(BvhPick, OneEyeBundleWithAnInvalidFirstRayMatchesBruteForce) {
    using T = TypeParam;
    const std::uint32_t seed = base_seed() + 430;
    Gen<T> g(seed);
    std::vector<Shape<T>> shapes;
    for (int i = 0; i < 500; ++i) shapes.push_back(g.shape(T(8)));
    const Bvh<T> bvh(shapes);
    int hits = 0;
    for (int b = 0; b < 30; ++b) {
        const Vec3<T> eye = g.p(T(-16), T(16));
        const Vec3<T> centre = g.v(T(-1), T(1)) - eye * T(0.9);
        std::vector<Ray<T>> rays;
        for (int i = 0; i < 64; ++i) rays.push_back({eye, centre + g.v(T(-0.3), T(0.3))});
        rays[0].origin = eye + g.v(T(-6), T(6));
        if (b % 3 == 0) rays[0].origin.y = std::numeric_limits<T>::quiet_NaN();
        else rays[0].direction = Vec3<T>(0);
        if (b % 2) rays[std::size_t(1 + g.pick(63))].direction = Vec3<T>(0);  // and another one
        hits += expect_bundle_matches(bvh, shapes, rays, seed, b);
        if (::testing::Test::HasFailure()) return;
    }
    EXPECT_GT(hits, 30 * 64 / 4) << "the rays should mostly hit: seed " << seed;
}

template <typename T> Shape<T> scaled(const Shape<T>& s, T k) {
    return std::visit([k](auto x) -> Shape<T> {
        using S = decltype(x);
        if constexpr (std::is_same_v<S, Sphere<T>>) return Sphere<T>{x.center * k, x.radius * k};
        else if constexpr (std::is_same_v<S, Aabb<T>>) return Aabb<T>{x.min * k, x.max * k};
        else if constexpr (std::is_same_v<S, Obb<T>>) return Obb<T>{x.center * k, x.rotation, x.half_extents * k};
        else if constexpr (std::is_same_v<S, Capsule<T>>) return Capsule<T>{x.a * k, x.b * k, x.radius * k};
        else return Triangle<T>{x.a * k, x.b * k, x.c * k};
    }, s);
}

// Bundles among tiny and huge shapes (scaled by a power of two, so the geometry is exact), where
// the vector kernels leave lanes to the scalar code (squares outside their safe range): a leaf
// tested ray by ray and one tested shape by shape against many rays must both get them right.
TYPED_TEST(BvhPick, BundlesAmongTinyAndHugeShapesMatchBruteForce) {
    using T = TypeParam;
    const int e = sizeof(T) == 4 ? 40 : 260;
    for (const T k : {std::ldexp(T(1), -e), std::ldexp(T(1), e + 20)}) {
        const std::uint32_t seed = base_seed() + 450 + (k < 1 ? 0u : 1u);
        Gen<T> g(seed);
        std::vector<Shape<T>> shapes;
        for (int i = 0; i < 400; ++i) shapes.push_back(scaled(g.shape(T(6)), k));
        const Bvh<T> bvh(shapes);
        int hits = 0;
        for (int b = 0; b < 40; ++b) {
            const Vec3<T> eye = g.p(T(-14), T(14)) * k;
            const Vec3<T> centre = g.v(T(-1), T(1));
            std::vector<Ray<T>> rays;
            for (int i = 0; i < 64; ++i) rays.push_back({eye, centre - eye / k + g.v(T(-0.4), T(0.4))});
            hits += expect_bundle_matches(bvh, shapes, rays, seed, b);
            if (::testing::Test::HasFailure()) return;
        }
        EXPECT_GT(hits, 40 * 64 / 4) << "the rays should mostly hit: seed " << seed;
    }
}

// The Morton-ordered top levels (normally for scenes of more than 65 536 shapes) on every scene
// size, down to tiny ranges, with SAH leaves of one and of several shapes.
TYPED_TEST(BvhPick, MortonTopMatchesBruteForce) {
    for (int leaf : {1, 4}) {
        BvhOptions options = compact();
        options.max_leaf_size = leaf;
        options.morton_above = 0;
        options.morton_leaf = 3;
        random_scenes_match_brute_force<TypeParam>(options);
    }
}

TYPED_TEST(BvhPick, RefitAfterMovesMatchesBruteForce) {
    using T = TypeParam;
    const std::uint32_t seed = base_seed() + 100;
    Gen<T> g(seed);
    std::vector<Shape<T>> shapes;
    for (int i = 0; i < 500; ++i) shapes.push_back(g.shape(T(8)));
    Bvh<T> bvh(shapes, compact());  // each refit re-encodes the compact nodes on its path
    for (int round = 0; round < 20; ++round) {
        for (int k = 0; k < 10; ++k) {
            const auto idx = std::uint32_t(g.pick(int(shapes.size())));
            shapes[idx] = g.shape(T(12));  // a move, a resize, possibly a change of type
            bvh.update(idx, shapes[idx]);
            EXPECT_EQ(bvh.shape(idx).index(), shapes[idx].index());
        }
        for (int i = 0; i < 300; ++i) {
            const Ray<T> ray = g.ray(T(12));
            expect_same(bvh.pick(ray), pick_nearest(shapes, ray), seed, round * 1000 + i);
            if (::testing::Test::HasFailure()) return;
        }
        EXPECT_TRUE(bvh.compact());
    }
}

// The hierarchy keeps its shapes only in its leaves: shape(i) reads shape i back from there, and
// must give exactly what was built or last updated, bit for bit (NaN and all), whatever leaf,
// lane or padding the shape landed in.
TYPED_TEST(BvhPick, ShapesReadBackFromTheLeavesBitForBit) {
    using T = TypeParam;
    const std::uint32_t seed = base_seed() + 150;
    Gen<T> g(seed);
    auto fields = [](const Shape<T>& s) {
        std::array<T, 17> f{};  // up to 16 lanes (an OBB's), then the type
        f[16] = T(s.index());
        std::visit([&](const auto& x) { store_lanes(x, f.data(), 1); }, s);
        return f;
    };
    auto expect_all_read_back = [&](const Bvh<T>& bvh, const std::vector<Shape<T>>& shapes, int round) {
        ASSERT_EQ(bvh.size(), shapes.size());
        for (std::uint32_t i = 0; i < shapes.size(); ++i) {
            const auto want = fields(shapes[i]), got = fields(bvh.shape(i));
            ASSERT_EQ(std::memcmp(want.data(), got.data(), sizeof want), 0)
                << "shape " << i << " round " << round << " (seed " << seed << ")";
        }
    };
    const T nan = std::numeric_limits<T>::quiet_NaN();
    for (int leaf : {1, 4, 16}) {
        std::vector<Shape<T>> shapes;
        for (int i = 0; i < 700; ++i) shapes.push_back(g.shape(T(8)));
        shapes[3] = Sphere<T>{{nan, 0, 0}, 1};  // invalid shapes are kept too
        shapes[4] = Capsule<T>{{0, 0, 0}, {1, 1, 1}, T(-1)};
        BvhOptions options = compact();
        options.max_leaf_size = leaf;
        options.morton_above = leaf == 4 ? 100 : 1u << 20;  // the Morton top, once
        Bvh<T> bvh(shapes, options);
        expect_all_read_back(bvh, shapes, -leaf);
        for (int round = 0; round < 200; ++round) {
            const auto idx = std::uint32_t(g.pick(int(shapes.size())));
            shapes[idx] = g.shape(T(12));  // possibly a change of type: a rebuild
            bvh.update(idx, shapes[idx]);
            if (round % 50 == 0) expect_all_read_back(bvh, shapes, round);
            if (::testing::Test::HasFailure()) return;
        }
        expect_all_read_back(bvh, shapes, 200);
    }
}

TYPED_TEST(BvhPick, AHintNeverChangesTheResult) {
    using T = TypeParam;
    const std::uint32_t seed = base_seed() + 200;
    Gen<T> g(seed);
    std::vector<Shape<T>> shapes;
    for (int i = 0; i < 300; ++i) shapes.push_back(g.shape(T(6)));
    const Bvh<T> bvh(shapes);
    std::uint32_t last = 0;
    for (int i = 0; i < 3000; ++i) {
        const Ray<T> ray = g.ray(T(6));
        const T t_min = g.pick(5) == 0 ? g.uni(0, 3) : T(0);
        // Hints: the previous ray's pick (the ray-cast view's use), random shapes, out of range.
        const std::uint32_t hint = g.pick(3) == 0 ? std::uint32_t(g.pick(400)) : last;
        const auto plain = bvh.pick(ray, t_min, infinity<T>());
        const auto hinted = bvh.pick(ray, t_min, infinity<T>(), hint);
        expect_same(hinted, plain, seed, i);
        if (::testing::Test::HasFailure()) return;
        if (plain) last = plain->shape;
    }
}

TYPED_TEST(BvhPick, RangeAndInsideOriginFollowThePickContract) {
    using T = TypeParam;
    std::vector<Shape<T>> shapes{Sphere<T>{{0, 0, 0}, 2}, Aabb<T>{{4, -1, -1}, {6, 1, 1}}};
    const Bvh<T> bvh(shapes);
    // Origin inside the sphere: the pick is the sphere's exit, before the box.
    const auto in = bvh.pick(Ray<T>{{0, 0, 0}, {1, 0, 0}});
    ASSERT_TRUE(in);
    EXPECT_EQ(in->shape, 0u);
    EXPECT_TRUE(in->surface.is_exit);
    EXPECT_EQ(in->surface.t, T(2));
    // With t_min past the sphere, the box.
    const auto later = bvh.pick(Ray<T>{{0, 0, 0}, {1, 0, 0}}, T(3));
    ASSERT_TRUE(later);
    EXPECT_EQ(later->shape, 1u);
    EXPECT_EQ(later->surface.t, T(4));
    // t_max before the box and past the sphere's exit... starting at 3: nothing.
    EXPECT_FALSE(bvh.pick(Ray<T>{{0, 0, 0}, {1, 0, 0}}, T(3), T(3.5)));
}

TYPED_TEST(BvhPick, EmptyInvalidAndCoincidentShapes) {
    using T = TypeParam;
    EXPECT_FALSE(Bvh<T>().pick(Ray<T>{{0, 0, 0}, {1, 0, 0}}));
    const T nan = std::numeric_limits<T>::quiet_NaN();
    std::vector<Shape<T>> shapes{Sphere<T>{{5, 0, 0}, -1}, Sphere<T>{{nan, 0, 0}, 1}};
    for (int i = 0; i < 50; ++i) shapes.push_back(Sphere<T>{{5, 0, 0}, 1});  // all at one centroid
    const Bvh<T> bvh(shapes);
    const auto p = bvh.pick(Ray<T>{{0, 0, 0}, {1, 0, 0}});
    ASSERT_TRUE(p);
    EXPECT_EQ(p->shape, 2u);  // ties go to the lowest index; invalid shapes are never picked
    EXPECT_FALSE(bvh.pick(Ray<T>{{0, 0, 0}, {0, 0, 0}}));  // invalid ray
}

// The leaves keep whether each OBB is valid beside its fields (the kernels read that instead of
// checking rotations): a box made invalid by update() (a reflection, a column off unit length,
// two columns off perpendicular, a NaN) stays in its leaf among valid boxes and must never be
// picked, by pick() or pick_bundle(); made valid again, it is picked again. Each invalid box is
// the larger twin of a valid one at the same centre, so a ray down the middle meets it first.
// Eight rays a pair, side by side and with no zero direction component, so that pick_bundle()
// tests small leaves shape by shape against vectors of rays (test_section_rays, which takes the
// leaf's flag) as well as ray by ray. (With direction (0.01, 0, -1) it took only the second way,
// and a flag forced to "valid" there went unnoticed.)
TYPED_TEST(BvhPick, ObbsMadeInvalidInPlaceAreNeverPicked) {
    using T = TypeParam;
    constexpr int kPairs = 40;
    const T nan = std::numeric_limits<T>::quiet_NaN();
    auto rotation = [](int k) {
        return Mat3<T>(glm::mat3(glm::rotate(glm::mat4(1.f), 0.3f * float(k), glm::normalize(glm::vec3(1, 2, 3)))));
    };
    auto twin = [&](int k, int how) {  // how 0: valid; 1..4: invalid in one way each
        Obb<T> b{{T(3 * k), 0, 0}, rotation(k), {1, 1, 1}};
        Mat3<T>& m = b.rotation;
        if (how == 1) m[2] = -m[2];
        if (how == 2) m[1] *= T(1.01);
        if (how == 3) m[0] = glm::normalize(m[0] + T(0.01) * m[1]);
        if (how == 4) m[2][1] = nan;
        return b;
    };
    constexpr int kRaysPerPair = 8;
    std::vector<Ray<T>> rays;
    for (int k = 0; k < kPairs; ++k)
        for (int j = 0; j < kRaysPerPair; ++j)
            rays.push_back(Ray<T>{{T(3 * k) + T(0.01) * T(j), T(0.1), T(10)}, {T(0.01), T(0.001), -1}});
    for (int leaf : {2, 4, 8, 16}) {
        std::vector<Shape<T>> shapes;
        for (int k = 0; k < kPairs; ++k) {
            shapes.push_back(Obb<T>{{T(3 * k), 0, 0}, rotation(k), {T(0.5), T(0.5), T(0.5)}});  // 2k: valid
            shapes.push_back(twin(k, 0));                                                      // 2k + 1
        }
        BvhOptions options = compact();
        options.max_leaf_size = leaf;
        Bvh<T> bvh(shapes, options);
        auto expect_picks = [&](bool twins_valid, int round) {
            std::vector<std::optional<NearestHit<T>>> bundle(rays.size());
            bvh.pick_bundle(rays.data(), rays.size(), bundle.data());
            for (std::size_t i = 0; i < rays.size(); ++i) {
                const int k = int(i) / kRaysPerPair;
                const auto p = bvh.pick(rays[i]);
                ASSERT_TRUE(p) << "leaf " << leaf << " round " << round << " ray " << i;
                EXPECT_EQ(p->shape, std::uint32_t(2 * k + (twins_valid ? 1 : 0)))
                    << "leaf " << leaf << " round " << round << " ray " << i;
                expect_same(p, pick_nearest(shapes, rays[i]), std::uint32_t(leaf), round * 1000 + int(i));
                expect_same(bundle[i], p, std::uint32_t(leaf), round * 1000 + int(i));
            }
        };
        expect_picks(true, 0);
        for (int how = 1; how <= 4; ++how) {
            for (int k = 0; k < kPairs; ++k) bvh.update(std::uint32_t(2 * k + 1), shapes[std::size_t(2 * k + 1)] = twin(k, how));
            expect_picks(false, how);
            for (int k = 0; k < kPairs; ++k) bvh.update(std::uint32_t(2 * k + 1), shapes[std::size_t(2 * k + 1)] = twin(k, 0));
            expect_picks(true, 10 + how);
            if (::testing::Test::HasFailure()) return;
        }
    }
}

// Found by the demo's random-edit driver: valid shapes near the largest finite value made the builder
// index its bins with int(NaN) (inf - inf in the centroid extents) and crash.
TYPED_TEST(BvhPick, ShapesNearTheLargestFiniteValueBuildAndPick) {
    using T = TypeParam;
    const T big = std::numeric_limits<T>::max();
    std::vector<Shape<T>> shapes{Sphere<T>{{0, 0, 0}, 1}, Sphere<T>{{0, 1, 0}, 1}, Sphere<T>{{0, 2, 0}, 1},
                                 Sphere<T>{{big, 0, 0}, 1}, Sphere<T>{{-big, 0, 0}, 1},
                                 Aabb<T>{{-big, -1, -1}, {big, -0.5, 1}}, Capsule<T>{{-big, 5, 0}, {big, 5, 0}, 1}};
    for (int i = 0; i < 40; ++i) shapes.push_back(Sphere<T>{{T(i), T(10), T(0)}, T(0.5)});
    const auto same_picks = [&](const Bvh<T>& bvh) {
        for (const Ray<T>& ray : {Ray<T>{{0, 0, -5}, {0, 0, 1}}, Ray<T>{{3, 10, -5}, {0, 0, 1}},
                                  Ray<T>{{0, -0.75, -5}, {0, 0, 1}}, Ray<T>{{-5, 0, 0}, {1, 0, 0}}}) {
            const auto a = bvh.pick(ray);
            const auto b = pick_nearest(shapes, ray);
            ASSERT_EQ(a.has_value(), b.has_value());
            if (a) {
                EXPECT_EQ(a->shape, b->shape);
            }
        }
    };
    // Padded by a few ulps, the boxes at the largest finite value are infinite: no compact frame
    // holds them, and pick() walks the exact nodes.
    const Bvh<T> bvh(shapes, compact());
    EXPECT_FALSE(bvh.compact());
    same_picks(bvh);
    // A quarter of it is finite once padded: compact nodes, until a refit moves a shape out there.
    for (Shape<T>& s : shapes)
        std::visit([&](auto& x) {
            if constexpr (std::is_same_v<std::decay_t<decltype(x)>, Sphere<T>>) x.center /= T(4);
            else if constexpr (std::is_same_v<std::decay_t<decltype(x)>, Aabb<T>>) x.min /= T(4), x.max /= T(4);
            else if constexpr (std::is_same_v<std::decay_t<decltype(x)>, Capsule<T>>) x.a /= T(4), x.b /= T(4);
            else if constexpr (std::is_same_v<std::decay_t<decltype(x)>, Triangle<T>>) x.a /= T(4), x.b /= T(4), x.c /= T(4);
        }, s);
    Bvh<T> quarter(shapes, compact());
    EXPECT_TRUE(quarter.compact());
    same_picks(quarter);
    shapes[3] = Sphere<T>{{big, 0, 0}, 1};
    quarter.update(3, shapes[3]);
    EXPECT_FALSE(quarter.compact());
    same_picks(quarter);
}

// pick() walks compact nodes once the exact nodes and leaves outgrow compact_above_bytes; by
// default half the last-level cache, which sysfs reports (lscpu's figure, not glibc's).
TEST(BvhBuild, CompactNodesOnceTheTreeOutgrowsTheThreshold) {
    Gen<float> g(base_seed() + 11);
    std::vector<Shape<float>> shapes;
    for (int i = 0; i < 20000; ++i) shapes.push_back(Sphere<float>{g.v(-100.f, 100.f), 0.5f});
    BvhOptions options;
    options.compact_above_bytes = std::size_t(1) << 20;  // the tree takes about 2 MB
    EXPECT_TRUE(Bvh<float>(shapes, options).compact());
    options.compact_above_bytes = std::size_t(64) << 20;
    EXPECT_FALSE(Bvh<float>(shapes, options).compact());
    shapes.resize(100);
    EXPECT_FALSE(Bvh<float>(shapes).compact()) << "a small tree stays in any cache";
    EXPECT_EQ(detail::parse_cache_size("32768K"), std::size_t(32) << 20);
    EXPECT_EQ(detail::parse_cache_size("2M"), std::size_t(2) << 20);
    EXPECT_EQ(detail::parse_cache_size("512"), 512u);
    EXPECT_EQ(detail::parse_cache_size("none"), 0u);
    EXPECT_GE(detail::last_level_cache_bytes(), std::size_t(256) << 10);
}

TEST(BvhBuild, LargeSceneHasBoundedDepthAndFewNodes) {
    Gen<float> g(base_seed() + 7);
    std::vector<Shape<float>> shapes;
    for (int i = 0; i < 20000; ++i) shapes.push_back(g.shape(100.f));
    const Bvh<float> bvh(shapes);
    EXPECT_LT(bvh.depth(), 48);
    EXPECT_LT(bvh.node_count(), shapes.size());
}

// The collapse into wide nodes fills them and merges small subtrees into leaves. For small
// spheres far apart the binary SAH splits down to single shapes; a greedy collapse into 8-wide
// nodes left most of them a quarter to half full (3 621 nodes for these 10 000 spheres); at least
// cost, the lowest subtrees become leaves of up to four shapes and the nodes are nearly full (872
// at 8 wide, 547 at 16). Picks still match brute force, before and after moving shapes out of
// their merged leaves.
TEST(BvhBuild, CollapseFillsNodesAndMergesSmallSubtreesIntoLeaves) {
    const std::uint32_t seed = base_seed() + 9;
    Gen<float> g(seed);
    std::vector<Shape<float>> shapes;
    for (int i = 0; i < 10000; ++i) shapes.push_back(Sphere<float>{g.v(-100.f, 100.f), 0.5f});
    Bvh<float> bvh(shapes);
    EXPECT_LT(bvh.node_count(), shapes.size() / 8) << "seed " << seed;
    for (int round = 0; round < 3; ++round) {
        for (int i = 0; i < 2000; ++i) {
            Ray<float> ray{g.v(-150.f, 150.f), g.v(-1.f, 1.f)};
            if (i % 2) ray.direction = std::get<0>(shapes[std::size_t(g.pick(int(shapes.size())))]).center - ray.origin;
            expect_same(bvh.pick(ray), pick_nearest(shapes, ray), seed, round * 10000 + i);
            if (::testing::Test::HasFailure()) return;
        }
        for (int k = 0; k < 300; ++k) {
            const auto idx = std::uint32_t(g.pick(int(shapes.size())));
            shapes[idx] = Sphere<float>{g.v(-100.f, 100.f), g.uni(0.f, 2.f)};
            bvh.update(idx, shapes[idx]);
        }
    }
}

}  // namespace
}  // namespace raypick
