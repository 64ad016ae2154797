// The ray-cast view without a window: its pixels' rays are the camera's rays through the matching
// points of the view (also at half resolution), it casts again only when something it shows
// changed, and bad sizes give no picture rather than a crash.
#include <gtest/gtest.h>

#include <cmath>

#include "app/RaycastView.h"

using namespace raypick;
using namespace raypick::app;

namespace {

Camera some_camera() {
    Camera c;
    c.look_at(Vec3d(6.0, 4.0, 8.0), Vec3d(0.5, -0.25, 1.0));
    c.fov_y_degrees = 50.0;
    return c;
}

void expect_same_ray(const Ray<float>& got, const Ray<double>& want) {
    EXPECT_NEAR(got.origin.x, want.origin.x, 1e-5);
    EXPECT_NEAR(got.origin.y, want.origin.y, 1e-5);
    EXPECT_NEAR(got.origin.z, want.origin.z, 1e-5);
    EXPECT_NEAR(got.direction.x, want.direction.x, 1e-6);
    EXPECT_NEAR(got.direction.y, want.direction.y, 1e-6);
    EXPECT_NEAR(got.direction.z, want.direction.z, 1e-6);
}

Scene two_shapes() {
    Scene s;
    SceneShape ball;
    ball.name = "ball";
    ball.shape = Sphere<double>{Vec3d(-1.5, 0.0, 0.0), 1.0};
    SceneShape crate;
    crate.name = "crate";
    crate.shape = Aabb<double>{Vec3d(0.3, -1.0, -1.0), Vec3d(1.8, 1.0, 1.0)};
    s.shapes = {ball, crate};
    return s;
}

/// A camera 10 units in front of two_shapes(), looking at the origin.
Camera front_camera() {
    Camera cam;
    cam.look_at(Vec3d(0.0, 0.0, 10.0), Vec3d(0.0));
    return cam;
}

}  // namespace

TEST(RaycastView, PictureSizeIsTheViewOrHalfOfIt) {
    EXPECT_EQ(raycast_picture_size(580.0, 678.0, false), (PictureSize{580, 678}));
    EXPECT_EQ(raycast_picture_size(580.0, 678.0, true), (PictureSize{290, 339}));
    EXPECT_EQ(raycast_picture_size(1.0, 1.0, true), (PictureSize{1, 1}));
    EXPECT_TRUE(raycast_picture_size(0.0, 720.0, false).empty());
    EXPECT_TRUE(raycast_picture_size(1280.0, 0.5, true).empty());
    EXPECT_TRUE(raycast_picture_size(NAN, 720.0, false).empty());
}

TEST(RaycastView, PixelRaysAreTheCamerasRaysThroughThePixelCentres) {
    const Camera c = some_camera();
    const double vw = 800.0, vh = 600.0;
    const ViewRays full(c, {800, 600}, vw, vh);
    for (const auto& p : {glm::ivec2(0, 0), glm::ivec2(799, 599), glm::ivec2(400, 17), glm::ivec2(3, 560)})
        expect_same_ray(full(p.x, p.y), c.ray_from_pixel(p.x + 0.5, p.y + 0.5, vw, vh));
}

TEST(RaycastView, HalfResolutionPixelsCoverTwoByTwoViewPixels) {
    const Camera c = some_camera();
    const double vw = 801.0, vh = 600.0;  // an odd width: 401 picture pixels, slightly wider each
    const PictureSize half = raycast_picture_size(vw, vh, true);
    ASSERT_EQ(half, (PictureSize{401, 300}));
    const ViewRays rays(c, half, vw, vh);
    // Pixel (x, y) of the half picture is centred at ((x + 0.5) * vw / w, (y + 0.5) * vh / h).
    for (const auto& p : {glm::ivec2(0, 0), glm::ivec2(400, 299), glm::ivec2(200, 150), glm::ivec2(17, 250)}) {
        const double x = (p.x + 0.5) * vw / half.width, y = (p.y + 0.5) * vh / half.height;
        expect_same_ray(rays(p.x, p.y), c.ray_from_pixel(x, y, vw, vh));
    }
    // With an even size that is the corner shared by four view pixels: the top-left pixel's
    // centre is the view point (1, 1), the bottom-right one's is (vw - 1, vh - 1).
    const ViewRays even(c, {400, 300}, 800.0, 600.0);
    expect_same_ray(even(0, 0), c.ray_from_pixel(1.0, 1.0, 800.0, 600.0));
    expect_same_ray(even(399, 299), c.ray_from_pixel(799.0, 599.0, 800.0, 600.0));
}

TEST(RaycastView, ShiftedIdsMoveRightWithBackgroundComingIn) {
    const std::vector<std::uint32_t> ids = {1, 2, 3, 4, 5, 6};  // 3 x 2
    const auto k = raycast::kBackground;
    EXPECT_EQ(shift_ids(ids, 3, 2, 1), (std::vector<std::uint32_t>{k, 1, 2, k, 4, 5}));
    EXPECT_EQ(shift_ids(ids, 3, 2, -2), (std::vector<std::uint32_t>{3, k, k, 6, k, k}));
    EXPECT_EQ(shift_ids(ids, 3, 2, 0), ids);
}

TEST(RaycastView, CastsAgainOnlyWhenCameraSizeSceneOrResolutionChange) {
    SceneEditor scene(two_shapes());
    Camera cam = front_camera();
    RaycastView view;
    RaycastOptions o;
    o.enabled = true;
    EXPECT_TRUE(view.update(scene, cam, 160.0, 90.0, o, {}));
    EXPECT_EQ(view.casts(), 1u);
    EXPECT_EQ(view.size(), (PictureSize{160, 90}));
    EXPECT_EQ(view.rgba().size(), 160u * 90u * 4u);
    // The middle row crosses the ball (shape 0) on the left and the crate (shape 1) on the right.
    const auto& img = view.image();
    EXPECT_EQ(img.shape[45 * 160 + 64], 0u);
    EXPECT_EQ(img.shape[45 * 160 + 93], 1u);
    EXPECT_EQ(img.shape[5 * 160 + 5], raycast::kBackground);

    EXPECT_FALSE(view.update(scene, cam, 160.0, 90.0, o, {}));  // nothing changed
    o.shading = RaycastShading::Depth;
    EXPECT_TRUE(view.update(scene, cam, 160.0, 90.0, o, {}));  // reshaded only
    EXPECT_EQ(view.casts(), 1u);
    cam.orbit(3.0, 0.0);
    EXPECT_TRUE(view.update(scene, cam, 160.0, 90.0, o, {}));
    EXPECT_EQ(view.casts(), 2u);
    Sphere<double> bigger = std::get<Sphere<double>>(scene.scene().shapes[0].shape);
    bigger.radius = 1.2;
    ASSERT_FALSE(scene.edit_shape(0, bigger).has_value());  // a refit, not a rebuild
    EXPECT_TRUE(view.update(scene, cam, 160.0, 90.0, o, {}));
    EXPECT_EQ(view.casts(), 3u);
    EXPECT_EQ(view.rebuilds(), 1u);
    o.half_resolution = true;
    EXPECT_TRUE(view.update(scene, cam, 160.0, 90.0, o, {}));
    EXPECT_EQ(view.casts(), 4u);
    EXPECT_EQ(view.size(), (PictureSize{80, 45}));
    EXPECT_GT(view.rays_per_second(), 0.0);
}

TEST(RaycastView, FollowsTheEditorsChangeSets) {
    SceneEditor scene(two_shapes());
    Camera cam = front_camera();
    RaycastView view;
    RaycastOptions o;
    o.enabled = true;
    ASSERT_TRUE(view.update(scene, cam, 160.0, 90.0, o, {}));
    // A rename is a change of the scene but not of what is drawn: no cast.
    ASSERT_TRUE(scene.rename(0, "renamed"));
    EXPECT_FALSE(view.update(scene, cam, 160.0, 90.0, o, {}));
    EXPECT_EQ(view.casts(), 1u);
    // A structural change (a shape removed) rebuilds; its undo rebuilds again.
    ASSERT_TRUE(scene.remove(0));
    EXPECT_TRUE(view.update(scene, cam, 160.0, 90.0, o, {}));
    EXPECT_EQ(view.rebuilds(), 2u);
    EXPECT_EQ(view.image().shape[45 * 160 + 64], raycast::kBackground) << "the ball is gone";
    ASSERT_TRUE(scene.undo());
    EXPECT_TRUE(view.update(scene, cam, 160.0, 90.0, o, {}));
    EXPECT_EQ(view.rebuilds(), 3u);
    EXPECT_EQ(view.image().shape[45 * 160 + 64], 0u) << "the ball is back";
    EXPECT_EQ(view.casts(), 3u);
}

TEST(RaycastView, DifferenceModeComparesWithTheOtherPicture) {
    const SceneEditor scene(two_shapes());
    Camera cam = front_camera();
    RaycastOptions o;
    o.enabled = true;
    o.shading = RaycastShading::Difference;
    RaycastView view;
    std::vector<std::uint32_t> same;
    // The other picture is the CPU one itself: nothing differs.
    {
        RaycastView cpu;
        RaycastOptions normal = o;
        normal.shading = RaycastShading::Normal;
        cpu.update(scene, cam, 160.0, 90.0, normal, {});
        same = cpu.image().shape;
    }
    int calls = 0;
    ASSERT_TRUE(view.update(scene, cam, 160.0, 90.0, o, [&](PictureSize p) {
        ++calls;
        EXPECT_EQ(p, (PictureSize{160, 90}));
        return same;
    }));
    EXPECT_EQ(calls, 1);
    EXPECT_GT(view.comparison().compared, 160u * 90u / 2);
    EXPECT_EQ(view.comparison().differing, 0u);
    // All background in the other picture: every compared shape pixel differs.
    RaycastView other;
    other.update(scene, cam, 160.0, 90.0, o, [](PictureSize p) {
        return std::vector<std::uint32_t>(std::size_t(p.width) * std::size_t(p.height), raycast::kBackground);
    });
    EXPECT_GT(other.comparison().differing, 100u);
}

TEST(RaycastView, EmptySceneAndZeroSizeViewDoNotCrash) {
    RaycastView view;
    RaycastOptions o;
    o.enabled = true;
    o.shading = RaycastShading::Difference;
    const SceneEditor empty;
    Camera cam;
    EXPECT_FALSE(view.update(empty, cam, 0.0, 0.0, o, {}));  // minimised: no picture
    EXPECT_TRUE(view.size().empty());
    EXPECT_TRUE(view.update(empty, cam, 32.0, 16.0, o, {}));  // no other picture: nothing compared
    EXPECT_EQ(view.comparison().compared, 0u);
    for (std::uint32_t id : view.image().shape) EXPECT_EQ(id, raycast::kBackground);
}
