// raypick-cast end to end: output format, --check failures, bad files, and a 10^5 x 10^2 run.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <sys/wait.h>

#include <nlohmann/json.hpp>

#include <raypick/scene/SceneFile.h>

#include "../common/RunProgram.h"

using json = nlohmann::json;
namespace fs = std::filesystem;

namespace {

using Outcome = raypick::test::ProgramRun;

Outcome run(const std::string& args, bool merge_stderr = true) {
    return raypick::test::run_program(std::string(RAYPICK_CAST_EXE) + " " + args + (merge_stderr ? " 2>&1" : " 2>/dev/null"));
}

std::vector<json> lines_of(const std::string& out) {
    std::vector<json> v;
    std::istringstream in(out);
    std::string line;
    while (std::getline(in, line)) v.push_back(json::parse(line));
    return v;
}

std::string data(const char* name) { return std::string(RAYPICK_CLI_DATA) + "/" + name; }

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }
#define EXPECT_CONTAINS(s, part) EXPECT_TRUE(contains((s), (part))) << "in:\n" << (s) << "\nmissing: " << (part)

}  // namespace

TEST(CastCli, OneJsonObjectPerLine) {
    const Outcome r = run(data("small.json"), false);
    ASSERT_EQ(r.status, 0) << r.out;
    const auto v = lines_of(r.out);
    ASSERT_EQ(v.size(), 12u);  // 3 rays x (3 shapes + 1 pick line)
    // ray 0 x ball: enters at z = 4, leaves at z = 6
    EXPECT_EQ(v[0], json::parse(R"({"ray":0,"shape":0,"hit":true,"t_near":4,"t_far":6,"n_near":[0,0,-1],"n_far":[0,0,1],"inside":false})"));
    EXPECT_EQ(v[1], json::parse(R"({"ray":0,"shape":1,"hit":true,"t_near":4,"t_far":4.5,"n_near":[0,0,-1],"n_far":[0,0,1],"inside":false})"));
    EXPECT_EQ(v[2], json::parse(R"({"ray":0,"shape":2,"hit":false})"));
    EXPECT_EQ(v[3], json::parse(R"({"ray":0,"picked":0,"t":4})"));  // tie with the box: lower index
    // ray 1 starts at the ball's centre with direction 0.125: t = -8..8, the box is behind
    EXPECT_EQ(v[4], json::parse(R"({"ray":1,"shape":0,"hit":true,"t_near":-8,"t_far":8,"n_near":[0,0,-1],"n_far":[0,0,1],"inside":true})"));
    EXPECT_EQ(v[5], json::parse(R"({"ray":1,"shape":1,"hit":false})"));
    EXPECT_EQ(v[7], json::parse(R"({"ray":1,"picked":0,"t":8})"));
    EXPECT_EQ(v[11], json::parse(R"({"ray":2,"picked":null})"));
}

// A triangle's line adds the hit's barycentric weights of a, b, c and the face the ray arrives at.
TEST(CastCli, TriangleLinesCarryBarycentricsAndFace) {
    const std::string asset = std::string(RAYPICK_ASSETS_DIR) + "/edge_triangle_back_face.json";
    for (const char* precision : {"", "--double "}) {
        const Outcome r = run(precision + asset, false);
        ASSERT_EQ(r.status, 0) << r.out;
        const auto v = lines_of(r.out);
        ASSERT_EQ(v.size(), 15u);  // 5 rays x (2 triangles + 1 pick line)
        // from_above x ccw: the front at (1, 1, 0) = a/2 + b/4 + c/4
        EXPECT_EQ(v[0], json::parse(R"({"ray":0,"shape":0,"hit":true,"t_near":5,"t_far":5,"n_near":[0,0,1],)"
                                    R"("n_far":[0,0,-1],"inside":false,"barycentric":[0.5,0.25,0.25],"front":true})"));
        EXPECT_EQ(v[1], json::parse(R"({"ray":0,"shape":1,"hit":false})"));
        // from_below x ccw: the back
        EXPECT_EQ(v[3], json::parse(R"({"ray":1,"shape":0,"hit":true,"t_near":5,"t_far":5,"n_near":[0,0,-1],)"
                                    R"("n_far":[0,0,1],"inside":false,"barycentric":[0.5,0.25,0.25],"front":false})"));
    }
}

TEST(CastCli, DoubleCorePrintsDoublePrecision) {
    // 0.1 in the float core prints as 0.1 (shortest float), in the double core as the double
    const fs::path dir = fs::path(RAYPICK_TEST_TMP) / "double";
    fs::create_directories(dir);
    const fs::path f = dir / "tenth.json";
    raypick::Scene s;
    s.shapes.push_back({"slab", raypick::Aabb<double>{{-1, -1, 0.1}, {1, 1, 0.7}}, ""});
    s.rays.push_back({"up", raypick::Ray<double>{{0, 0, 0}, {0, 0, 3}}, 0.0, raypick::infinity<double>(), ""});
    ASSERT_EQ(raypick::save_scene_file(f.string(), s), std::nullopt);
    const auto fl = lines_of(run(f.string(), false).out);
    const auto db = lines_of(run("--double " + f.string(), false).out);
    ASSERT_EQ(fl.size(), 2u);
    ASSERT_EQ(db.size(), 2u);
    EXPECT_EQ(db[0]["t_near"].get<double>(), 0.1 / 3);
    // the float core's value, printed as the shortest text that reads back to the same float
    EXPECT_EQ(float(fl[0]["t_near"].get<double>()), 0.1f / 3.0f);
    EXPECT_EQ(fl[0]["t_near"].dump(), "0.033333335");
}

TEST(CastCli, CheckPassesOnAGoodFile) {
    const Outcome r = run("--check " + std::string(RAYPICK_ASSETS_DIR) + "/seed001_ray_sphere_table.json");
    EXPECT_EQ(r.status, 0) << r.out;
    EXPECT_CONTAINS(r.out, "9/9 expectations passed (float core)");
}

TEST(CastCli, CheckFailsReadablyOnAWrongExpectation) {
    const std::string file = data("wrong_expectation.json");
    for (const char* precision : {"", "--double "}) {
        const Outcome r = run(std::string("--check ") + precision + file);
        EXPECT_EQ(r.status, 1) << r.out;
        EXPECT_CONTAINS(r.out, file + ": expectation 0: ray \"up\" (#0) x shape \"ball\" (#0): FAILED: t_near expected 5, got 4");
        EXPECT_CONTAINS(r.out, "expectation 1: ray \"up\" (#0) x shape \"box\" (#1): FAILED: hit expected miss, got hit");
        EXPECT_CONTAINS(r.out, "expectation 2: ray \"up\" (#0): pick: FAILED: picked expected \"box\" (#1), got \"ball\" (#0)");
        EXPECT_FALSE(contains(r.out, "expectation 3:")) << "passing expectations are not listed";
        EXPECT_CONTAINS(r.out, "1/4 expectations passed");
        EXPECT_CONTAINS(r.out, "3 expectation(s) FAILED");
    }
}

TEST(CastCli, BadFileExitsWithTwoAndTheLoaderMessage) {
    const Outcome r = run(data("bad_radius.json"));
    EXPECT_EQ(r.status, 2);
    EXPECT_CONTAINS(r.out, "bad_radius.json: line 3, column 71 (/shapes/0/radius): invalid sphere: radius must be finite and >= 0, got -1");
    const Outcome c = run("--check " + data("bad_radius.json"));
    EXPECT_EQ(c.status, 2);
    EXPECT_EQ(c.out, r.out);
    const Outcome m = run("/nonexistent.json");
    EXPECT_EQ(m.status, 2);
    EXPECT_CONTAINS(m.out, "/nonexistent.json: cannot open the file");
}

// A usage error is one line naming the problem and pointing to --help, exit status 2.
TEST(CastCli, UsageErrors) {
    const std::pair<std::string, std::string> cases[] = {
        {"", "raypick-cast: no FILE given (see --help)\n"},
        {"--frobnicate " + data("small.json"), "raypick-cast: unknown option --frobnicate (see --help)\n"},
        {data("small.json") + " " + data("small.json"),
         "raypick-cast: more than one FILE given: " + data("small.json") + " and " + data("small.json") + " (see --help)\n"},
    };
    for (const auto& [args, message] : cases) {
        const Outcome r = run(args);
        EXPECT_EQ(r.status, 2) << args;
        EXPECT_EQ(r.out, message) << args;
    }
    const Outcome h = run("--help");
    EXPECT_EQ(h.status, 0);
    EXPECT_CONTAINS(h.out, "usage: raypick-cast [--check] [--double] FILE");
}

// 10^5 rays x 10^2 shapes: generates the file (not committed), casts it, counts the lines and
// reports the time. Reproduce by hand with: ctest --test-dir BUILD -R BigScene -V
// (the file is kept at BUILD/tests/cli/tmp/big/big.json).
TEST(CastCli, BigScene) {
    constexpr int kRays = 100000, kShapes = 100;
    const fs::path dir = fs::path(RAYPICK_TEST_TMP) / "big";
    fs::create_directories(dir);
    const fs::path file = dir / "big.json";
    {
        std::mt19937 rng(12345);
        std::uniform_real_distribution<double> pos(-10, 10), size(0.2, 1.5), angle(0, 360), dir3(-1, 1);
        raypick::Scene s;
        for (int j = 0; j < kShapes; ++j) {
            const raypick::Vec3<double> c{pos(rng), pos(rng), pos(rng)};
            const raypick::Vec3<double> h{size(rng), size(rng), size(rng)};
            switch (j % 4) {
                case 0: s.shapes.push_back({"", raypick::Sphere<double>{c, h.x}, ""}); break;
                case 1: s.shapes.push_back({"", raypick::Aabb<double>{c - h, c + h}, ""}); break;
                case 2:
                    s.shapes.push_back(
                        {"", raypick::Obb<double>{c, raypick::rotation_from_euler_degrees({angle(rng), angle(rng), angle(rng)}), h}, ""});
                    break;
                default: s.shapes.push_back({"", raypick::Capsule<double>{c, c + 2.0 * h, h.y * 0.5}, ""}); break;
            }
        }
        for (int i = 0; i < kRays; ++i) {
            // from a shell around the shapes towards a random point among them
            const raypick::Vec3<double> o = 30.0 * raypick::normalize_or(raypick::Vec3<double>{dir3(rng), dir3(rng), dir3(rng)},
                                                                         raypick::Vec3<double>{0, 0, 1});
            const raypick::Vec3<double> target{pos(rng), pos(rng), pos(rng)};
            s.rays.push_back({"", raypick::Ray<double>{o, target - o}, 0.0, raypick::infinity<double>(), ""});
        }
        ASSERT_EQ(raypick::save_scene_file(file.string(), s), std::nullopt);
    }
    for (const char* mode : {"", "--double "}) {
        const auto t0 = std::chrono::steady_clock::now();
        const std::string cmd = std::string(RAYPICK_CAST_EXE) + " " + mode + file.string();
        FILE* p = ::popen(cmd.c_str(), "r");
        ASSERT_TRUE(p);
        static char buf[1 << 20];
        std::size_t n, lines = 0, bytes = 0, hits = 0;
        std::string tail;
        while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) {
            bytes += n;
            for (std::size_t k = 0; k < n; ++k) lines += buf[k] == '\n';
            const std::string chunk = tail + std::string(buf, n);
            for (std::size_t at = chunk.find("\"hit\":true"); at != std::string::npos; at = chunk.find("\"hit\":true", at + 1)) ++hits;
            tail = chunk.substr(chunk.size() > 16 ? chunk.size() - 9 : 0);
        }
        const int st = ::pclose(p);
        const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        EXPECT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0);
        EXPECT_EQ(lines, std::size_t(kRays) * (kShapes + 1));
        std::printf("raypick-cast %s%d rays x %d shapes: %.2f s, %zu lines, %.0f MB, %zu hits\n", mode, kRays, kShapes, secs, lines,
                    bytes / 1e6, hits);
        RecordProperty(std::string(mode).empty() ? "seconds_float" : "seconds_double", std::to_string(secs));
        EXPECT_LT(secs, 60.0) << "far slower than expected (about 1-2 s on 2 cores)";
    }
}

// ---- meshes and instances -------------------------------------------------------------------------

namespace {

/// Writes `text` as NAME in a fresh folder of the test's temporary tree and returns its path.
std::string temp_file(const std::string& folder, const std::string& name, const std::string& text) {
    const fs::path dir = fs::path(RAYPICK_TEST_TMP) / folder;
    fs::remove_all(dir);
    fs::create_directories(dir);
    std::ofstream(dir / name, std::ios::binary) << text;
    return (dir / name).string();
}

/// A slab, a quad "floor" on its top face and, with `lid`, the quad mirrored in z 3 units above;
/// a ray down onto them and one beside them. The text ends inside the top-level object.
std::string quad_scene(bool lid) {
    return std::string(R"({
  "shapes": [{"name": "slab", "type": "aabb", "min": [-1, -1, -2], "max": [1, 1, 0]}],
  "meshes": [{"name": "square", "vertices": [[-1, -1, 0], [1, -1, 0], [1, 1, 0], [-1, 1, 0]],
              "triangles": [[0, 1, 2], [0, 2, 3]]}],
  "instances": [{"name": "floor", "mesh": "square"})") +
           (lid ? R"(, {"name": "lid", "mesh": "square", "translation": [0, 0, 3], "scale": [1, 1, -1]})" : "") + R"(],
  "rays": [{"name": "down", "origin": [0.5, 0.25, 5], "direction": [0, 0, -1]},
           {"name": "beside", "origin": [5, 0, 5], "direction": [0, 0, -1]}])";
}

}  // namespace

TEST(CastCli, OneLinePerRayAndInstance) {
    const std::string file = temp_file("instances", "quad.json", quad_scene(true) + "}");
    for (const char* precision : {"", "--double "}) {
        const Outcome r = run(precision + file, false);
        ASSERT_EQ(r.status, 0) << r.out;
        const auto v = lines_of(r.out);
        ASSERT_EQ(v.size(), 8u);  // 2 rays x (1 shape + 2 instances + 1 pick line)
        EXPECT_EQ(v[0], json::parse(R"({"ray":0,"shape":0,"hit":true,"t_near":5,"t_far":7,"n_near":[0,0,1],"n_far":[0,0,-1],"inside":false})"));
        EXPECT_EQ(v[1], json::parse(R"({"ray":0,"instance":0,"hit":true,"placement":0,"triangle":0,"t":5,
                                        "barycentric":[0.25,0.125,0.625],"normal":[0,0,1],"front":true})"));
        // The lid is mirrored in z: its front face looks down, so the ray from above meets its back.
        EXPECT_EQ(v[2], json::parse(R"({"ray":0,"instance":1,"hit":true,"placement":0,"triangle":0,"t":2,
                                        "barycentric":[0.25,0.125,0.625],"normal":[0,0,-1],"front":false})"));
        EXPECT_EQ(v[3], json::parse(R"({"ray":0,"picked_instance":1,"t":2,"triangle":0})"));
        EXPECT_EQ(v[4], json::parse(R"({"ray":1,"shape":0,"hit":false})"));
        EXPECT_EQ(v[5], json::parse(R"({"ray":1,"instance":0,"hit":false})"));
        EXPECT_EQ(v[6], json::parse(R"({"ray":1,"instance":1,"hit":false})"));
        EXPECT_EQ(v[7], json::parse(R"({"ray":1,"picked":null})"));
    }
}

TEST(CastCli, ShapeWinsATieWithAnInstanceInThePickLine) {
    // Without the lid the ray down meets the slab's top and the floor both at t = 5.
    const std::string file = temp_file("instance_tie", "tie.json", quad_scene(false) + "}");
    const Outcome r = run(file, false);
    ASSERT_EQ(r.status, 0) << r.out;
    const auto v = lines_of(r.out);
    ASSERT_EQ(v.size(), 6u);
    EXPECT_EQ(v[2], json::parse(R"({"ray":0,"picked":0,"t":5})"));
}

TEST(CastCli, CheckFailsReadablyOnInstanceExpectations) {
    const std::string file = temp_file("instance_check", "wrong.json", quad_scene(true) + R"(,
  "expectations": [
    {"ray": "down", "instance": "lid", "t": 2, "normal": [0, 0, 1], "front": true},
    {"ray": "down", "picked": "slab"},
    {"ray": "beside", "instance": "floor", "hit": false}]})");
    for (const char* precision : {"", "--double "}) {
        const Outcome r = run(std::string("--check ") + precision + file);
        EXPECT_EQ(r.status, 1) << r.out;
        EXPECT_CONTAINS(r.out, file + ": expectation 0: ray \"down\" (#0) x instance \"lid\" (#1): FAILED: normal "
                                      "expected [0, 0, 1], got [0, 0, -1] (off by up to 2, tolerance 1e-04); front "
                                      "expected true, got false");
        EXPECT_CONTAINS(r.out, file + ": expectation 1: ray \"down\" (#0): pick: FAILED: picked expected \"slab\" (#0), "
                                      "got instance \"lid\" (#1)");
        EXPECT_FALSE(contains(r.out, "expectation 2:")) << "passing expectations are not listed";
        EXPECT_CONTAINS(r.out, "1/3 expectations passed");
    }
}

TEST(CastCli, MissingModelFileExitsWithTwoNamingSceneAndModel) {
    const std::string file = temp_file("missing_model", "scene.json",
                                       "{\"meshes\": [{\"name\": \"m\", \"file\": \"models/gone.glb\"}]}");
    const std::string model = (fs::path(file).parent_path() / "models" / "gone.glb").string();
    const Outcome r = run("--check " + file);
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.out, "raypick-cast: " + file + ": line 1, column 35 (/meshes/0/file): cannot load the model: " + model +
                         ": cannot open: No such file or directory\n");
}

// ---- the scene queries (--query) --------------------------------------------------------------------

TEST(CastCli, CheckFailsReadablyOnQueryExpectations) {
    const std::string file = data("wrong_query_expectation.json");
    for (const char* precision : {"", "--double "}) {
        const Outcome r = run(std::string("--check ") + precision + file);
        EXPECT_EQ(r.status, 1) << r.out;
        EXPECT_CONTAINS(r.out, file + ": expectation 0: ray \"up\" (#0): occluded: FAILED: occluded expected false, got true");
        EXPECT_CONTAINS(r.out, file + ": expectation 1: ray \"up\" (#0): crossings: FAILED: crossing_kinds expected "
                                      "[leave, enter], got [enter, leave]");
        EXPECT_CONTAINS(r.out, file + ": expectation 2: point \"centre\" (#0) x shape \"ball\" (#0): FAILED: "
                                      "containment expected on_surface, got inside");
        EXPECT_CONTAINS(r.out, file + ": expectation 3: point \"centre\" (#0): contained_by: FAILED: contained_by "
                                      "expected nothing, got {\"ball\" (#0)}");
        EXPECT_CONTAINS(r.out, file + ": expectation 4: ray \"up\" (#0): pick, mask 2: FAILED: picked expected "
                                      "\"ball\" (#0), got nothing");
        EXPECT_FALSE(contains(r.out, "expectation 5:")) << "passing expectations are not listed";
        EXPECT_CONTAINS(r.out, "1/6 expectations passed");
    }
}

// One line per ray and query, then one per point for contains; things named as the file names them.
TEST(CastCli, QueryAllPrintsEveryAnswer) {
    const std::string file = temp_file("query_all", "scene.json", quad_scene(true) + R"(,
  "points": [{"name": "in slab", "position": [0, 0, -1]}, {"position": [0, 0, 1]}]})");
    for (const char* precision : {"", "--double "}) {
        const Outcome r = run(std::string("--query all ") + precision + file, false);
        ASSERT_EQ(r.status, 0) << r.out;
        const auto v = lines_of(r.out);
        ASSERT_EQ(v.size(), 8u);  // 2 rays x 3 queries + 2 points
        // "down" meets the lid (mirrored: its back) at t = 2, the floor and the slab's top at 5
        // (a tie of a triangle's front and a box's entry), and leaves the slab at 7.
        EXPECT_EQ(v[0], json::parse(R"({"query":"pick","ray":"down","picked":"lid","placement":0,"triangle":0,"t":2,
                                        "point":[0.5,0.25,3],"normal":[0,0,-1],"barycentric":[0.25,0.125,0.625],
                                        "front":false})"));
        EXPECT_EQ(v[1], json::parse(R"({"query":"occluded","ray":"down","occluded":true})"));
        EXPECT_EQ(v[2], json::parse(R"({"query":"crossings","ray":"down","crossings":4,"crossing_t":[2,5,5,7],
                                        "crossing_kinds":["leave","enter","enter","leave"],
                                        "crossing_objects":[{"instance":"lid","placement":0,"triangle":0},{"shape":"slab"},
                                                            {"instance":"floor","placement":0,"triangle":0},{"shape":"slab"}]})"));
        EXPECT_EQ(v[3], json::parse(R"({"query":"pick","ray":"beside","picked":null})"));
        EXPECT_EQ(v[4], json::parse(R"({"query":"occluded","ray":"beside","occluded":false})"));
        EXPECT_EQ(v[5], json::parse(R"({"query":"crossings","ray":"beside","crossings":0,"crossing_t":[],
                                        "crossing_kinds":[],"crossing_objects":[]})"));
        // The quads bound no solid: only the slab holds a point; the unnamed point is named by its index.
        EXPECT_EQ(v[6], json::parse(R"({"query":"contains","point":"in slab","contained_by":["slab"]})"));
        EXPECT_EQ(v[7], json::parse(R"({"query":"contains","point":1,"contained_by":[]})"));
    }
}

TEST(CastCli, QueryOneKindWithMaskAndCulling) {
    const std::string asset = std::string(RAYPICK_ASSETS_DIR) + "/query_masks_culling.json";
    const Outcome pick = run("--query pick " + asset, false);
    ASSERT_EQ(pick.status, 0) << pick.out;
    auto v = lines_of(pick.out);
    ASSERT_EQ(v.size(), 4u);  // one line per ray
    EXPECT_EQ(v[0]["picked"], "pane");
    EXPECT_EQ(v[0]["t"], 2);
    EXPECT_EQ(v[0]["front"], false);
    EXPECT_FALSE(v[0].contains("triangle")) << "a shape has no triangle";
    // --mask 4 sees the box alone; --mask=0x2 the crate; culling back faces skips the pane.
    v = lines_of(run("--query pick --mask 4 " + asset, false).out);
    EXPECT_EQ(v[0]["picked"], "box");
    EXPECT_EQ(v[0]["triangle"], 1);
    EXPECT_EQ(v[0]["t"], 13);
    v = lines_of(run("--query=pick --mask=0x2 " + asset, false).out);
    EXPECT_EQ(v[0]["picked"], "crate");
    v = lines_of(run("--query pick --cull-back-faces " + asset, false).out);
    EXPECT_EQ(v[0]["picked"], "ball");
    EXPECT_EQ(v[3], json::parse(R"({"query":"pick","ray":"out of box","picked":null})"));
    v = lines_of(run("--query occluded --mask 0 " + asset, false).out);
    ASSERT_EQ(v.size(), 4u);
    for (const auto& line : v) EXPECT_EQ(line["occluded"], false);
    v = lines_of(run("--query contains --mask 2 " + asset, false).out);
    ASSERT_EQ(v.size(), 3u);  // one line per point
    EXPECT_EQ(v[0], json::parse(R"({"query":"contains","point":"ball centre","contained_by":[]})"));
    v = lines_of(run("--query contains --double " + asset, false).out);
    EXPECT_EQ(v[0], json::parse(R"({"query":"contains","point":"ball centre","contained_by":["ball"]})"));
    EXPECT_EQ(v[1], json::parse(R"({"query":"contains","point":"box centre","contained_by":["box"]})"));
}

TEST(CastCli, QueryCrossingsThroughSharedEdges) {
    const std::string asset = std::string(RAYPICK_ASSETS_DIR) + "/query_cube_crossings.json";
    for (const char* precision : {"", "--double "}) {
        const auto v = lines_of(run(std::string("--query crossings ") + precision + asset, false).out);
        ASSERT_EQ(v.size(), 9u);
        // Through an edge and through a vertex: one crossing each way, each taken by one triangle.
        for (int i : {0, 1, 2}) {
            EXPECT_EQ(v[i]["crossings"], 2) << v[i];
            EXPECT_EQ(v[i]["crossing_kinds"], json::parse(R"(["enter","leave"])")) << v[i];
        }
        EXPECT_EQ(v[3]["crossing_kinds"], json::parse(R"(["touch"])"));
        EXPECT_EQ(v[3]["crossing_objects"][0]["instance"], "box");
    }
}

TEST(CastCli, QueryUsageErrors) {
    const std::pair<std::string, std::string> cases[] = {
        {"--query nearest " + data("small.json"),
         "raypick-cast: unknown query \"nearest\" (expected pick, occluded, crossings, contains or all)\n"},
        {"--query", "raypick-cast: --query needs a value (see --help)\n"},
        {"--check --query pick " + data("small.json"), "raypick-cast: give either --check or --query, not both (see --help)\n"},
        {"--mask 3 " + data("small.json"), "raypick-cast: --mask and --cull-back-faces apply to --query (see --help)\n"},
        {"--query pick --mask 4294967296 " + data("small.json"),
         "raypick-cast: bad --mask \"4294967296\" (expected an integer from 0 to 4294967295, or 0x...)\n"},
        {"--query pick --mask -1 " + data("small.json"),
         "raypick-cast: bad --mask \"-1\" (expected an integer from 0 to 4294967295, or 0x...)\n"},
    };
    for (const auto& [args, message] : cases) {
        const Outcome r = run(args);
        EXPECT_EQ(r.status, 2) << args;
        EXPECT_EQ(r.out, message) << args;
    }
    EXPECT_CONTAINS(run("--help").out, "--query Q");
}

// A bad point, mask or name stops --query and --check alike with the loader's one line.
TEST(CastCli, QueryBadFilesNameFileLineAndPath) {
    const std::string point = temp_file("query_bad", "point.json",
                                        "{\"points\": [\n  {\"name\": \"p\", \"position\": [0, 0]}]}");
    for (const char* mode : {"--query contains ", "--check "}) {
        const Outcome r = run(mode + point);
        EXPECT_EQ(r.status, 2);
        EXPECT_EQ(r.out, "raypick-cast: " + point + ": line 2, column 29 (/points/0/position): expected [x, y, z] "
                                                    "(an array of 3 numbers), got an array of 2\n");
    }
    const std::string mask = temp_file("query_bad", "mask.json", quad_scene(false) + ",\n \"expectations\": [\n"
                                       "  {\"ray\": \"down\", \"occluded\": true, \"mask\": -1}]}");
    Outcome r = run("--query all " + mask);
    EXPECT_EQ(r.status, 2);
    EXPECT_CONTAINS(r.out, mask + ": line 9, column 45 (/expectations/0/mask): expected a mask: an integer from 0 to "
                                  "4294967295 (32 bits), got the number -1");
    const std::string name = temp_file("query_bad", "name.json", quad_scene(false) + ",\n \"points\": [],\n"
                                       " \"expectations\": [{\"point\": \"centre\", \"contained_by\": []}]}");
    r = run("--check " + name);
    EXPECT_EQ(r.status, 2);
    EXPECT_CONTAINS(r.out, name + ": line 9, column 29 (/expectations/0/point): no point is named \"centre\"");
}
