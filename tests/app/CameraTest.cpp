// The camera's ray through a pixel passes through the world points that project to that pixel.
#include <gtest/gtest.h>

#include <cmath>

#include "app/Camera.h"

using raypick::app::Camera;
using raypick::app::Vec3d;

namespace {

double distance_to_line(const raypick::Ray<double>& r, const Vec3d& p) {
    const Vec3d d = glm::normalize(r.direction);
    const Vec3d v = p - r.origin;
    return glm::length(v - glm::dot(v, d) * d);
}

Camera some_camera() {
    Camera c;
    c.look_at(Vec3d(6.0, 4.0, 8.0), Vec3d(0.5, -0.25, 1.0));
    c.fov_y_degrees = 50.0;
    return c;
}

}  // namespace

TEST(Camera, LookAtPlacesTheEye) {
    Camera c;
    c.look_at(Vec3d(6.0, 4.0, 8.0), Vec3d(1.0, 0.0, 0.0));
    EXPECT_NEAR(c.eye().x, 6.0, 1e-12);
    EXPECT_NEAR(c.eye().y, 4.0, 1e-12);
    EXPECT_NEAR(c.eye().z, 8.0, 1e-12);
    EXPECT_NEAR(glm::length(c.forward() - glm::normalize(Vec3d(-5.0, -4.0, -8.0))), 0.0, 1e-12);
}

TEST(Camera, CentrePixelLooksAtTheTarget) {
    const Camera c = some_camera();
    const auto r = c.ray_from_pixel(400.0, 300.0, 800.0, 600.0);
    EXPECT_LT(distance_to_line(r, c.target), 1e-12);
    const auto p = c.project(c.target, 800.0, 600.0);
    ASSERT_TRUE(p);
    EXPECT_NEAR(p->x, 400.0, 1e-9);
    EXPECT_NEAR(p->y, 300.0, 1e-9);
}

TEST(Camera, RayThroughPixelPassesThroughEveryPointThatProjectsToIt) {
    const Camera c = some_camera();
    const double w = 1280.0, h = 720.0;
    for (double x : {0.5, 17.25, 640.0, 1000.5, 1279.5})
        for (double y : {0.5, 100.0, 360.0, 719.5}) {
            const auto r = c.ray_from_pixel(x, y, w, h);
            EXPECT_NEAR(glm::length(r.direction), 1.0, 1e-12);
            EXPECT_NEAR(glm::length(r.origin - c.eye()), 0.0, 1e-12);
            for (double t : {0.5, 3.0, 10.0, 200.0}) {
                const auto p = c.project(r.at(t), w, h);
                ASSERT_TRUE(p);
                EXPECT_NEAR(p->x, x, 1e-7) << "t " << t;
                EXPECT_NEAR(p->y, y, 1e-7) << "t " << t;
            }
        }
}

TEST(Camera, WorldPointsLieOnTheRayThroughTheirProjection) {
    const Camera c = some_camera();
    const double w = 800.0, h = 600.0;
    for (const Vec3d& q : {Vec3d(0, 0, 0), Vec3d(1, 2, 3), Vec3d(-2, 0.5, 1), Vec3d(3, -1, -4)}) {
        const auto p = c.project(q, w, h);
        ASSERT_TRUE(p);
        EXPECT_GT(p->depth, 0.0);
        EXPECT_LT(p->depth, 1.0);
        const auto r = c.ray_from_pixel(p->x, p->y, w, h);
        EXPECT_LT(distance_to_line(r, q), 1e-9 * glm::length(q - c.eye()));
        EXPECT_GT(glm::dot(q - r.origin, r.direction), 0.0);  // in front, not behind
    }
}

TEST(Camera, PointsBehindTheEyeDoNotProject) {
    const Camera c = some_camera();
    EXPECT_FALSE(c.project(c.eye() - c.forward() * 3.0, 800.0, 600.0));
}

TEST(Camera, OrbitKeepsTheTargetAndDistancePanMovesBoth) {
    Camera c = some_camera();
    const Vec3d target = c.target;
    const double dist = c.distance;
    c.orbit(120.0, -40.0);
    EXPECT_EQ(c.target, target);
    EXPECT_NEAR(glm::length(c.eye() - c.target), dist, 1e-9);
    // Pitch never flips over the pole.
    c.orbit(0.0, 100000.0);
    EXPECT_LT(c.pitch, 1.5708);
    const Vec3d eye = c.eye();
    c.pan(10.0, 0.0, 600.0);
    EXPECT_GT(glm::length(c.target - target), 0.0);
    EXPECT_NEAR(glm::length((c.eye() - eye) - (c.target - target)), 0.0, 1e-9);
    c.zoom(2.0);
    EXPECT_LT(c.distance, dist);
}

TEST(Camera, FrameShowsTheWholeBox) {
    Camera c;
    raypick::Aabb<double> box;
    box.min = Vec3d(10, 10, 10);
    box.max = Vec3d(12, 11, 15);
    c.frame(box, 16.0 / 9.0);
    for (int k = 0; k < 8; ++k) {
        const Vec3d corner((k & 1) ? box.max.x : box.min.x, (k & 2) ? box.max.y : box.min.y,
                           (k & 4) ? box.max.z : box.min.z);
        const auto p = c.project(corner, 1600.0, 900.0);
        ASSERT_TRUE(p);
        EXPECT_GE(p->x, 0.0);
        EXPECT_LE(p->x, 1600.0);
        EXPECT_GE(p->y, 0.0);
        EXPECT_LE(p->y, 900.0);
    }
}
