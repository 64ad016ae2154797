// Casts and picks over a scene's mesh instances: the case checker's expectations on instances, and
// the scene-level pick over shapes and instances against brute force (every shape's pick() and
// every triangle of every placement, moved to world space and intersected directly).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <optional>
#include <random>
#include <string>

#include <raypick/geometry/RayTriangle.h>
#include <raypick/scene/CaseCheck.h>
#include <raypick/scene/ModelGenerators.h>
#include <raypick/scene/SceneFile.h>
#include <raypick/scene/SceneMeshes.h>

#include "SceneTestUtil.h"

using namespace raypick;
using raypick::test::parse_ok;

namespace {

const std::string kQuadScene = R"(
  "shapes": [{"name": "slab", "type": "aabb", "min": [-1, -1, -2], "max": [1, 1, 0]}],
  "meshes": [{"name": "square", "vertices": [[-1, -1, 0], [1, -1, 0], [1, 1, 0], [-1, 1, 0]],
              "triangles": [[0, 1, 2], [0, 2, 3]]}],
  "instances": [{"name": "floor", "mesh": "square"}, {"name": "lid", "mesh": "square", "translation": [0, 0, 3]}],
  "rays": [{"name": "down", "origin": [0.5, 0.25, 5], "direction": [0, 0, -1]},
           {"name": "up", "origin": [0.5, 0.25, 1], "direction": [0, 0, 1]},
           {"name": "beside", "origin": [5, 0, 5], "direction": [0, 0, -1]}])";

Scene with(const std::string& expectations) {
    return parse_ok("{" + kQuadScene + ", \"expectations\": [" + expectations + "]}");
}

/// The seed of the random scenes: RAYPICK_SEED when set, else a fixed one.
std::uint64_t seed() {
    const char* e = std::getenv("RAYPICK_SEED");
    return e && *e ? std::strtoull(e, nullptr, 0) : 20261127u;
}

/// What brute force picks: the nearest t, and whether a shape or an instance has it (index k).
struct BrutePick {
    double t = 0.0;
    bool shape = false;
    std::size_t index = 0;
};

/// Every shape's pick(), then every triangle of every placement moved to world space; a strictly
/// nearer hit replaces the best one (so a shape keeps a tie with an instance).
std::optional<BrutePick> brute_pick(const Scene& s, const Ray<double>& ray) {
    std::optional<BrutePick> best;
    for (std::size_t j = 0; j < s.shapes.size(); ++j)
        if (const auto h = pick(ray, s.shapes[j].shape); h && (!best || h->t < best->t)) best = BrutePick{h->t, true, j};
    for (std::size_t k = 0; k < s.instances.size(); ++k) {
        const Model& model = s.meshes[s.instances[k].mesh].model;
        for (const ModelInstance& placement : model.instances) {
            const glm::dmat4 world = instance_matrix(s.instances[k]) * placement.transform;
            const ModelMesh& mesh = model.meshes[placement.mesh];
            auto at = [&](std::uint32_t v) { return Vec3<double>(world * glm::dvec4(glm::dvec3(mesh.positions[v]), 1.0)); };
            for (std::size_t t = 0; t + 2 < mesh.triangles.size(); t += 3) {
                const Triangle<double> tri{at(mesh.triangles[t]), at(mesh.triangles[t + 1]), at(mesh.triangles[t + 2])};
                if (const auto h = intersect(ray, tri); h && (!best || h->t < best->t)) best = BrutePick{h->t, false, k};
            }
        }
    }
    return best;
}

/// A random scene: spheres and boxes, and instances of an icosphere, a quad and a cube model
/// (the city's box) rotated, scaled (some mirrored) and moved within [-10, 10]^3.
Scene random_scene(std::mt19937_64& rng) {
    std::uniform_real_distribution<double> pos(-10.0, 10.0), size(0.2, 2.0), angle(-180.0, 180.0);
    Scene s;
    for (int i = 0; i < 6; ++i) {
        const Vec3<double> c(pos(rng), pos(rng), pos(rng));
        if (i % 2 == 0) {
            s.shapes.push_back({"", Sphere<double>{c, size(rng)}, ""});
        } else {
            const Vec3<double> h(size(rng), size(rng), size(rng));
            s.shapes.push_back({"", Aabb<double>{c - h, c + h}, ""});
        }
    }
    Model quad;
    quad.meshes.push_back({"quad", {{-1, -1, 0}, {1, -1, 0}, {1, 1, 0}, {-1, 1, 0}}, {}, {0, 1, 2, 0, 2, 3}});
    quad.instances.push_back({});
    s.meshes.push_back({"ball", "", make_icosphere(1), ""});
    s.meshes.push_back({"quad", "", quad, ""});
    s.meshes.push_back({"blocks", "city.gltf", make_city(2, 7), ""});  // several placements: a model file's
    s.meshes[0].model.meshes[0].name = "ball";  // an inline mesh is named as its scene mesh
    s.meshes[0].model.instances[0].name.clear();
    for (int i = 0; i < 9; ++i) {
        SceneInstance inst;
        inst.mesh = std::size_t(i % 3);
        inst.translation = {pos(rng), pos(rng), pos(rng)};
        inst.euler_degrees = {angle(rng), angle(rng), angle(rng)};
        inst.scale = {size(rng), size(rng), size(rng)};
        if (i % 4 == 1) inst.scale.x = -inst.scale.x;
        s.instances.push_back(inst);
    }
    return s;
}

}  // namespace

TEST(SceneInstanceCheck, PassingExpectationsOnInstances) {
    const Scene s = with(R"(
      {"ray": "down", "instance": "lid", "t": 2, "triangle": 0, "barycentric": [0.25, 0.125, 0.625], "normal": [0, 0, 1], "front": true},
      {"ray": "up", "instance": "lid", "t": 2, "triangle": 0, "front": false},
      {"ray": "down", "instance": "floor", "t": 5, "front": true},
      {"ray": "beside", "instance": "floor", "hit": false},
      {"ray": "down", "picked": "lid", "t": 2, "triangle": 0},
      {"ray": "up", "picked": "lid", "t": 2},
      {"ray": "beside", "picked": null})");
    for (Precision p : {Precision::Float, Precision::Double}) {
        const CaseReport r = check_case(s, p);
        for (const auto& res : r.results) EXPECT_TRUE(res.passed) << res.summary();
        ASSERT_EQ(r.results.size(), 7u);
        EXPECT_EQ(r.results[0].label, "ray \"down\" (#0) x instance \"lid\" (#1)");
        EXPECT_EQ(r.results[0].instance, std::optional<std::size_t>(1));
        EXPECT_EQ(r.results[0].expected, "t=2, triangle=0, barycentric=[0.25, 0.125, 0.625], normal=[0, 0, 1], front=true");
        EXPECT_EQ(r.results[4].got, "instance \"lid\" (#1), t=2, triangle=0");
    }
}

TEST(SceneInstanceCheck, AShapeWinsATieWithAnInstance) {
    // Without the lid the ray down meets the slab's top face and the floor both at t = 5.
    Scene s = with(R"({"ray": "down", "picked": "slab", "t": 5})");
    s.instances.pop_back();
    for (Precision p : {Precision::Float, Precision::Double}) EXPECT_TRUE(check_case(s, p).ok());
    const CastScene<double> cs = prepare_scene<double>(s);
    const auto picked = pick_scene(cs, cs.rays[0]);
    ASSERT_TRUE(picked);
    ASSERT_TRUE(picked->shape);
    EXPECT_EQ(picked->shape->shape, 0u);
    EXPECT_EQ(picked->t(), 5.0);
}

TEST(SceneInstanceCheck, FailuresSayExpectedAndGot) {
    const Scene s = with(R"(
      {"ray": "down", "instance": "lid", "t": 3, "triangle": 1, "front": false},
      {"ray": "beside", "instance": "lid", "normal": [0, 0, 1]},
      {"ray": "down", "picked": "slab", "t": 5},
      {"ray": "down", "picked": "floor", "triangle": 1},
      {"ray": "beside", "picked_instance": 0, "triangle": 0})");
    const CaseReport r = check_case(s);
    EXPECT_EQ(r.failed, 5u);
    ASSERT_EQ(r.results.size(), 5u);
    EXPECT_EQ(r.results[0].summary(),
              "expectation 0: ray \"down\" (#0) x instance \"lid\" (#1): FAILED: t expected 3, got 2 (off by 1, "
              "tolerance 0.00030000000000000003); triangle expected 1, got 0; front expected false, got true");
    EXPECT_EQ(r.results[1].summary(), "expectation 1: ray \"beside\" (#2) x instance \"lid\" (#1): FAILED: hit expected "
                                      "hit, got miss; normal expected [0, 0, 1], got miss");
    EXPECT_EQ(r.results[2].summary(), "expectation 2: ray \"down\" (#0): pick: FAILED: picked expected \"slab\" (#0), got "
                                      "instance \"lid\" (#1); t expected 5, got 2 (off by 3, tolerance 5e-04)");
    EXPECT_EQ(r.results[3].summary(), "expectation 3: ray \"down\" (#0): pick: FAILED: picked expected instance "
                                      "\"floor\" (#0), got instance \"lid\" (#1); triangle expected 1, got 0");
    EXPECT_EQ(r.results[4].summary(), "expectation 4: ray \"beside\" (#2): pick: FAILED: picked expected instance "
                                      "\"floor\" (#0), got nothing; triangle expected 0, got nothing picked");
}

TEST(SceneInstancePick, MatchesBruteForceOverShapesAndInstances) {
    const std::uint64_t base = seed();
    std::printf("SceneInstancePick seed: %llu (RAYPICK_SEED=%llu reproduces it)\n", (unsigned long long)base,
                (unsigned long long)base);
    int compared = 0, instance_picks = 0, shape_picks = 0;
    for (int scene_index = 0; scene_index < 20; ++scene_index) {
        std::mt19937_64 rng(base + std::uint64_t(scene_index));
        const Scene s = random_scene(rng);
        ASSERT_EQ(validate_scene(s), std::nullopt) << "seed " << base << ", scene " << scene_index;
        const CastScene<double> cs = prepare_scene<double>(s);
        std::uniform_real_distribution<double> pos(-12.0, 12.0), far(-40.0, 40.0);
        for (int r = 0; r < 200; ++r) {
            const Vec3<double> origin(far(rng), far(rng), far(rng));
            const Vec3<double> target(pos(rng), pos(rng), pos(rng));
            const Ray<double> ray{origin, target - origin};
            SCOPED_TRACE("seed " + std::to_string(base) + ", scene " + std::to_string(scene_index) + ", ray " +
                         std::to_string(r));
            const auto want = brute_pick(s, ray);
            const auto got = pick_scene(cs, ray);
            ASSERT_EQ(bool(want), bool(got));
            if (!want) continue;
            ++compared;
            // The world-space triangles are rounded differently from the mapped ray: t agrees to
            // rounding, and the winner's kind and index wherever the runner-up is not that close.
            EXPECT_NEAR(got->t(), want->t, 1e-9 * (1.0 + want->t));
            (got->shape ? shape_picks : instance_picks)++;
            const double gap = 1e-7 * (1.0 + want->t);
            const auto other = [&] {  // the nearest t of the other kind than brute force's winner
                Scene only = s;
                if (want->shape) only.shapes.clear();
                else only.instances.clear();
                return brute_pick(only, ray);
            }();
            if (other && other->t - want->t < gap) continue;
            ASSERT_EQ(bool(got->shape), want->shape);
            if (got->shape) EXPECT_EQ(got->shape->shape, want->index);
            else if (got->instance->instance != want->index) {
                // Another instance at a t within rounding of the winner's is an equally good pick.
                const auto mine = cast_instance(cs, want->index, ray);
                ASSERT_TRUE(mine);
                EXPECT_NEAR(mine->hit.t, got->t(), gap);
            }
        }
    }
    EXPECT_GT(instance_picks, 100);
    EXPECT_GT(shape_picks, 100);
    EXPECT_GT(compared, 500);
}

TEST(SceneInstancePick, CastInstanceTakesTheNearestPlacement) {
    // The city model places one box many times: a ray down onto building 0,0 hits placement 0 only.
    Scene s;
    s.meshes.push_back({"city", "city.gltf", make_city(2, 7), ""});
    s.instances.push_back({"c", 0, {}, {}, Vec3<double>(1.0), ""});
    const glm::dmat4& m = s.meshes[0].model.instances[0].transform;
    const Vec3<double> centre(m[3][0] + 0.5 * m[0][0], 0.0, m[3][2] + 0.5 * m[2][2]);
    const double roof = m[1][1];
    s.rays.push_back({"", {{centre.x, 100.0, centre.z}, {0, -1, 0}}, 0.0, infinity<double>(), ""});
    ASSERT_EQ(validate_scene(s), std::nullopt);
    const CastScene<double> cs = prepare_scene<double>(s);
    const auto h = cast_instance(cs, 0, cs.rays[0]);
    ASSERT_TRUE(h);
    EXPECT_EQ(h->placement, 0u);
    EXPECT_NEAR(h->hit.t, 100.0 - roof, 1e-12 * 100.0);
    EXPECT_TRUE(h->hit.front);
    EXPECT_NEAR(h->hit.normal.y, 1.0, 1e-12);
}
