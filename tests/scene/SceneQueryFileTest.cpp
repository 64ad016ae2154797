// The scene queries in case files: points, masks and the query expectations (occluded, crossings,
// classify, contains, filtered picks) — how they read, where a bad one is reported, that they
// round-trip, that SceneQuery maps the SceneBvh's objects back to the file's, and that the checker
// fails a wrong expectation saying what was expected and what the core answered.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <variant>

#include <raypick/scene/CaseCheck.h>
#include <raypick/scene/SceneFile.h>
#include <raypick/scene/SceneQuery.h>

#include "SceneTestUtil.h"

using namespace raypick;
using raypick::test::error_of;
using raypick::test::parse_ok;

namespace {

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }
#define EXPECT_CONTAINS(s, part) EXPECT_TRUE(contains((s), (part))) << "in: " << (s) << "\nmissing: " << (part)

/// A ball (mask 1) at z = 5 and a closed cube mesh (mask 2) placed at z = 10, a ray up the z axis
/// through both, and points in and beside them.
const std::string kScene = R"(
  "shapes": [{"name": "ball", "type": "sphere", "center": [0, 0.25, 5], "radius": 1, "mask": 1}],
  "meshes": [{"name": "cube",
    "vertices": [[-1, -1, -1], [1, -1, -1], [-1, 1, -1], [1, 1, -1], [-1, -1, 1], [1, -1, 1], [-1, 1, 1], [1, 1, 1]],
    "triangles": [[0, 2, 1], [1, 2, 3], [4, 5, 6], [5, 7, 6], [0, 1, 4], [1, 5, 4], [2, 6, 3], [3, 6, 7],
                  [0, 4, 2], [2, 4, 6], [1, 3, 5], [3, 7, 5]]}],
  "instances": [{"name": "box", "mesh": "cube", "translation": [0, 0, 10], "mask": 2}],
  "rays": [{"name": "up", "origin": [0, 0.25, 0], "direction": [0, 0, 1]},
           {"name": "short", "origin": [0, 0.25, 0], "direction": [0, 0, 1], "t_max": 3}],
  "points": [{"name": "in ball", "position": [0, 0.25, 5]},
             {"name": "on box", "position": [0, 0, 11]},
             {"name": "nowhere", "position": [7, 7, 7], "description": "outside everything"}])";

Scene with(const std::string& expectations) {
    return parse_ok("{" + kScene + ", \"expectations\": [" + expectations + "]}");
}

SceneLoadError bad(const std::string& expectations) {
    return error_of("{" + kScene + ", \"expectations\": [" + expectations + "]}");
}

}  // namespace

TEST(SceneQueryFile, PointsMasksAndQueryExpectationsRead) {
    const Scene s = with(R"(
      {"ray": "up", "occluded": true, "mask": 2, "cull_back_faces": true},
      {"ray": "up", "crossings": 4, "crossing_t": [4, 6, 9, 11], "crossing_kinds": ["enter", "leave", "enter", "leave"]},
      {"ray": "up", "object": "box", "crossing_kinds": ["enter", "leave"]},
      {"point": "in ball", "object": "ball", "inside": true, "containment": "inside"},
      {"point": "on box", "contained_by": ["box", {"shape": 0}], "mask": 3},
      {"ray": "up", "picked": "box", "t": 9, "mask": 4294967294})");
    ASSERT_EQ(s.points.size(), 3u);
    EXPECT_EQ(s.points[1].name, "on box");
    EXPECT_EQ(s.points[1].position, Vec3<double>(0, 0, 11));
    EXPECT_EQ(s.points[2].description, "outside everything");
    EXPECT_EQ(s.shapes[0].mask, 1u);
    EXPECT_EQ(s.instances[0].mask, 2u);
    ASSERT_EQ(s.expectations.size(), 6u);
    const auto& e = s.expectations;
    EXPECT_EQ(e[0].kind(), ExpectationKind::Occluded);
    EXPECT_EQ(e[0].mask, std::optional<std::uint32_t>(2));
    EXPECT_EQ(e[0].cull_back_faces, std::optional<bool>(true));
    EXPECT_EQ(e[1].kind(), ExpectationKind::Crossings);
    EXPECT_EQ(e[1].crossing_count, std::optional<std::size_t>(4));
    EXPECT_EQ(*e[1].crossing_t, (std::vector<double>{4, 6, 9, 11}));
    EXPECT_EQ(e[1].crossing_kinds->at(1), CrossingKind::Leave);
    EXPECT_EQ(e[2].kind(), ExpectationKind::Crossings);
    EXPECT_EQ(e[2].instance, std::optional<std::size_t>(0));  // "object" resolves to the instance
    EXPECT_EQ(e[3].kind(), ExpectationKind::Classify);
    EXPECT_EQ(e[3].point, std::optional<std::size_t>(0));
    EXPECT_EQ(e[3].shape, std::optional<std::size_t>(0));
    EXPECT_EQ(e[3].containment, Containment::Inside);
    EXPECT_EQ(e[4].kind(), ExpectationKind::Contains);
    EXPECT_EQ(*e[4].contained_by, (std::vector<SceneObjectRef>{SceneObjectRef::instance(0), SceneObjectRef::shape(0)}));
    EXPECT_EQ(e[5].kind(), ExpectationKind::Pick);
    EXPECT_EQ(e[5].mask, std::optional<std::uint32_t>(4294967294u));
    EXPECT_TRUE(e[5].is_pick());
}

TEST(SceneQueryFile, BadPointsAreReportedWhereTheyAre) {
    const std::string text = "{\"points\": [{\"name\": \"p\", \"position\": [0, 0, 0]},\n"
                             "  {\"name\": \"q\", \"position\": [0, \"nan\", 0]}]}";
    const auto e = error_of(text);
    EXPECT_EQ(e.pointer, "/points/1/position/1");
    EXPECT_EQ(e.line, 2);
    EXPECT_CONTAINS(e.message, "NaN and infinity are not allowed");
    EXPECT_EQ(error_of(R"({"points": [{"name": "p"}]})").pointer, "/points/0");
    EXPECT_CONTAINS(error_of(R"({"points": [{"name": "p"}]})").message, "missing field \"position\"");
    EXPECT_EQ(error_of(R"({"points": [{"position": [0, 0]}]})").pointer, "/points/0/position");
    EXPECT_EQ(error_of(R"({"points": [{"position": [0, 0, 0], "radius": 1}]})").pointer, "/points/0/radius");
    EXPECT_EQ(error_of(R"({"points": {}})").pointer, "/points");
    const auto dup = error_of(R"({"points": [{"name": "p", "position": [0, 0, 0]}, {"name": "p", "position": [1, 0, 0]}]})");
    EXPECT_EQ(dup.pointer, "/points/1/name");
    EXPECT_CONTAINS(dup.message, "duplicate point name \"p\"");
}

TEST(SceneQueryFile, BadMasksAreReportedWhereTheyAre) {
    const std::string sphere = R"("type": "sphere", "center": [0, 0, 0], "radius": 1)";
    for (const char* mask : {"-1", "4294967296", "1.5", "\"0x3\"", "true"}) {
        SCOPED_TRACE(mask);
        const auto e = error_of(std::string("{\"shapes\": [{") + sphere + ", \"mask\": " + mask + "}]}");
        EXPECT_EQ(e.pointer, "/shapes/0/mask");
        EXPECT_CONTAINS(e.message, "expected a mask: an integer from 0 to 4294967295 (32 bits)");
    }
    EXPECT_EQ(parse_ok(std::string("{\"shapes\": [{") + sphere + ", \"mask\": 4294967295}]}").shapes.at(0).mask,
              4294967295u);
    const auto text = "{" + kScene + "}";
    std::string instance = text;
    instance.replace(instance.find("\"mask\": 2"), 9, "\"mask\": -2");
    EXPECT_EQ(error_of(instance).pointer, "/instances/0/mask");
    EXPECT_EQ(bad(R"({"ray": "up", "occluded": true, "mask": 1e10})").pointer, "/expectations/0/mask");
}

TEST(SceneQueryFile, UnknownNamesAndValues) {
    EXPECT_EQ(bad(R"({"point": "nope", "contained_by": []})").pointer, "/expectations/0/point");
    EXPECT_CONTAINS(bad(R"({"point": "nope", "contained_by": []})").message, "no point is named \"nope\"");
    EXPECT_EQ(bad(R"({"point": 3, "contained_by": []})").pointer, "/expectations/0/point");
    EXPECT_EQ(bad(R"({"point": "in ball", "contained_by": ["ball", "nope"]})").pointer, "/expectations/0/contained_by/1");
    EXPECT_EQ(bad(R"({"point": "in ball", "contained_by": [{"instance": 5}]})").pointer,
              "/expectations/0/contained_by/0/instance");
    EXPECT_EQ(bad(R"({"point": "in ball", "contained_by": [{"mesh": 0}]})").pointer, "/expectations/0/contained_by/0/mesh");
    EXPECT_EQ(bad(R"({"point": "in ball", "contained_by": "ball"})").pointer, "/expectations/0/contained_by");
    EXPECT_EQ(bad(R"({"point": "in ball", "object": "nope", "inside": true})").pointer, "/expectations/0/object");
    EXPECT_EQ(bad(R"({"point": "in ball", "object": 0, "inside": true})").pointer, "/expectations/0/object");
    EXPECT_EQ(bad(R"({"ray": "up", "crossing_kinds": ["enter", "exit"]})").pointer, "/expectations/0/crossing_kinds/1");
    EXPECT_CONTAINS(bad(R"({"ray": "up", "crossing_kinds": ["enter", "exit"]})").message,
                    "unknown crossing kind \"exit\" (expected \"enter\", \"leave\" or \"touch\")");
    EXPECT_EQ(bad(R"({"point": "in ball", "shape": "ball", "containment": "in"})").pointer, "/expectations/0/containment");
    EXPECT_EQ(bad(R"({"ray": "up", "crossings": -1})").pointer, "/expectations/0/crossings");
    EXPECT_EQ(bad(R"({"ray": "up", "crossing_t": [1, "inf"]})").pointer, "/expectations/0/crossing_t/1");
    EXPECT_EQ(bad(R"({"ray": "up", "occluded": "yes"})").pointer, "/expectations/0/occluded");
}

TEST(SceneQueryFile, KeysOfAnotherKindAndContradictions) {
    // Each key is placed where it is; the message names what the kind checks.
    const auto shape_on_occluded = bad(R"({"ray": "up", "occluded": true, "shape": "ball"})");
    EXPECT_EQ(shape_on_occluded.pointer, "/expectations/0/shape");
    EXPECT_CONTAINS(shape_on_occluded.message, "\"shape\" does not belong in an \"occluded\" expectation (it checks occluded, mask, cull_back_faces)");
    EXPECT_EQ(bad(R"({"point": "in ball", "contained_by": [], "cull_back_faces": true})").pointer,
              "/expectations/0/cull_back_faces");
    EXPECT_EQ(bad(R"({"point": "in ball", "shape": "ball", "inside": true, "mask": 1})").pointer, "/expectations/0/mask");
    EXPECT_EQ(bad(R"({"ray": "up", "shape": "ball", "hit": true, "mask": 1})").pointer, "/expectations/0/mask");
    EXPECT_EQ(bad(R"({"ray": "up", "crossings": 1, "t": 4})").pointer, "/expectations/0/t");
    EXPECT_EQ(bad(R"({"ray": "up", "occluded": true, "crossings": 1})").pointer, "/expectations/0/crossings");
    EXPECT_EQ(bad(R"({"ray": "up", "occluded": true, "picked": null})").pointer, "/expectations/0/picked");
    EXPECT_EQ(bad(R"({"ray": "up", "occluded": true, "picked": "ball"})").pointer, "/expectations/0/picked");
    EXPECT_EQ(bad(R"({"ray": "up", "shape": "ball", "containment": "inside"})").pointer, "/expectations/0/containment");
    EXPECT_CONTAINS(bad(R"({"ray": "up", "contained_by": []})").message, "is about a point: give \"point\"");
    EXPECT_EQ(bad(R"({"ray": "up", "point": "in ball", "contained_by": []})").pointer, "/expectations/0/point");
    EXPECT_EQ(bad(R"({"point": "in ball"})").pointer, "/expectations/0");
    EXPECT_EQ(bad(R"({"point": "in ball", "shape": "ball"})").pointer, "/expectations/0");
    EXPECT_CONTAINS(bad(R"({"point": "in ball", "shape": "ball"})").message, "checks nothing");
    EXPECT_EQ(bad(R"({"point": "in ball", "object": "ball", "shape": "ball", "inside": true})").pointer,
              "/expectations/0/object");
    EXPECT_EQ(bad(R"({"ray": "up", "crossings": 2, "crossing_t": [4]})").pointer, "/expectations/0/crossing_t");
    EXPECT_EQ(bad(R"({"ray": "up", "crossings": 1, "crossing_kinds": []})").pointer, "/expectations/0/crossing_kinds");
    EXPECT_EQ(bad(R"({"ray": "up", "crossing_t": [4, 6], "crossing_kinds": ["enter"]})").pointer,
              "/expectations/0/crossing_kinds");
    const auto contradiction = bad(R"({"point": "in ball", "shape": "ball", "inside": false, "containment": "on_surface"})");
    EXPECT_EQ(contradiction.pointer, "/expectations/0/inside");
    EXPECT_CONTAINS(contradiction.message, "contradicts \"containment\": \"on_surface\"");
    EXPECT_EQ(bad(R"({"point": "in ball", "contained_by": ["ball", {"shape": "ball"}]})").pointer,
              "/expectations/0/contained_by/1");
    EXPECT_EQ(bad(R"({"ray": "up"})").pointer, "/expectations/0");
}

TEST(SceneQueryFile, ValidateSceneBuiltInCode) {
    Scene s = with("");
    SceneExpectation x;
    x.point = 7;
    x.contained_by = std::vector<SceneObjectRef>{};
    s.expectations.push_back(x);
    auto e = validate_scene(s);
    ASSERT_TRUE(e);
    EXPECT_EQ(e->pointer, "/expectations/0/point");
    s.expectations[0].point = 0;
    EXPECT_FALSE(validate_scene(s));
    s.expectations[0].contained_by->push_back(SceneObjectRef::instance(4));
    e = validate_scene(s);
    ASSERT_TRUE(e);
    EXPECT_EQ(e->pointer, "/expectations/0/contained_by/0");
    s.expectations.clear();
    s.points[1].position.y = std::nan("");
    e = validate_scene(s);
    ASSERT_TRUE(e);
    EXPECT_EQ(e->pointer, "/points/1/position");
}

TEST(SceneQueryFile, RoundTripIsExact) {
    Scene s = with(R"(
      {"ray": "up", "occluded": true, "mask": 2, "cull_back_faces": false},
      {"ray": "short", "crossings": 1, "crossing_t": [4.000000000000001], "crossing_kinds": ["enter"], "mask": 0},
      {"ray": 1, "shape": 0, "crossing_kinds": ["touch"], "cull_back_faces": true, "tolerance": 0.5},
      {"point": "in ball", "instance": "box", "inside": false, "containment": "outside"},
      {"point": 2, "contained_by": []},
      {"point": "on box", "contained_by": [0, "box"], "mask": 4294967295},
      {"ray": "up", "picked": null, "mask": 0})");
    // An unnamed instance in "contained_by" is written as {"instance": index}.
    s.instances.push_back(s.instances[0]);
    s.instances[1].name.clear();
    s.instances[1].translation.x = 5;
    s.instances[1].mask = 0;
    SceneExpectation unnamed;
    unnamed.point = 1;
    unnamed.contained_by = std::vector<SceneObjectRef>{SceneObjectRef::instance(1)};
    s.expectations.push_back(unnamed);
    s.points.push_back({"", {0.1, -0.0, 1e-300}, ""});
    ASSERT_FALSE(validate_scene(s)) << validate_scene(s)->what();
    const std::string text = scene_to_json(s);
    EXPECT_CONTAINS(text, "{\"instance\": 1}");
    EXPECT_CONTAINS(text, "\"mask\": 0");
    const Scene back = parse_ok(text);
    EXPECT_TRUE(back == s) << text;
    EXPECT_EQ(scene_to_json(back), text);
    EXPECT_TRUE(std::signbit(back.points.back().position.y));
    EXPECT_EQ(back.expectations[1].crossing_t->at(0), 4.000000000000001);
}

TEST(SceneQueryFile, EqualityNoticesEveryNewPart) {
    const Scene s = with(R"({"ray": "up", "crossing_t": [4], "mask": 1}, {"point": 0, "contained_by": ["ball"]})");
    Scene t = s;
    t.shapes[0].mask = 3;
    EXPECT_FALSE(t == s);
    t = s;
    t.instances[0].mask = ~0u;
    EXPECT_FALSE(t == s);
    t = s;
    t.points[0].position.x = 1;
    EXPECT_FALSE(t == s);
    t = s;
    t.points.pop_back();
    EXPECT_FALSE(t == s);
    t = s;
    t.expectations[0].mask.reset();
    EXPECT_FALSE(t == s);
    t = s;
    t.expectations[0].crossing_t->push_back(6);
    EXPECT_FALSE(t == s);
    t = s;
    t.expectations[1].contained_by->at(0) = SceneObjectRef::instance(0);
    EXPECT_FALSE(t == s);
    t = s;
    t.expectations[1].point = 1;
    EXPECT_FALSE(t == s);
    t = s;
    EXPECT_TRUE(t == s);
}

TEST(SceneQueryFile, CheckerPassesRightAnswersInBothCores) {
    const Scene s = with(R"(
      {"ray": "up", "picked": "ball", "t": 4},
      {"ray": "up", "picked": "box", "t": 9, "triangle": 1, "mask": 2},
      {"ray": "up", "picked": null, "mask": 4},
      {"ray": "up", "occluded": true},
      {"ray": "short", "occluded": false},
      {"ray": "short", "occluded": false, "mask": 2},
      {"ray": "up", "crossings": 4, "crossing_t": [4, 6, 9, 11], "crossing_kinds": ["enter", "leave", "enter", "leave"]},
      {"ray": "up", "crossing_t": [4, 6, 9], "crossing_kinds": ["enter", "leave", "enter"], "cull_back_faces": true},
      {"ray": "up", "instance": "box", "crossing_t": [9, 11]},
      {"point": "in ball", "shape": "ball", "inside": true, "containment": "inside"},
      {"point": "on box", "instance": "box", "inside": true, "containment": "on_surface"},
      {"point": "on box", "contained_by": ["box"]},
      {"point": "in ball", "contained_by": [], "mask": 2},
      {"point": "nowhere", "contained_by": []})");
    for (Precision p : {Precision::Float, Precision::Double}) {
        const CaseReport r = check_case(s, p);
        for (const auto& res : r.results) EXPECT_TRUE(res.passed) << precision_name(p) << ": " << res.summary();
        EXPECT_EQ(r.passed, s.expectations.size());
    }
    const CaseReport r = check_case(s);
    EXPECT_EQ(r.results[1].label, "ray \"up\" (#0): pick, mask 2");
    EXPECT_EQ(r.results[3].label, "ray \"up\" (#0): occluded");
    EXPECT_EQ(r.results[7].label, "ray \"up\" (#0): crossings, back faces culled");
    EXPECT_EQ(r.results[8].label, "ray \"up\" (#0): crossings of instance \"box\" (#0)");
    EXPECT_EQ(r.results[9].label, "point \"in ball\" (#0) x shape \"ball\" (#0)");
    EXPECT_EQ(r.results[11].label, "point \"on box\" (#1): contained_by");
    EXPECT_EQ(r.results[11].ray, kNoRay);
    EXPECT_EQ(r.results[11].point, std::optional<std::size_t>(1));
    EXPECT_EQ(r.results[6].got, "crossings=4, crossing_t=[4, 6, 9, 11], crossing_kinds=[enter, leave, enter, leave]");
    EXPECT_EQ(r.results[11].got, "contained_by={instance \"box\" (#0)}");
}

// The checker can fail: each wrong answer says what was expected and what the core gave.
TEST(SceneQueryFile, CheckerFailsWrongExpectationsSayingExpectedAndGot) {
    const Scene s = with(R"(
      {"ray": "up", "occluded": false},
      {"ray": "up", "crossings": 3, "crossing_t": [4, 6, 9], "crossing_kinds": ["enter", "enter", "leave"]},
      {"ray": "up", "crossing_t": [4, 6.5, 9, 11]},
      {"point": "on box", "instance": "box", "inside": false, "containment": "outside"},
      {"point": "on box", "contained_by": ["ball"]},
      {"ray": "up", "picked": "ball", "mask": 2})");
    for (Precision p : {Precision::Float, Precision::Double}) {
        const CaseReport r = check_case(s, p);
        EXPECT_EQ(r.failed, 6u);
        EXPECT_EQ(r.results[0].summary(), "expectation 0: ray \"up\" (#0): occluded: FAILED: occluded expected false, got true");
        EXPECT_EQ(r.results[1].summary(),
                  "expectation 1: ray \"up\" (#0): crossings: FAILED: crossings expected 3, got 4; crossing_t expected "
                  "[4, 6, 9], got [4, 6, 9, 11]; crossing_kinds expected [enter, enter, leave], got [enter, leave, "
                  "enter, leave]");
        EXPECT_EQ(r.results[2].summary(),
                  "expectation 2: ray \"up\" (#0): crossings: FAILED: crossing_t expected [4, 6.5, 9, 11], got "
                  "[4, 6, 9, 11] (off by up to 0.5, tolerance 1e-04)");
        EXPECT_EQ(r.results[3].summary(),
                  "expectation 3: point \"on box\" (#1) x instance \"box\" (#0): FAILED: inside expected false, got "
                  "true; containment expected outside, got on_surface");
        EXPECT_EQ(r.results[4].summary(),
                  "expectation 4: point \"on box\" (#1): contained_by: FAILED: contained_by expected {\"ball\" (#0)}, "
                  "got {instance \"box\" (#0)}");
        EXPECT_EQ(r.results[5].summary(),
                  "expectation 5: ray \"up\" (#0): pick, mask 2: FAILED: picked expected \"ball\" (#0), got instance "
                  "\"box\" (#0)");
    }
}

// Picks go through SceneBvh::pick() with the file's tie rules: the smaller t, a shape before an
// instance, then the lower index; the query's mask leaves objects out.
TEST(SceneQueryFile, PickTiesAsTheFileSays) {
    Scene s = parse_ok(R"({
      "shapes": [{"name": "face", "type": "aabb", "min": [-1, -1, 1], "max": [1, 1, 2]},
                 {"name": "twin", "type": "aabb", "min": [-1, -1, 1], "max": [1, 1, 1.5]}],
      "meshes": [{"name": "quad", "vertices": [[-1, -1, 0], [1, -1, 0], [1, 1, 0], [-1, 1, 0]],
                  "triangles": [[0, 1, 2], [0, 2, 3]]}],
      "instances": [{"name": "floor", "mesh": "quad", "translation": [0, 0, 1]},
                    {"name": "floor again", "mesh": "quad", "translation": [0, 0, 1]},
                    {"name": "low", "mesh": "quad", "translation": [0, 0, 0.5], "mask": 2}],
      "rays": [{"name": "up", "origin": [0.5, 0.25, 0], "direction": [0, 0, 1]}],
      "expectations": [{"ray": "up", "picked": "low", "t": 0.5, "triangle": 0},
                       {"ray": "up", "picked": "face", "t": 1, "mask": 1}]})");
    // "low" is nearest; without it (mask 1) both boxes and both floors are met at t = 1, and the
    // lower shape wins.
    for (Precision p : {Precision::Float, Precision::Double})
        for (const auto& r : check_case(s, p).results) EXPECT_TRUE(r.passed) << r.summary();
    // With the shapes masked out too, the two floors tie: the lower instance, its lower triangle.
    for (auto& sh : s.shapes) sh.mask = 2;
    s.expectations[1].picked.reset();
    s.expectations[1].picked_instance = 0;
    s.expectations[1].triangle = 0;
    for (Precision p : {Precision::Float, Precision::Double})
        for (const auto& r : check_case(s, p).results) EXPECT_TRUE(r.passed) << r.summary();
    // And a wrong expectation about it fails.
    s.expectations[1].picked_instance = 1;
    const CaseReport r = check_case(s);
    EXPECT_FALSE(r.results[1].passed);
    EXPECT_EQ(r.results[1].got, "instance \"floor\" (#0), t=1, triangle=0");
}

TEST(SceneQuery, ObjectsMapBothWays) {
    // A mesh read from a model file may be placed more than once by the model itself: build one in
    // code (its "file" is never read here) with two placements, and an instance of it.
    Scene s = with("");
    SceneMesh two;
    two.name = "pair";
    two.file = "pair.obj";
    two.model = s.meshes[0].model;
    two.model.meshes[0].name = "cube";
    ModelInstance moved;
    moved.transform = glm::dmat4(1.0);
    moved.transform[3] = glm::dvec4(4, 0, 0, 1);
    two.model.instances.push_back(moved);
    s.meshes.push_back(two);
    SceneInstance pair;
    pair.name = "pair";
    pair.mesh = 1;
    pair.translation = {0, 0, 20};
    s.instances.push_back(pair);
    ASSERT_FALSE(validate_scene(s)) << validate_scene(s)->what();
    const SceneQuery<double> q(s);
    EXPECT_EQ(q.shape_object(0), 0u);
    EXPECT_EQ(q.object(0).object, SceneObjectRef::shape(0));
    EXPECT_EQ(q.instance_objects(0), (std::pair<ObjectId, ObjectId>{1, 2}));
    EXPECT_EQ(q.instance_objects(1), (std::pair<ObjectId, ObjectId>{2, 4}));
    EXPECT_EQ(q.object(3).object, SceneObjectRef::instance(1));
    EXPECT_EQ(q.object(3).placement, 1u);
    EXPECT_TRUE(q.is_part_of(2, SceneObjectRef::instance(1)));
    EXPECT_FALSE(q.is_part_of(2, SceneObjectRef::instance(0)));
    EXPECT_EQ(q.bvh().mask(1), 2u);
    EXPECT_EQ(q.bvh().mask(0), 1u);
    // The second placement holds (4, 0, 20); the instance is the union of its placements.
    EXPECT_EQ(q.classify({4, 0, 20}, SceneObjectRef::instance(1)), Containment::Inside);
    EXPECT_EQ(q.classify({2, 0, 20}, SceneObjectRef::instance(1)), Containment::Outside);
    EXPECT_EQ(q.classify({1, 0, 20}, SceneObjectRef::instance(1)), Containment::OnSurface);
    EXPECT_EQ(q.contains({4, 0, 20}), (std::vector<SceneObjectRef>{SceneObjectRef::instance(1)}));
    // A ray through both placements: four crossings, all of instance 1.
    const auto xs = q.bvh().crossings(Ray<double>{{-3, 0.25, 20.5}, {1, 0, 0}});
    ASSERT_EQ(xs.size(), 4u);
    for (const auto& x : xs) EXPECT_TRUE(q.is_part_of(x.object, SceneObjectRef::instance(1)));
    EXPECT_EQ(q.object(xs[0].object).placement, 0u);
    EXPECT_EQ(q.object(xs[3].object).placement, 1u);
}

TEST(SceneQuery, AShapeInvalidInFloatIsNeverHitAndHoldsNothing) {
    // A radius beyond float's range: valid in the double core, invalid once converted to float.
    const Scene s = parse_ok(R"({
      "shapes": [{"name": "huge", "type": "sphere", "center": [0, 0, 0], "radius": 1e300},
                 {"name": "ball", "type": "sphere", "center": [0, 0, 5], "radius": 1}],
      "rays": [{"name": "up", "origin": [0, 0, 0], "direction": [0, 0, 1]},
               {"name": "sideways", "origin": [0, 0, 0], "direction": [1, 0, 0]}],
      "points": [{"name": "origin", "position": [0, 0, 0]}]})");
    const SceneQuery<float> f(s);
    ASSERT_TRUE(f.bvh().pick(f.ray(0).ray));
    EXPECT_EQ(f.bvh().pick(f.ray(0).ray)->object, f.shape_object(1));
    EXPECT_FALSE(f.bvh().pick(f.ray(1).ray));
    EXPECT_FALSE(f.bvh().occluded(f.ray(1).ray));
    EXPECT_EQ(f.classify(f.point(0), SceneObjectRef::shape(0)), Containment::Outside);
    EXPECT_TRUE(f.contains(f.point(0)).empty());
    // In double the huge ball is there: the ray leaves it at t = 1e300.
    const SceneQuery<double> d(s);
    ASSERT_TRUE(d.bvh().pick(d.ray(1).ray));
    EXPECT_EQ(d.bvh().pick(d.ray(1).ray)->object, d.shape_object(0));
    EXPECT_EQ(d.classify(d.point(0), SceneObjectRef::shape(0)), Containment::Inside);
    EXPECT_EQ(d.contains(d.point(0)), (std::vector<SceneObjectRef>{SceneObjectRef::shape(0)}));
}
