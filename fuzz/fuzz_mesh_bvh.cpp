// libFuzzer target: MeshBvh::pick and ::hits against brute force over every triangle, and
// InstanceBvh::pick against every instance in order, on a small decoded mesh and rays.
//
// Input layout (fuzz/FuzzCommon.h's Reader): precision byte (odd: double), vertex count byte,
// coordinate mode byte (even: small grid values, shared by many vertices and rays; odd: any finite
// scalar), vertices, triangle count byte, index bytes (three per triangle; an index byte of 255
// makes that index out of range), ray count byte, rays (mode byte: aimed at a vertex, at an edge
// midpoint or anywhere; origin; range), then an instance's transform (nine grid values and a
// translation).
// Invariants: an invalid mesh is refused with std::invalid_argument naming "indices[";
// MeshBvh::pick equals pick_nearest_triangle() (same triangle, same t bit for bit) with either
// instruction set, on exact and on quantised nodes; MeshBvh::hits equals intersect() on every triangle, sorted; for a valid
// transform, InstanceBvh::pick over three instances equals pick_nearest_instance() exactly; and
// pick_bundle (MeshBvh's, with either instruction set, and InstanceBvh's) gives each ray exactly
// its pick(): the rays as one bundle with the first ray's t_min and each ray's t_max, and each ray
// alone as a bundle of one with its own range.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <stdexcept>
#include <type_traits>
#include <vector>

#include <raypick/geometry/MeshInstances.h>

#include "FuzzCommon.h"

using namespace raypick;
using namespace raypick::fuzz;

namespace {

template <typename T> T coordinate(Reader& in, bool grid) { return grid ? T(in.i8()) / T(4) : in.scalar<T>(); }

template <typename T> void report(const TriangleMesh<T>& m, const Ray<T>& ray, T t_min, T t_max) {
    print_ray(ray, t_min, t_max);
    for (std::size_t i = 0; i < m.positions.size(); ++i)
        std::fprintf(stderr, " v%zu: %a %a %a\n", i, double(m.positions[i].x), double(m.positions[i].y),
                     double(m.positions[i].z));
    for (std::size_t i = 0; i < m.indices.size(); ++i)
        std::fprintf(stderr, " t%zu: %u %u %u\n", i, m.indices[i][0], m.indices[i][1], m.indices[i][2]);
}

template <typename T> bool same(const std::optional<MeshHit<T>>& a, const std::optional<MeshHit<T>>& b) {
    return a.has_value() == b.has_value() && (!a || (a->triangle == b->triangle && same_bits(a->t, b->t)));
}

/// Fails unless bvh.pick_bundle gives each query exactly bvh.pick: all of them as one bundle
/// (t_min of the first, t_max of each), then each alone with its own range.
template <typename Bvh, typename Query> void check_bundles(const Bvh& bvh, const std::vector<Query>& queries, const char* what) {
    using T = decltype(queries[0].t_min);
    using Hit = decltype(bvh.pick(queries[0].ray));
    const auto same_hit = [](const Hit& a, const Hit& b) {
        if constexpr (std::is_same_v<Hit, std::optional<MeshHit<T>>>) return same(a, b);
        else return a.has_value() == b.has_value() &&
                    (!a || (a->instance == b->instance && a->hit.triangle == b->hit.triangle && same_bits(a->hit.t, b->hit.t)));
    };
    std::vector<Ray<T>> rays;
    std::vector<T> t_max;
    for (const Query& q : queries) {
        rays.push_back(q.ray);
        t_max.push_back(q.t_max);
    }
    const T t_min = queries[0].t_min;
    std::vector<Hit> got(rays.size());
    bvh.pick_bundle(rays.data(), rays.size(), got.data(), t_min, t_max.data());
    for (std::size_t i = 0; i < rays.size(); ++i) {
        Hit alone;
        bvh.pick_bundle(&rays[i], 1, &alone, queries[i].t_min, queries[i].t_max);
        if (same_hit(got[i], bvh.pick(rays[i], t_min, t_max[i])) &&
            same_hit(alone, bvh.pick(rays[i], queries[i].t_min, queries[i].t_max)))
            continue;
        print_ray(rays[i], queries[i].t_min, queries[i].t_max);
        std::fprintf(stderr, " ray %zu of %zu, bundle t_min %a\n", i, rays.size(), double(t_min));
        fail(what);
    }
}

template <typename T> void run(Reader& in) {
    const bool grid = !(in.u8() & 1);
    TriangleMesh<T> m;
    const int vertices = 3 + in.u8() % 24;
    for (int i = 0; i < vertices; ++i) {
        const T x = coordinate<T>(in, grid), y = coordinate<T>(in, grid), z = coordinate<T>(in, grid);
        m.positions.push_back({x, y, z});
    }
    const int triangles = 1 + in.u8() % 32;
    bool out_of_range = false;
    for (int i = 0; i < triangles; ++i) {
        std::array<std::uint32_t, 3> t{};
        for (auto& v : t) {
            const std::uint8_t b = in.u8();
            v = b == 255 ? std::uint32_t(vertices) : b % std::uint32_t(vertices);
            out_of_range |= b == 255;
        }
        m.indices.push_back(t);
    }
    if (out_of_range) {
        try {
            MeshBvh<T> refused(m);
        } catch (const std::invalid_argument& e) {
            if (std::strstr(e.what(), "indices[")) return;
        }
        fail("a mesh with an index out of range was not refused naming the triangle");
    }
    // The widest instruction set on exact nodes, and SSE2 on quantised ones (float trees).
    const auto shared = std::make_shared<const MeshBvh<T>>(m, BatchIsa::Auto, std::numeric_limits<std::size_t>::max());
    const MeshBvh<T> sse2(m, BatchIsa::Sse2, 0);

    struct Query {
        Ray<T> ray;
        T t_min, t_max;
    };
    std::vector<Query> queries;
    const int rays = 1 + in.u8() % 6;
    for (int k = 0; k < rays; ++k) {
        const std::uint8_t mode = in.u8();
        Query q;
        q.ray.origin = Vec3<T>(coordinate<T>(in, grid), coordinate<T>(in, grid), coordinate<T>(in, grid));
        const auto& tri = m.indices[mode / 4 % m.indices.size()];
        switch (mode % 4) {
            case 0: q.ray.direction = m.positions[tri[0]] - q.ray.origin; break;
            case 1: q.ray.direction = (m.positions[tri[0]] + m.positions[tri[1]]) * T(0.5) - q.ray.origin; break;
            default: q.ray.direction = in.vec3<T>(); break;
        }
        decode_range(in, q.t_min, q.t_max);
        queries.push_back(q);
    }
    for (const Query& q : queries) {
        const auto want = pick_nearest_triangle(m, q.ray, q.t_min, q.t_max);
        for (const MeshBvh<T>* b : {shared.get(), &sse2}) {
            if (same(b->pick(q.ray, q.t_min, q.t_max), want)) continue;
            report(m, q.ray, q.t_min, q.t_max);
            fail(b == &sse2 ? "MeshBvh::pick (SSE2) differs from pick_nearest_triangle"
                            : "MeshBvh::pick differs from pick_nearest_triangle");
        }
        std::vector<std::pair<T, std::uint32_t>> every;
        for (std::uint32_t i = 0; i < m.indices.size(); ++i)
            if (const auto h = intersect(q.ray, triangle(m, i), q.t_min, q.t_max)) every.emplace_back(h->t, i);
        std::sort(every.begin(), every.end());
        const auto got = shared->hits(q.ray, q.t_min, q.t_max);
        bool ok = got.size() == every.size();
        for (std::size_t i = 0; ok && i < got.size(); ++i)
            ok = got[i].triangle == every[i].second && same_bits(got[i].t, every[i].first);
        if (!ok) {
            report(m, q.ray, q.t_min, q.t_max);
            fail("MeshBvh::hits differs from intersect() on every triangle");
        }
    }

    check_bundles(*shared, queries, "MeshBvh::pick_bundle differs from pick");
    check_bundles(sse2, queries, "MeshBvh::pick_bundle (SSE2, quantised nodes) differs from pick");

    // Three instances: the identity, the decoded map, and the decoded map moved by one unit in x.
    // The map's entries are grid values (multiples of 1/4 up to 32): a non-zero determinant is then
    // at least 1/64, so the mapped rays stay within a few hundred times the world ray's magnitude.
    // (Maps of condition 10^130 take a ray to one whose triangle tests underflow while computing t,
    // where t no longer says where along the ray the hit is, and no hierarchy can cull by it.)
    Affine<T> a;
    for (int c = 0; c < 3; ++c)
        for (int r = 0; r < 3; ++r) a.linear[c][r] = coordinate<T>(in, true);
    a.translation = Vec3<T>(coordinate<T>(in, true), coordinate<T>(in, true), coordinate<T>(in, true));
    if (validate(a)) return;
    Affine<T> moved = a;
    moved.translation.x += T(1);
    if (validate(moved)) return;
    InstanceBvh<T> instances({shared}, {{0, Affine<T>{}}, {0, a}, {0, moved}});
    for (const Query& q : queries) {
        const auto got = instances.pick(q.ray, q.t_min, q.t_max);
        const auto want = pick_nearest_instance(instances, q.ray, q.t_min, q.t_max);
        const bool ok = got.has_value() == want.has_value() &&
                        (!got || (got->instance == want->instance && got->hit.triangle == want->hit.triangle &&
                                  same_bits(got->hit.t, want->hit.t)));
        if (ok) continue;
        report(m, q.ray, q.t_min, q.t_max);
        std::fprintf(stderr, " map: %a %a %a / %a %a %a / %a %a %a + %a %a %a\n", double(a.linear[0][0]),
                     double(a.linear[0][1]), double(a.linear[0][2]), double(a.linear[1][0]), double(a.linear[1][1]),
                     double(a.linear[1][2]), double(a.linear[2][0]), double(a.linear[2][1]), double(a.linear[2][2]),
                     double(a.translation.x), double(a.translation.y), double(a.translation.z));
        const auto show = [](const char* who, const std::optional<InstanceHit<T>>& h) {
            if (!h) std::fprintf(stderr, " %s: nothing\n", who);
            else std::fprintf(stderr, " %s: instance %u triangle %u t = %a\n", who, h->instance, h->hit.triangle,
                              double(h->hit.t));
        };
        show("InstanceBvh::pick", got);
        show("pick_nearest_instance", want);
        fail("InstanceBvh::pick differs from pick_nearest_instance");
    }
    check_bundles(instances, queries, "InstanceBvh::pick_bundle differs from pick");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    Reader in(data, size);
    if (in.u8() & 1) run<double>(in);
    else run<float>(in);
    return 0;
}
