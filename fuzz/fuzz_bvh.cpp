// libFuzzer target: Bvh::pick against the brute-force pick_nearest() on a few decoded shapes of all
// four types (some invalid), in float or double, with random build options; then update() of one
// shape (a drag) and the same comparison again.
//
// Input layout (fuzz/FuzzCommon.h): precision byte, shape count byte, shapes, options bytes,
// ray count byte, rays with ranges; then update index byte and the new shape.
// Invariant: the pick is identical (same shape index, same t, bit for bit): the hierarchy must
// neither lose a shape nor change the tie-break; every cast result obeys check_cast's contract;
// Bvh::pick_bundle over the queries' rays gives exactly each ray's Bvh::pick; Bvh::for_each_hit
// visits exactly the shapes whose cast hits, once each, with that cast's t values.
#include <cstddef>
#include <cstdint>
#include <vector>

#include <raypick/geometry/Bvh.h>

#include "FuzzCommon.h"

using namespace raypick;
using namespace raypick::fuzz;

namespace {

template <typename T>
void compare(const Bvh<T>& bvh, const std::vector<Shape<T>>& shapes, const Ray<T>& ray, T t_min,
             T t_max, const BvhOptions& opt, const char* stage) {
    const auto got = bvh.pick(ray, t_min, t_max);
    const auto want = pick_nearest(shapes, ray, t_min, t_max);
    const bool same = got.has_value() == want.has_value() &&
                      (!got || (got->shape == want->shape && same_bits(got->surface.t, want->surface.t)));
    if (same) return;
    // Without padding the hierarchy only promises the hits that lie inside bounds(shape); a cast
    // may report a point just outside them by rounding (a surface point of a huge shape).
    auto outside_exact_bounds = [&](const std::optional<NearestHit<T>>& p) {
        if (!p) return false;
        const Aabb<T> b = bounds(shapes[p->shape]);
        const Vec3<T> x = ray.at(p->surface.t);
        return glm::any(glm::lessThan(x, b.min)) || glm::any(glm::greaterThan(x, b.max));
    };
    if (!opt.pad_bounds && (outside_exact_bounds(got) || outside_exact_bounds(want))) return;
    std::fprintf(stderr, "raypick fuzz: Bvh::pick != pick_nearest %s (max_leaf_size %d, bins %d, pad_bounds %d, morton_above %u, morton_leaf %u, compact %d)\n",
                 stage, opt.max_leaf_size, opt.bins, int(opt.pad_bounds), opt.morton_above, opt.morton_leaf, int(bvh.compact()));
    print_ray(ray, t_min, t_max);
    for (std::size_t i = 0; i < shapes.size(); ++i) {
        std::fprintf(stderr, " shape %zu:", i);
        print_shape(shapes[i]);
    }
    auto show = [](const char* who, const std::optional<NearestHit<T>>& p) {
        if (!p) std::fprintf(stderr, " %s: nothing\n", who);
        else std::fprintf(stderr, " %s: shape %u at t = %a (%.9g)\n", who, p->shape,
                          double(p->surface.t), double(p->surface.t));
    };
    show("Bvh::pick", got);
    show("pick_nearest", want);
    fail("Bvh::pick differs from brute-force pick_nearest");
}

/// for_each_hit must visit exactly the shapes whose own cast hits, each once, with its t values
/// (padded hierarchies; unpadded ones promise only hits inside bounds(shape), as in compare()).
template <typename T>
void compare_every_hit(const Bvh<T>& bvh, const std::vector<Shape<T>>& shapes, const Ray<T>& ray, T t_min,
                       T t_max, const BvhOptions& opt, const char* stage) {
    if (!opt.pad_bounds) return;
    std::vector<int> seen(shapes.size(), 0);
    const char* wrong = nullptr;
    std::uint32_t which = 0;
    bvh.for_each_hit(ray, [&](std::uint32_t id, const RayHit<T>& h) {
        if (wrong) return;  // the first difference is the one reported
        const auto want = id < shapes.size() ? std::visit([&](const auto& x) { return cast(ray, x, t_min, t_max); }, shapes[id])
                                             : std::nullopt;
        if (!want) wrong = "visited a shape whose cast misses";
        else if (seen[id]++) wrong = "visited a shape twice";
        else if (!same_bits(h.t_near, want->t_near) || !same_bits(h.t_far, want->t_far)) wrong = "t values differ from the cast's";
        which = id;
    }, t_min, t_max);
    for (std::uint32_t i = 0; i < shapes.size() && !wrong; ++i)
        if (!seen[i] && std::visit([&](const auto& x) { return cast(ray, x, t_min, t_max).has_value(); }, shapes[i]))
            wrong = "missed a shape whose cast hits", which = i;
    if (!wrong) return;
    std::fprintf(stderr, "raypick fuzz: Bvh::for_each_hit %s: %s, shape %u\n", stage, wrong, which);
    print_ray(ray, t_min, t_max);
    print_shape(shapes[which]);
    fail("Bvh::for_each_hit differs from casting every shape");
}

/// A bundle must give exactly each ray's own Bvh::pick: the queries' rays as they are, and again
/// from the first ray's origin (coherent rays, as in the ray-cast view's tiles).
template <typename T>
void compare_bundle(const Bvh<T>& bvh, std::vector<Ray<T>> rays, T t_min, T t_max, const char* stage) {
    for (int pass = 0; pass < 2; ++pass) {
        if (pass == 1)
            for (auto& r : rays) r.origin = rays[0].origin;
        std::vector<std::optional<NearestHit<T>>> got(rays.size());
        bvh.pick_bundle(rays.data(), rays.size(), got.data(), t_min, t_max);
        for (std::size_t i = 0; i < rays.size(); ++i) {
            const auto want = bvh.pick(rays[i], t_min, t_max);
            if (got[i].has_value() == want.has_value() &&
                (!want || (got[i]->shape == want->shape && same_bits(got[i]->surface.t, want->surface.t))))
                continue;
            std::fprintf(stderr, "raypick fuzz: Bvh::pick_bundle != Bvh::pick %s, ray %zu of %zu\n", stage, i,
                         rays.size());
            print_ray(rays[i], t_min, t_max);
            fail("Bvh::pick_bundle differs from Bvh::pick");
        }
    }
}

template <typename T> void run(Reader& in) {
    const int n = 1 + in.u8() % 12;
    std::vector<Shape<T>> shapes;
    for (int i = 0; i < n; ++i) shapes.push_back(decode_shape<T>(in));
    BvhOptions opt;
    opt.max_leaf_size = 1 + in.u8() % 6;
    opt.bins = 2 + in.u8() % 15;
    const std::uint8_t flags = in.u8();
    opt.pad_bounds = !(flags & 1);
    if (flags & 2) {  // the Morton-ordered top levels, down to ranges of one to four shapes
        opt.morton_above = 0;
        opt.morton_leaf = 1u + (flags >> 2 & 3u);
    }
    // Every build of the node and leaf tests: the widest the CPU has, or SSE2, AVX2, AVX-512.
    constexpr BatchIsa kIsa[4] = {BatchIsa::Auto, BatchIsa::Sse2, BatchIsa::Avx2, BatchIsa::Avx512};
    opt.node_test_isa = kIsa[flags >> 4 & 3u];
    if (flags & 64) opt.compact_above_bytes = 0;  // pick() walks the compact nodes (where they encode)
    Bvh<T> bvh(shapes, opt);

    struct Query { Ray<T> ray; T t_min, t_max; };
    std::vector<Query> queries;
    const int rays = 1 + in.u8() % 4;
    for (int k = 0; k < rays; ++k) {
        Query q;
        q.ray = decode_ray<T>(in);
        decode_range(in, q.t_min, q.t_max);
        queries.push_back(q);
    }
    for (const auto& q : queries) {
        for (const auto& s : shapes)
            std::visit([&](const auto& x) { check_cast(q.ray, x, q.t_min, q.t_max); }, s);
        compare(bvh, shapes, q.ray, q.t_min, q.t_max, opt, "after build");
        compare_every_hit(bvh, shapes, q.ray, q.t_min, q.t_max, opt, "after build");
    }
    std::vector<Ray<T>> bundle;
    for (const auto& q : queries) bundle.push_back(q.ray);
    compare_bundle(bvh, bundle, queries[0].t_min, queries[0].t_max, "after build");

    // A drag: replace one shape, refit, compare again.
    const std::uint32_t index = in.u8() % n;
    shapes[index] = decode_shape<T>(in);
    bvh.update(index, shapes[index]);
    for (const auto& q : queries) {
        compare(bvh, shapes, q.ray, q.t_min, q.t_max, opt, "after update()");
        compare_every_hit(bvh, shapes, q.ray, q.t_min, q.t_max, opt, "after update()");
    }
    compare_bundle(bvh, bundle, queries[0].t_min, queries[0].t_max, "after update()");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    Reader in(data, size);
    if (in.u8() & 1) run<double>(in);
    else run<float>(in);
    return 0;
}
