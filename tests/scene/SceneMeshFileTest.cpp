// Meshes and instances in scene files: reading inline meshes and model file references, writing
// them back as they came (exact round trip), and every error with its message and place.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <variant>

#include <raypick/scene/SceneFile.h>

#include "SceneTestUtil.h"

using namespace raypick;
using raypick::test::error_of;
using raypick::test::load_ok;
using raypick::test::parse_ok;
using raypick::test::temp_dir;
using raypick::test::write_all;
namespace fs = std::filesystem;

namespace {

SceneLoadError file_error_of(const std::string& path) {
    auto r = load_scene_file(path);
    EXPECT_TRUE(std::holds_alternative<SceneLoadError>(r)) << "expected " << path << " to be rejected";
    if (auto* e = std::get_if<SceneLoadError>(&r)) return *e;
    return {};
}

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }
#define EXPECT_CONTAINS(s, part) EXPECT_TRUE(contains((s), (part))) << "in: " << (s) << "\nmissing: " << (part)

const char* kTriangle = R"("vertices": [[0, 0, 0], [1, 0, 0], [0, 1, 0]], "triangles": [[0, 1, 2]])";

/// A scene of one inline triangle mesh "m" and `instances` (JSON array items) placing it.
std::string with_instances(const std::string& instances) {
    return std::string(R"({"meshes": [{"name": "m", )") + kTriangle + R"(}], "instances": [)" + instances + "]}";
}

/// A two-triangle quad as a model (for model files written into a test's folder).
Model quad_model() {
    Model m;
    m.meshes.push_back({"quad", {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}}, {}, {0, 1, 2, 0, 2, 3}});
    m.instances.push_back({0, glm::dmat4(1.0), "quad"});
    return m;
}

}  // namespace

// ---- reading --------------------------------------------------------------------------------------

TEST(SceneMeshFile, InlineMeshIsOneMeshPlacedOnceAtIdentity) {
    const Scene s = parse_ok(R"({"meshes": [{"name": "tri", "description": "one triangle", )" + std::string(kTriangle) +
                             R"(, "normals": [[0, 0, 1], [0, 0, 1], [0, 0.6, 0.8]]}],
        "instances": [{"name": "a", "mesh": "tri", "translation": [1, 2, 3], "euler_degrees": [0, 90, 0],
                       "scale": [-1, 2, 0.5]}, {"mesh": 0}]})");
    ASSERT_EQ(s.meshes.size(), 1u);
    const SceneMesh& m = s.meshes[0];
    EXPECT_EQ(m.name, "tri");
    EXPECT_EQ(m.description, "one triangle");
    EXPECT_TRUE(m.file.empty());
    ASSERT_EQ(m.model.meshes.size(), 1u);
    EXPECT_EQ(m.model.meshes[0].name, "tri");
    EXPECT_EQ(m.model.meshes[0].positions, (std::vector<glm::vec3>{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}));
    EXPECT_EQ(m.model.meshes[0].normals[2], glm::vec3(0, 0.6f, 0.8f));
    EXPECT_EQ(m.model.meshes[0].triangles, (std::vector<std::uint32_t>{0, 1, 2}));
    ASSERT_EQ(m.model.instances.size(), 1u);
    EXPECT_EQ(m.model.instances[0].mesh, 0u);
    EXPECT_EQ(m.model.instances[0].transform, glm::dmat4(1.0));
    ASSERT_EQ(s.instances.size(), 2u);
    EXPECT_EQ(s.instances[0].name, "a");
    EXPECT_EQ(s.instances[0].mesh, 0u);
    EXPECT_EQ(s.instances[0].translation, Vec3<double>(1, 2, 3));
    EXPECT_EQ(s.instances[0].euler_degrees, Vec3<double>(0, 90, 0));
    EXPECT_EQ(s.instances[0].scale, Vec3<double>(-1, 2, 0.5));
    EXPECT_EQ(s.instances[1].translation, Vec3<double>(0.0));
    EXPECT_EQ(s.instances[1].euler_degrees, Vec3<double>(0.0));
    EXPECT_EQ(s.instances[1].scale, Vec3<double>(1.0));
}

TEST(SceneMeshFile, ModelFileIsReadRelativeToTheSceneFile) {
    const fs::path dir = temp_dir("model_relative");
    fs::create_directories(dir / "models");
    ASSERT_EQ(save_model_file((dir / "models" / "quad.obj").string(), quad_model()), std::nullopt);
    write_all(dir / "scene.json", R"({"meshes": [{"name": "q", "file": "models/quad.obj"}],
        "instances": [{"name": "one", "mesh": "q"}]})");
    const Scene s = load_ok((dir / "scene.json").string());
    ASSERT_EQ(s.meshes.size(), 1u);
    EXPECT_EQ(s.meshes[0].file, "models/quad.obj");
    auto direct = load_model((dir / "models" / "quad.obj").string());
    ASSERT_TRUE(std::holds_alternative<Model>(direct));
    EXPECT_TRUE(s.meshes[0] == (SceneMesh{"q", "models/quad.obj", std::get<Model>(direct), ""}));
}

TEST(SceneMeshFile, ExpectationsOnInstancesAndPicksOfInstances) {
    const Scene s = parse_ok(R"({"shapes": [{"name": "ball", "type": "sphere", "center": [0, 0, 0], "radius": 1}],
        "meshes": [{"name": "m", )" + std::string(kTriangle) + R"(}],
        "instances": [{"name": "a", "mesh": "m"}, {"mesh": "m"}],
        "rays": [{"name": "r", "origin": [0.25, 0.25, 5], "direction": [0, 0, -1]}],
        "expectations": [
          {"ray": "r", "instance": "a", "t": 5, "triangle": 0, "barycentric": [0.5, 0.25, 0.25], "normal": [0, 0, 1], "front": true},
          {"ray": "r", "instance": 1, "hit": true},
          {"ray": "r", "picked": "a", "t": 5, "triangle": 0},
          {"ray": "r", "picked_instance": 1},
          {"ray": "r", "picked": "ball"}]})");
    ASSERT_EQ(s.expectations.size(), 5u);
    const SceneExpectation& e = s.expectations[0];
    EXPECT_EQ(e.instance, std::optional<std::size_t>(0));
    EXPECT_FALSE(e.shape);
    EXPECT_FALSE(e.is_pick());
    EXPECT_EQ(e.t, std::optional<double>(5));
    EXPECT_EQ(e.triangle, std::optional<std::size_t>(0));
    EXPECT_EQ(e.barycentric, std::optional<Vec3<double>>(Vec3<double>(0.5, 0.25, 0.25)));
    EXPECT_EQ(e.normal, std::optional<Vec3<double>>(Vec3<double>(0, 0, 1)));
    EXPECT_EQ(e.front, std::optional<bool>(true));
    EXPECT_EQ(s.expectations[1].instance, std::optional<std::size_t>(1));
    EXPECT_TRUE(s.expectations[2].is_pick());
    EXPECT_EQ(s.expectations[2].picked_instance, std::optional<std::size_t>(0));
    EXPECT_FALSE(s.expectations[2].picked);
    EXPECT_EQ(s.expectations[3].picked_instance, std::optional<std::size_t>(1));
    EXPECT_EQ(s.expectations[4].picked, std::optional<std::size_t>(0));
    EXPECT_FALSE(s.expectations[4].picked_instance);
}

// ---- writing and the round trip ------------------------------------------------------------------

TEST(SceneMeshFile, InlineMeshRoundTripsExactly) {
    Scene s;
    Model model;
    model.meshes.push_back({"odd", {{0.1f, -0.0f, 1e-7f}, {3.4e38f, 1.0f / 3.0f, -2.5f}, {0, 1, 0}},
                            {{0, 0, 1}, {0.6f, 0.8f, 0}, {0, 1, 0}}, {0, 1, 2, 2, 1, 0}});
    model.instances.push_back({});
    s.meshes.push_back({"odd", "", model, "inline, odd numbers"});
    s.instances.push_back({"first", 0, {0.1, 0, -3}, {12.5, -33, 271}, {-1, 1e-3, 2}, "mirrored"});
    s.instances.push_back({"", 0, {}, {}, Vec3<double>(1.0), ""});
    s.rays.push_back({"r", {{0, 0, 5}, {0, 0, -1}}, 0.0, infinity<double>(), ""});
    SceneExpectation cast;
    cast.instance = 0;
    cast.t = 5;
    cast.triangle = 1;
    cast.barycentric = Vec3<double>(0.25, 0.5, 0.25);
    cast.normal = Vec3<double>(0, 0, -1);
    cast.front = false;
    SceneExpectation miss;
    miss.instance = 1;
    miss.hit = false;
    SceneExpectation pick_named;
    pick_named.picked_instance = 0;
    pick_named.t = 5;
    pick_named.triangle = 0;
    SceneExpectation pick_unnamed;
    pick_unnamed.picked_instance = 1;
    s.expectations = {cast, miss, pick_named, pick_unnamed};
    ASSERT_EQ(validate_scene(s), std::nullopt);

    const std::string text = scene_to_json(s);
    EXPECT_CONTAINS(text, "\"vertices\": [[0.1, -0.0, 1e-07], [3.4e+38, 0.33333334, -2.5], [0, 1, 0]]");
    EXPECT_CONTAINS(text, "\"triangles\": [[0, 1, 2], [2, 1, 0]]");
    EXPECT_CONTAINS(text, "\"picked\": \"first\"");
    EXPECT_CONTAINS(text, "\"picked_instance\": 1");
    EXPECT_FALSE(contains(text, "\"file\""));
    const Scene back = parse_ok(text);
    EXPECT_TRUE(back == s) << text;
    EXPECT_EQ(scene_to_json(back), text);
}

TEST(SceneMeshFile, ModelFileReferenceIsWrittenAsTheSameReference) {
    const fs::path dir = temp_dir("model_reference");
    fs::create_directories(dir / "models");
    ASSERT_EQ(save_model_file((dir / "models" / "quad.glb").string(), quad_model()), std::nullopt);
    write_all(dir / "scene.json", R"({"meshes": [{"name": "q", "file": "models/quad.glb"}],
        "instances": [{"name": "one", "mesh": "q", "scale": [2, 2, 2]}],
        "rays": [{"origin": [0.5, 0.25, 1], "direction": [0, 0, -1]}],
        "expectations": [{"ray": 0, "picked": "one", "t": 1}]})");
    const Scene s = load_ok((dir / "scene.json").string());
    const std::string text = scene_to_json(s);
    EXPECT_CONTAINS(text, "{\"name\": \"q\", \"file\": \"models/quad.glb\"}");
    EXPECT_FALSE(contains(text, "\"vertices\""));
    // Read back from text with the scene's folder, and saved (atomically) next to the original.
    auto again = parse_scene(text, "again.json", dir.string());
    ASSERT_TRUE(std::holds_alternative<Scene>(again)) << std::get<SceneLoadError>(again).what();
    EXPECT_TRUE(std::get<Scene>(again) == s);
    ASSERT_EQ(save_scene_file((dir / "saved.json").string(), s), std::nullopt);
    EXPECT_TRUE(load_ok((dir / "saved.json").string()) == s);
}

TEST(SceneMeshFile, ValidateSceneRefusesWhatTheReaderRefuses) {
    Scene s = parse_ok(with_instances(R"({"name": "i", "mesh": "m"})"));
    ASSERT_EQ(validate_scene(s), std::nullopt);
    Scene two = s;
    two.meshes[0].model.meshes.push_back(two.meshes[0].model.meshes[0]);
    auto e = validate_scene(two);
    ASSERT_TRUE(e);
    EXPECT_EQ(e->pointer, "/meshes/0");
    EXPECT_EQ(e->message, "an inline mesh (no \"file\") is one mesh named as the scene mesh, placed once at identity");
    Scene far = s;
    far.meshes[0].model.meshes[0].triangles[2] = 3;
    e = validate_scene(far);
    ASSERT_TRUE(e);
    EXPECT_EQ(e->pointer, "/meshes/0/triangles/0");
    EXPECT_EQ(e->message, "vertex index 3 is out of range (the mesh has 3 vertices)");
    Scene dangling = s;
    dangling.instances[0].mesh = 1;
    e = validate_scene(dangling);
    ASSERT_TRUE(e);
    EXPECT_EQ(e->pointer, "/instances/0/mesh");
    EXPECT_EQ(e->message, "mesh index 1 is out of range (the file has 1 meshes)");
    Scene flat = s;
    flat.instances[0].scale.y = 0;
    e = validate_scene(flat);
    ASSERT_TRUE(e);
    EXPECT_EQ(e->pointer, "/instances/0/scale");
    EXPECT_FALSE(save_scene_file((temp_dir("refused") / "x.json").string(), flat) == std::nullopt);
}

// ---- errors ----------------------------------------------------------------------------------------

TEST(SceneMeshFileErrors, TriangleIndexOutOfRangeIsPlacedAtItsTriangle) {
    const std::string bad_line =
        R"(   "triangles": [[0, 1, 2], [0, 2, 1], [1, 2, 0], [0, 1, 2], [0, 1, 2], [0, 1, 2], [0, 1, 2], [0, 9, 2]]})";
    const std::string text = std::string("{\"meshes\": [\n") +
                             "  {\"name\": \"a\", " + kTriangle + "},\n" +
                             "  {\"name\": \"b\", " + kTriangle + "},\n" +
                             "  {\"name\": \"c\", \"vertices\": [[0, 0, 0], [1, 0, 0], [0, 1, 0]],\n" + bad_line +
                             "\n]}";
    const auto e = error_of(text);
    EXPECT_EQ(e.pointer, "/meshes/2/triangles/7");
    EXPECT_EQ(e.line, 5);
    EXPECT_EQ(e.column, int(bad_line.find("[0, 9, 2]")) + 1);
    EXPECT_EQ(e.what(), "bad.json: line 5, column " + std::to_string(e.column) +
                            " (/meshes/2/triangles/7): vertex index 9 is out of range (the mesh has 3 vertices)");
}

TEST(SceneMeshFileErrors, InlineMeshValues) {
    auto mesh = [](const std::string& fields) { return error_of(R"({"meshes": [{"name": "m", )" + fields + "}]}"); };
    auto e = mesh(R"("vertices": [[0, 0, 0], [1, 0, 0]], "triangles": [[0, 1]])");
    EXPECT_EQ(e.pointer, "/meshes/0/triangles/0");
    EXPECT_EQ(e.message, "expected a triangle [i, j, k] (3 vertex indices), got an array of 2");
    e = mesh(R"("vertices": [[0, 0, 0], [1, 0, 0], [0, 1, 0]], "triangles": [[0, -1, 2]])");
    EXPECT_EQ(e.pointer, "/meshes/0/triangles/0/1");
    EXPECT_EQ(e.message, "expected a vertex index (an integer >= 0), got the number -1");
    e = mesh(R"("vertices": [[0, 0, 0], [1e39, 0, 0], [0, 1, 0]], "triangles": [[0, 1, 2]])");
    EXPECT_EQ(e.pointer, "/meshes/0/vertices/1");
    EXPECT_CONTAINS(e.message, "within single precision's range");
    e = mesh(R"("vertices": [[0, 0, 0], [1, "nan", 0], [0, 1, 0]], "triangles": [[0, 1, 2]])");
    EXPECT_EQ(e.pointer, "/meshes/0/vertices/1/1");
    EXPECT_CONTAINS(e.message, "NaN and infinity are not allowed here");
    e = mesh(std::string(kTriangle) + R"(, "normals": [[0, 0, 1], [0, 0, 1]])");
    EXPECT_EQ(e.pointer, "/meshes/0/normals");
    EXPECT_EQ(e.message, "expected one normal per vertex (3), got 2");
    e = mesh(R"("vertices": [[0, 0, 0]])");
    EXPECT_EQ(e.pointer, "/meshes/0");
    EXPECT_EQ(e.message, "missing field \"triangles\" (expected an array of triangles [[i, j, k], ...])");
    e = mesh(R"("file": "models/x.obj", "vertices": [])");
    EXPECT_EQ(e.pointer, "/meshes/0/vertices");
    EXPECT_EQ(e.message, "a mesh is either a model \"file\" or inline \"vertices\" and \"triangles\", not both");
    e = mesh(std::string(kTriangle) + R"(, "colour": "red")");
    EXPECT_EQ(e.pointer, "/meshes/0/colour");
    e = error_of(R"({"meshes": [{"name": "m", )" + std::string(kTriangle) + R"(}, {"name": "m", )" + kTriangle + "}]}");
    EXPECT_EQ(e.pointer, "/meshes/1/name");
    EXPECT_EQ(e.message, "duplicate mesh name \"m\" (already used by mesh 0); names must be unique");
}

TEST(SceneMeshFileErrors, Instances) {
    auto e = error_of(with_instances(R"({"name": "i", "mesh": "nope"})"));
    EXPECT_EQ(e.pointer, "/instances/0/mesh");
    EXPECT_EQ(e.message, "no mesh is named \"nope\" (expected the name or index of a mesh)");
    e = error_of(with_instances(R"({"name": "i", "mesh": 1})"));
    EXPECT_EQ(e.pointer, "/instances/0/mesh");
    EXPECT_EQ(e.message, "mesh index 1 is out of range (the file has 1 meshes)");
    e = error_of(with_instances(R"({"name": "i"})"));
    EXPECT_EQ(e.pointer, "/instances/0");
    EXPECT_EQ(e.message, "missing field \"mesh\" (expected the name or index of a mesh)");
    e = error_of(with_instances(R"({"name": "i", "mesh": 0, "translation": [0, "nan", 0]})"));
    EXPECT_EQ(e.pointer, "/instances/0/translation/1");
    EXPECT_CONTAINS(e.message, "NaN and infinity are not allowed here");
    e = error_of(with_instances(R"({"name": "i", "mesh": 0, "scale": [1, 0, -1]})"));
    EXPECT_EQ(e.pointer, "/instances/0/scale");
    EXPECT_EQ(e.message, "every scale component must be non-zero (a negative one mirrors), got (1, 0, -1)");
    e = error_of(with_instances(R"({"name": "i", "mesh": 0, "scale": [1e-30, 1e-30, 1e-30]})"));
    EXPECT_EQ(e.pointer, "/instances/0/scale");
    EXPECT_CONTAINS(e.message, "the instance's transform is unusable in single precision: the linear part must be invertible");
    e = error_of(with_instances(R"({"name": "i", "mesh": 0}, {"name": "i", "mesh": 0})"));
    EXPECT_EQ(e.pointer, "/instances/1/name");
    EXPECT_EQ(e.message, "duplicate instance name \"i\" (already used by instance 0); names must be unique");
    e = error_of(R"({"shapes": [{"name": "x", "type": "sphere", "center": [0, 0, 0], "radius": 1}],
                    "meshes": [{"name": "m", )" + std::string(kTriangle) + R"(}],
                    "instances": [{"name": "x", "mesh": "m"}]})");
    EXPECT_EQ(e.pointer, "/instances/0/name");
    EXPECT_EQ(e.message, "instance name \"x\" is already used by shape 0; shape and instance names must be unique "
                         "(expectations refer to both)");
}

TEST(SceneMeshFileErrors, Expectations) {
    const std::string scene = std::string(R"("shapes": [{"name": "ball", "type": "sphere", "center": [0, 0, 0], "radius": 1}],
        "meshes": [{"name": "m", )") + kTriangle + R"(}], "instances": [{"name": "i", "mesh": "m"}],
        "rays": [{"name": "r", "origin": [0, 0, 5], "direction": [0, 0, -1]}])";
    auto bad = [&](const std::string& ex) { return error_of("{" + scene + ", \"expectations\": [" + ex + "]}"); };
    auto e = bad(R"({"ray": "r", "instance": "i", "t_near": 4})");
    EXPECT_EQ(e.pointer, "/expectations/0");
    EXPECT_EQ(e.message, "an expectation with \"instance\" checks hit, t, triangle, barycentric, normal, front; use a "
                         "separate expectation without \"instance\" for \"picked\"");
    e = bad(R"({"ray": "r", "instance": "i"})");
    EXPECT_EQ(e.message, "the expectation checks nothing: give \"hit\" and/or t, triangle, barycentric, normal, front");
    e = bad(R"({"ray": "r", "instance": "i", "hit": false, "t": 5})");
    EXPECT_EQ(e.pointer, "/expectations/0/hit");
    e = bad(R"({"ray": "r", "shape": "ball", "instance": "i", "hit": true})");
    EXPECT_EQ(e.pointer, "/expectations/0/instance");
    EXPECT_EQ(e.message, "give either \"shape\" or \"instance\" (what the ray is cast against), not both");
    e = bad(R"({"ray": "r", "instance": "ball", "hit": true})");
    EXPECT_EQ(e.pointer, "/expectations/0/instance");
    EXPECT_EQ(e.message, "no instance is named \"ball\" (expected the name or index of an instance)");
    e = bad(R"({"ray": "r", "shape": "ball", "front": true})");
    EXPECT_EQ(e.pointer, "/expectations/0");
    e = bad(R"({"ray": "r", "picked": "ball", "triangle": 0})");
    EXPECT_EQ(e.pointer, "/expectations/0/triangle");
    EXPECT_EQ(e.message, "\"triangle\" is checked only when an instance is expected to be picked");
    e = bad(R"({"ray": "r", "picked": "nobody"})");
    EXPECT_EQ(e.pointer, "/expectations/0/picked");
    EXPECT_EQ(e.message, "no shape or instance is named \"nobody\" (expected the name of a shape or an instance, the "
                         "index of a shape, or null)");
    e = bad(R"({"ray": "r", "picked_instance": 1})");
    EXPECT_EQ(e.pointer, "/expectations/0/picked_instance");
    EXPECT_EQ(e.message, "instance index 1 is out of range (the file has 1 instances)");
    e = bad(R"({"ray": "r", "picked": "ball", "picked_instance": 0})");
    EXPECT_EQ(e.pointer, "/expectations/0/picked_instance");
    e = bad(R"({"ray": "r", "picked": null, "triangle": 0})");
    EXPECT_EQ(e.pointer, "/expectations/0/triangle");
    e = bad(R"({"ray": "r", "instance": "i", "barycentric": [1, 0]})");
    EXPECT_EQ(e.pointer, "/expectations/0/barycentric");
}

TEST(SceneMeshFileErrors, ModelFilesAreRefusedWhenParsingText) {
    auto e = error_of(R"({"meshes": [{"name": "m", "file": "models/icosphere.obj"}]})");
    EXPECT_EQ(e.pointer, "/meshes/0/file");
    EXPECT_EQ(e.line, 1);
    EXPECT_EQ(e.column, 35);
    EXPECT_EQ(e.message, "the scene was parsed from text, so its model files are not read (their folder is unknown); "
                         "load the scene from its file to read \"models/icosphere.obj\"");
    e = error_of(R"({"meshes": [{"name": "m", "file": "models/notes.txt"}]})");
    EXPECT_EQ(e.message, "the model file \"models/notes.txt\" has no model file extension (expected .obj, .gltf or .glb)");
    e = error_of(R"({"meshes": [{"name": "m", "file": ""}]})");
    EXPECT_EQ(e.pointer, "/meshes/0/file");
    EXPECT_EQ(e.message, "expected the path of a model file (.obj, .gltf or .glb), got an empty string");
}

/// A scene file in a fresh folder naming models/`name` (written with `bytes` unless empty); the
/// error of loading it must name the scene file, /meshes/0/file and the model loader's own message.
void expect_model_error(const std::string& test, const std::string& name, const std::string& bytes) {
    const fs::path dir = temp_dir(test);
    fs::create_directories(dir / "models");
    const fs::path model = dir / "models" / name;
    if (!bytes.empty()) write_all(model, bytes);
    const std::string scene = (dir / "scene.json").string();
    write_all(scene, "{\"meshes\": [\n  {\"name\": \"m\", \"file\": \"models/" + name + "\"}\n]}");
    auto direct = load_model(model.string(), scene_model_limits());
    ASSERT_TRUE(std::holds_alternative<ModelLoadError>(direct)) << "the model must fail to load by itself";
    const SceneLoadError e = file_error_of(scene);
    EXPECT_EQ(e.file, scene);
    EXPECT_EQ(e.pointer, "/meshes/0/file");
    EXPECT_EQ(e.line, 2);
    EXPECT_EQ(e.column, 25);
    EXPECT_EQ(e.what(), scene + ": line 2, column 25 (/meshes/0/file): cannot load the model: " +
                            std::get<ModelLoadError>(direct).what());
    EXPECT_CONTAINS(e.what(), model.string());
}

TEST(SceneMeshFileErrors, MissingModelFile) { expect_model_error("missing_model", "missing.obj", ""); }

TEST(SceneMeshFileErrors, TruncatedGlb) {
    const std::string glb = model_to_glb(quad_model());
    expect_model_error("truncated_glb", "quad.glb", glb.substr(0, glb.size() / 2));
}

TEST(SceneMeshFileErrors, MalformedObj) {
    expect_model_error("malformed_obj", "broken.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 7\n");
}
