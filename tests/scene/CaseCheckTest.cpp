// The case checker: expected vs got, per field, in both precisions.
#include <gtest/gtest.h>

#include <string>
#include <variant>

#include <raypick/scene/CaseCheck.h>
#include <raypick/scene/SceneFile.h>
#include "SceneTestUtil.h"

using namespace raypick;
using raypick::test::parse_ok;

namespace {

const std::string kScene = R"(
  "shapes": [
    {"name": "ball", "type": "sphere", "center": [0, 0, 5], "radius": 1},
    {"name": "box", "type": "aabb", "min": [-1, -1, 4], "max": [1, 1, 6]},
    {"name": "far", "type": "sphere", "center": [0, 0, 50], "radius": 1}
  ],
  "rays": [
    {"name": "up", "origin": [0, 0, 0], "direction": [0, 0, 1]},
    {"name": "side", "origin": [5, 0, 0], "direction": [0, 0, 1]}
  ])";

Scene with(const std::string& expectations) {
    return parse_ok("{" + kScene + ", \"expectations\": [" + expectations + "]}");
}

}  // namespace

TEST(CaseCheck, PassingExpectations) {
    const Scene s = with(R"(
      {"ray": "up", "shape": "ball", "hit": true, "t_near": 4, "t_far": 6, "n_near": [0, 0, -1], "n_far": [0, 0, 1], "inside": false},
      {"ray": "side", "shape": "ball", "hit": false},
      {"ray": "up", "picked": "ball", "t": 4},
      {"ray": "side", "picked": null})");
    for (Precision p : {Precision::Float, Precision::Double}) {
        const CaseReport r = check_case(s, p);
        EXPECT_TRUE(r.ok());
        EXPECT_EQ(r.passed, 4u);
        ASSERT_EQ(r.results.size(), 4u);
        EXPECT_EQ(r.results[0].label, "ray \"up\" (#0) x shape \"ball\" (#0)");
        EXPECT_EQ(r.results[0].expected, "hit, t_near=4, t_far=6, n_near=[0, 0, -1], n_far=[0, 0, 1], inside=false");
        EXPECT_EQ(r.results[0].got, r.results[0].expected);
        EXPECT_EQ(r.results[2].label, "ray \"up\" (#0): pick");
        EXPECT_EQ(r.results[2].got, "\"ball\" (#0), t=4");
    }
}

TEST(CaseCheck, FailuresSayExpectedAndGot) {
    const Scene s = with(R"(
      {"ray": "up", "shape": "ball", "t_near": 5, "t_far": 6},
      {"ray": "up", "shape": "box", "hit": false},
      {"ray": "side", "shape": "ball", "t_near": 4},
      {"ray": "up", "picked": "far"},
      {"ray": "up", "shape": "ball", "n_near": [0, 0, 1]})");
    const CaseReport r = check_case(s);
    EXPECT_EQ(r.failed, 5u);
    EXPECT_FALSE(r.ok());
    EXPECT_EQ(r.results[0].summary(),
              "expectation 0: ray \"up\" (#0) x shape \"ball\" (#0): FAILED: t_near expected 5, got 4 (off by 1, tolerance 5e-04)");
    ASSERT_EQ(r.results[0].fields.size(), 2u);
    EXPECT_FALSE(r.results[0].fields[0].passed);
    EXPECT_TRUE(r.results[0].fields[1].passed);
    EXPECT_EQ(r.results[1].summary(), "expectation 1: ray \"up\" (#0) x shape \"box\" (#1): FAILED: hit expected miss, got hit");
    EXPECT_EQ(r.results[2].summary(),
              "expectation 2: ray \"side\" (#1) x shape \"ball\" (#0): FAILED: hit expected hit, got miss; t_near expected 4, got miss");
    EXPECT_EQ(r.results[3].summary(), "expectation 3: ray \"up\" (#0): pick: FAILED: picked expected \"far\" (#2), got \"ball\" (#0)");
    EXPECT_EQ(r.results[4].summary(),
              "expectation 4: ray \"up\" (#0) x shape \"ball\" (#0): FAILED: n_near expected [0, 0, 1], got [0, 0, -1] (off by up to 2, tolerance 1e-04)");
}

TEST(CaseCheck, TieGoesToLowerIndex) {
    // ball and box are both entered at t = 4
    const Scene s = with(R"({"ray": "up", "picked": "ball", "t": 4})");
    EXPECT_TRUE(check_case(s).ok());
    const auto shapes = prepare_scene<double>(s).shapes;
    const auto p = pick_scene(s.rays[0].ray, shapes);
    ASSERT_TRUE(p);
    EXPECT_EQ(p->shape, 0u);
    EXPECT_EQ(p->hit.t, 4.0);
}

TEST(CaseCheck, ToleranceRule) {
    EXPECT_TRUE(within_tolerance(1.000009, 1.0, 1e-5));
    EXPECT_FALSE(within_tolerance(1.00002, 1.0, 1e-5));
    EXPECT_TRUE(within_tolerance(1000.01, 1000.0, 1e-5));   // relative above 1
    EXPECT_FALSE(within_tolerance(1000.02, 1000.0, 1e-5));
    EXPECT_TRUE(within_tolerance(1e-6, 0.0, 1e-5));         // absolute below 1
    EXPECT_TRUE(within_tolerance(-3.0, -3.0, 0.0));
    // per-expectation tolerance overrides the file's
    const Scene s = with(R"({"ray": "up", "shape": "ball", "t_near": 4.3, "tolerance": 0.1},
                            {"ray": "up", "shape": "ball", "t_near": 4.3})");
    const CaseReport r = check_case(s);
    EXPECT_TRUE(r.results[0].passed);
    EXPECT_EQ(r.results[0].tolerance, 0.1);
    EXPECT_FALSE(r.results[1].passed);
    EXPECT_EQ(r.results[1].tolerance, kDefaultTolerance);
}

TEST(CaseCheck, FloatAndDoubleCoresDiffer) {
    // 0.1 is not exact in float: t_near = 4 - 0.1... checked to 1e-12, only the double core passes.
    const Scene s = parse_ok(R"({
      "tolerance": 1e-12,
      "shapes": [{"name": "slab", "type": "aabb", "min": [-1, -1, 0.1], "max": [1, 1, 2]}],
      "rays": [{"origin": [0, 0, 0], "direction": [0, 0, 1]}],
      "expectations": [{"ray": 0, "shape": 0, "t_near": 0.1}]})");
    EXPECT_TRUE(check_case(s, Precision::Double).ok());
    const CaseReport f = check_case(s, Precision::Float);
    EXPECT_FALSE(f.ok());
    EXPECT_EQ(f.precision, Precision::Float);
    EXPECT_EQ(f.results[0].fields[0].got, "0.1");  // shortest float text; the value differs by 1.5e-9
}

TEST(CaseCheck, NumberFormatting) {
    EXPECT_EQ(format_number(4.0), "4");
    EXPECT_EQ(format_number(0.1), "0.1");
    EXPECT_EQ(format_number(0.1f), "0.1");
    EXPECT_EQ(format_number(double(0.1f)), "0.10000000149011612");
    EXPECT_EQ(format_number(1e-7), "1e-07");
}
