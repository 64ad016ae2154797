// libFuzzer target: SceneBvh's queries against brute force on a small decoded scene.
//
// Input layout (fuzz/FuzzCommon.h's Reader): precision byte (odd: double); a grid cube mesh (faces
// of 1 to 3 squares a side, half size a power of two from 1/4 to 4); up to three instances of it,
// each a scale by powers of two per axis (a negative one mirrors) and a shift on the grid of
// eighths; up to four decoded shapes (an invalid one is refused, naming its field); a mask per
// object and one for the queries; then rays (decode_ray, decode_range, or aimed exactly through
// grid points of the cube's faces) and points on the grid of sixteenths.
// Invariants: SceneBvh::pick equals the brute-force pick (every shape's first surface point and
// every instance's nearest triangle: the smaller t, a shape at equal t, then the smaller index),
// with and without the mask; occluded() is exactly pick() not empty, with and without the mask;
// along a ray through the whole scene (range (-inf, inf)), each instance's crossings alternate
// Enter, Leave and come out even; classify() of each instance equals exact box containment of
// the point mapped back (the maps are exact on these grids) and contains() equals every object's
// classify(); closest_point()'s distance equals the least of every object's own closest point,
// and signed_distance()'s sign is classify()'s.
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <algorithm>
#include <cstdio>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <raypick/geometry/MeshGenerators.h>
#include <raypick/geometry/SceneBvh.h>

#include "FuzzCommon.h"

using namespace raypick;
using namespace raypick::fuzz;

namespace {

[[noreturn]] void fail(const char* what) {
    std::fprintf(stderr, "fuzz_queries: %s\n", what);
    __builtin_trap();
}

template <typename T> void run(Reader& in) {
    // The cube and its instances: every map a scale by powers of two and a shift of few bits, so
    // a grid point maps back exactly and the reference (box containment) is exact.
    const int squares = 1 + in.u8() % 3;
    const T half = std::ldexp(T(1), int(in.u8() % 5) - 2);
    const TriangleMesh<T> cube = meshgen::cube_grid<T>(squares, half);
    SceneBvh<T> scene;
    const auto mesh = scene.add_mesh(cube);
    struct Placed {
        ObjectId id;
        Vec3<T> scale, shift;
    };
    std::vector<Placed> instances;
    const int count = 1 + in.u8() % 3;
    for (int k = 0; k < count; ++k) {
        Affine<T> a;
        Vec3<T> scale, shift;
        for (int c = 0; c < 3; ++c) {
            const std::uint8_t b = in.u8();
            scale[c] = std::ldexp(T(1), int(b % 5) - 2) * (b & 0x80 ? T(-1) : T(1));
            shift[c] = T(in.i8()) / T(8);
        }
        a.linear = Mat3<T>(T(0));
        for (int c = 0; c < 3; ++c) a.linear[c][c] = scale[c];
        a.translation = shift;
        instances.push_back({scene.add_instance(mesh, a, in.u8() | 1u), scale, shift});
    }
    std::vector<std::pair<ObjectId, Shape<T>>> shapes;
    const int shape_count = in.u8() % 5;
    for (int k = 0; k < shape_count; ++k) {
        const Shape<T> s = decode_shape<T>(in);
        const std::uint32_t mask = in.u8();
        try {
            shapes.push_back({scene.add_shape(s, mask), s});
            if (!is_valid(s)) fail("an invalid shape was taken");
        } catch (const std::invalid_argument& e) {
            if (is_valid(s)) fail("a valid shape was refused");
            if (std::string(e.what()).find(shape_type_name(type_of(s))) == std::string::npos) fail("the refusal names no type");
        }
    }
    scene.commit();
    QueryFilter<T> masked;
    masked.mask = in.u8() % 3;  // 0: nothing passes; 1, 2: some objects
    const auto passes = [&](ObjectId id, const QueryFilter<T>& f) { return (scene.mask(id) & f.mask) != 0; };

    // Picks and occlusion against brute force.
    const int rays = 1 + in.u8() % 4;
    for (int r = 0; r < rays; ++r) {
        Ray<T> ray;
        T t_min = T(0), t_max = infinity<T>();
        if (in.u8() % 2) {
            ray = decode_ray<T>(in);
            decode_range(in, t_min, t_max);
        } else {
            // Through a grid point of a face of the first instance, along a direction of few bits.
            const Placed& p = instances[0];
            Vec3<T> target(T(in.i8() % 9) / T(4) * half, T(in.i8() % 9) / T(4) * half, half);
            target = target * p.scale + p.shift;
            const Vec3<T> dir(T(in.i8() % 3), T(in.i8() % 3), T(1 + in.u8() % 2));
            ray = {target - T(16) * dir, dir};
        }
        for (const QueryFilter<T>* f : std::initializer_list<const QueryFilter<T>*>{nullptr, &masked}) {
            const QueryFilter<T> filter = f ? *f : QueryFilter<T>{};
            std::optional<std::pair<T, int>> want;  // t; rank: a shape before an instance
            for (const auto& [id, s] : shapes) {
                if (!passes(id, filter)) continue;
                const auto h = cast(ray, s, t_min, t_max);
                if (!h) continue;
                const auto surface = first_surface(ray, *h, t_min, t_max);
                if (surface && (!want || surface->t < want->first)) want = std::pair{surface->t, 0};
            }
            for (std::uint32_t k = 0; k < instances.size(); ++k) {
                if (!passes(instances[k].id, filter)) continue;
                const auto h = scene.instances().pick_instance(k, ray, t_min, t_max);
                if (h && (!want || h->t < want->first)) want = std::pair{h->t, 1};
            }
            const auto got = scene.pick(ray, t_min, t_max, filter);
            if (got.has_value() != want.has_value()) {
                print_ray(ray, t_min, t_max);
                fail("pick() and brute force disagree on a hit");
            }
            if (got && got->t != want->first) {
                print_ray(ray, t_min, t_max);
                fail("pick() and brute force disagree on t");
            }
            if (scene.occluded(ray, t_min, t_max, filter) != got.has_value()) fail("occluded() is not pick() not empty");
        }
        // Crossings of the whole line: each instance's alternate.
        if (is_valid(ray)) {
            const auto cs = scene.crossings(ray, -infinity<T>(), infinity<T>());
            for (const Placed& p : instances) {
                int depth = 0;
                for (const auto& c : cs) {
                    if (c.object != p.id || c.kind == CrossingKind::Touch) continue;
                    depth += c.kind == CrossingKind::Enter ? 1 : -1;
                    if (depth < 0 || depth > 1) {
                        print_ray(ray, -infinity<T>(), infinity<T>());
                        std::fprintf(stderr, " cube: %d squares a side, half %a\n", squares, double(half));
                        for (const Placed& q : instances)
                            std::fprintf(stderr, " instance %u: scale %a %a %a shift %a %a %a\n", q.id, double(q.scale.x),
                                         double(q.scale.y), double(q.scale.z), double(q.shift.x), double(q.shift.y),
                                         double(q.shift.z));
                        for (const auto& x : cs)
                            std::fprintf(stderr, " crossing t %a object %u triangle %u kind %d\n", double(x.t), x.object,
                                         x.triangle, int(x.kind));
                        fail("an instance's crossings do not alternate");
                    }
                }
                if (depth != 0) {
                    print_ray(ray, -infinity<T>(), infinity<T>());
                    fail("an instance's crossings do not come out even");
                }
            }
        }
    }

    // Points: containment, closest points, signed distance.
    const int points = 1 + in.u8() % 4;
    for (int k = 0; k < points; ++k) {
        const Vec3<T> p(T(in.i8()) / T(16), T(in.i8()) / T(16), T(in.i8()) / T(16));
        std::vector<ObjectId> want;
        for (const Placed& inst : instances) {
            const Vec3<T> back = (p - inst.shift) / inst.scale;  // exact: powers of two, few bits
            const Containment c = containment(back, Aabb<T>{Vec3<T>(-half), Vec3<T>(half)});
            if (scene.classify(p, inst.id) != c) fail("classify() of an instance is not the box's containment");
            if (holds(c)) want.push_back(inst.id);  // instances' masks are never 0
        }
        const QueryFilter<T> all;  // an object with mask 0 takes part in no query
        for (const auto& [id, s] : shapes)
            if (passes(id, all) && holds(containment(p, s))) want.push_back(id);
        std::sort(want.begin(), want.end());
        if (const auto got = scene.contains(p); got != want) {
            print_vec("point", p);
            for (const ObjectId id : got) std::fprintf(stderr, " contains() gives %u\n", id);
            for (const ObjectId id : want) std::fprintf(stderr, " classify() gives %u\n", id);
            for (const auto& [id, s] : shapes) print_shape(s), (void)id;
            fail("contains() is not every object's classify()");
        }
        const auto c = scene.closest_point(p);
        std::optional<T> least;
        for (const auto& [id, s] : shapes)
            if (const auto sc = closest_point(p, s); passes(id, all) && sc && (!least || sc->distance < *least))
                least = sc->distance;
        if (const auto ic = scene.instances().closest_point(p); ic && (!least || ic->closest.surface.distance < *least))
            least = ic->closest.surface.distance;
        if (c.has_value() != least.has_value() || (c && c->surface.distance != *least))
            fail("closest_point() is not the least of the objects' closest points");
        if (c) {
            const Containment where = scene.classify(p, c->object);
            const T sd = *scene.signed_distance(p);
            // Inside: not positive; outside: not negative (a distance may round to 0 next to the
            // surface); on it: 0.
            const bool agrees = where == Containment::Inside    ? !(sd > T(0))
                                : where == Containment::OnSurface ? sd == T(0)
                                                                  : !(sd < T(0));
            if (!agrees) fail("signed_distance()'s sign is not classify()'s");
        }
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    Reader in(data, size);
    if (in.u8() & 1) run<double>(in);
    else run<float>(in);
    return 0;
}
