// Save -> load gives the same scene (numbers round-trip exactly), and saving is atomic.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>
#include <variant>

#include <unistd.h>

#include <raypick/scene/CaseCheck.h>
#include <raypick/scene/SceneFile.h>
#include "SceneTestUtil.h"

using namespace raypick;
using raypick::test::load_ok;
using raypick::test::parse_ok;
using raypick::test::temp_dir;
using raypick::test::write_all;
namespace fs = std::filesystem;

namespace {

std::string read_all(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream os;
    os << in.rdbuf();
    return os.str();
}

/// Every field set, with numbers that are hard to print exactly.
Scene awkward_scene() {
    Scene s;
    s.description = "round trip: \"quotes\", back\\slash, tab\t, newline\n, unicode \xc3\xa9\xe2\x86\x92";
    s.tolerance = 3e-7;
    s.camera = SceneCamera{{0.1, 0.2, 0.30000000000000004}, {1.0 / 3.0, -2.0 / 3.0, 1e-300}, 33.3};
    s.shapes.push_back({"ball", Sphere<double>{{0.1, -0.7, 1e22}, 0.1 + 0.2}, "a ball"});
    s.shapes.push_back({"", Aabb<double>{{-1e300, -5e-324, -0.0}, {1e300, 5e-324, 2.5}}, ""});
    Obb<double> o;
    o.center = {std::nextafter(1.0, 2.0), 123456789.123456789, -987.654321};
    o.rotation = rotation_from_euler_degrees({10, 20, 30});
    o.half_extents = {0.0, 1.0 / 7.0, 2.0};
    s.shapes.push_back({"turned \xe2\x86\xbb", o, ""});
    s.shapes.push_back({"pill", Capsule<double>{{0, 0, 0}, {0, 0, 0}, 0.0}, "a == b, radius 0"});
    s.shapes.push_back({"sliver", Triangle<double>{{0.1, -0.0, 1e-300}, {1.0 / 3.0, 2e22, -5e-324}, {0.1, -0.0, 1e-300}},
                        "zero area: a == c"});
    s.rays.push_back({"r0", Ray<double>{{0, 0, -5}, {0, 0, 1}}, 0.0, infinity<double>(), ""});
    s.rays.push_back({"", Ray<double>{{1.0 / 3.0, 0.1, 0.2}, {1e-150, -1e-150, 3.0}}, -infinity<double>(), 17.25, "d"});
    s.rays.push_back({"r2", Ray<double>{{0, 0, 0}, {0.6, 0.8, 0}}, 0.1, 0.1, ""});
    SceneExpectation a;
    a.ray = 0;
    a.shape = 0;
    a.hit = true;
    a.t_near = 4.0000000000000009;
    a.t_far = 6.1;
    a.n_near = Vec3<double>{0.0, -0.0, -1.0};
    a.n_far = Vec3<double>{1.0 / 3.0, 2.0 / 3.0, 2.0 / 3.0};
    a.inside = false;
    a.tolerance = 1e-9;
    a.description = "everything";
    s.expectations.push_back(a);
    SceneExpectation b;
    b.ray = 1;
    b.shape = 1;
    b.hit = false;
    s.expectations.push_back(b);
    SceneExpectation c;
    c.ray = 2;
    c.picked = 3;
    c.t = 0.1;
    s.expectations.push_back(c);
    SceneExpectation d;
    d.ray = 1;  // unnamed ray: referenced by index
    s.expectations.push_back(d);  // pick of nothing
    return s;
}

}  // namespace

TEST(SceneFileRoundTrip, TextRoundTripIsExact) {
    const Scene s = awkward_scene();
    ASSERT_FALSE(validate_scene(s)) << validate_scene(s)->what();
    const std::string text = scene_to_json(s);
    const Scene back = parse_ok(text);
    EXPECT_TRUE(back == s) << text;
    EXPECT_EQ(scene_to_json(back), text);  // and printing is stable
    // signed zeros survive too (== would not notice)
    EXPECT_TRUE(std::signbit(std::get<Aabb<double>>(back.shapes[1].shape).min.z));
    EXPECT_TRUE(std::signbit(back.expectations[0].n_near->y));
    EXPECT_TRUE(std::signbit(std::get<Triangle<double>>(back.shapes[4].shape).c.y));
}

TEST(SceneFileRoundTrip, SaveLoadEqual) {
    const fs::path dir = temp_dir("roundtrip");
    const Scene s = awkward_scene();
    const fs::path file = dir / "scene.json";
    ASSERT_EQ(save_scene_file(file.string(), s), std::nullopt);
    const Scene back = load_ok(file.string());
    EXPECT_TRUE(back == s);
    EXPECT_FALSE(back != s);
}

TEST(SceneFileRoundTrip, InequalityIsDetected) {
    const Scene s = awkward_scene();
    Scene t = s;
    std::get<Sphere<double>>(t.shapes[0].shape).radius = std::nextafter(0.1 + 0.2, 1.0);
    EXPECT_FALSE(t == s);
    t = s;
    t.expectations[2].picked = 0;
    EXPECT_FALSE(t == s);
    t = s;
    t.rays[1].t_min = 0;
    EXPECT_FALSE(t == s);
}

TEST(SceneFileRoundTrip, EveryAssetRoundTrips) {
    const fs::path dir = temp_dir("assets");
    // Model file references are relative to the scene file: the saved copies see the same models.
    fs::create_directory_symlink(fs::path(RAYPICK_ASSETS_DIR) / "models", dir / "models");
    int n = 0;
    for (const auto& entry : fs::directory_iterator(RAYPICK_ASSETS_DIR)) {
        if (entry.path().extension() != ".json") continue;
        ++n;
        SCOPED_TRACE(entry.path().string());
        const Scene s = load_ok(entry.path().string());
        const fs::path out = dir / entry.path().filename();
        ASSERT_EQ(save_scene_file(out.string(), s), std::nullopt);
        EXPECT_TRUE(load_ok(out.string()) == s);
        // every case file explains itself and checks something
        EXPECT_FALSE(s.description.empty());
        EXPECT_FALSE(s.expectations.empty());
        EXPECT_FALSE(s.shapes.empty() && s.instances.empty());
        EXPECT_FALSE(s.rays.empty() && s.points.empty());
    }
    EXPECT_GT(n, 20);
}

TEST(SceneFileRoundTrip, EulerDegreesAreExactForQuarterTurns) {
    const Mat3<double> r = rotation_from_euler_degrees({90, 0, 0});
    EXPECT_EQ(r[0], Vec3<double>(1, 0, 0));
    EXPECT_EQ(r[1], Vec3<double>(0, 0, 1));
    EXPECT_EQ(r[2], Vec3<double>(0, -1, 0));
    const Mat3<double> z = rotation_from_euler_degrees({0, 0, -270});
    EXPECT_EQ(z[0], Vec3<double>(0, 1, 0));
    // order: X first, then Y, then Z (R = Rz Ry Rx): x axis -> Ry(90) -> (0,0,-1) -> Rz(90) stays
    const Mat3<double> xyz = rotation_from_euler_degrees({90, 90, 90});
    EXPECT_EQ(xyz * Vec3<double>(1, 0, 0), Vec3<double>(0, 0, -1));
    EXPECT_EQ(xyz * Vec3<double>(0, 1, 0), Vec3<double>(0, 1, 0));
    const Mat3<double> any = rotation_from_euler_degrees({12.5, -33, 271});
    EXPECT_LT(orthonormality_error(any), 1e-15);
    EXPECT_NEAR(glm::determinant(any), 1.0, 1e-15);
}

TEST(SceneFileRoundTrip, FormatDocExampleLoadsAndIsCorrect) {
    // The complete example in scene/FORMAT.md must stay a valid file.
    const std::string md = read_all(RAYPICK_FORMAT_MD);
    const auto begin = md.find("```json\n");
    ASSERT_NE(begin, std::string::npos);
    const auto end = md.find("```", begin + 8);
    const Scene s = parse_ok(md.substr(begin + 8, end - begin - 8));
    EXPECT_EQ(s.shapes.size(), 5u);
    EXPECT_EQ(s.rays.size(), 3u);
    EXPECT_EQ(s.expectations.size(), 6u);
}

TEST(SceneFileRoundTrip, FormatDocMeshExampleLoadsAndPasses) {
    // The meshes and instances example in scene/FORMAT.md (the second JSON block), its model file
    // read from assets/.
    const std::string md = read_all(RAYPICK_FORMAT_MD);
    const auto first = md.find("```json\n");
    const auto begin = md.find("```json\n", first + 8);
    ASSERT_NE(begin, std::string::npos);
    const auto end = md.find("```", begin + 8);
    auto loaded = parse_scene(md.substr(begin + 8, end - begin - 8), "FORMAT.md", RAYPICK_ASSETS_DIR);
    ASSERT_TRUE(std::holds_alternative<Scene>(loaded)) << std::get<SceneLoadError>(loaded).what();
    const Scene& s = std::get<Scene>(loaded);
    EXPECT_EQ(s.meshes.size(), 2u);
    EXPECT_EQ(s.instances.size(), 2u);
    for (Precision p : {Precision::Float, Precision::Double}) {
        const CaseReport r = check_case(s, p);
        EXPECT_EQ(r.passed, 2u);
        for (const auto& res : r.results) EXPECT_TRUE(res.passed) << res.summary();
    }
}

TEST(SceneFileRoundTrip, FormatDocQueryExampleLoadsAndPasses) {
    // The scene queries example in scene/FORMAT.md (the third JSON block).
    const std::string md = read_all(RAYPICK_FORMAT_MD);
    auto begin = md.find("```json\n");
    for (int k = 0; k < 2; ++k) begin = md.find("```json\n", begin + 8);
    ASSERT_NE(begin, std::string::npos);
    const auto end = md.find("```", begin + 8);
    const Scene s = parse_ok(md.substr(begin + 8, end - begin - 8));
    EXPECT_EQ(s.points.size(), 2u);
    EXPECT_EQ(s.expectations.size(), 8u);
    for (Precision p : {Precision::Float, Precision::Double}) {
        const CaseReport r = check_case(s, p);
        EXPECT_EQ(r.passed, 8u);
        for (const auto& res : r.results) EXPECT_TRUE(res.passed) << res.summary();
    }
}

// ---- atomic save --------------------------------------------------------------------------------

TEST(SceneFileSave, OverwritesCompletelyAndLeavesNoTemporaryFiles) {
    const fs::path dir = temp_dir("overwrite");
    const fs::path file = dir / "scene.json";
    Scene big = awkward_scene();
    for (int i = 0; i < 2000; ++i)
        big.rays.push_back({"", Ray<double>{{double(i), 0, 0}, {0, 0, 1}}, 0.0, infinity<double>(), ""});
    ASSERT_EQ(save_scene_file(file.string(), big), std::nullopt);
    const Scene small = parse_ok(R"({"shapes": [{"type": "sphere", "center": [0, 0, 0], "radius": 1}]})");
    ASSERT_EQ(save_scene_file(file.string(), small), std::nullopt);
    // the new file is exactly the new scene (no tail of the longer old one)
    EXPECT_EQ(read_all(file), scene_to_json(small));
    EXPECT_TRUE(load_ok(file.string()) == small);
    int files = 0;
    for (const auto& e : fs::directory_iterator(dir)) {
        (void)e;
        ++files;
    }
    EXPECT_EQ(files, 1) << "a temporary file was left behind";
}

TEST(SceneFileSave, KeepsPermissionsOfTheReplacedFile) {
    const fs::path dir = temp_dir("perms");
    const fs::path file = dir / "scene.json";
    write_all(file, "{}");
    fs::permissions(file, fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
    ASSERT_EQ(save_scene_file(file.string(), awkward_scene()), std::nullopt);
    EXPECT_EQ(fs::status(file).permissions() & fs::perms::all,
              fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
}

TEST(SceneFileSave, FailureLeavesTheOldFileIntact) {
    const fs::path dir = temp_dir("fail");
    // A name so long that "<name>.tmp-XXXXXX" exceeds NAME_MAX: the temporary file cannot be
    // created (even as root), so the save must fail before touching the target.
    const fs::path file = dir / (std::string(250, 'x') + ".json");
    write_all(file, "old contents");
    const auto err = save_scene_file(file.string(), awkward_scene());
    ASSERT_TRUE(err);
    EXPECT_NE(err->find("cannot save"), std::string::npos) << *err;
    EXPECT_NE(err->find("temporary file"), std::string::npos) << *err;
    EXPECT_EQ(read_all(file), "old contents");
}

TEST(SceneFileSave, MissingDirectoryIsAnError) {
    const auto err = save_scene_file("/nonexistent/dir/scene.json", awkward_scene());
    ASSERT_TRUE(err);
    EXPECT_NE(err->find("/nonexistent/dir/scene.json"), std::string::npos);
    EXPECT_NE(err->find("No such file or directory"), std::string::npos) << *err;
}

TEST(SceneFileSave, NonWritableDirectory) {
    if (::geteuid() == 0) GTEST_SKIP() << "root can write into read-only directories";
    const fs::path dir = temp_dir("readonly");
    const fs::path file = dir / "scene.json";
    write_all(file, "old contents");
    fs::permissions(dir, fs::perms::owner_read | fs::perms::owner_exec);
    const auto err = save_scene_file(file.string(), awkward_scene());
    fs::permissions(dir, fs::perms::owner_all);
    ASSERT_TRUE(err);
    EXPECT_NE(err->find("Permission denied"), std::string::npos) << *err;
    EXPECT_EQ(read_all(file), "old contents");
}

TEST(SceneFileSave, InvalidSceneIsNotWritten) {
    const fs::path dir = temp_dir("invalid");
    const fs::path file = dir / "scene.json";
    write_all(file, "old contents");
    Scene s;
    s.rays.push_back({"zero", Ray<double>{{0, 0, 0}, {0, 0, 0}}, 0.0, infinity<double>(), ""});
    const auto err = save_scene_file(file.string(), s);
    ASSERT_TRUE(err);
    EXPECT_EQ(*err, "cannot save " + file.string() +
                        ": /rays/0/direction: invalid ray: direction must be non-zero (its squared length must not "
                        "underflow), got (0, 0, 0)");
    EXPECT_EQ(read_all(file), "old contents");
}

TEST(SceneFileRoundTrip, InvalidUtf8NameDoesNotThrow) {
    // e.g. a name edited in the demo; the saver replaces the bad bytes instead of throwing
    Scene s;
    s.shapes.push_back({"bad \xff name", Sphere<double>{{0, 0, 0}, 1.0}, ""});
    std::string text;
    EXPECT_NO_THROW(text = scene_to_json(s));
    const Scene back = parse_ok(text);
    ASSERT_EQ(back.shapes.size(), 1u);
    EXPECT_EQ(back.shapes[0].name, "bad \xef\xbf\xbd name");  // U+FFFD
}
