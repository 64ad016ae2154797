// The demo executable under a display (Xvfb + Mesa in CI): it starts and exits cleanly, refuses bad
// input with a message, and its screenshots show the core's results where the camera says they are.
#include <gtest/gtest.h>

#include <X11/Xlib.h>
#include <X11/keysym.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <thread>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "app/Camera.h"
#include "app/ViewLayout.h"
#include "app/ShapeMeshes.h"
#include <raypick/geometry/Shape.h>
#include <raypick/scene/SceneFile.h>

#include "AppRunner.h"

using namespace raypick;
using namespace raypick::app;
namespace fs = std::filesystem;
using namespace raypick::app::test;

namespace {

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

/// Where the app draws world point p: the camera projects into the 3D view's rectangle, the free
/// region between the panel columns.
std::optional<ScreenPoint> project_px(const Camera& cam, const Vec3d& p) {
    const ViewRect v = view_rect(kW, kH, PanelLayout{});
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

TEST(AppWindow, HelpListsTheUsersOptionsAndTheHarnessItsDrivers) {
    // No window needed: --help exits before one is opened.
    const AppRun demo = run_app("--help");
    EXPECT_EQ(demo.code, 0) << demo.output;
    EXPECT_NE(demo.output.find("--scene"), std::string::npos) << demo.output;
    for (const char* driver : {"--bench", "--random-edits", "--seed", "--abuse", "sabotage", "--raycast-check-shift"})
        EXPECT_EQ(demo.output.find(driver), std::string::npos) << driver;
    // A usage error is one line naming the problem and pointing to --help.
    const AppRun refused = run_app("--bench-frames 5");
    EXPECT_EQ(refused.code, 2) << "the demo refuses the harness's options";
    EXPECT_EQ(refused.output, "raypick: unknown argument '--bench-frames' (see --help)\n");
    const AppRun harness = run_harness("--help");
    EXPECT_EQ(harness.code, 0) << harness.output;
    for (const char* option : {"--scene", "--bench-frames", "--bench-orbit", "--random-edits", "--raycast-check-shift"})
        EXPECT_NE(harness.output.find(option), std::string::npos) << option;
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

TEST(AppWindow, DockedPanelsKeepImGuisBackgroundColour) {
    // The renderer fills the docked panels' rectangles opaque (ImGui draws no background for
    // them); the colour is ImGui's dark window background (0.06 grey at alpha 0.94) over the
    // view's background, as ImGui would blend it.
    REQUIRE_DISPLAY();
    const Image img = screenshot(save(picture_scene(true), "panels.json"), "panels.png", ray_args(picture_ray()));
    ASSERT_FALSE(img.rgb.empty());
    const glm::vec3 under(palette::background);
    const glm::vec3 blended = glm::vec3(0.06f) * 0.94f + under * 0.06f;
    const glm::ivec3 expected(glm::round(blended * 255.0f));
    // Empty spots: Inspector (nothing selected), Ray beside "origin", Options below its lines, the
    // status bar's right end.
    for (const auto& q : {glm::ivec2(150, 560), glm::ivec2(1150, 171), glm::ivec2(1200, 672), glm::ivec2(1270, 712)}) {
        EXPECT_TRUE(close_colour(img.at(q.x, q.y), expected, 1))
            << "at " << q.x << ", " << q.y << ": " << describe(img.at(q.x, q.y)) << ", expected " << describe(expected);
    }
    // And not the view's background (which shows if the panels were not filled).
    EXPECT_FALSE(close_colour(img.at(150, 560), rgb_of(palette::background), 3));
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
    // A little below the ray's path, clear of the ray's and the normals' outlined lines.
    const auto p = project_px(cam, centre + n + Vec3d(0.0, -0.45, 0.0));
    ASSERT_TRUE(p);
    const Vec3d q = glm::normalize(centre + n + Vec3d(0.0, -0.45, 0.0) - centre);  // roughly the normal there
    const glm::ivec3 expected(static_cast<int>((q.x * 0.5 + 0.5) * 255), static_cast<int>((q.y * 0.5 + 0.5) * 255),
                              static_cast<int>((q.z * 0.5 + 0.5) * 255));
    const glm::ivec3 ball = img.at(static_cast<int>(p->x), static_cast<int>(p->y));
    EXPECT_TRUE(close_colour(ball, expected, 20)) << describe(ball) << " vs " << describe(expected);
    // Background stays background.
    EXPECT_TRUE(close_colour(img.at(400, 640), rgb_of(palette::background)));
}

TEST(AppWindow, AThousandShapesAreOneBatchedUploadAndStayInteractive) {
    REQUIRE_DISPLAY();
    const AppRun r = run_harness("--shapes 1000 --bench-frames 30");
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
    double cpu = 0.0;
    const auto c = r.output.find("cpu ");
    ASSERT_NE(c, std::string::npos) << r.output;
    ASSERT_EQ(std::sscanf(r.output.c_str() + c, "cpu %lf ms a frame", &cpu), 1) << r.output;
    EXPECT_GT(cpu, 0.0) << "the process's CPU time over the timed frames";
    EXPECT_GT(vertices, 1000u * 20u);
    // Generous: a loaded CI machine with software GL; the figure itself is in docs/performance.md.
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

// ---- idling, the file dialog, the remembered state -----------------------------------------------

TEST(AppWindow, AnUntouchedDemoWaitsForInputInsteadOfDrawing) {
    // The harness runs the demo's interactive loop (vsync, waiting when idle) for 2 s with no
    // input: it draws its first few frames (ImGui settles), then none; drawing continuously it
    // would draw dozens at least.
    REQUIRE_DISPLAY();
    const AppRun r = run_harness("--scene " + quote(save(picture_scene(true), "scene.json")) + " --idle-seconds 2");
    ASSERT_EQ(r.code, 0) << r.output;
    int frames = -1;
    double seconds = 0.0;
    const auto at = r.output.find("raypick idle: ");
    ASSERT_NE(at, std::string::npos) << r.output;
    ASSERT_EQ(std::sscanf(r.output.c_str() + at, "raypick idle: %d frames in %lf s", &frames, &seconds), 2) << r.output;
    EXPECT_GE(seconds, 2.0);
    EXPECT_GE(frames, 1);
    EXPECT_LE(frames, 8) << r.output;
}

TEST(AppWindow, OpenDialogListsTheFoldersSceneFiles) {
    REQUIRE_DISPLAY();
    const fs::path files = tmp_dir() / "files", empty = tmp_dir() / "empty";
    fs::create_directories(files / "a folder");
    fs::create_directories(empty);
    for (int i = 0; i < 8; ++i) std::ofstream(files / ("scene_" + std::to_string(i) + ".json")) << "{}";
    const std::string scene = save(picture_scene(true), "scene.json");
    const Image plain = screenshot(scene, "plain.png");
    const Image listed = screenshot(scene, "listed.png", "--open-dialog " + quote(files.string()));
    const Image none = screenshot(scene, "none.png", "--open-dialog " + quote(empty.string()));
    ASSERT_FALSE(plain.rgb.empty());
    ASSERT_FALSE(listed.rgb.empty());
    ASSERT_FALSE(none.rgb.empty());
    // The dialog is modal: the view around it is dimmed.
    EXPECT_TRUE(close_colour(plain.at(400, 660), rgb_of(palette::background)));
    EXPECT_FALSE(close_colour(listed.at(400, 660), rgb_of(palette::background)));
    // Its listing (the right part of the dialog, centred in the window) shows nine entries in one
    // folder and none in the other: many bright text pixels differ.
    int differing = 0;
    for (int y = 180; y < 420; ++y)
        for (int x = 540; x < 1000; ++x) differing += listed.at(x, y) != none.at(x, y);
    EXPECT_GT(differing, 1500);
}

TEST(AppWindow, ABrokenOrUnwritableConfigNeverStopsTheDemo) {
    REQUIRE_DISPLAY();
    const std::string scene = save(picture_scene(true), "scene.json");
    // Garbage settings and a folder where imgui.ini belongs: read what can be read, say what
    // could not be written, run on.
    const fs::path dir = config_home() / "raypick";
    fs::remove_all(config_home());
    fs::create_directories(dir / "imgui.ini");
    std::ofstream(dir / "settings.txt") << "solid = yes please\n\x01\x02\x03\nrecent = /nowhere.json\n";
    const AppRun broken = run_harness("--scene " + quote(scene) + " --idle-seconds 1");
    EXPECT_EQ(broken.code, 0) << broken.output;
    EXPECT_NE(broken.output.find("imgui.ini"), std::string::npos) << broken.output;
    // A config directory that cannot be made: a file in the way.
    const fs::path blocked = tmp_dir() / "blocked";
    std::ofstream(blocked) << "a file";
    const AppRun unwritable = run_harness("--scene " + quote(scene) + " --idle-seconds 1",
                                          "XDG_CONFIG_HOME=" + quote(blocked.string()));
    EXPECT_EQ(unwritable.code, 0) << unwritable.output;
    EXPECT_NE(unwritable.output.find("could not remember"), std::string::npos) << unwritable.output;
}

TEST(AppWindow, ScreenshotsAndTimedRunsNeitherReadNorWriteTheConfig) {
    REQUIRE_DISPLAY();
    fs::remove_all(config_home());
    const std::string scene = save(picture_scene(true), "scene.json");
    const fs::path png = tmp_dir() / "shot.png";
    EXPECT_EQ(run_app("--scene " + quote(scene) + " --screenshot " + quote(png.string())).code, 0);
    EXPECT_EQ(run_app("--scene " + quote(scene) + " --frames 3").code, 0);
    EXPECT_FALSE(fs::exists(config_home())) << "nothing written";
    // An interactive run (the harness's idle run) writes its settings, creating the folders.
    EXPECT_EQ(run_harness("--scene " + quote(scene) + " --idle-seconds 1").code, 0);
    EXPECT_TRUE(fs::exists(config_home() / "raypick" / "settings.txt"));
    EXPECT_TRUE(fs::exists(config_home() / "raypick" / "imgui.ini"));
}

// ---- the CPU ray-cast view ----------------------------------------------------------------------

namespace {

/// The figures of one `raypick --raycast-check` run.
struct RaycastFigures {
    int width = 0, height = 0;
    std::size_t compared = 0, differing = 0, skipped = 0;
    double percent = 0.0, cpu_ms = 0.0;
    std::size_t normals_compared = 0, normals_differing = 0;
};

std::optional<RaycastFigures> parse_raycast_check(const std::string& output) {
    const auto at = output.find("raycast-check: ");
    if (at == std::string::npos) return std::nullopt;
    RaycastFigures f;
    if (std::sscanf(output.c_str() + at,
                    "raycast-check: %d x %d, compared %zu, differing %zu (%lf%%), skipped %zu, cpu %lf ms; "
                    "normals compared %zu, differing %zu",
                    &f.width, &f.height, &f.compared, &f.differing, &f.percent, &f.skipped, &f.cpu_ms,
                    &f.normals_compared, &f.normals_differing) != 9)
        return std::nullopt;
    return f;
}

std::string showcase_file() { return std::string(RAYPICK_SOURCE_ASSETS_DIR) + "/showcase.json"; }

}  // namespace

TEST(AppWindow, RaycastCheckCpuAndOpenGlPicturesAgreeAwayFromSilhouettes) {
    REQUIRE_DISPLAY();
    const fs::path png = tmp_dir() / "difference.png";
    fs::remove(png);
    const AppRun r = run_app("--scene " + quote(showcase_file()) + " --raycast-check --screenshot " + quote(png.string()) +
                             " --width " + std::to_string(kW) + " --height " + std::to_string(kH));
    EXPECT_EQ(r.code, 0) << r.output;
    const auto f = parse_raycast_check(r.output);
    ASSERT_TRUE(f) << r.output;
    // At the 3D view's full size (between the panel columns).
    const ViewRect v = view_rect(kW, kH, PanelLayout{});
    EXPECT_EQ(f->width, static_cast<int>(v.width));
    EXPECT_EQ(f->height, static_cast<int>(v.height));
    const std::size_t pixels = std::size_t(f->width) * std::size_t(f->height);
    EXPECT_EQ(f->compared + f->skipped, pixels);
    // The showcase fills a good part of the view, but it is the pixels away from silhouettes that
    // count: most of the view is compared, and much of the compared part shows shapes (see below).
    EXPECT_GT(f->compared, pixels * 8 / 10) << r.output;
    EXPECT_LE(double(f->differing), 0.001 * double(f->compared)) << r.output;

    // The difference picture: the dimmed normal picture, nearly no magenta, silhouettes dark blue.
    const Image img = load_png(png.string());
    ASSERT_EQ(img.width, f->width);
    ASSERT_EQ(img.height, f->height);
    std::size_t magenta = 0, skipped_blue = 0, shape_pixels = 0;
    for (int y = 0; y < img.height; ++y)
        for (int x = 0; x < img.width; ++x) {
            const glm::ivec3 c = img.at(x, y);
            magenta += c == glm::ivec3(255, 0, 255);
            skipped_blue += close_colour(c, glm::ivec3(16, 22, 61), 3);  // the skip colour over the background
            shape_pixels += c.x + c.y + c.z > 3 * 24;  // brighter than the dimmed background
        }
    EXPECT_EQ(magenta, f->differing);
    EXPECT_GT(skipped_blue, std::size_t(500)) << "silhouettes against the background are skipped";
    // (Framed with its rays' origins, the lamp high above it: the shapes cover less than half.)
    EXPECT_GT(shape_pixels, pixels / 10) << "the shapes cover a tenth of the view at least";

    // A large generated scene (all four types, coarser id tessellation) agrees too.
    const AppRun many = run_app("--shapes 2000 --raycast-check");
    EXPECT_EQ(many.code, 0) << many.output;
    const auto g = parse_raycast_check(many.output);
    ASSERT_TRUE(g) << many.output;
    EXPECT_GT(g->compared, std::size_t(g->width) * std::size_t(g->height) / 2) << many.output;
}

TEST(AppWindow, RaycastCheckComparesTheSolidModesNormalsToo) {
    // Triangles and flat boxes have both faces in one plane: solid mode must show the face turned
    // to the eye, whose normal is the core's pick normal (the ray-cast view's colour). The check
    // compares each pixel's solid-mode normal with the CPU picture's, so a reversed normal fails.
    REQUIRE_DISPLAY();
    const std::string assets = RAYPICK_SOURCE_ASSETS_DIR;
    for (const std::string name : {"edge_triangle_closed_cube.json", "edge_triangle_back_face.json", "edge_aabb_flat.json", "edge_obb_zero_extent.json", "showcase.json", "mesh_cube_edges.json"}) {
        SCOPED_TRACE(name);
        if (!fs::exists(assets + "/" + name)) {
            ADD_FAILURE() << "missing asset " << name;
            continue;
        }
        const AppRun r = run_app("--scene " + quote(assets + "/" + name) + " --solid --raycast-check");
        EXPECT_EQ(r.code, 0) << r.output;
        const auto f = parse_raycast_check(r.output);
        ASSERT_TRUE(f) << r.output;
        EXPECT_GT(f->normals_compared, 2000u) << "the shapes' surfaces are compared; " << r.output;
        EXPECT_EQ(f->normals_differing, 0u) << r.output;
    }
}

TEST(AppWindow, RaycastCheckFailsWhenTheOpenGlPictureIsOffByAFewPixels) {
    // The negative control: the same check against OpenGL ids deliberately shifted 6 pixels to the
    // right (--raycast-check-shift, a test aid) must fail, so the passing check above means something.
    REQUIRE_DISPLAY();
    const AppRun r = run_harness("--scene " + quote(showcase_file()) + " --raycast-check --raycast-check-shift 6 --width " +
                             std::to_string(kW) + " --height " + std::to_string(kH));
    EXPECT_EQ(r.code, 1) << r.output;
    const auto f = parse_raycast_check(r.output);
    ASSERT_TRUE(f) << r.output;
    EXPECT_GT(double(f->differing), 0.001 * double(f->compared)) << r.output;
}

TEST(AppWindow, ModelFilesOpenAsScenesDrawnAndRayCastAlike) {
    // A model file given as the scene: one mesh, one identity instance, framed. The OpenGL object
    // ids of its instances (city.gltf: many placements of a few meshes) and the CPU ray-cast
    // picture agree on every compared pixel.
    REQUIRE_DISPLAY();
    for (const char* model : {"city.gltf", "torus.glb"}) {
        SCOPED_TRACE(model);
        const std::string file = std::string(RAYPICK_SOURCE_ASSETS_DIR) + "/models/" + model;
        const fs::path shot = tmp_dir() / (std::string(model) + ".png");
        const fs::path diff = tmp_dir() / (std::string(model) + ".difference.png");
        fs::remove(shot);
        fs::remove(diff);
        const AppRun r = run_app("--scene " + quote(file) + " --solid --screenshot " + quote(shot.string()) + " --width " +
                                 std::to_string(kW) + " --height " + std::to_string(kH));
        ASSERT_EQ(r.code, 0) << r.output;
        const Image img = load_png(shot.string());
        ASSERT_EQ(img.width, kW);
        // The framed model fills the middle of the 3D view with shaded surfaces, not background.
        const ViewRect v = view_rect(kW, kH, PanelLayout{});
        std::size_t surface = 0, probed = 0;
        for (int y = int(v.y + v.height * 0.3); y < int(v.y + v.height * 0.7); y += 4)
            for (int x = int(v.x + v.width * 0.3); x < int(v.x + v.width * 0.7); x += 4) {
                ++probed;
                surface += !close_colour(img.at(x, y), rgb_of(palette::background), 6);
            }
        EXPECT_GT(surface, probed / 4) << surface << " of " << probed;

        const AppRun c = run_app("--scene " + quote(file) + " --raycast-check --screenshot " + quote(diff.string()) +
                                 " --width " + std::to_string(kW) + " --height " + std::to_string(kH));
        EXPECT_EQ(c.code, 0) << c.output;
        const auto f = parse_raycast_check(c.output);
        ASSERT_TRUE(f) << c.output;
        EXPECT_EQ(f->differing, 0u) << c.output;
        EXPECT_GT(f->compared, std::size_t(f->width) * std::size_t(f->height) / 2) << c.output;
        // The compared pixels include the mesh, not only background: the normal picture is bright there.
        const Image d = load_png(diff.string());
        ASSERT_EQ(d.width, f->width);
        std::size_t mesh_pixels = 0;
        for (int y = 0; y < d.height; ++y)
            for (int x = 0; x < d.width; ++x) {
                const glm::ivec3 px = d.at(x, y);
                mesh_pixels += px.x + px.y + px.z > 3 * 24;
            }
        EXPECT_GT(mesh_pixels, std::size_t(f->width) * std::size_t(f->height) / 20) << c.output;
    }
}

TEST(AppWindow, TheRaysMeshTriangleIsOutlinedWithBothNormalsAndItsBackMarked) {
    // A frozen ray onto the torus's top from outside (a front face), and one from inside its tube
    // (a back face): the hit triangle's outline (white, pink from behind) and the interpolated
    // normal's arrow in the view, "BACK FACE" in the Ray panel's colour only for the second.
    REQUIRE_DISPLAY();
    const std::string torus = std::string(RAYPICK_SOURCE_ASSETS_DIR) + "/models/torus.glb";
    const ViewRect v = view_rect(kW, kH, PanelLayout{});
    const auto count = [&](const Image& img, const Color& c, bool in_view) {
        std::size_t n = 0;
        for (int y = 0; y < img.height; ++y)
            for (int x = 0; x < img.width; ++x)
                n += v.contains(x, y) == in_view && close_colour(img.at(x, y), rgb_of(c), 3);
        return n;
    };
    const Image front = screenshot(torus, "front.png", "--ray 1 2 3 0 -1.7 -3");
    const Image back = screenshot(torus, "back.png", "--ray 1 0 0 0 1 0");
    ASSERT_FALSE(front.rgb.empty());
    ASSERT_FALSE(back.rgb.empty());
    EXPECT_GT(count(front, palette::shading_normal, true), 5u) << "the interpolated normal's arrow";
    EXPECT_GT(count(front, palette::triangle, true), 3u) << "the triangle's outline";
    EXPECT_EQ(count(front, palette::back_face, true), 0u);
    EXPECT_EQ(count(front, palette::back_face, false), 0u) << "no BACK FACE in the panel";
    EXPECT_GT(count(back, palette::back_face, true), 3u) << "the triangle's outline seen from behind";
    EXPECT_GT(count(back, palette::back_face, false), 10u) << "BACK FACE in the Ray panel";
    EXPECT_GT(count(back, palette::shading_normal, false), 10u) << "the interpolated normal's line in the Ray panel";
}

TEST(AppWindow, ABrokenModelAsTheSceneStopsWithTheLoadersMessage) {
    REQUIRE_DISPLAY();
    const fs::path bad = tmp_dir() / "broken.obj";
    std::ofstream(bad) << "v 0 0 0\nv 1 0 0\nf 1 2 7\n";
    const AppRun r = run_app("--scene " + quote(bad.string()) + " --frames 1");
    EXPECT_NE(r.code, 0) << r.output;
    EXPECT_NE(r.output.find("broken.obj"), std::string::npos) << r.output;
}

TEST(AppWindow, RaycastViewShowsTheCpuPictureBesideTheOpenGlOne) {
    REQUIRE_DISPLAY();
    const std::string file = save(picture_scene(true), "scene.json");
    const Image plain = screenshot(file, "plain.png");
    const Image view = screenshot(file, "raycast.png", "--raycast normal");
    ASSERT_FALSE(plain.rgb.empty());
    ASSERT_FALSE(view.rgb.empty());
    // In wire mode nothing is shaded; the ray-cast view's window shows the crate's front face in
    // the colour of the normal (0, 0, 1) and the ball's in bluish normal colours.
    auto count = [](const Image& img, const glm::ivec3& c) {
        int n = 0;
        for (int y = 0; y < img.height; ++y)
            for (int x = 0; x < img.width; ++x) n += close_colour(img.at(x, y), c, 2);
        return n;
    };
    EXPECT_EQ(count(plain, glm::ivec3(128, 128, 255)), 0);
    EXPECT_GT(count(view, glm::ivec3(128, 128, 255)), 2000);
    // The other modes start too (difference renders the OpenGL id picture each time it changes).
    for (const char* mode : {"depth", "normaldepth", "difference"}) {
        const AppRun r = run_app("--scene " + quote(file) + " --raycast " + mode + " --frames 5");
        EXPECT_EQ(r.code, 0) << mode << ": " << r.output;
    }
    const AppRun bad = run_app("--raycast sideways");
    EXPECT_EQ(bad.code, 2) << bad.output;
    EXPECT_NE(bad.output.find("--raycast"), std::string::npos) << bad.output;
}

// ---- end to end: real X input events (XTest) into the running app ------------------------------

namespace {

/// XTest through dlopen, so the tests need neither libxtst's headers nor a link dependency; when
/// the library is not installed the end-to-end test skips.
struct FakeInput {
    void* x11 = nullptr;
    void* xtst = nullptr;
    Display* dpy = nullptr;
    Display* (*open_display)(const char*) = nullptr;
    int (*close_display)(Display*) = nullptr;
    int (*sync)(Display*, Bool) = nullptr;
    KeyCode (*keycode)(Display*, KeySym) = nullptr;
    int (*motion)(Display*, int, int, int, unsigned long) = nullptr;
    int (*button)(Display*, unsigned int, Bool, unsigned long) = nullptr;
    int (*key)(Display*, unsigned int, Bool, unsigned long) = nullptr;
    Bool (*query)(Display*, int*, int*, int*, int*) = nullptr;
    Window (*root_window)(Display*) = nullptr;
    Status (*query_tree)(Display*, Window, Window*, Window*, Window**, unsigned int*) = nullptr;
    Status (*fetch_name)(Display*, Window, char**) = nullptr;
    int (*x_free)(void*) = nullptr;

    FakeInput() {
        x11 = dlopen("libX11.so.6", RTLD_NOW);
        xtst = dlopen("libXtst.so.6", RTLD_NOW);
        if (!x11 || !xtst) return;
        open_display = reinterpret_cast<decltype(open_display)>(dlsym(x11, "XOpenDisplay"));
        close_display = reinterpret_cast<decltype(close_display)>(dlsym(x11, "XCloseDisplay"));
        sync = reinterpret_cast<decltype(sync)>(dlsym(x11, "XSync"));
        keycode = reinterpret_cast<decltype(keycode)>(dlsym(x11, "XKeysymToKeycode"));
        motion = reinterpret_cast<decltype(motion)>(dlsym(xtst, "XTestFakeMotionEvent"));
        button = reinterpret_cast<decltype(button)>(dlsym(xtst, "XTestFakeButtonEvent"));
        key = reinterpret_cast<decltype(key)>(dlsym(xtst, "XTestFakeKeyEvent"));
        query = reinterpret_cast<decltype(query)>(dlsym(xtst, "XTestQueryExtension"));
        root_window = reinterpret_cast<decltype(root_window)>(dlsym(x11, "XDefaultRootWindow"));
        query_tree = reinterpret_cast<decltype(query_tree)>(dlsym(x11, "XQueryTree"));
        fetch_name = reinterpret_cast<decltype(fetch_name)>(dlsym(x11, "XFetchName"));
        x_free = reinterpret_cast<decltype(x_free)>(dlsym(x11, "XFree"));
        if (!root_window || !query_tree || !fetch_name || !x_free) return;
        if (!open_display || !close_display || !sync || !keycode || !motion || !button || !key || !query) return;
        dpy = open_display(nullptr);
        int event_base = 0, error_base = 0, major = 0, minor = 0;
        if (dpy && !query(dpy, &event_base, &error_base, &major, &minor)) {  // server without XTEST
            close_display(dpy);
            dpy = nullptr;
        }
    }
    ~FakeInput() {
        if (dpy) close_display(dpy);
        if (xtst) dlclose(xtst);
        if (x11) dlclose(x11);
    }
    bool ok() const { return dpy != nullptr; }
    /// Waits until a top-level window titled "raypick" exists (the app is up), then a little more
    /// for its first frames. False after `seconds`.
    bool wait_for_app_window(double seconds) {
        const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
        while (std::chrono::steady_clock::now() < until) {
            Window root = 0, parent = 0, *children = nullptr;
            unsigned int n = 0;
            bool found = false;
            if (query_tree(dpy, root_window(dpy), &root, &parent, &children, &n)) {
                for (unsigned int i = 0; i < n && !found; ++i) {
                    char* name = nullptr;
                    if (fetch_name(dpy, children[i], &name) && name) {
                        found = std::string(name) == "raypick";
                        x_free(name);
                    }
                }
                if (children) x_free(children);
            }
            if (found) {
                pause(1000);
                return true;
            }
            pause(100);
        }
        return false;
    }
    static void pause(int ms = 250) { std::this_thread::sleep_for(std::chrono::milliseconds(ms)); }
    void move(double x, double y) {
        motion(dpy, -1, static_cast<int>(x), static_cast<int>(y), 0);
        sync(dpy, False);
        pause();
    }
    void mouse(bool down) {
        button(dpy, 1, down ? True : False, 0);
        sync(dpy, False);
        pause();
    }
    void press(KeySym k, KeySym modifier = 0) {
        const KeyCode mod = modifier ? keycode(dpy, modifier) : 0;
        if (mod) key(dpy, mod, True, 0);
        key(dpy, keycode(dpy, k), True, 0);
        sync(dpy, False);
        pause(150);
        key(dpy, keycode(dpy, k), False, 0);
        if (mod) key(dpy, mod, False, 0);
        sync(dpy, False);
        pause();
    }
};

/// Starts the app in `dir` without waiting; returns its pid (or -1).
pid_t spawn_app(const fs::path& dir, const std::vector<std::string>& args) {
    std::vector<std::string> all = {RAYPICK_APP_EXE};
    all.insert(all.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (std::string& a : all) argv.push_back(a.data());
    argv.push_back(nullptr);
    use_test_config_home();
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addchdir_np(&actions, dir.c_str());
    const std::string log = (dir / "log.txt").string();
    posix_spawn_file_actions_addopen(&actions, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&actions, 1, 2);
    pid_t pid = -1;
    const int rc = posix_spawn(&pid, RAYPICK_APP_EXE, &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    return rc == 0 ? pid : -1;
}

/// Waits up to `seconds` for the child to exit; its exit code, or -1 (then it is killed).
int wait_exit(pid_t pid, double seconds) {
    const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    while (std::chrono::steady_clock::now() < until) {
        int status = 0;
        if (waitpid(pid, &status, WNOHANG) == pid) return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
        FakeInput::pause(50);
    }
    kill(pid, SIGKILL);
    waitpid(pid, nullptr, 0);
    return -1;
}

std::vector<fs::path> pngs_in(const fs::path& dir) {
    std::vector<fs::path> out;
    for (const auto& e : fs::directory_iterator(dir))
        if (e.path().extension() == ".png") out.push_back(e.path());
    std::sort(out.begin(), out.end(), [](const fs::path& a, const fs::path& b) {
        return fs::last_write_time(a) < fs::last_write_time(b);
    });
    return out;
}

bool wire_like(const Image& img, const Vec3d& p, const Camera& cam) {
    const auto s = project_px(cam, p);
    if (!s) return false;
    for (const Color& c : {palette::shape, palette::selected, palette::hovered})
        if (colour_near(img, s->x, s->y, c, 2)) return true;
    return false;
}

/// Starts the app on picture_scene() at kW x kH, screenshots going to `dir` (emptied of old ones
/// first), and waits for its window. The app's pid, or -1 after recording a test failure.
pid_t launch_on_scene(FakeInput& input, const fs::path& dir, const Scene& scene_data, std::vector<std::string> extra = {}) {
    for (const fs::path& p : pngs_in(dir)) fs::remove(p);
    const std::string scene = save(scene_data, "scene.json");
    std::vector<std::string> args{"--scene", scene, "--width", std::to_string(kW), "--height", std::to_string(kH)};
    args.insert(args.end(), extra.begin(), extra.end());
    const pid_t pid = spawn_app(dir, args);
    if (pid <= 0) {
        ADD_FAILURE() << "could not start the app";
        return -1;
    }
    if (!input.wait_for_app_window(30.0)) {  // no window manager under Xvfb: it sits at 0, 0
        wait_exit(pid, 0.0);
        ADD_FAILURE() << "the app's window did not appear";
        return -1;
    }
    return pid;
}
pid_t launch_on_picture_scene(FakeInput& input, const fs::path& dir, std::vector<std::string> extra = {}) {
    return launch_on_scene(input, dir, picture_scene(true), std::move(extra));
}

/// Pixels of img in [x0, x1) x [y0, y1) for which is(colour) holds.
template <typename Is> int count_pixels(const Image& img, int x0, int x1, int y0, int y1, Is is) {
    int n = 0;
    for (int y = y0; y < y1; ++y)
        for (int x = x0; x < x1; ++x) n += is(img.at(x, y)) ? 1 : 0;
    return n;
}
/// The refusal messages' red, anti-aliased text included.
bool refusal_red(const glm::ivec3& c) { return c.x > 200 && c.y > 90 && c.y < 140 && c.z > 80 && c.z < 130; }
/// A field's text (white on the field's dark background).
bool field_text(const glm::ivec3& c) { return c.x > 180 && c.y > 180 && c.z > 180; }

/// P (screenshot) and Ctrl+Q from the view; the one screenshot.
std::optional<Image> screenshot_and_quit(FakeInput& input, pid_t pid, const fs::path& dir) {
    input.move(600, 650);  // back to the view (keys go to the app, not a text field)
    input.press(XK_p);
    input.press(XK_q, XK_Control_L);
    EXPECT_EQ(wait_exit(pid, 10.0), 0);
    const auto shots = pngs_in(dir);
    EXPECT_EQ(shots.size(), 1u);
    if (shots.size() != 1u) return std::nullopt;
    Image img = load_png(shots[0].string());
    EXPECT_EQ(img.width, kW);
    if (img.width != kW) return std::nullopt;
    return img;
}

/// Ctrl+click on the drag field at (x, y) (it turns into a text field), select its text, type
/// `keys` and press Enter.
void type_into_drag_field(FakeInput& input, int x, int y, const std::vector<KeySym>& keys) {
    const KeyCode ctrl = input.keycode(input.dpy, XK_Control_L);
    input.move(x, y);
    input.key(input.dpy, ctrl, True, 0);
    input.sync(input.dpy, False);
    FakeInput::pause();
    input.mouse(true);
    input.mouse(false);
    input.key(input.dpy, ctrl, False, 0);
    input.sync(input.dpy, False);
    FakeInput::pause();
    input.press(XK_a, XK_Control_L);  // select all, then replace
    for (KeySym k : keys) input.press(k);
    input.press(XK_Return);
}

}  // namespace

/// The end-to-end tests, which drive the app with real X input events: skipped without a display
/// or without XTest; each has its own fresh folder (screenshots, the scene file, the app's log).
class AppWindowEndToEnd : public ::testing::Test {
protected:
    void SetUp() override {
        REQUIRE_DISPLAY();
        if (!input.ok()) GTEST_SKIP() << "XTest (libXtst.so.6 or the server extension) not available: cannot send input events";
        dir = tmp_dir();
    }
    FakeInput input;
    fs::path dir;
};

TEST_F(AppWindowEndToEnd, DragWithTheMouseThenUndoWithTheKeyboard) {
    const pid_t pid = launch_on_picture_scene(input, dir);
    if (pid <= 0) return;  // the failure is recorded

    const Camera cam = picture_camera();
    const Vec3d grab(-1.5, 0.0, 1.0);  // the ball's point nearest the eye
    const Vec3d moved_by(1.2, 0.0, 0.0);
    const auto from = project_px(cam, grab);
    const auto to = project_px(cam, grab + moved_by);
    input.move(from->x, from->y);
    input.mouse(true);
    for (int k = 1; k <= 6; ++k) input.move(from->x + (to->x - from->x) * k / 6.0, from->y + (to->y - from->y) * k / 6.0);
    input.mouse(false);
    input.move(to->x, 600);  // away from the shapes, still in the view
    input.press(XK_p);                     // screenshot of the moved ball
    input.press(XK_z, XK_Control_L);       // undo the drag
    input.press(XK_p);                     // screenshot after undo
    input.press(XK_q, XK_Control_L);       // quit
    const int code = wait_exit(pid, 10.0);
    std::ifstream log(dir / "log.txt");
    std::stringstream out;
    out << log.rdbuf();
    ASSERT_EQ(code, 0) << out.str();

    const auto shots = pngs_in(dir);
    ASSERT_EQ(shots.size(), 2u) << "expected the two F12/P screenshots in " << dir;
    const Image moved = load_png(shots[0].string());
    const Image undone = load_png(shots[1].string());
    ASSERT_EQ(moved.width, kW);
    ASSERT_EQ(undone.width, kW);
    const Vec3d left_of_ball(-1.5 - std::cos(0.8), std::sin(0.8), 0.0);  // on the ball's outline
    // After the drag the outline is 1.2 further +x; the old place is empty.
    EXPECT_TRUE(wire_like(moved, left_of_ball + moved_by, cam));
    EXPECT_FALSE(wire_like(moved, left_of_ball, cam));
    // After Ctrl+Z it is back.
    EXPECT_TRUE(wire_like(undone, left_of_ball, cam));
    EXPECT_FALSE(wire_like(undone, left_of_ball + moved_by, cam));
}

namespace {
/// Selects the picture scene's ball, types `keys` into the Inspector's radius field (Ctrl+click,
/// select all) and Enter, and checks that the radius was refused: the ball keeps radius 1 and the
/// refusal shows in red under the fields.
void expect_inspector_radius_refused(FakeInput& input, const fs::path& dir, const std::vector<KeySym>& keys) {
    const pid_t pid = launch_on_picture_scene(input, dir);
    if (pid <= 0) return;  // the failure is recorded

    const Camera cam = picture_camera();
    const auto ball = project_px(cam, Vec3d(-1.5, 0.3, 1.0));
    input.move(ball->x, ball->y);  // click the ball: selected, the Inspector shows it
    input.mouse(true);
    input.mouse(false);
    // The Inspector's radius field (fixed layout: left column, second row of the sphere's fields).
    type_into_drag_field(input, 100, 401, keys);
    const auto img = screenshot_and_quit(input, pid, dir);
    if (!img) return;
    // The radius was refused: the ball keeps radius 1 (its outline is where it was) ...
    EXPECT_TRUE(wire_like(*img, Vec3d(-1.5 - std::cos(0.8), std::sin(0.8), 0.0), cam)) << "see " << dir;
    // ... and the refusal is shown in red under the fields (text in the refusal colour).
    EXPECT_GT(count_pixels(*img, 5, 295, 405, 470, refusal_red), 30) << "no refusal message in the Inspector; see " << dir;
}
}  // namespace

TEST_F(AppWindowEndToEnd, InspectorRefusesANegativeRadiusAndKeepsTheLastValidValue) {
    expect_inspector_radius_refused(input, dir, {XK_minus, XK_1});
}

// Typed text is taken when the entry ends, not keystroke by keystroke: on the way to 1e999 (an
// infinite radius, refused) the radius would have been 1e9 and 1e99, and the refusal kept 1e99.
TEST_F(AppWindowEndToEnd, InspectorTakesTypedTextWhenTheEntryEnds) {
    expect_inspector_radius_refused(input, dir, {XK_1, XK_e, XK_9, XK_9, XK_9});
}

// A drag field's text holds every digit of its value (the shortest text that reads back as it):
// with 9 significant digits, appending a 5 to a radius of 1.2345678901234 by Ctrl+click gave
// 1.234567895, losing the digits nobody saw, and a centre of -1.5000000000000004 read -1.5. An
// entry left as it was changes nothing.
TEST_F(AppWindowEndToEnd, InspectorFieldTextHoldsEveryDigit) {
    const double x = -1.5000000000000004;
    Scene scene = picture_scene(true);
    std::get<Sphere<double>>(scene.shapes[0].shape) = Sphere<double>{Vec3d(x, 0.0, 0.0), 1.2345678901234};
    const pid_t pid = launch_on_scene(input, dir, scene);
    if (pid <= 0) return;  // the failure is recorded
    const auto ball = project_px(picture_camera(), Vec3d(-1.5, 0.3, 1.0));
    input.move(ball->x, ball->y);  // click the ball: selected, the Inspector shows it
    input.mouse(true);
    input.mouse(false);
    // The centre's digits do not fit a third of the column: its fields are one a line under the
    // label "center" (see InspectorShowsALongValueWholeOneFieldALine).
    type_into_drag_field(input, 40, 395, {});             // the centre's x: Ctrl+click, Enter
    type_into_drag_field(input, 100, 464, {XK_End, XK_5});  // the radius: a 5 after its last digit
    input.move(600, 650);                                 // back to the view: Ctrl+S saves the scene file
    input.press(XK_s, XK_Control_L);
    input.press(XK_q, XK_Control_L);
    ASSERT_EQ(wait_exit(pid, 10.0), 0);
    const auto loaded = load_scene_file((dir / "scene.json").string());
    ASSERT_TRUE(std::holds_alternative<Scene>(loaded));
    const Sphere<double> saved = std::get<Sphere<double>>(std::get<Scene>(loaded).shapes[0].shape);
    EXPECT_EQ(saved.radius, 1.23456789012345) << "see " << dir;
    EXPECT_EQ(saved.center.x, x) << "see " << dir;
}

// A value whose digits do not fit a third of the column is shown one field a line, each at the
// whole width with its axis name: side by side, a centre of 1.0000000000000002 read "1.0000000"
// and a direction component "0.011511835396618(", the rest cut off at the field's edge. The
// sphere's centre z (third line under "center") and the frozen ray's direction z (third line
// under "direction") read in full, in the field text's white where the side-by-side layout had
// only grey hint text.
TEST_F(AppWindowEndToEnd, InspectorShowsALongValueWholeOneFieldALine) {
    Scene scene = picture_scene(true);
    std::get<Sphere<double>>(scene.shapes[0].shape) =
        Sphere<double>{Vec3d(-1.5000000000000004, 0.30000000000000004, 1.0000000000000002), 1.0};
    const pid_t pid = launch_on_scene(input, dir, scene,
                                      {"--ray", "0", "0", "10", "0.011511835396618693", "-0.33499441004160324",
                                       "-0.9421497879247649"});
    if (pid <= 0) return;  // the failure is recorded
    const auto ball = project_px(picture_camera(), Vec3d(-1.5, 0.3, 1.0));
    input.move(ball->x, ball->y);  // click the ball: selected, the Inspector shows it
    input.mouse(true);
    input.mouse(false);
    const auto img = screenshot_and_quit(input, pid, dir);
    if (!img) return;
    EXPECT_GT(count_pixels(*img, 25, 190, 434, 449, field_text), 60) << "the centre's z does not read whole; see " << dir;
    EXPECT_GT(count_pixels(*img, 195, 212, 434, 449, field_text), 5) << "no axis name after the centre's z; see " << dir;
    EXPECT_GT(count_pixels(*img, kW - 312, kW - 130, 268, 284, field_text), 60)
        << "the direction's z does not read whole; see " << dir;
    EXPECT_GT(count_pixels(*img, kW - 20, kW - 6, 268, 284, field_text), 5)
        << "no axis name after the direction's z; see " << dir;
}

// An OBB's rotation is edited as Euler angles, which have no rotation when not finite: typing
// 1e999 into an angle is refused when the entry ends, in red, the box keeps its rotation and the
// field reads its angle again (it had read the 1e99 typed on the way, with no refusal shown).
TEST_F(AppWindowEndToEnd, InspectorRefusesAnInfiniteEulerAngleAndShowsTheAngleKept) {
    Scene scene = picture_scene(false);
    SceneShape box;
    box.name = "box";
    const double a = glm::radians(30.0);
    box.shape = Obb<double>{Vec3d(0.0), Mat3<double>(Vec3d(std::cos(a), std::sin(a), 0), Vec3d(-std::sin(a), std::cos(a), 0), Vec3d(0, 0, 1)),
                            Vec3d(2.0, 1.0, 1.0)};
    scene.shapes = {box};
    const pid_t pid = launch_on_scene(input, dir, scene);
    if (pid <= 0) return;  // the failure is recorded
    const Camera cam = picture_camera();
    const auto middle = project_px(cam, Vec3d(0.0, 0.0, 1.0));
    input.move(middle->x, middle->y);  // click the box: selected, the Inspector shows it
    input.mouse(true);
    input.mouse(false);
    // The rotation's x angle (fixed layout: left column, third row of the OBB's fields).
    type_into_drag_field(input, 40, 424, {XK_1, XK_e, XK_9, XK_9, XK_9});
    const auto img = screenshot_and_quit(input, pid, dir);
    if (!img) return;
    // The box keeps its rotation: the middle of its face's top edge (local (0, 1, 1): no handle
    // there) is where it was.
    EXPECT_TRUE(wire_like(*img, Vec3d(-std::sin(a), std::cos(a), 1.0), cam)) << "see " << dir;
    EXPECT_GT(count_pixels(*img, 5, 295, 430, 500, refusal_red), 30) << "no refusal message in the Inspector; see " << dir;
    // The x angle (the first of three fields) reads 0 again (a few pixels of text), not 1e+99.
    EXPECT_LT(count_pixels(*img, 10, 50, 416, 432, field_text), 25) << "the x angle does not read 0; see " << dir;
}

// The Ray panel's fields are the demo's own text fields (shortest round-trip numbers), taken when
// committed. Both tests start on the picture scene with a frozen ray, its direction's x field
// clicked and its text selected, and end with a screenshot of the frame after the edit.
namespace {
pid_t launch_editing_direction_x(FakeInput& input, const fs::path& dir) {
    const pid_t pid = launch_on_picture_scene(input, dir, {"--ray", "-6", "1", "-1", "1", "0", "0.15"});
    if (pid <= 0) return pid;
    input.move(kW - 320 + 60, 230);  // right column, the Ray panel under the Case panel: the row under "direction"
    input.mouse(true);
    input.mouse(false);
    input.press(XK_a, XK_Control_L);  // select all, then replace
    return pid;
}

/// Pixels in the direction's x field bright enough to be its text: "1" has a handful, "1e+99" or
/// "123456" several times as many.
int direction_x_text_pixels(const Image& img) { return count_pixels(img, kW - 312, kW - 222, 222, 239, field_text); }
}  // namespace

// What is typed reaches the ray's validation, which refuses an infinite component in red and
// keeps the ray: the field still reads "1", neither the refused text nor the numbers typed on the
// way to it (1e9, 1e99) taken, as they would be if every keystroke were.
TEST_F(AppWindowEndToEnd, RayFieldRefusesAnInfiniteDirectionAndKeepsTheRay) {
    const pid_t pid = launch_editing_direction_x(input, dir);
    if (pid <= 0) return;  // the failure is recorded
    for (KeySym k : {XK_1, XK_e, XK_9, XK_9, XK_9}) input.press(k);
    input.press(XK_Return);
    const auto img = screenshot_and_quit(input, pid, dir);
    if (!img) return;
    // The refusal, in the refusal colour, right under the fields.
    EXPECT_GT(count_pixels(*img, kW - 315, kW - 5, 238, 285, refusal_red), 30)
        << "no refusal message under the ray's fields (see " << dir << ")";
    EXPECT_LT(direction_x_text_pixels(*img), 25) << "the direction's x field does not read 1 (see " << dir << ")";
}

// A field's text is also taken when the field loses focus (a click elsewhere), not only on Enter.
TEST_F(AppWindowEndToEnd, RayFieldTakesItsTextWhenTheFieldLosesFocus) {
    const pid_t pid = launch_editing_direction_x(input, dir);
    if (pid <= 0) return;  // the failure is recorded
    for (KeySym k : {XK_1, XK_2, XK_3, XK_4, XK_5, XK_6}) input.press(k);
    input.move(kW - 200, 171);  // a click on the panel's empty part (beside "origin"): the field loses focus
    input.mouse(true);
    input.mouse(false);
    const auto img = screenshot_and_quit(input, pid, dir);
    if (!img) return;
    EXPECT_GT(direction_x_text_pixels(*img), 50) << "the direction's x field does not read 123456 (see " << dir << ")";
}

// While the Open dialog is up, P takes a screenshot (of the dialog), Esc closes it, and Ctrl+Q
// quits with it open.
TEST_F(AppWindowEndToEnd, FileDialogKeepsTheSafeShortcutsAndEscClosesIt) {
    const pid_t pid = launch_on_picture_scene(input, dir);
    if (pid <= 0) return;  // the failure is recorded
    input.move(600, 650);
    input.press(XK_o, XK_Control_L);  // the dialog
    input.press(XK_p);                // screenshot with the dialog up
    input.press(XK_Escape);           // closed
    input.press(XK_p);                // screenshot without it
    input.press(XK_o, XK_Control_L);  // up again: Ctrl+Q still quits
    input.press(XK_q, XK_Control_L);
    ASSERT_EQ(wait_exit(pid, 10.0), 0) << "see " << dir;
    const auto shots = pngs_in(dir);
    ASSERT_EQ(shots.size(), 2u) << "see " << dir;
    const Image with = load_png(shots[0].string()), without = load_png(shots[1].string());
    ASSERT_EQ(with.width, kW);
    ASSERT_EQ(without.width, kW);
    EXPECT_FALSE(close_colour(with.at(400, 660), rgb_of(palette::background))) << "the dialog dims the view";
    EXPECT_TRUE(close_colour(without.at(400, 660), rgb_of(palette::background))) << "Esc closed the dialog";
}

// Solid mode (W) and the file opened are remembered in the config directory and back on the
// next start.
TEST_F(AppWindowEndToEnd, OptionsAndRecentFilesAreRememberedBetweenRuns) {
    fs::remove_all(config_home());  // as on a first start
    const std::string other = save(picture_scene(true), "other.json");
    pid_t pid = launch_on_picture_scene(input, dir, {"--open", other});
    if (pid <= 0) return;  // the failure is recorded
    input.move(600, 650);
    input.press(XK_w);
    input.press(XK_q, XK_Control_L);
    ASSERT_EQ(wait_exit(pid, 10.0), 0) << "see " << dir;
    std::ifstream in(config_home() / "raypick" / "settings.txt");
    std::stringstream text;
    text << in.rdbuf();
    EXPECT_NE(text.str().find("solid = true"), std::string::npos) << text.str();
    EXPECT_NE(text.str().find("recent = " + other), std::string::npos) << text.str();
    EXPECT_TRUE(fs::exists(config_home() / "raypick" / "imgui.ini"));

    pid = launch_on_picture_scene(input, dir);
    if (pid <= 0) return;
    const auto img = screenshot_and_quit(input, pid, dir);
    if (!img) return;
    // Solid again: the crate's front face in the colour of its normal (0, 0, 1).
    const auto front = project_px(picture_camera(), Vec3d(1.05, 0.6, 1.0));
    ASSERT_TRUE(front);
    EXPECT_TRUE(close_colour(img->at(int(front->x), int(front->y)), glm::ivec3(128, 128, 255), 3)) << "see " << dir;
}

// Through the dialog: a bad file typed into the path field is refused in the dialog (red, the
// scene kept); a good one clicked in the listing and opened replaces the scene and heads the
// recent files.
TEST_F(AppWindowEndToEnd, FileDialogShowsABadFilesErrorAndOpensAGoodOne) {
    fs::remove_all(config_home());
    std::ofstream(dir / "bad.json") << "{\"shapes\": [{\"type\": \"sphere\", \"center\": [0, 0, 0], \"radius\": -1}]}";
    const std::string good = save(picture_scene(false), "good.json");  // no shapes
    const pid_t pid = launch_on_picture_scene(input, dir);  // its scene.json is in `dir` too
    if (pid <= 0) return;  // the failure is recorded
    // The dialog (760 x 480, centred) lists bad.json, good.json, scene.json from its top row.
    input.move(600, 650);
    input.press(XK_o, XK_Control_L);
    input.move(660, 523);  // the path field
    input.mouse(true);
    input.mouse(false);
    for (KeySym k : {XK_b, XK_a, XK_d, XK_period, XK_j, XK_s, XK_o, XK_n}) input.press(k);
    input.press(XK_Return);
    input.press(XK_p);       // the dialog with the error
    input.press(XK_Escape);  // closed
    input.move(600, 650);
    input.press(XK_p);  // the scene as it was
    input.press(XK_o, XK_Control_L);
    input.move(650, 202);  // good.json, the second row
    input.mouse(true);
    input.mouse(false);
    input.move(285, 565);  // Open
    input.mouse(true);
    input.mouse(false);
    input.move(600, 650);
    input.press(XK_p);  // the scene opened
    input.press(XK_q, XK_Control_L);
    ASSERT_EQ(wait_exit(pid, 10.0), 0) << "see " << dir;
    const auto shots = pngs_in(dir);
    ASSERT_EQ(shots.size(), 3u) << "see " << dir;
    const Image error = load_png(shots[0].string()), kept = load_png(shots[1].string()), opened = load_png(shots[2].string());
    ASSERT_EQ(error.width, kW);
    ASSERT_EQ(kept.width, kW);
    ASSERT_EQ(opened.width, kW);
    EXPECT_GT(count_pixels(error, 265, 1015, 528, 560, refusal_red), 30) << "no error in the dialog; see " << dir;
    const Camera cam = picture_camera();
    const Vec3d ball_outline(-1.5 - std::cos(0.8), std::sin(0.8), 0.0);
    EXPECT_TRUE(wire_like(kept, ball_outline, cam)) << "the scene was not kept; see " << dir;
    EXPECT_FALSE(wire_like(opened, ball_outline, cam)) << "good.json was not opened; see " << dir;
    std::ifstream in(config_home() / "raypick" / "settings.txt");
    std::stringstream text;
    text << in.rdbuf();
    EXPECT_NE(text.str().find("recent = " + good), std::string::npos) << text.str();
}

// ---- what a hands-on trial tripped over: quick input, double clicks, unsaved edits -------------

namespace {
/// Presses `keys` in order and releases them in reverse, all in one go (no pause between): a tap
/// shorter than a frame.
void quick_keys(FakeInput& input, const std::vector<KeySym>& keys) {
    for (KeySym k : keys) input.key(input.dpy, input.keycode(input.dpy, k), True, 0);
    for (auto k = keys.rbegin(); k != keys.rend(); ++k) input.key(input.dpy, input.keycode(input.dpy, *k), False, 0);
    input.sync(input.dpy, False);
    FakeInput::pause();
}
/// A click with press and release in one go at (x, y), the pointer moved there at the same time.
void quick_click(FakeInput& input, double x, double y) {
    input.motion(input.dpy, -1, static_cast<int>(x), static_cast<int>(y), 0);
    input.button(input.dpy, 1, True, 0);
    input.button(input.dpy, 1, False, 0);
    input.sync(input.dpy, False);
    FakeInput::pause();
}
/// Drags the picture scene's ball 1.2 to the right (an unsaved edit).
void drag_ball(FakeInput& input) {
    const Camera cam = picture_camera();
    const auto from = project_px(cam, Vec3d(-1.5, 0.0, 1.0));
    const auto to = project_px(cam, Vec3d(-0.3, 0.0, 1.0));
    input.move(from->x, from->y);
    input.mouse(true);
    for (int k = 1; k <= 6; ++k) input.move(from->x + (to->x - from->x) * k / 6.0, from->y + (to->y - from->y) * k / 6.0);
    input.mouse(false);
    input.move(to->x, 600);  // away from the shapes, still in the view
}
bool still_running(pid_t pid) { return waitpid(pid, nullptr, WNOHANG) == 0; }
const Vec3d kBallOutline(-1.5 - std::cos(0.8), std::sin(0.8), 0.0);
}  // namespace

// Keys tapped faster than a frame (press and release between two frames) are not lost: ImGui
// 1.86 reads each key once a frame, so the demo hands the events on a frame at a time.
TEST_F(AppWindowEndToEnd, QuickKeyTapsAreNotLost) {
    const pid_t pid = launch_on_picture_scene(input, dir);
    if (pid <= 0) return;  // the failure is recorded
    drag_ball(input);
    quick_keys(input, {XK_Control_L, XK_z});             // undo
    quick_keys(input, {XK_p});                           // screenshot: back in place
    quick_keys(input, {XK_Control_L, XK_Shift_L, XK_z}); // redo
    quick_keys(input, {XK_p});                           // screenshot: moved again
    input.press(XK_q, XK_Control_L);  // the redone drag is unsaved: asked, then discarded
    input.press(XK_d);
    ASSERT_EQ(wait_exit(pid, 10.0), 0) << "see " << dir;
    const auto shots = pngs_in(dir);
    ASSERT_EQ(shots.size(), 2u) << "a quick P was lost; see " << dir;
    const Image undone = load_png(shots[0].string()), redone = load_png(shots[1].string());
    ASSERT_EQ(undone.width, kW);
    ASSERT_EQ(redone.width, kW);
    const Camera cam = picture_camera();
    EXPECT_TRUE(wire_like(undone, kBallOutline, cam)) << "a quick Ctrl+Z was lost; see " << dir;
    EXPECT_TRUE(wire_like(redone, kBallOutline + Vec3d(1.2, 0.0, 0.0), cam)) << "a quick Ctrl+Shift+Z was lost; see " << dir;
    EXPECT_FALSE(wire_like(redone, kBallOutline, cam)) << "see " << dir;
}

// A click whose press and release come with the pointer's move onto a list row selects that row,
// even when another row was hovered the frame before.
TEST_F(AppWindowEndToEnd, AQuickClickOnAListRowIsNotLost) {
    const pid_t pid = launch_on_picture_scene(input, dir);
    if (pid <= 0) return;  // the failure is recorded
    input.move(60, 114);           // hover the Scene list's "ball" row
    quick_click(input, 60, 131);   // then click "crate" in one go
    const auto img = screenshot_and_quit(input, pid, dir);
    if (!img) return;
    // The crate is selected: its outline in the selection's colour.
    const auto corner = project_px(picture_camera(), Vec3d(1.8, 1.0, 1.0));
    ASSERT_TRUE(corner);
    EXPECT_TRUE(colour_near(*img, corner->x, corner->y, palette::selected, 2)) << "the click was lost; see " << dir;
}

// File > Open: the second click of a double click on a folder lands on whatever the folder lists
// first; it must not open that file.
TEST_F(AppWindowEndToEnd, DoubleClickingAFolderOpensTheFolderNotTheFileUnderThePointer) {
    fs::create_directories(dir / "amodels");
    save(picture_scene(false), "amodels/inner.json");  // no shapes: opening it would empty the view
    const pid_t pid = launch_on_picture_scene(input, dir);
    if (pid <= 0) return;  // the failure is recorded
    input.move(600, 650);
    input.press(XK_o, XK_Control_L);  // lists amodels/ first, then scene.json
    input.move(650, 185);
    for (int k = 0; k < 2; ++k) {  // a double click: two clicks 100 ms apart
        input.button(input.dpy, 1, True, 0);
        input.sync(input.dpy, False);
        FakeInput::pause(30);
        input.button(input.dpy, 1, False, 0);
        input.sync(input.dpy, False);
        FakeInput::pause(70);
    }
    FakeInput::pause();
    input.press(XK_Escape);  // the dialog, showing the folder, closed
    input.move(600, 650);
    const auto img = screenshot_and_quit(input, pid, dir);
    if (!img) return;
    EXPECT_TRUE(wire_like(*img, kBallOutline, picture_camera())) << "inner.json was opened; see " << dir;
}

// Unsaved edits are not discarded silently: Ctrl+Q asks (Save / Discard / Cancel); Esc cancels,
// D discards and quits, Enter saves to the scene's file and quits.
TEST_F(AppWindowEndToEnd, QuittingWithUnsavedEditsAsksFirst) {
    pid_t pid = launch_on_picture_scene(input, dir);
    if (pid <= 0) return;  // the failure is recorded
    const std::string scene_file = (dir / "scene.json").string();
    const auto before = load_scene_file(scene_file);
    drag_ball(input);
    input.press(XK_q, XK_Control_L);
    FakeInput::pause(1500);
    EXPECT_TRUE(still_running(pid)) << "quit without asking; see " << dir;
    input.press(XK_p);  // the question
    input.press(XK_Escape);
    input.press(XK_q, XK_Control_L);
    input.press(XK_d);  // discard
    ASSERT_EQ(wait_exit(pid, 10.0), 0) << "see " << dir;
    ASSERT_EQ(pngs_in(dir).size(), 1u);
    const Image asked = load_png(pngs_in(dir)[0].string());
    ASSERT_EQ(asked.width, kW);
    EXPECT_FALSE(close_colour(asked.at(400, 660), rgb_of(palette::background))) << "no modal question dims the view";
    const auto after_discard = load_scene_file(scene_file);
    ASSERT_TRUE(std::holds_alternative<Scene>(before) && std::holds_alternative<Scene>(after_discard));
    EXPECT_TRUE(std::get<Scene>(after_discard) == std::get<Scene>(before)) << "discarded edits were saved";

    pid = launch_on_picture_scene(input, dir);
    if (pid <= 0) return;
    drag_ball(input);
    input.press(XK_q, XK_Control_L);
    input.press(XK_Return);  // save, then quit
    ASSERT_EQ(wait_exit(pid, 10.0), 0) << "see " << dir;
    const auto saved = load_scene_file(scene_file);
    ASSERT_TRUE(std::holds_alternative<Scene>(saved));
    const auto* ball = std::get_if<Sphere<double>>(&std::get<Scene>(saved).shapes.at(0).shape);
    ASSERT_TRUE(ball);
    EXPECT_GT(ball->center.x, -1.0) << "the drag was not saved";
}

// The textbook comparison applies to the case file's rays: edge_capsule_behind.json's "forward"
// ray shows the published capsule test's (wrong) hit behind its origin, in the variant's colour.
TEST(AppWindow, TheTextbookComparisonShowsOnTheCasesOwnRays) {
    REQUIRE_DISPLAY();
    const std::string file = std::string(RAYPICK_SOURCE_ASSETS_DIR) + "/edge_capsule_behind.json";
    auto count_variant = [&](const std::string& extra, const std::string& png) {
        const fs::path out = tmp_dir() / png;
        const AppRun r = run_app("--scene " + quote(file) + " --screenshot " + quote(out.string()) + extra);
        EXPECT_EQ(r.code, 0) << r.output;
        const Image img = load_png(out.string());
        EXPECT_EQ(img.width, kW);
        const ViewRect v = view_rect(kW, kH, PanelLayout{});
        return count_pixels(img, int(v.x), int(v.x + v.width), int(v.y), int(v.y + v.height),
                            [](const glm::ivec3& c) { return close_colour(c, rgb_of(palette::variant), 10); });
    };
    EXPECT_EQ(count_variant("", "plain.png"), 0) << "no comparison: nothing in the variant's colour";
    EXPECT_GT(count_variant(" --compare", "compare.png"), 40) << "see " << tmp_dir();
}
