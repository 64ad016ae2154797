// The demo executable under a display (Xvfb + Mesa in CI): it starts and exits cleanly, refuses bad
// input with a message, and its screenshots show the core's results where the camera says they are.
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "app/Camera.h"
#include "app/Layout.h"
#include "app/Wireframe.h"
#include "geometry/Shape.h"
#include "scene/SceneFile.h"

#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#pragma GCC diagnostic ignored "-Wsign-compare"
#endif
#define STB_IMAGE_IMPLEMENTATION
#define STB_IMAGE_STATIC
#include <stb_image.h>
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

using namespace raypick;
using namespace raypick::app;
namespace fs = std::filesystem;

namespace {

bool have_display() {
    const char* d = std::getenv("DISPLAY");
    return d && *d;
}

#define REQUIRE_DISPLAY()                                                                         \
    do {                                                                                          \
        if (!have_display()) GTEST_SKIP() << "no DISPLAY: run the tests under xvfb-run (as scripts/test.sh does)"; \
    } while (0)

fs::path tmp_dir() {
    const fs::path dir = fs::path(RAYPICK_TEST_TMP) / ::testing::UnitTest::GetInstance()->current_test_info()->name();
    fs::create_directories(dir);
    return dir;
}

std::string quote(const std::string& s) { return "'" + s + "'"; }

struct AppRun {
    int code = -1;
    std::string output;
};

AppRun run_app(const std::string& args, const std::string& env = "") {
    const fs::path log = tmp_dir() / "log.txt";
    const std::string cmd = env + " " + quote(RAYPICK_APP_EXE) + " " + args + " > " + quote(log.string()) + " 2>&1";
    const int status = std::system(cmd.c_str());
    AppRun r;
    r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    std::ifstream in(log);
    std::stringstream ss;
    ss << in.rdbuf();
    r.output = ss.str();
    return r;
}

struct Image {
    int width = 0, height = 0;
    std::vector<unsigned char> rgb;
    glm::ivec3 at(int x, int y) const {
        const std::size_t i = (static_cast<std::size_t>(y) * width + x) * 3;
        return {rgb[i], rgb[i + 1], rgb[i + 2]};
    }
};

Image load_png(const std::string& path) {
    Image img;
    int channels = 0;
    unsigned char* data = stbi_load(path.c_str(), &img.width, &img.height, &channels, 3);
    if (!data) return img;
    img.rgb.assign(data, data + static_cast<std::size_t>(img.width) * img.height * 3);
    stbi_image_free(data);
    return img;
}

glm::ivec3 rgb_of(const Color& c) {
    return {static_cast<int>(c.r * 255.0f + 0.5f), static_cast<int>(c.g * 255.0f + 0.5f),
            static_cast<int>(c.b * 255.0f + 0.5f)};
}

bool close_colour(const glm::ivec3& a, const glm::ivec3& b, int tol = 4) {
    return std::abs(a.x - b.x) <= tol && std::abs(a.y - b.y) <= tol && std::abs(a.z - b.z) <= tol;
}

/// Whether a pixel within `radius` of (x, y) has colour c.
bool colour_near(const Image& img, double x, double y, const Color& c, int radius) {
    const int cx = static_cast<int>(x), cy = static_cast<int>(y);
    for (int dy = -radius; dy <= radius; ++dy)
        for (int dx = -radius; dx <= radius; ++dx) {
            const int px = cx + dx, py = cy + dy;
            if (px < 0 || py < 0 || px >= img.width || py >= img.height) continue;
            if (close_colour(img.at(px, py), rgb_of(c))) return true;
        }
    return false;
}

std::string describe(const glm::ivec3& c) {
    return "(" + std::to_string(c.x) + ", " + std::to_string(c.y) + ", " + std::to_string(c.z) + ")";
}

// The scene of the picture tests: a sphere and a box seen straight down -z.
constexpr int kW = 1280, kH = 720;

Scene picture_scene(bool with_shapes) {
    Scene s;
    if (with_shapes) {
        SceneShape ball;
        ball.name = "ball";
        ball.shape = Sphere<double>{Vec3d(-1.5, 0.0, 0.0), 1.0};
        SceneShape crate;
        crate.name = "crate";
        crate.shape = Aabb<double>{Vec3d(0.3, -1.0, -1.0), Vec3d(1.8, 1.0, 1.0)};
        s.shapes = {ball, crate};
    }
    SceneCamera cam;
    cam.eye = Vec3d(0.0, 0.0, 10.0);
    cam.target = Vec3d(0.0);
    cam.fov_y_degrees = 45.0;
    s.camera = cam;
    return s;
}

Camera picture_camera() {
    Camera c;
    c.fov_y_degrees = 45.0;
    c.look_at(Vec3d(0.0, 0.0, 10.0), Vec3d(0.0));
    return c;
}

/// Where the app draws world point p: the camera projects into the 3D view's rectangle, which
/// lies between the panel columns.
std::optional<ScreenPoint> project_px(const Camera& cam, const Vec3d& p) {
    const ViewRect v = view_rect(kW, kH, /*panels=*/true);
    auto s = cam.project(p, v.width, v.height);
    if (s) {
        s->x += v.x;
        s->y += v.y;
    }
    return s;
}

Ray<double> picture_ray() {
    Ray<double> r;
    r.origin = Vec3d(-4.0, 2.0, 8.0);
    r.direction = Vec3d(2.7, -1.7, -7.4);
    return r;
}

std::string ray_args(const Ray<double>& r) {
    std::ostringstream os;
    os.precision(17);
    os << "--ray " << r.origin.x << ' ' << r.origin.y << ' ' << r.origin.z << ' ' << r.direction.x << ' '
       << r.direction.y << ' ' << r.direction.z;
    return os.str();
}

std::string save(const Scene& s, const std::string& name) {
    const fs::path p = tmp_dir() / name;
    const auto err = save_scene_file(p.string(), s);
    EXPECT_FALSE(err) << *err;
    return p.string();
}

Image screenshot(const std::string& scene_file, const std::string& png_name, const std::string& extra = "") {
    const fs::path png = tmp_dir() / png_name;
    fs::remove(png);
    const AppRun r = run_app("--scene " + quote(scene_file) + " --screenshot " + quote(png.string()) + " --width " +
                          std::to_string(kW) + " --height " + std::to_string(kH) + " " + extra);
    EXPECT_EQ(r.code, 0) << r.output;
    EXPECT_TRUE(fs::exists(png)) << r.output;
    const Image img = load_png(png.string());
    EXPECT_EQ(img.width, kW);
    EXPECT_EQ(img.height, kH);
    return img;
}

}  // namespace

TEST(AppWindow, StartsAndExitsCleanly) {
    REQUIRE_DISPLAY();
    const AppRun builtin = run_app("--frames 5");
    EXPECT_EQ(builtin.code, 0) << builtin.output;
    const std::string file = save(picture_scene(true), "scene.json");
    const AppRun with_file = run_app("--scene " + quote(file) + " --frames 5 --solid --compare");
    EXPECT_EQ(with_file.code, 0) << with_file.output;
    const AppRun many = run_app("--shapes 1000 --frames 3");
    EXPECT_EQ(many.code, 0) << many.output;
}

TEST(AppWindow, BadInputStopsWithAMessageNotACrash) {
    REQUIRE_DISPLAY();
    const fs::path bad = tmp_dir() / "bad.json";
    std::ofstream(bad) << "{\"shapes\": [{\"type\": \"sphere\", \"center\": [0, 0, 0], \"radius\": -1}]}";
    const AppRun r = run_app("--scene " + quote(bad.string()) + " --frames 2");
    EXPECT_EQ(r.code, 1) << r.output;
    EXPECT_NE(r.output.find("bad.json"), std::string::npos) << r.output;
    const AppRun missing = run_app("--scene " + quote((tmp_dir() / "nope.json").string()) + " --frames 2");
    EXPECT_EQ(missing.code, 1) << missing.output;
    const AppRun args = run_app("--width banana");
    EXPECT_EQ(args.code, 2) << args.output;
    EXPECT_NE(args.output.find("--width"), std::string::npos) << args.output;
}

TEST(AppWindow, AShaderThatDoesNotCompileStopsStartupWithItsLog) {
    REQUIRE_DISPLAY();
    const fs::path dir = tmp_dir() / "shaders";
    fs::create_directories(dir);
    const fs::path real = fs::path(RAYPICK_APP_EXE).parent_path() / "shaders";
    for (const auto& e : fs::directory_iterator(real))
        fs::copy_file(e.path(), dir / e.path().filename(), fs::copy_options::overwrite_existing);
    std::ofstream(dir / "lines.frag") << "#version 330 core\nout vec4 c;\nvoid main() { c = undefined_thing; }\n";
    const AppRun r = run_app("--frames 2", "RAYPICK_SHADER_DIR=" + quote(dir.string()));
    EXPECT_EQ(r.code, 1) << r.output;
    EXPECT_NE(r.output.find("lines.frag"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("undefined_thing"), std::string::npos) << r.output;  // the compiler's log
}

TEST(AppWindow, FrozenRayScreenshotShowsTheCoreHitWhereTheCameraProjectsIt) {
    REQUIRE_DISPLAY();
    const Scene scene = picture_scene(true);
    const Image img = screenshot(save(scene, "scene.json"), "frozen.png", ray_args(picture_ray()));
    ASSERT_FALSE(img.rgb.empty());
    const Camera cam = picture_camera();

    // The entry point of the ray into the ball, as the double core computes it.
    const auto hit = cast(picture_ray(), scene.shapes[0].shape);
    ASSERT_TRUE(hit);
    const auto entry = project_px(cam, picture_ray().at(hit->t_near));
    ASSERT_TRUE(entry);
    ASSERT_GT(entry->x, 320);  // in the view, not under a panel
    ASSERT_LT(entry->x, 860);
    const glm::ivec3 got = img.at(static_cast<int>(entry->x), static_cast<int>(entry->y));
    EXPECT_TRUE(close_colour(got, rgb_of(palette::entry)))
        << "at the projected hit point (" << entry->x << ", " << entry->y << ") got " << describe(got)
        << ", expected the entry marker colour " << describe(rgb_of(palette::entry));
    // A few pixels away it is not the marker any more (the marker is small, not a blob).
    EXPECT_FALSE(close_colour(img.at(static_cast<int>(entry->x) + 12, static_cast<int>(entry->y) + 12),
                              rgb_of(palette::entry)));

    // Silhouettes: the box's front face edges and the ball's ring in the view plane.
    for (const Vec3d& p : {Vec3d(1.8, 0.5, 1.0), Vec3d(0.3, -0.6, 1.0), Vec3d(1.0, 1.0, 1.0),
                           Vec3d(-1.5 + std::cos(0.8), std::sin(0.8), 0.0), Vec3d(-1.5, -1.0, 0.0)}) {
        const auto s = project_px(cam, p);
        ASSERT_TRUE(s);
        EXPECT_TRUE(colour_near(img, s->x, s->y, palette::shape, 2))
            << "no wireframe colour near the projection (" << s->x << ", " << s->y << ") of (" << p.x << ", " << p.y
            << ", " << p.z << "); pixel is " << describe(img.at(static_cast<int>(s->x), static_cast<int>(s->y)));
    }
    // Inside the ball's outline, away from its rings, the background shows (wire mode).
    const auto inside = project_px(cam, Vec3d(-1.5 - 0.45, 0.45, 0.0));
    EXPECT_TRUE(close_colour(img.at(static_cast<int>(inside->x), static_cast<int>(inside->y)), rgb_of(palette::background)));
}

TEST(AppWindow, EmptySceneAndSceneWithShapesDifferWhereTheShapesAre) {
    REQUIRE_DISPLAY();
    const Image full = screenshot(save(picture_scene(true), "full.json"), "full.png", ray_args(picture_ray()));
    const Image empty = screenshot(save(picture_scene(false), "empty.json"), "empty.png", ray_args(picture_ray()));
    ASSERT_FALSE(full.rgb.empty());
    ASSERT_FALSE(empty.rgb.empty());
    const Camera cam = picture_camera();
    // On the shapes' outlines: wireframe with shapes, background without.
    for (const Vec3d& p : {Vec3d(1.8, 0.5, 1.0), Vec3d(-1.5 + std::cos(0.8), std::sin(0.8), 0.0)}) {
        const auto s = project_px(cam, p);
        EXPECT_TRUE(colour_near(full, s->x, s->y, palette::shape, 2));
        EXPECT_FALSE(colour_near(empty, s->x, s->y, palette::shape, 2));
    }
    // Where the ray enters the ball: the entry marker only when there is a ball.
    const auto hit = cast(picture_ray(), picture_scene(true).shapes[0].shape);
    ASSERT_TRUE(hit);
    const auto e = project_px(cam, picture_ray().at(hit->t_near));
    EXPECT_TRUE(close_colour(full.at(int(e->x), int(e->y)), rgb_of(palette::entry)));
    EXPECT_FALSE(close_colour(empty.at(int(e->x), int(e->y)), rgb_of(palette::entry)));
    // Far from the shapes and the ray both pictures are the same background.
    for (const auto& q : {glm::ivec2(400, 640), glm::ivec2(820, 120)}) {
        EXPECT_TRUE(close_colour(full.at(q.x, q.y), empty.at(q.x, q.y), 0))
            << describe(full.at(q.x, q.y)) << " vs " << describe(empty.at(q.x, q.y));
    }
    // And the panels are there: the Scene list lists the shapes, so the panel pixels differ.
    int differing = 0;
    for (int y = 90; y < 140; ++y)
        for (int x = 10; x < 200; ++x) differing += full.at(x, y) != empty.at(x, y);
    EXPECT_GT(differing, 20);
}

TEST(AppWindow, SolidModeShadesSurfacesByTheirNormal) {
    REQUIRE_DISPLAY();
    const Image img = screenshot(save(picture_scene(true), "scene.json"), "solid.png", ray_args(picture_ray()) + " --solid");
    ASSERT_FALSE(img.rgb.empty());
    const Camera cam = picture_camera();
    // The crate's front face (normal +z) is (0.5, 0.5, 1) * 255, its colour for the normal (0, 0, 1).
    const auto front = project_px(cam, Vec3d(1.05, 0.6, 1.0));
    ASSERT_TRUE(front);
    const glm::ivec3 got = img.at(static_cast<int>(front->x), static_cast<int>(front->y));
    EXPECT_TRUE(close_colour(got, glm::ivec3(128, 128, 255), 3)) << describe(got);
    // The ball's point facing the eye: the normal (eye - centre) / |eye - centre|, up to tessellation.
    const Vec3d centre(-1.5, 0.0, 0.0), eye(0.0, 0.0, 10.0);
    const Vec3d n = glm::normalize(eye - centre);
    const auto p = project_px(cam, centre + n + Vec3d(0.0, 0.35, 0.0));  // a little above the ray's path
    ASSERT_TRUE(p);
    const Vec3d q = glm::normalize(centre + n + Vec3d(0.0, 0.35, 0.0) - centre);  // roughly the normal there
    const glm::ivec3 expected(static_cast<int>((q.x * 0.5 + 0.5) * 255), static_cast<int>((q.y * 0.5 + 0.5) * 255),
                              static_cast<int>((q.z * 0.5 + 0.5) * 255));
    const glm::ivec3 ball = img.at(static_cast<int>(p->x), static_cast<int>(p->y));
    EXPECT_TRUE(close_colour(ball, expected, 20)) << describe(ball) << " vs " << describe(expected);
    // Background stays background.
    EXPECT_TRUE(close_colour(img.at(400, 640), rgb_of(palette::background)));
}

TEST(AppWindow, AThousandShapesAreOneBatchedUploadAndStayInteractive) {
    REQUIRE_DISPLAY();
    const AppRun r = run_app("--shapes 1000 --bench-frames 30");
    ASSERT_EQ(r.code, 0) << r.output;
    double mean = 0.0;
    std::size_t vertices = 0, uploads = 0;
    const auto at = r.output.find("mean ");
    ASSERT_NE(at, std::string::npos) << r.output;
    ASSERT_EQ(std::sscanf(r.output.c_str() + at, "mean %lf ms", &mean), 1) << r.output;
    const auto v = r.output.find("us, ");
    ASSERT_NE(v, std::string::npos) << r.output;
    ASSERT_EQ(std::sscanf(r.output.c_str() + v, "us, %zu wire vertices, %zu scene uploads", &vertices, &uploads), 2)
        << r.output;
    EXPECT_EQ(uploads, 1u) << "the scene's wireframe is built once, not per frame";
    EXPECT_GT(vertices, 1000u * 20u);
    // Generous: a loaded CI machine with software GL; the figure itself is in the README.
    EXPECT_LT(mean, 250.0) << r.output;
}

TEST(AppWindow, OpeningABadFileKeepsTheSceneAndShowsTheMessage) {
    REQUIRE_DISPLAY();
    const fs::path bad = tmp_dir() / "bad.json";
    std::ofstream(bad) << "{\"shapes\": [{\"type\": \"sphere\", \"center\": [0, 0, 0], \"radius\": -1}]}";
    const std::string full_file = save(picture_scene(true), "full.json");
    const std::string open_bad = "--open " + quote(bad.string());
    const Image plain = screenshot(full_file, "plain.png");
    const Image full = screenshot(full_file, "full_then_bad.png", open_bad);
    const Image empty = screenshot(save(picture_scene(false), "empty.json"), "empty_then_bad.png", open_bad);
    ASSERT_FALSE(plain.rgb.empty());
    ASSERT_FALSE(full.rgb.empty());
    ASSERT_FALSE(empty.rgb.empty());
    // The message box is up: ImGui dims everything behind a modal.
    EXPECT_TRUE(close_colour(plain.at(400, 640), rgb_of(palette::background)));
    EXPECT_FALSE(close_colour(full.at(400, 640), rgb_of(palette::background)));
    // The scene that was open is still there: its shapes are listed (the empty one lists none).
    int differing = 0;
    for (int y = 90; y < 125; ++y)
        for (int x = 10; x < 200; ++x) differing += full.at(x, y) != empty.at(x, y);
    EXPECT_GT(differing, 20);
}
