// SceneBvh's queries against brute force and against independent exact answers: crossings of rays
// exactly through shared edges and vertices of closed meshes (one crossing each, never two, never
// a lost one), contains() on points whose axis and diagonal rays pass exactly through edges and
// vertices (against box containment, exact for the cube meshes), occluded() against pick(), picks
// and crossings with masks, back-face culling and callbacks against brute force, closest points
// and signed distances against brute force and exact answers, and the scene after moves,
// additions and removals against a fresh scene. Seeds printed; RAYPICK_SEED reruns.
#include <algorithm>
#include <cstdint>
#include <iostream>
#include <map>
#include <optional>
#include <random>
#include <vector>

#include "TestUtil.h"
#include <raypick/geometry/MeshGenerators.h>
#include <raypick/geometry/SceneBvh.h>
#include <raypick/geometry/textbook/TextbookTriangle.h>

namespace raypick {
namespace {

using test::Scalars;

template <typename T> class SceneQuery : public ::testing::Test {};
TYPED_TEST_SUITE(SceneQuery, Scalars);

/// A scale and shift with few bits, so that every mapped grid point stays exact in float.
template <typename T> Affine<T> dyadic(T sx, T sy, T sz, const Vec3<T>& at) {
    Affine<T> a;
    a.linear = Mat3<T>(T(0));
    a.linear[0][0] = sx;
    a.linear[1][1] = sy;
    a.linear[2][2] = sz;
    a.translation = at;
    return a;
}

/// Enter and Leave alternate, starting with Enter, and come out even: what a ray from outside a
/// closed mesh to beyond it must show (Touches aside).
template <typename T> ::testing::AssertionResult alternates(const std::vector<Crossing<T>>& cs) {
    int depth = 0;
    for (const Crossing<T>& c : cs) {
        if (c.kind == CrossingKind::Touch) continue;
        depth += c.kind == CrossingKind::Enter ? 1 : -1;
        if (depth < 0 || depth > 1) return ::testing::AssertionFailure() << "depth " << depth << " at t " << c.t;
    }
    if (depth != 0) return ::testing::AssertionFailure() << "ends at depth " << depth;
    return ::testing::AssertionSuccess();
}

TYPED_TEST(SceneQuery, RaysThroughSharedEdgesAndVerticesCrossOnce) {
    using T = TypeParam;
    // The cube [-1, 1]^3, each face a 4 x 4 grid: grid points at multiples of 1/4 are vertices,
    // of 1/8 on grid lines edge points, all exact.
    SceneBvh<T> scene;
    const auto cube = scene.add_mesh(meshgen::cube_grid<T>(4, T(1)));
    ASSERT_TRUE(scene.closure(cube).closed()) << *scene.closure(cube).problem;
    const ObjectId id = scene.add_instance(cube, Affine<T>{});
    scene.commit();
    const std::uint32_t seed = test::seed_from_env(48001);
    std::cout << "[ seed ] SceneQuery.RaysThroughSharedEdgesAndVerticesCrossOnce: RAYPICK_SEED=" << seed << "\n";
    std::mt19937 rng(seed);
    std::uniform_int_distribution<int> grid(-8, 8), away(2, 9);
    int edges = 0, crossings = 0;
    for (int n = 0; n < 4000; ++n) {
        // A point on a face grid line, x = -1 face's (y, z) grid or another face by permutation.
        T p[3] = {T(-1), T(grid(rng)) / T(8), T(grid(rng)) / T(8)};
        if (n % 2) p[1] = T(grid(rng) / 2) / T(4);  // on a grid line in y: through an edge or vertex
        else p[2] = T(grid(rng) / 2) / T(4);
        const int axis = n % 3;
        const Vec3<T> target(p[(3 - axis) % 3], p[(4 - axis) % 3], p[(5 - axis) % 3]);
        // From outside, along an axis or a diagonal of few bits, through the target.
        Vec3<T> dir(T(0));
        for (int k = 0; k < 3; ++k) dir[k] = T(rng() % 3) - T(1);
        if (dir == Vec3<T>(T(0))) dir[axis] = T(1);
        const Vec3<T> origin = target - T(away(rng)) * dir;
        const auto cs = scene.crossings(Ray<T>{origin, dir});
        ASSERT_TRUE(alternates(cs)) << "origin " << origin.x << " " << origin.y << " " << origin.z << ", dir " << dir.x
                                    << " " << dir.y << " " << dir.z << " (case " << n << ")";
        // Through the box's interior the ray enters once and leaves once.
        const auto inside = scene.contains(origin + T(away(rng)) * dir);
        (void)inside;
        for (const auto& c : cs) {
            EXPECT_EQ(c.object, id);
            crossings += c.kind != CrossingKind::Touch;
        }
        ++edges;
    }
    EXPECT_GT(crossings, edges);  // most rays pass through the cube
    std::cout << "[ crossings ] " << edges << " rays through grid edges and vertices, " << crossings
              << " crossings, every one alternating\n";
}

TYPED_TEST(SceneQuery, TouchAtAContourEdgeIsOneTouchNotAnOddCount) {
    using T = TypeParam;
    SceneBvh<T> scene;
    scene.add_instance(scene.add_mesh(meshgen::cube_grid<T>(1, T(1))), Affine<T>{});
    scene.commit();
    // Through the cube's edge x = y = 1 from outside, diagonally: touches it there.
    const auto edge = scene.crossings(Ray<T>{{T(3), T(-1), T(0)}, {T(-1), T(1), T(0)}});
    ASSERT_EQ(edge.size(), 1u);
    EXPECT_EQ(edge[0].kind, CrossingKind::Touch);
    EXPECT_EQ(edge[0].t, T(2));
    // Through its corner (1, 1, 1) from outside along (-1, 1, 1): a touch at the vertex.
    const auto corner = scene.crossings(Ray<T>{{T(2), T(0), T(0)}, {T(-1), T(1), T(1)}});
    ASSERT_EQ(corner.size(), 1u);
    EXPECT_EQ(corner[0].kind, CrossingKind::Touch);
    // Along a face, in its plane: an even count (the moved ray passes just inside or outside).
    EXPECT_TRUE(alternates(scene.crossings(Ray<T>{{T(-3), T(1), T(0)}, {T(1), T(0), T(0)}})));
    EXPECT_TRUE(alternates(scene.crossings(Ray<T>{{T(-3), T(1), T(1)}, {T(1), T(0), T(0)}})));
    // Straight through the shared edge x = -1, y = 0 of the two triangles of a face of cube_grid(2):
    // one Enter and one Leave.
    SceneBvh<T> grid;
    grid.add_instance(grid.add_mesh(meshgen::cube_grid<T>(2, T(1))), Affine<T>{});
    grid.commit();
    const auto through = grid.crossings(Ray<T>{{T(-3), T(0), T(0.5)}, {T(1), T(0), T(0)}});
    ASSERT_EQ(through.size(), 2u);
    EXPECT_EQ(through[0].kind, CrossingKind::Enter);
    EXPECT_EQ(through[0].t, T(2));
    EXPECT_EQ(through[1].kind, CrossingKind::Leave);
    EXPECT_EQ(through[1].t, T(4));
}

/// Whether p lies in the closed box [lo, hi] (Inside, OnSurface or Outside), exactly.
template <typename T> Containment box_containment(const Vec3<T>& p, const Vec3<T>& lo, const Vec3<T>& hi) {
    return containment(p, Aabb<T>{lo, hi});
}

TYPED_TEST(SceneQuery, ContainsOnPointsWhoseAxisRaysPassThroughEdgesAndVertices) {
    using T = TypeParam;
    // Two grid cubes in one mesh (disjoint: a non-convex solid), and the same mesh placed again
    // mirrored in x, scaled and moved (all by powers of two: every mapped grid point is exact).
    TriangleMesh<T> two = meshgen::cube_grid<T>(4, T(1));
    const TriangleMesh<T> other = meshgen::cube_grid<T>(2, T(0.5));
    const auto base = std::uint32_t(two.positions.size());
    for (const auto& v : other.positions) two.positions.push_back(v + Vec3<T>(T(3), T(0), T(0)));
    for (const auto& f : other.indices) two.indices.push_back({f[0] + base, f[1] + base, f[2] + base});
    SceneBvh<T> scene;
    const auto mesh = scene.add_mesh(two);
    ASSERT_TRUE(scene.closure(mesh).closed()) << *scene.closure(mesh).problem;
    const ObjectId plain = scene.add_instance(mesh, Affine<T>{});
    const Affine<T> mirror = dyadic(T(-1), T(2), T(1), Vec3<T>(T(0), T(8), T(0)));
    const ObjectId mirrored = scene.add_instance(mesh, mirror);
    scene.commit();
    const auto reference = [&](const Vec3<T>& p, ObjectId id) {
        // Back into the mesh (exact: the map's entries are powers of two), then the two boxes.
        Vec3<T> q = p;
        if (id == mirrored) q = Vec3<T>(-p.x, (p.y - T(8)) / T(2), p.z);
        const Containment a = box_containment(q, Vec3<T>(T(-1)), Vec3<T>(T(1)));
        const Containment b = box_containment(q, Vec3<T>(T(2.5), T(-0.5), T(-0.5)), Vec3<T>(T(3.5), T(0.5), T(0.5)));
        if (a == Containment::OnSurface || b == Containment::OnSurface) return Containment::OnSurface;
        return a == Containment::Inside || b == Containment::Inside ? Containment::Inside : Containment::Outside;
    };
    // Points on the grid of eighths: their rays along every axis and diagonal pass exactly through
    // edges and vertices of the face grids. Parity along +x with Möller–Trumbore is counted beside.
    int points = 0, wrong_parity = 0, on_surface = 0;
    for (int i = -12; i <= 30; ++i)
        for (int j = -10; j <= 10; ++j)
            for (int k = -10; k <= 10; k += 3) {
                const Vec3<T> p(T(i) / T(8), T(j) / T(8), T(k) / T(8));
                for (const ObjectId id : {plain, mirrored}) {
                    const Vec3<T> at = id == plain ? p : apply(mirror, p);
                    const Containment want = reference(at, id);
                    ASSERT_EQ(scene.classify(at, id), want) << "point " << at.x << " " << at.y << " " << at.z
                                                            << " object " << id;
                    const auto ids = scene.contains(at);
                    EXPECT_EQ(std::count(ids.begin(), ids.end(), id), holds(want) ? 1 : 0);
                    on_surface += want == Containment::OnSurface;
                    ++points;
                }
                if (reference(p, plain) == Containment::OnSurface) continue;
                int hits = 0;
                for (std::uint32_t f = 0; f < two.indices.size(); ++f)
                    hits += textbook::triangle_moller_trumbore(Ray<T>{p, Vec3<T>(T(1), T(0), T(0))}, triangle(two, f)).has_value();
                wrong_parity += (hits % 2 == 1) != (reference(p, plain) == Containment::Inside);
            }
    std::cout << "[ contains ] " << points << " points (" << on_surface << " on the surface): 0 wrong; parity along +x"
              << " with Möller–Trumbore: " << wrong_parity << " wrong\n";
}

TYPED_TEST(SceneQuery, ContainsOnSphereMeshAgainstItsFacePlanes) {
    using T = TypeParam;
    // A UV sphere is convex: inside exactly when on the inner side of every face's plane (exact
    // orient3d), away from the few points that rounding of its vertices could make non-convex.
    const TriangleMesh<T> ball = meshgen::uv_sphere<T>(12, 24, T(1));
    SceneBvh<T> scene;
    const ObjectId id = scene.add_instance(scene.add_mesh(ball), Affine<T>{});
    scene.commit();
    const std::uint32_t seed = test::seed_from_env(48002);
    std::cout << "[ seed ] SceneQuery.ContainsOnSphereMeshAgainstItsFacePlanes: RAYPICK_SEED=" << seed << "\n";
    test::Random rnd(seed);
    for (int n = 0; n < 3000; ++n) {
        const Vec3<T> p(rnd.cube() * 1.2);
        int below = 0, above = 0;
        for (std::uint32_t f = 0; f < ball.indices.size(); ++f) {
            const Triangle<T> t = triangle(ball, f);
            if (is_degenerate(t)) continue;
            const int o = exact::orient3d(t.a, t.b, t.c, p);
            below += o > 0;
            above += o < 0;
        }
        if (above == 0 && below == 0) continue;
        const Containment want = above == 0 ? Containment::Inside : Containment::Outside;
        if (above == 0 && below < int(ball.indices.size()) - 24) continue;  // on a face plane: skip
        ASSERT_EQ(scene.classify(p, id), want) << "case " << n << " point " << p.x << " " << p.y << " " << p.z;
    }
}

/// A scene of mixed shapes and mesh instances, and the same objects in plain lists for brute force.
template <typename T> struct Mixed {
    SceneBvh<T> scene;
    std::vector<ObjectId> shape_ids, instance_ids;
    std::vector<Shape<T>> shapes;
    std::vector<Instance<T>> instances;
    std::vector<TriangleMesh<T>> meshes;
};

template <typename T> Mixed<T> mixed_scene(std::uint32_t seed) {
    Mixed<T> m;
    test::Random rnd(seed);
    m.meshes = {meshgen::uv_sphere<T>(6, 12, T(1)), meshgen::cube_grid<T>(2, T(1))};
    for (const auto& mesh : m.meshes) m.scene.add_mesh(mesh);
    for (int k = 0; k < 40; ++k) {
        const Vec3<T> c(rnd.cube() * 8.0);
        Shape<T> s;
        switch (k % 5) {
            case 0: s = Sphere<T>{c, T(0.3 + 0.5 * std::abs(rnd.sym()))}; break;
            case 1: s = Aabb<T>{c - T(0.5), c + T(0.5)}; break;
            case 2: s = Obb<T>{c, Mat3<T>(T(1)), Vec3<T>(T(0.4), T(0.6), T(0.2))}; break;
            case 3: s = Capsule<T>{c, c + Vec3<T>(rnd.unit()), T(0.3)}; break;
            default: s = Triangle<T>{c, c + Vec3<T>(T(1), T(0), T(0)), c + Vec3<T>(T(0), T(1), T(0))}; break;
        }
        m.shapes.push_back(s);
        m.shape_ids.push_back(m.scene.add_shape(s, k % 3 == 0 ? 1u : 2u));
    }
    for (int k = 0; k < 12; ++k) {
        Affine<T> a;
        a.linear = Mat3<T>(T(0.5 + std::abs(rnd.sym())));
        if (k % 4 == 1) a.linear[0][0] = -a.linear[0][0];  // mirrored
        a.translation = Vec3<T>(rnd.cube() * 8.0);
        const Instance<T> inst{std::uint32_t(k % 2), a};
        m.instances.push_back(inst);
        m.instance_ids.push_back(m.scene.add_instance(inst.mesh, a, k % 3 == 0 ? 1u : 2u));
    }
    m.scene.commit();
    return m;
}

/// Every hit the filter lets through, by brute force: (t, object, triangle, front, rank for ties).
template <typename T> struct Candidate {
    T t;
    int side;  // 0 shape, 1 instance (a shape wins a tie)
    std::uint32_t slot, triangle;
    ObjectId object;
};

template <typename T>
std::vector<Candidate<T>> brute_hits(const Mixed<T>& m, const Ray<T>& ray, T t_min, T t_max, const QueryFilter<T>& f) {
    std::vector<Candidate<T>> out;
    const auto mask_of = [&](ObjectId id) { return m.scene.mask(id); };
    for (std::uint32_t k = 0; k < m.shapes.size(); ++k) {
        const ObjectId id = m.shape_ids[k];
        if ((mask_of(id) & f.mask) == 0) continue;
        const auto h = cast(ray, m.shapes[k], t_min, t_max);
        if (!h) continue;
        const bool is_tri = std::holds_alternative<Triangle<T>>(m.shapes[k]);
        std::vector<std::pair<T, bool>> points;  // t, front
        if (is_tri) {
            const auto th = intersect(ray, std::get<Triangle<T>>(m.shapes[k]), t_min, t_max);
            points.push_back({th->t, th->front});
        } else {
            if (h->t_near >= t_min) points.push_back({h->t_near, true});
            if (h->t_far <= t_max && h->t_far > h->t_near) points.push_back({h->t_far, false});
        }
        for (const auto& [t, front] : points) {
            if (f.cull_back_faces && is_tri && !front) continue;
            if (f.accept && !f.accept({id, kNoTriangle, t, front})) continue;
            out.push_back({t, 0, k, kNoTriangle, id});
        }
    }
    for (std::uint32_t k = 0; k < m.instances.size(); ++k) {
        const ObjectId id = m.instance_ids[k];
        if ((mask_of(id) & f.mask) == 0) continue;
        const Instance<T>& inst = m.instances[k];
        const auto p = mesh_instances::placed(inst, m.scene.meshes()[inst.mesh].get(), k);
        for (const auto& h : m.scene.meshes()[inst.mesh]->hits(mesh_instances::to_mesh(p, ray), t_min, t_max)) {
            if (f.cull_back_faces && !h.front) continue;
            if (f.accept && !f.accept({id, h.triangle, h.t, h.front})) continue;
            out.push_back({h.t, 1, k, h.triangle, id});
        }
    }
    std::sort(out.begin(), out.end(), [](const Candidate<T>& a, const Candidate<T>& b) {
        if (a.t != b.t) return a.t < b.t;
        if (a.side != b.side) return a.side < b.side;
        if (a.slot != b.slot) return a.slot < b.slot;
        return a.triangle < b.triangle;
    });
    return out;
}

TYPED_TEST(SceneQuery, PickAndOccludedWithFiltersEqualBruteForce) {
    using T = TypeParam;
    const std::uint32_t seed = test::seed_from_env(48003);
    std::cout << "[ seed ] SceneQuery.PickAndOccludedWithFiltersEqualBruteForce: RAYPICK_SEED=" << seed << "\n";
    const Mixed<T> m = mixed_scene<T>(seed);
    test::Random rnd(seed + 1);
    std::vector<QueryFilter<T>> filters(5);
    filters[1].mask = 1;
    filters[2].cull_back_faces = true;
    filters[3].accept = [](const HitCandidate<T>& c) { return (c.object + c.triangle) % 3 != 0; };
    filters[4].mask = 2;
    filters[4].cull_back_faces = true;
    filters[4].accept = [](const HitCandidate<T>& c) { return c.front || c.object % 2 == 0; };
    int hits = 0;
    for (int n = 0; n < 1500; ++n) {
        const Ray<T> ray{Vec3<T>(rnd.cube() * 12.0), Vec3<T>(rnd.unit())};
        const T t_min = n % 4 == 0 ? T(2) : T(0), t_max = n % 5 == 0 ? T(9) : infinity<T>();
        for (std::size_t fi = 0; fi < filters.size(); ++fi) {
            const auto& f = filters[fi];
            const auto want = brute_hits(m, ray, t_min, t_max, f);
            const auto got = m.scene.pick(ray, t_min, t_max, f);
            ASSERT_EQ(got.has_value(), !want.empty()) << "ray " << n << " filter " << fi;
            EXPECT_EQ(m.scene.occluded(ray, t_min, t_max, f), !want.empty()) << "ray " << n << " filter " << fi;
            if (!got) continue;
            ++hits;
            ASSERT_EQ(got->object, want[0].object) << "ray " << n << " filter " << fi;
            EXPECT_EQ(got->triangle, want[0].triangle);
            EXPECT_EQ(got->t, want[0].t);
            EXPECT_TRUE(test::same_bits(got->point, ray.at(got->t))) << "ray " << n << " filter " << fi;
        }
    }
    EXPECT_GT(hits, 200);
}

TYPED_TEST(SceneQuery, CrossingsOfShapesEqualBruteForceAndClosedMeshesAlternate) {
    using T = TypeParam;
    const std::uint32_t seed = test::seed_from_env(48004);
    std::cout << "[ seed ] SceneQuery.CrossingsOfShapesEqualBruteForceAndClosedMeshesAlternate: RAYPICK_SEED=" << seed
              << "\n";
    const Mixed<T> m = mixed_scene<T>(seed);
    test::Random rnd(seed + 1);
    for (int n = 0; n < 1500; ++n) {
        // From far outside everything through the scene and beyond: each object's crossings
        // alternate.
        const Vec3<T> dir(rnd.unit());
        const Ray<T> ray{Vec3<T>(rnd.cube() * 4.0) - T(40) * dir, dir};
        const auto cs = m.scene.crossings(ray);
        std::map<ObjectId, std::vector<Crossing<T>>> per;
        for (const auto& c : cs) per[c.object].push_back(c);
        for (std::size_t k = 1; k < cs.size(); ++k) ASSERT_LE(cs[k - 1].t, cs[k].t);
        for (std::uint32_t k = 0; k < m.instances.size(); ++k)
            ASSERT_TRUE(alternates(per[m.instance_ids[k]])) << "ray " << n << " instance " << k;
        // Shapes: entry and exit of each cast.
        for (std::uint32_t k = 0; k < m.shapes.size(); ++k) {
            const auto h = cast(ray, m.shapes[k]);
            const auto& got = per[m.shape_ids[k]];
            if (!h) {
                EXPECT_TRUE(got.empty());
                continue;
            }
            if (std::holds_alternative<Triangle<T>>(m.shapes[k]) || h->t_near == h->t_far) {
                ASSERT_EQ(got.size(), 1u);
                EXPECT_EQ(got[0].t, h->t_near);
                continue;
            }
            ASSERT_EQ(got.size(), 2u) << "ray " << n << " shape " << k;
            EXPECT_EQ(got[0].t, h->t_near);
            EXPECT_EQ(got[0].kind, CrossingKind::Enter);
            EXPECT_EQ(got[1].t, h->t_far);
            EXPECT_EQ(got[1].kind, CrossingKind::Leave);
        }
    }
}

TYPED_TEST(SceneQuery, ContainsEqualsClassifyOfEveryObject) {
    using T = TypeParam;
    const std::uint32_t seed = test::seed_from_env(48005);
    std::cout << "[ seed ] SceneQuery.ContainsEqualsClassifyOfEveryObject: RAYPICK_SEED=" << seed << "\n";
    const Mixed<T> m = mixed_scene<T>(seed);
    test::Random rnd(seed + 1);
    int inside = 0;
    for (int n = 0; n < 3000; ++n) {
        const Vec3<T> p(rnd.cube() * 9.0);
        std::vector<ObjectId> want;
        for (std::uint32_t k = 0; k < m.shapes.size(); ++k)
            if (holds(containment(p, m.shapes[k]))) want.push_back(m.shape_ids[k]);
        for (const ObjectId id : m.instance_ids)
            if (holds(m.scene.classify(p, id))) want.push_back(id);
        std::sort(want.begin(), want.end());
        ASSERT_EQ(m.scene.contains(p), want) << "point " << n;
        inside += !want.empty();
        QueryFilter<T> only1;
        only1.mask = 1;
        for (const ObjectId id : m.scene.contains(p, only1)) EXPECT_NE(m.scene.mask(id) & 1u, 0u);
    }
    EXPECT_GT(inside, 50);
}

TYPED_TEST(SceneQuery, ClosestPointEqualsTheNearerHierarchyAndSignedDistanceHasTheExactSign) {
    using T = TypeParam;
    const std::uint32_t seed = test::seed_from_env(48007);
    std::cout << "[ seed ] SceneQuery.ClosestPointEqualsTheNearerHierarchyAndSignedDistanceHasTheExactSign: RAYPICK_SEED="
              << seed << "\n";
    const Mixed<T> m = mixed_scene<T>(seed);
    test::Random rnd(seed + 1);
    QueryFilter<T> only1;
    only1.mask = 1;
    for (int n = 0; n < 400; ++n) {
        const Vec3<T> p(rnd.cube() * 10.0);
        const T max_distance = n % 3 == 0 ? T(1.5) : infinity<T>();
        for (const QueryFilter<T>* f : std::initializer_list<const QueryFilter<T>*>{nullptr, &only1}) {
            // Brute force over the objects the mask lets through: each shape's closest_point(),
            // each instance's placed triangles.
            std::optional<std::pair<T, ObjectId>> want;
            for (std::uint32_t k = 0; k < m.shapes.size(); ++k) {
                if (f && (m.scene.mask(m.shape_ids[k]) & f->mask) == 0) continue;
                const auto c = closest_point(p, m.shapes[k]);
                if (c && c->distance <= max_distance && (!want || c->distance < want->first))
                    want = std::pair{c->distance, m.shape_ids[k]};
            }
            for (std::uint32_t k = 0; k < m.instances.size(); ++k) {
                if (f && (m.scene.mask(m.instance_ids[k]) & f->mask) == 0) continue;
                const Instance<T>& inst = m.instances[k];
                const MeshBvh<T>& mesh = *m.scene.meshes()[inst.mesh];
                const mesh_instances::NormalFrame<T> frame(glm::inverse(inst.transform.linear));
                for (std::uint32_t t = 0; t < mesh.triangle_count(); ++t) {
                    const auto c = mesh_instances::closest_placed(p, inst.transform, frame, triangle(mesh.mesh(), t));
                    if (c && c->surface.distance <= max_distance && (!want || c->surface.distance < want->first))
                        want = std::pair{c->surface.distance, m.instance_ids[k]};
                }
            }
            const auto got = f ? m.scene.closest_point(p, max_distance, *f) : m.scene.closest_point(p, max_distance);
            ASSERT_EQ(got.has_value(), want.has_value()) << "point " << n;
            if (!got) continue;
            EXPECT_EQ(got->surface.distance, want->first) << "point " << n;
            if (got->object != want->second) {
                // Only a tie may differ in who wins it, never in distance.
                EXPECT_EQ(got->surface.distance, want->first);
            }
            const Containment where = m.scene.classify(p, got->object);
            const T sd = *m.scene.signed_distance(p, max_distance, f ? *f : QueryFilter<T>{});
            if (where == Containment::Inside) EXPECT_EQ(sd, -got->surface.distance) << "point " << n;
            else if (where == Containment::OnSurface) EXPECT_EQ(sd, T(0));
            else EXPECT_EQ(sd, got->surface.distance) << "point " << n;
            EXPECT_EQ(got->surface.inside, where == Containment::Inside);
        }
    }
}

TYPED_TEST(SceneQuery, SignedDistanceOnTheHardPointsOfAGridCube) {
    using T = TypeParam;
    // Points on the grid of eighths around the grid cube [-1, 1]^3: the sign is the exact box
    // containment's, the magnitude the distance to the box's surface (exact on this grid).
    SceneBvh<T> scene;
    scene.add_instance(scene.add_mesh(meshgen::cube_grid<T>(4, T(1))), Affine<T>{});
    scene.commit();
    int points = 0;
    for (int i = -12; i <= 12; ++i)
        for (int j = -12; j <= 12; j += 2)
            for (int k = -12; k <= 12; k += 3) {
                const Vec3<T> p(T(i) / T(8), T(j) / T(8), T(k) / T(8));
                const Containment c = containment(p, Aabb<T>{Vec3<T>(T(-1)), Vec3<T>(T(1))});
                // The distance to the box's surface, exactly: inside, to the nearest face; outside,
                // to the box.
                T want;
                if (c == Containment::Outside) {
                    const Vec3<T> out = glm::max(glm::abs(p) - T(1), Vec3<T>(T(0)));
                    want = std::sqrt(glm::dot(out, out));
                } else {
                    want = -(T(1) - std::max(std::abs(p.x), std::max(std::abs(p.y), std::abs(p.z))));
                }
                const T got = *scene.signed_distance(p);
                ASSERT_EQ(got < T(0), c == Containment::Inside) << p.x << " " << p.y << " " << p.z;
                ASSERT_EQ(got == T(0), c == Containment::OnSurface) << p.x << " " << p.y << " " << p.z;
                EXPECT_NEAR(double(got), double(want), 4 * double(std::numeric_limits<T>::epsilon()))
                    << p.x << " " << p.y << " " << p.z;
                ++points;
            }
    EXPECT_GT(points, 2000);
}

TYPED_TEST(SceneQuery, EditsThenCommitEqualAFreshScene) {
    using T = TypeParam;
    const std::uint32_t seed = test::seed_from_env(48006);
    std::cout << "[ seed ] SceneQuery.EditsThenCommitEqualAFreshScene: RAYPICK_SEED=" << seed << "\n";
    Mixed<T> m = mixed_scene<T>(seed);
    test::Random rnd(seed + 1);
    // Move some shapes and instances (refit), then remove and add (rebuild), checking each time.
    const auto check = [&](const char* stage) {
        SceneBvh<T> fresh;
        for (const auto& mesh : m.meshes) fresh.add_mesh(mesh);
        std::vector<ObjectId> to_fresh(1000, kNoObject);
        for (std::size_t k = 0; k < m.shapes.size(); ++k)
            if (m.scene.contains_object(m.shape_ids[k])) to_fresh[m.shape_ids[k]] = fresh.add_shape(m.shapes[k]);
        for (std::size_t k = 0; k < m.instances.size(); ++k)
            if (m.scene.contains_object(m.instance_ids[k]))
                to_fresh[m.instance_ids[k]] = fresh.add_instance(m.instances[k].mesh, m.instances[k].transform);
        fresh.commit();
        int hits = 0;
        for (int n = 0; n < 300; ++n) {
            const Ray<T> ray{Vec3<T>(rnd.cube() * 12.0), Vec3<T>(rnd.unit())};
            const auto a = m.scene.pick(ray), b = fresh.pick(ray);
            ASSERT_EQ(a.has_value(), b.has_value()) << stage << " ray " << n;
            if (!a) continue;
            EXPECT_EQ(to_fresh[a->object], b->object) << stage << " ray " << n;
            EXPECT_EQ(a->t, b->t);
            ++hits;
        }
        EXPECT_GT(hits, 10) << stage;
    };
    for (int k = 0; k < 10; ++k) {
        const Vec3<T> c(rnd.cube() * 8.0);
        m.shapes[std::size_t(k) * 3] = Sphere<T>{c, T(0.7)};
        m.scene.set_shape(m.shape_ids[std::size_t(k) * 3], m.shapes[std::size_t(k) * 3]);
    }
    for (std::size_t k = 0; k < m.instances.size(); k += 2) {
        m.instances[k].transform.translation += Vec3<T>(rnd.cube() * 3.0);
        m.scene.set_transform(m.instance_ids[k], m.instances[k].transform);
    }
    EXPECT_THROW(m.scene.pick(Ray<T>{Vec3<T>(T(0)), Vec3<T>(T(1), T(0), T(0))}), std::logic_error);
    m.scene.commit();
    check("moved");
    m.scene.remove(m.shape_ids[4]);
    m.scene.remove(m.instance_ids[3]);
    m.shapes.push_back(Sphere<T>{Vec3<T>(T(1)), T(2)});
    m.shape_ids.push_back(m.scene.add_shape(m.shapes.back()));
    m.scene.commit();
    check("removed and added");
}

TYPED_TEST(SceneQuery, BadInputIsRefusedNamingWhatIsWrong) {
    using T = TypeParam;
    SceneBvh<T> scene;
    try {
        scene.add_shape(Sphere<T>{Vec3<T>(T(0)), T(-1)});
        FAIL() << "a negative radius was taken";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("sphere.radius"), std::string::npos) << e.what();
    }
    EXPECT_THROW(scene.add_instance(3, Affine<T>{}), std::invalid_argument);
    const auto mesh = scene.add_mesh(meshgen::cube_grid<T>(1, T(1)));
    Affine<T> flat;
    flat.linear[2][2] = T(0);
    EXPECT_THROW(scene.add_instance(mesh, flat), std::invalid_argument);
    EXPECT_THROW(scene.remove(77), std::invalid_argument);
    const ObjectId s = scene.add_shape(Sphere<T>{Vec3<T>(T(0)), T(1)});
    EXPECT_THROW(scene.set_transform(s, Affine<T>{}), std::invalid_argument);
    scene.commit();
    // Invalid rays and points answer nothing, never crash.
    const Ray<T> bad{Vec3<T>(T(0)), Vec3<T>(T(0))};
    EXPECT_FALSE(scene.pick(bad));
    EXPECT_FALSE(scene.occluded(bad));
    EXPECT_TRUE(scene.crossings(bad).empty());
    EXPECT_TRUE(scene.contains(Vec3<T>(std::numeric_limits<T>::quiet_NaN())).empty());
    // An open mesh has no inside, and says why.
    TriangleMesh<T> open = meshgen::cube_grid<T>(1, T(1));
    open.indices.pop_back();
    const auto o = scene.add_mesh(open);
    EXPECT_FALSE(scene.closure(o).closed());
    EXPECT_NE(scene.closure(o).problem->find("boundary edge"), std::string::npos) << *scene.closure(o).problem;
    const ObjectId inst = scene.add_instance(o, Affine<T>{});
    scene.commit();
    EXPECT_EQ(scene.classify(Vec3<T>(T(0)), inst), Containment::NoInside);
    EXPECT_TRUE(scene.contains(Vec3<T>(T(0.25))).size() == 1u);  // the sphere only
}

}  // namespace
}  // namespace raypick
