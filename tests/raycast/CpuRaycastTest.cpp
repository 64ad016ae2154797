// The ray-cast view: pixels show what the core says, independently of thread count; shading maps
// normals to colours; the comparison skips silhouettes and catches real disagreements.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "raycast/CpuRaycast.h"
#include <raypick/geometry/MeshGenerators.h>
#include <raypick/geometry/MixedPick.h>

namespace raypick::raycast {
namespace {

// Orthographic rays along +z through a 64 x 48 grid spanning [-4, 4] x [-3, 3], row 0 at the top.
constexpr int kW = 64, kH = 48;
Ray<float> ortho(int x, int y) {
    const float px = (float(x) + 0.5f) / kW * 8.f - 4.f;
    const float py = 3.f - (float(y) + 0.5f) / kH * 6.f;
    return {{px, py, -10.f}, {0.f, 0.f, 1.f}};
}

TEST(CpuRaycast, PixelsShowTheNearestShapeWithItsDepthAndNormal) {
    // A unit-2 sphere in front of a wide box.
    const std::vector<Shape<float>> shapes{Sphere<float>{{0, 0, 0}, 2}, Aabb<float>{{-3.5f, -2.5f, 4}, {3.5f, 2.5f, 5}}};
    const Bvh<float> bvh(shapes);
    const Image img = render(bvh, kW, kH, ortho, 1);
    ASSERT_EQ(img.shape.size(), std::size_t(kW * kH));
    int sphere = 0, box = 0, background = 0;
    for (int y = 0; y < kH; ++y)
        for (int x = 0; x < kW; ++x) {
            const std::size_t i = std::size_t(y * kW + x);
            const Ray<float> r = ortho(x, y);
            const float d2 = r.origin.x * r.origin.x + r.origin.y * r.origin.y;
            if (d2 < 4.f) {
                ASSERT_EQ(img.shape[i], 0u) << x << "," << y;
                EXPECT_NEAR(img.t[i], 10.f - std::sqrt(4.f - d2), 1e-4f);
                EXPECT_LT(img.normal[i].z, 0.f);  // faces the viewer
                ++sphere;
            } else if (std::abs(r.origin.x) < 3.5f && std::abs(r.origin.y) < 2.5f) {
                ASSERT_EQ(img.shape[i], 1u) << x << "," << y;
                EXPECT_FLOAT_EQ(img.t[i], 14.f);
                EXPECT_EQ(img.normal[i], Vec3<float>(0, 0, -1));
                ++box;
            } else if (std::abs(r.origin.x) > 3.5f || std::abs(r.origin.y) > 2.5f) {
                EXPECT_EQ(img.shape[i], kBackground) << x << "," << y;
                ++background;
            }
        }
    EXPECT_GT(sphere, 100);
    EXPECT_GT(box, 100);
    EXPECT_GT(background, 100);
}

TEST(CpuRaycast, ResultDoesNotDependOnThreadCount) {
    std::vector<Shape<float>> shapes;
    for (int i = 0; i < 200; ++i) {
        const float a = float(i) * 0.37f;
        shapes.push_back(Sphere<float>{{3.5f * std::cos(a), 2.5f * std::sin(a * 1.3f), float(i % 7)}, 0.3f + 0.01f * float(i % 5)});
        shapes.push_back(Capsule<float>{{std::sin(a), std::cos(a), 3}, {std::cos(a), std::sin(a), 4}, 0.1f});
    }
    const Bvh<float> bvh(shapes);
    const Image one = render(bvh, kW, kH, ortho, 1);
    const Image many = render(bvh, kW, kH, ortho, 3);
    EXPECT_EQ(one.shape, many.shape);
    EXPECT_EQ(one.t, many.t);
    EXPECT_EQ(one.normal, many.normal);
}

TEST(CpuRaycast, RenderingIntoAnImageLeavesNothingOfItsPreviousPicture) {
    // A picture of many shapes, then one of a single sphere into the same buffers: every pixel of
    // the second must be what a fresh render gives (background included), at either size.
    std::vector<Shape<float>> many;
    for (int i = 0; i < 300; ++i)
        many.push_back(Aabb<float>{{float(i % 20) * 0.4f - 4.f, float(i / 20) * 0.4f - 3.f, 0.f},
                                   {float(i % 20) * 0.4f - 3.7f, float(i / 20) * 0.4f - 2.7f, 1.f}});
    const Bvh<float> full(many);
    const Bvh<float> one(std::vector<Shape<float>>{Sphere<float>{{-1, 0, 2}, 1}});
    for (const int w : {kW, kW / 2}) {
        Image reused;
        render(full, kW, kH, ortho, reused, 2);
        ASSERT_GT(std::count(reused.shape.begin(), reused.shape.end(), kBackground), 0);
        ASSERT_LT(std::count(reused.shape.begin(), reused.shape.end(), kBackground), kW * kH / 2);
        render(one, w, kH, ortho, reused, 2);
        const Image fresh = render(one, w, kH, ortho, 2);
        EXPECT_EQ(reused.width, w);
        EXPECT_EQ(reused.height, kH);
        EXPECT_EQ(reused.shape, fresh.shape);
        EXPECT_EQ(reused.t, fresh.t);
        EXPECT_EQ(reused.normal, fresh.normal);
        EXPECT_GT(std::count(fresh.shape.begin(), fresh.shape.end(), 0u), 50);
    }
}

TEST(CpuRaycast, ShadingMapsNormalsToColours) {
    Image img;
    img.width = 3;
    img.height = 1;
    img.shape = {0, 1, kBackground};
    img.t = {1.f, 3.f, 0.f};
    img.normal = {{1, 0, 0}, {0, 0, -1}, {0, 0, 0}};
    const auto n = shade(img, Shading::Normal);
    EXPECT_EQ(n[0], 255);  // +x -> red 1.0
    EXPECT_EQ(n[1], 128);
    EXPECT_EQ(n[4 + 2], 0);  // -z -> blue 0
    const auto d = shade(img, Shading::Depth);
    EXPECT_GT(d[0], d[4]);  // nearer is brighter
    EXPECT_EQ(d[8], 24);    // background
}

TEST(CpuRaycast, ComparisonSkipsSilhouettesAndCatchesRealDifferences) {
    const std::vector<Shape<float>> shapes{Sphere<float>{{0, 0, 0}, 2}};
    const Image img = render(Bvh<float>(shapes), kW, kH, ortho, 2);
    // The same picture: nothing differs.
    Comparison same = compare_ids(img, img.shape, 1);
    EXPECT_EQ(same.differing, 0u);
    EXPECT_GT(same.compared, 0u);
    // Shifted by one pixel: only silhouette pixels change, and they are skipped.
    std::vector<std::uint32_t> shifted(img.shape.size(), kBackground);
    for (int y = 0; y < kH; ++y)
        for (int x = 1; x < kW; ++x) shifted[std::size_t(y * kW + x)] = img.shape[std::size_t(y * kW + x - 1)];
    EXPECT_EQ(compare_ids(img, shifted, 1).differing, 0u);
    EXPECT_GT(compare_ids(img, shifted, 0).differing, 0u);
    // A block of wrong ids inside the sphere is a real disagreement.
    std::vector<std::uint32_t> wrong = img.shape;
    for (int y = 20; y < 28; ++y)
        for (int x = 28; x < 36; ++x) wrong[std::size_t(y * kW + x)] = 7;
    const Comparison c = compare_ids(img, wrong, 1);
    EXPECT_GT(c.differing, 10u);
    EXPECT_EQ(c.rgba[std::size_t((24 * kW + 32) * 4)], 255);  // magenta in the middle of the block
}

TEST(CpuRaycast, InstancesShowTheirIdsWhereTheyAreNearerThanTheShapes) {
    // Two spheres as shapes, and a mesh sphere placed three times (one mirrored and stretched, one
    // overlapping a shape sphere): every pixel is pick_mixed()'s answer, instances by their ids.
    const std::vector<Shape<float>> shapes{Sphere<float>{{-2.5f, 0, 0}, 1}, Aabb<float>{{-4, -3, 3}, {4, 3, 4}}};
    const Bvh<float> bvh(shapes);
    auto mesh = std::make_shared<const MeshBvh<float>>(meshgen::sphere<float>(400, 1.f));
    std::vector<Instance<float>> placed(3);
    placed[0].transform.translation = {1.5f, 1.f, 0.f};
    placed[1].transform.linear = Mat3<float>(Vec3<float>(-1.5f, 0, 0), Vec3<float>(0, 0.7f, 0), Vec3<float>(0, 0, 1));
    placed[1].transform.translation = {1.5f, -1.5f, -1.f};
    placed[2].transform.translation = {-2.f, 0.f, -0.5f};
    const InstanceBvh<float> instances({mesh}, placed);
    const std::vector<std::uint32_t> ids{7, 9, 7};
    const Image img = [&] {
        Image out;
        render(bvh, MeshObjects{&instances, &ids}, kW, kH, ortho, out, 3);
        return out;
    }();
    std::size_t seen_7 = 0, seen_9 = 0, seen_shape = 0;
    for (int y = 0; y < kH; ++y)
        for (int x = 0; x < kW; ++x) {
            const std::size_t i = std::size_t(y * kW + x);
            const auto want = pick_mixed(bvh, instances, ortho(x, y));
            if (!want) {
                ASSERT_EQ(img.shape[i], kBackground) << x << "," << y;
                continue;
            }
            if (want->instance) {
                ASSERT_EQ(img.shape[i], ids[want->instance->instance]) << x << "," << y;
                EXPECT_EQ(img.t[i], want->instance->hit.t);
                seen_7 += img.shape[i] == 7;
                seen_9 += img.shape[i] == 9;
            } else {
                ASSERT_EQ(img.shape[i], want->shape->shape) << x << "," << y;
                EXPECT_EQ(img.t[i], want->shape->surface.t);
                ++seen_shape;
            }
        }
    EXPECT_GT(seen_7, 100u);
    EXPECT_GT(seen_9, 50u);
    EXPECT_GT(seen_shape, 100u);
    // Without instances the same call is the shapes' picture.
    Image shapes_only;
    render(bvh, MeshObjects{}, kW, kH, ortho, shapes_only, 2);
    EXPECT_EQ(shapes_only.shape, render(bvh, kW, kH, ortho, 1).shape);
}

}  // namespace
}  // namespace raypick::raycast
