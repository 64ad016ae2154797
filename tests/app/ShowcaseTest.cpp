// The generated large scene (--shapes N): exactly N valid shapes of every type, the same scene
// every time, spread in three dimensions rather than on a plane.
#include <gtest/gtest.h>

#include <array>

#include "app/AppState.h"
#include "app/Showcase.h"

using namespace raypick;
using namespace raypick::app;

TEST(GeneratedScene, HasExactlyTheCountOfValidShapesOfEveryType) {
    for (std::size_t n : {0u, 1u, 7u, 1000u}) {
        const Scene s = generated_scene(n);
        ASSERT_EQ(s.shapes.size(), n);
        for (const SceneShape& x : s.shapes) EXPECT_FALSE(validate(x.shape)) << x.name;
    }
    std::array<std::size_t, kShapeTypeCount> per_type{};
    for (const SceneShape& x : generated_scene(1000).shapes) ++per_type[x.shape.index()];
    for (std::size_t t = 0; t < per_type.size(); ++t) EXPECT_GT(per_type[t], 100u) << shape_type_name(ShapeType(t));
}

TEST(GeneratedScene, IsTheSameEveryTime) {
    const Scene a = generated_scene(5000), b = generated_scene(5000);
    EXPECT_TRUE(a == b);
}

TEST(GeneratedScene, SpreadsInThreeDimensions) {
    for (std::size_t n : {1000u, 100000u}) {
        const Aabb<double> b = scene_bounds(generated_scene(n));
        const Vec3d size = b.max - b.min;
        // As tall as it is wide (a carpet would be a few units tall), and it sits on the ground.
        EXPECT_GT(size.y, 0.5 * std::max(size.x, size.z)) << n;
        EXPECT_GT(b.min.y, -1.0) << n;
    }
}
