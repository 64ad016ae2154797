// The wireframes are generated from exactly the parameters the core casts against.
#include <gtest/gtest.h>

#include <cmath>

#include "app/SceneEdit.h"
#include "app/ShapeMeshes.h"
#include <raypick/scene/Euler.h>

using namespace raypick;
using namespace raypick::app;

TEST(Wireframe, SphereVerticesLieOnTheSphere) {
    Sphere<double> s{Vec3d(1, 2, 3), 1.5};
    LineList l;
    append_wireframe(l, s, palette::shape);
    ASSERT_EQ(l.vertices.size(), 3u * kCircleSegments * 2u);
    for (const LineVertex& v : l.vertices) EXPECT_NEAR(glm::length(glm::dvec3(v.position) - s.center), 1.5, 1e-5);
}

TEST(Wireframe, ObbEdgesJoinItsCorners) {
    Obb<double> b;
    b.center = Vec3d(1, 0, -1);
    b.rotation = rotation_from_euler_degrees(Vec3d(10, 20, 30));
    b.half_extents = Vec3d(1, 0.5, 0.25);
    LineList l;
    append_wireframe(l, b, palette::shape);
    ASSERT_EQ(l.vertices.size(), 24u);
    const auto corners = handles(Shape<double>(b));
    for (const LineVertex& v : l.vertices) {
        double best = 1e9;
        for (const Handle& h : corners) best = std::min(best, glm::length(glm::dvec3(v.position) - h.position));
        EXPECT_LT(best, 1e-6);
    }
}

TEST(Wireframe, CapsuleVerticesAreOnItsSurface) {
    Capsule<double> c;
    c.a = Vec3d(-1, 0.5, 0);
    c.b = Vec3d(2, 1.5, 1);
    c.radius = 0.4;
    LineList l;
    append_wireframe(l, c, palette::shape);
    ASSERT_FALSE(l.vertices.empty());
    for (const LineVertex& v : l.vertices) {
        const glm::dvec3 p(v.position);
        const glm::dvec3 ab = c.b - c.a;
        const double s = std::clamp(glm::dot(p - c.a, ab) / glm::dot(ab, ab), 0.0, 1.0);
        EXPECT_NEAR(glm::length(p - (c.a + s * ab)), 0.4, 1e-5);
    }
}

TEST(Wireframe, DegenerateShapesStillDraw) {
    Capsule<double> ball;
    ball.a = ball.b = Vec3d(1.0);
    ball.radius = 0.7;
    LineList l;
    append_wireframe(l, ball, palette::shape);
    for (const LineVertex& v : l.vertices) EXPECT_NEAR(glm::length(glm::dvec3(v.position) - ball.a), 0.7, 1e-5);
    Capsule<double> seg;
    seg.radius = 0.0;
    LineList s;
    append_wireframe(s, seg, palette::shape);
    EXPECT_EQ(s.vertices.size(), 2u);
    Aabb<double> flat;
    flat.min = Vec3d(0, 0, 0);
    flat.max = Vec3d(1, 1, 0);
    LineList f;
    append_wireframe(f, flat, palette::shape);
    EXPECT_EQ(f.vertices.size(), 24u);
}

TEST(Wireframe, SolidNormalsAreOutwardUnitVectors) {
    for (int t = 0; t < kShapeTypeCount; ++t) {
        const Shape<double> shape = make_shape(ShapeType(t), Vec3d(0.5, 1.0, -0.5));
        std::vector<SolidVertex> tris;
        append_solid(tris, shape, 16);
        ASSERT_EQ(tris.size() % 3, 0u);
        const glm::dvec3 c = shape_center(shape);
        for (const SolidVertex& v : tris) {
            EXPECT_NEAR(glm::length(glm::dvec3(v.normal)), 1.0, 1e-5);
            EXPECT_GE(glm::dot(glm::dvec3(v.normal), glm::dvec3(v.position) - c), -1e-6);
        }
    }
}
