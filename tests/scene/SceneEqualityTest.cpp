// Scene equality: exact value equality of everything a file stores, part by part; -0 equals +0,
// NaN equals nothing; what a saved file reads back as is equal to what was saved.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <variant>

#include <raypick/scene/SceneFile.h>
#include "SceneTestUtil.h"

using namespace raypick;
using raypick::test::parse_ok;

namespace {

Scene sample_scene() {
    Scene s;
    s.description = "two shapes, two rays";
    s.tolerance = 1e-6;
    s.camera = SceneCamera{{1, 2, 3}, {0, 0, 0}, 50.0};
    s.shapes.push_back({"ball", Sphere<double>{{0, 0, 0}, 1.0}, "unit ball"});
    Obb<double> box;
    box.center = {3, 0, 0};
    box.rotation = rotation_from_euler_degrees({0, 30, 0});
    box.half_extents = {1, 0.5, 0.25};
    s.shapes.push_back({"box", box, ""});
    s.rays.push_back({"r0", Ray<double>{{0, 0, -5}, {0, 0, 1}}, 0.0, infinity<double>(), ""});
    s.rays.push_back({"r1", Ray<double>{{3, 0, -5}, {0, 0, 1}}, 0.5, 100.0, "towards the box"});
    SceneExpectation cast;
    cast.ray = 0;
    cast.shape = 0;
    cast.hit = true;
    cast.t_near = 4.0;
    cast.n_near = Vec3<double>(0, 0, -1);
    s.expectations.push_back(cast);
    SceneExpectation pick;
    pick.ray = 1;
    pick.picked = 1;
    s.expectations.push_back(pick);
    return s;
}

}  // namespace

TEST(SceneEquality, EqualCopiesAndEveryDifferenceDetected) {
    const Scene s = sample_scene();
    EXPECT_TRUE(s == Scene(s));
    EXPECT_FALSE(s != Scene(s));
    auto differs = [&](auto change) {
        Scene t = s;
        change(t);
        return t != s && !(t == s);
    };
    EXPECT_TRUE(differs([](Scene& t) { t.description += "."; }));
    EXPECT_TRUE(differs([](Scene& t) { t.tolerance = std::nextafter(t.tolerance, 1.0); }));
    EXPECT_TRUE(differs([](Scene& t) { t.camera.reset(); }));
    EXPECT_TRUE(differs([](Scene& t) { t.camera->fov_y_degrees = 51.0; }));
    EXPECT_TRUE(differs([](Scene& t) { t.shapes[0].name = "sphere"; }));
    EXPECT_TRUE(differs([](Scene& t) { t.shapes[1].description = "a box"; }));
    EXPECT_TRUE(differs([](Scene& t) { std::get<Obb<double>>(t.shapes[1].shape).rotation[2][0] += 1e-16; }));
    EXPECT_TRUE(differs([](Scene& t) { std::swap(t.shapes[0], t.shapes[1]); }));
    EXPECT_TRUE(differs([](Scene& t) { t.shapes.pop_back(); }));
    EXPECT_TRUE(differs([](Scene& t) { t.rays[1].t_max = infinity<double>(); }));
    EXPECT_TRUE(differs([](Scene& t) { t.rays[0].ray.direction.z = 2.0; }));
    EXPECT_TRUE(differs([](Scene& t) { t.rays[1].description.clear(); }));
    EXPECT_TRUE(differs([](Scene& t) { t.expectations[0].t_far = 6.0; }));        // set where it was not
    EXPECT_TRUE(differs([](Scene& t) { t.expectations[0].hit.reset(); }));        // not set where it was
    EXPECT_TRUE(differs([](Scene& t) { t.expectations[1].picked.reset(); }));     // "picks nothing"
    EXPECT_TRUE(differs([](Scene& t) { t.expectations[1].tolerance = 1e-6; }));   // same as the file's: still set
    EXPECT_TRUE(differs([](Scene& t) { t.expectations.pop_back(); }));
}

TEST(SceneEquality, PartsCompareOnTheirOwn) {
    const Scene s = sample_scene();
    EXPECT_EQ(s.shapes[0], s.shapes[0]);
    EXPECT_NE(s.shapes[0], s.shapes[1]);
    EXPECT_EQ(s.rays[1], s.rays[1]);
    EXPECT_NE(s.rays[0], s.rays[1]);
    EXPECT_EQ(*s.camera, *s.camera);
    EXPECT_NE(*s.camera, SceneCamera{});
    EXPECT_EQ(s.expectations[0], s.expectations[0]);
    EXPECT_NE(s.expectations[0], s.expectations[1]);
    // Shapes: the type counts, not only the numbers (a sphere and a capsule with the same centre).
    EXPECT_TRUE(same_shape(Shape<double>(Sphere<double>{}), Shape<double>(Sphere<double>{})));
    EXPECT_FALSE(same_shape(Shape<double>(Sphere<double>{}), Shape<double>(Capsule<double>{{0, 0, 0}, {0, 0, 0}, 1.0})));
    EXPECT_FALSE(same_shape(Shape<double>(Aabb<double>{}), Shape<double>(Aabb<double>{{-1, -1, -1}, {1, 1, 2}})));
    // A SceneShape is its name and description too.
    SceneShape renamed = s.shapes[0];
    renamed.name = "other";
    EXPECT_TRUE(same_shape(renamed.shape, s.shapes[0].shape));
    EXPECT_NE(renamed, s.shapes[0]);
}

TEST(SceneEquality, SignedZerosAreEqualAndNaNIsNot) {
    // -0 and +0 are the same value: a scene that differs only in the sign of a zero is equal,
    // though a file keeps the sign.
    const Scene minus = parse_ok(R"({"shapes": [{"type": "sphere", "center": [-0.0, 0, 0], "radius": 1}]})");
    const Scene plus = parse_ok(R"({"shapes": [{"type": "sphere", "center": [0, 0, 0], "radius": 1}]})");
    ASSERT_EQ(minus.shapes.size(), 1u);
    EXPECT_TRUE(std::signbit(std::get<Sphere<double>>(minus.shapes[0].shape).center.x));
    EXPECT_TRUE(minus == plus);
    // NaN equals nothing, not even itself.
    Scene nan = plus;
    std::get<Sphere<double>>(nan.shapes[0].shape).radius = std::numeric_limits<double>::quiet_NaN();
    EXPECT_FALSE(nan == nan);
    EXPECT_FALSE(nan.shapes[0] == nan.shapes[0]);
    Scene nan_camera;
    nan_camera.camera = SceneCamera{};
    nan_camera.camera->fov_y_degrees = std::numeric_limits<double>::quiet_NaN();
    EXPECT_FALSE(nan_camera == nan_camera);
    // Infinite t ranges are values like any other.
    EXPECT_EQ(sample_scene().rays[0], sample_scene().rays[0]);
}

TEST(SceneEquality, WhatIsWrittenReadsBackEqual) {
    const Scene s = sample_scene();
    const Scene back = parse_ok(scene_to_json(s));
    EXPECT_TRUE(back == s) << scene_to_json(s);
    for (std::size_t i = 0; i < s.shapes.size(); ++i) EXPECT_EQ(back.shapes[i], s.shapes[i]);
    for (std::size_t i = 0; i < s.rays.size(); ++i) EXPECT_EQ(back.rays[i], s.rays[i]);
    for (std::size_t i = 0; i < s.expectations.size(); ++i) EXPECT_EQ(back.expectations[i], s.expectations[i]);
}
