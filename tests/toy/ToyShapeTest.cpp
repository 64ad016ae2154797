// A shape type added from outside raypick (tests/toy/Disk.h, one entry in the type list through
// RAYPICK_EXTRA_SHAPE_TYPES) is taken by the type list's users with no other change: the shape
// variant and its names, the BVH (build, pick, bundles, every hit, update), the scene files
// (read, write, located errors) and the command-line caster.
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include <raypick/geometry/Bvh.h>
#include <raypick/scene/SceneFile.h>

#include "../common/RunProgram.h"

namespace raypick {
namespace {

TEST(ToyShape, DiskIsTheLastTypeOfTheList) {
    EXPECT_EQ(kShapeTypeCount, 6);
    EXPECT_EQ(int(shape_type<Disk>), 5);
    EXPECT_STREQ(shape_type_name(shape_type<Disk>), "disk");
    EXPECT_STREQ(shape_type_label(shape_type<Disk>), "Disk");
    EXPECT_EQ(shape_type_named("disk"), shape_type<Disk>);
    const Shape<double> d = example_shape(shape_type<Disk>, Vec3<double>(1, 2, 3));
    ASSERT_TRUE(std::holds_alternative<Disk<double>>(d));
    EXPECT_EQ(std::get<Disk<double>>(d).center, Vec3<double>(1, 2, 3));
}

/// Random shapes of every type, disks one in three, some invalid.
template <typename T> std::vector<Shape<T>> mixed_shapes(std::mt19937& rng, int n) {
    std::uniform_real_distribution<T> pos(T(-10), T(10)), size(T(0.05), T(1.5)), unit(T(-1), T(1));
    std::vector<Shape<T>> out;
    for (int i = 0; i < n; ++i) {
        const Vec3<T> c(pos(rng), pos(rng), pos(rng));
        if (i % 3 == 0) {
            Disk<T> d{c, {unit(rng), unit(rng), unit(rng)}, size(rng)};
            if (i % 97 == 0) d.normal = Vec3<T>(0);  // invalid: never picked
            out.push_back(d);
        } else {
            out.push_back(example_shape(ShapeType(i % (kShapeTypeCount - 1)), c));
        }
    }
    return out;
}

template <typename T> Ray<T> random_ray(std::mt19937& rng) {
    std::uniform_real_distribution<T> pos(T(-14), T(14)), unit(T(-1), T(1));
    return {{pos(rng), pos(rng), pos(rng)}, {unit(rng), unit(rng), unit(rng)}};
}

template <typename T> void expect_same(const std::optional<NearestHit<T>>& got, const std::optional<NearestHit<T>>& want,
                                       unsigned seed, int i) {
    ASSERT_EQ(got.has_value(), want.has_value()) << "ray " << i << " (seed " << seed << ")";
    if (!want) return;
    EXPECT_EQ(got->shape, want->shape) << "ray " << i << " (seed " << seed << ")";
    EXPECT_EQ(got->surface.t, want->surface.t) << "ray " << i << " (seed " << seed << ")";
    EXPECT_EQ(got->surface.normal, want->surface.normal) << "ray " << i << " (seed " << seed << ")";
}

template <typename T> void bvh_takes_disks() {
    const unsigned seed = 20261126;
    std::mt19937 rng(seed);
    std::vector<Shape<T>> shapes = mixed_shapes<T>(rng, 600);
    for (int leaf : {1, 4, 16}) {  // lone disks, disk sections of a vector and of several
        BvhOptions options;
        options.max_leaf_size = leaf;
        Bvh<T> bvh(shapes, options);
        for (std::uint32_t i = 0; i < shapes.size(); ++i)
            ASSERT_TRUE(same_shape(bvh.shape(i), shapes[i]) || !is_valid(shapes[i])) << "shape " << i;
        int disk_picks = 0;
        std::array<Ray<T>, 64> bundle;
        std::array<std::optional<NearestHit<T>>, 64> got;
        for (int i = 0; i < 2000; ++i) {
            const Ray<T> ray = random_ray<T>(rng);
            const auto want = pick_nearest(shapes, ray);
            expect_same(bvh.pick(ray), want, seed, i);
            if (want && std::holds_alternative<Disk<T>>(shapes[want->shape])) ++disk_picks;
            // every hit along the ray: exactly the casts that hit
            std::vector<bool> seen(shapes.size());
            bvh.for_each_hit(ray, [&](std::uint32_t id, const RayHit<T>& h) {
                seen[id] = true;
                const auto c = cast(ray, shapes[id]);
                ASSERT_TRUE(c.has_value());
                EXPECT_EQ(h.t_near, c->t_near);
            });
            for (std::uint32_t k = 0; k < shapes.size(); ++k) ASSERT_EQ(seen[k], cast(ray, shapes[k]).has_value());
            if (::testing::Test::HasFailure()) return;
        }
        EXPECT_GT(disk_picks, 50) << "leaf " << leaf;
        // A bundle of coherent rays from one eye: each gets its own pick.
        for (std::size_t k = 0; k < bundle.size(); ++k)
            bundle[k] = {{T(0), T(0), T(-20)}, {T(-0.3) + T(0.01) * T(k % 8), T(-0.3) + T(0.01) * T(k / 8), T(1)}};
        bvh.pick_bundle(bundle.data(), bundle.size(), got.data());
        for (std::size_t k = 0; k < bundle.size(); ++k) expect_same(got[k], pick_nearest(shapes, bundle[k]), seed, int(k));
        // Moving a disk refits; turning a sphere into a disk rebuilds.
        shapes[3] = Disk<T>{{T(0), T(0), T(0)}, {T(0), T(0), T(1)}, T(2)};
        bvh.update(3, shapes[3]);
        shapes[1] = Disk<T>{{T(0), T(0), T(-1)}, {T(0), T(0), T(1)}, T(0.5)};
        bvh.update(1, shapes[1]);
        const Ray<T> axis{{T(0), T(0), T(-30)}, {T(0), T(0), T(1)}};
        expect_same(bvh.pick(axis), pick_nearest(shapes, axis), seed, -1);
    }
}

TEST(ToyShape, BvhPicksDisksAmongTheBuiltInShapesFloat) { bvh_takes_disks<float>(); }
TEST(ToyShape, BvhPicksDisksAmongTheBuiltInShapesDouble) { bvh_takes_disks<double>(); }

constexpr const char* kDiskScene = R"({
  "shapes": [
    {"name": "floor", "type": "disk", "center": [0, 0, 0], "normal": [0, 1, 0], "radius": 2},
    {"name": "ball", "type": "sphere", "center": [5, 0, 0], "radius": 1}
  ],
  "rays": [{"name": "down", "origin": [0.5, 3, 0], "direction": [0, -1, 0]}],
  "expectations": [
    {"ray": "down", "shape": "floor", "t_near": 3, "n_near": [0, 1, 0]},
    {"ray": "down", "picked": "floor", "t": 3}
  ]
})";

TEST(ToyShape, SceneFilesReadAndWriteDisks) {
    const auto loaded = parse_scene(kDiskScene, "disk.json");
    ASSERT_TRUE(std::holds_alternative<Scene>(loaded)) << std::get<SceneLoadError>(loaded).what();
    const Scene& scene = std::get<Scene>(loaded);
    ASSERT_EQ(scene.shapes.size(), 2u);
    ASSERT_TRUE(std::holds_alternative<Disk<double>>(scene.shapes[0].shape));
    EXPECT_EQ(std::get<Disk<double>>(scene.shapes[0].shape).radius, 2.0);
    const std::string text = scene_to_json(scene);
    EXPECT_NE(text.find("\"type\": \"disk\""), std::string::npos) << text;
    const auto again = parse_scene(text, "saved.json");
    ASSERT_TRUE(std::holds_alternative<Scene>(again)) << std::get<SceneLoadError>(again).what();
    EXPECT_TRUE(std::get<Scene>(again) == scene);
}

TEST(ToyShape, AnInvalidDiskIsLocatedInTheFile) {
    std::string text = kDiskScene;
    text.replace(text.find("\"normal\": [0, 1, 0]"), 19, "\"normal\": [0, 0, 0]");
    const auto loaded = parse_scene(text, "disk.json");
    ASSERT_TRUE(std::holds_alternative<SceneLoadError>(loaded));
    const SceneLoadError& e = std::get<SceneLoadError>(loaded);
    EXPECT_EQ(e.pointer, "/shapes/0/normal") << e.what();
    EXPECT_EQ(e.line, 3) << e.what();
    EXPECT_NE(e.message.find("normal must be finite and non-zero"), std::string::npos) << e.what();
    // A missing field is named too.
    std::string missing = kDiskScene;
    missing.replace(missing.find(", \"radius\": 2"), 13, "");
    const auto no_radius = parse_scene(missing, "disk.json");
    ASSERT_TRUE(std::holds_alternative<SceneLoadError>(no_radius));
    EXPECT_NE(std::get<SceneLoadError>(no_radius).what().find("radius"), std::string::npos)
        << std::get<SceneLoadError>(no_radius).what();
}

TEST(ToyShape, TheCommandLineCasterCastsAndChecksDisks) {
    const std::string path = std::string(RAYPICK_TEST_TMP) + "/disk.json";
    std::ofstream(path) << kDiskScene;
    auto run = [](const std::string& args, std::string& out) {
        const raypick::test::ProgramRun r = raypick::test::run_program(std::string(RAYPICK_TOY_CAST_EXE) + " " + args + " 2>&1");
        out = r.out;
        return r.status;
    };
    std::string out;
    EXPECT_EQ(run(path, out), 0) << out;
    EXPECT_NE(out.find("{\"ray\":0,\"shape\":0,\"hit\":true,\"t_near\":3,\"t_far\":3,\"n_near\":[0,1,0],\"n_far\":[-0,-1,-0]"),
              std::string::npos)
        << out;
    EXPECT_NE(out.find("{\"ray\":0,\"picked\":0,\"t\":3}"), std::string::npos) << out;
    EXPECT_EQ(run("--check " + path, out), 0) << out;
    EXPECT_EQ(run("--check --double " + path, out), 0) << out;
}

}  // namespace
}  // namespace raypick
