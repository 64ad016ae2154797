// Loader errors: every kind of bad file gives one message naming the file, the place (line and
// column, and the JSON path of the offending value) and what was expected.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <variant>

#include <raypick/scene/SceneFile.h>

#include "SceneTestUtil.h"

using namespace raypick;
using raypick::test::error_of;

namespace {

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

#define EXPECT_CONTAINS(s, part) EXPECT_TRUE(contains((s), (part))) << "in: " << (s) << "\nmissing: " << (part)

const char* kSphere = R"("type": "sphere", "center": [0, 0, 0], "radius": 1)";

}  // namespace

TEST(SceneFileErrors, SyntaxErrorGivesLineAndColumn) {
    const std::string text =
        "{\n"
        "  \"shapes\": [\n"
        "    {\"type\": \"sphere\", \"center\": [0, 0, 0], \"radius\": 1},\n"
        "  ]\n"
        "}\n";
    const auto e = error_of(text);
    EXPECT_EQ(e.file, "bad.json");
    EXPECT_EQ(e.line, 4);
    EXPECT_EQ(e.column, 3);  // the ']' after the trailing comma
    EXPECT_CONTAINS(e.what(), "bad.json: line 4, column 3: invalid JSON");
    EXPECT_CONTAINS(e.message, "unexpected ']'");
}

TEST(SceneFileErrors, SyntaxErrorMissingColon) {
    const auto e = error_of("{\"shapes\" []}");
    EXPECT_EQ(e.line, 1);
    EXPECT_EQ(e.column, 11);
    EXPECT_CONTAINS(e.message, "expected ':'");
}

TEST(SceneFileErrors, EmptyFileAndTruncatedFile) {
    EXPECT_CONTAINS(error_of("").what(), "bad.json: line 1, column 1: invalid JSON");
    const auto e = error_of("{\n  \"shapes\": [\n");
    EXPECT_EQ(e.line, 3);
    EXPECT_CONTAINS(e.message, "end of input");
}

TEST(SceneFileErrors, NumberOutOfRange) {
    const auto e = error_of("{\"shapes\": [{\"type\": \"sphere\", \"center\": [0, 0, 0],\n \"radius\": 1e400}]}");
    EXPECT_EQ(e.line, 2);
    EXPECT_EQ(e.column, 12);
    EXPECT_CONTAINS(e.message, "1e400");
}

TEST(SceneFileErrors, WrongTypeNamesPathAndPosition) {
    const std::string text =
        "{\n"
        "  \"shapes\": [\n"
        "    {\"name\": \"a\", \"type\": \"sphere\", \"center\": [0, 0, 0], \"radius\": 1},\n"
        "    {\"name\": \"b\", \"type\": \"sphere\", \"center\": [0, 0, 0], \"radius\": \"big\"}\n"
        "  ]\n"
        "}\n";
    const auto e = error_of(text);
    EXPECT_EQ(e.pointer, "/shapes/1/radius");
    EXPECT_EQ(e.line, 4);
    EXPECT_EQ(e.column, 68);
    EXPECT_EQ(e.what(), "bad.json: line 4, column 68 (/shapes/1/radius): expected a number >= 0, got the string \"big\"");
}

TEST(SceneFileErrors, WrongTypeOfContainers) {
    EXPECT_EQ(error_of("[]").pointer, "");
    EXPECT_CONTAINS(error_of("[]").what(), "(document root): expected a scene (a JSON object {...}), got an array");
    EXPECT_EQ(error_of(R"({"shapes": {}})").pointer, "/shapes");
    EXPECT_EQ(error_of(R"({"shapes": [3]})").pointer, "/shapes/0");
    EXPECT_EQ(error_of(R"({"rays": [{"origin": [0, 0], "direction": [1, 0, 0]}]})").pointer, "/rays/0/origin");
    const auto e = error_of(R"({"rays": [{"origin": [0, 0, true], "direction": [1, 0, 0]}]})");
    EXPECT_EQ(e.pointer, "/rays/0/origin/2");
    EXPECT_CONTAINS(e.message, "expected a finite number, got true");
    EXPECT_EQ(error_of(R"({"shapes": [{"name": 7, "type": "sphere", "center": [0, 0, 0], "radius": 1}]})").pointer,
              "/shapes/0/name");
}

TEST(SceneFileErrors, MissingField) {
    const auto e = error_of("{\"shapes\": [\n  {\"type\": \"capsule\", \"a\": [0, 0, 0], \"radius\": 1}\n]}");
    EXPECT_EQ(e.pointer, "/shapes/0");
    EXPECT_EQ(e.line, 2);
    EXPECT_EQ(e.column, 3);
    EXPECT_CONTAINS(e.message, "missing field \"b\"");
    EXPECT_CONTAINS(e.message, "[x, y, z]");
    EXPECT_CONTAINS(error_of(R"({"shapes": [{"center": [0, 0, 0], "radius": 1}]})").message, "missing field \"type\"");
    EXPECT_CONTAINS(error_of(R"({"rays": [{"origin": [0, 0, 0]}]})").message, "missing field \"direction\"");
}

TEST(SceneFileErrors, UnknownShapeType) {
    const auto e = error_of("{\"shapes\": [\n  {\"type\": \"cube\", \"min\": [0, 0, 0], \"max\": [1, 1, 1]}\n]}");
    EXPECT_EQ(e.pointer, "/shapes/0/type");
    EXPECT_EQ(e.line, 2);
    EXPECT_EQ(e.column, 12);
    EXPECT_CONTAINS(e.message, "unknown shape type \"cube\"");
    EXPECT_CONTAINS(e.message, "\"sphere\", \"aabb\", \"obb\", \"capsule\" or \"triangle\"");
}

TEST(SceneFileErrors, UnknownFieldIsReported) {
    const auto e = error_of(R"({"shapes": [{"type": "sphere", "center": [0, 0, 0], "radus": 1}]})");
    // "radius" is missing too; the unknown key is reported first because it explains the problem.
    EXPECT_EQ(e.pointer, "/shapes/0/radus");
    EXPECT_CONTAINS(e.message, "unknown field \"radus\" in a sphere");
    EXPECT_EQ(error_of(R"({"shape": []})").pointer, "/shape");
}

TEST(SceneFileErrors, NegativeRadius) {
    const auto e = error_of("{\"shapes\": [{\"type\": \"sphere\", \"center\": [0, 0, 0],\n   \"radius\": -1}]}");
    EXPECT_EQ(e.pointer, "/shapes/0/radius");
    EXPECT_EQ(e.line, 2);
    EXPECT_EQ(e.column, 14);
    // the core's own validate() message
    EXPECT_CONTAINS(e.message, "radius must be finite and >= 0, got -1");
    EXPECT_EQ(error_of(R"({"shapes": [{"type": "capsule", "a": [0, 0, 0], "b": [0, 1, 0], "radius": -0.5}]})").pointer,
              "/shapes/0/radius");
    EXPECT_EQ(error_of(R"({"shapes": [{"type": "obb", "center": [0, 0, 0], "half_extents": [1, -1, 1]}]})").pointer,
              "/shapes/0/half_extents");
}

TEST(SceneFileErrors, NaNAndInfinityStrings) {
    for (const char* s : {"\"nan\"", "\"NaN\"", "\"inf\"", "\"-Infinity\""}) {
        const auto e = error_of(std::string(R"({"shapes": [{"type": "sphere", "center": [0, 0, 0], "radius": )") + s + "}]}");
        EXPECT_EQ(e.pointer, "/shapes/0/radius") << s;
        EXPECT_CONTAINS(e.message, "NaN and infinity are not allowed");
    }
    const auto e = error_of(R"({"rays": [{"origin": [0, "nan", 0], "direction": [1, 0, 0]}]})");
    EXPECT_EQ(e.pointer, "/rays/0/origin/1");
    // t_max accepts "inf" but not "nan"
    const auto t = error_of(R"({"rays": [{"origin": [0, 0, 0], "direction": [1, 0, 0], "t_max": "nan"}]})");
    EXPECT_EQ(t.pointer, "/rays/0/t_max");
    EXPECT_CONTAINS(t.message, "NaN is not allowed");
}

// A triangle's vertices are read by their role (points): a bad one is located at its field, with
// the line it is on.
TEST(SceneFileErrors, TriangleVertexErrorsAreLocated) {
    const std::string text =
        "{\"shapes\": [\n"
        "  {\"type\": \"sphere\", \"center\": [0, 0, 0], \"radius\": 1},\n"
        "  {\"type\": \"triangle\",\n"
        "   \"a\": [0, \"nan\", 0], \"b\": [1, 0, 0], \"c\": [0, 1, 0]}\n"
        "]}";
    const auto e = error_of(text);
    EXPECT_EQ(e.pointer, "/shapes/1/a/1");
    EXPECT_EQ(e.line, 4);
    EXPECT_CONTAINS(e.message, "NaN and infinity are not allowed");
    const auto big = error_of("{\"shapes\": [{\"type\": \"triangle\", \"a\": [0, 0, 0],\n \"b\": [1e999, 0, 0], \"c\": [0, 1, 0]}]}");
    EXPECT_EQ(big.line, 2);
    EXPECT_CONTAINS(big.message, "1e999");
    const auto missing = error_of("{\"shapes\": [\n  {\"type\": \"triangle\", \"a\": [0, 0, 0], \"b\": [1, 0, 0]}\n]}");
    EXPECT_EQ(missing.pointer, "/shapes/0");
    EXPECT_EQ(missing.line, 2);
    EXPECT_CONTAINS(missing.message, "missing field \"c\"");
    EXPECT_EQ(error_of(R"({"shapes": [{"type": "triangle", "a": [0, 0], "b": [1, 0, 0], "c": [0, 1, 0]}]})").pointer,
              "/shapes/0/a");
}

// The core's validate() names the vertex of a triangle built in code; the scene check locates it.
TEST(SceneFileErrors, NonFiniteTriangleVertexBuiltInCodeIsLocated) {
    Scene s;
    s.shapes.push_back({"ok", Sphere<double>{{0, 0, 0}, 1}, ""});
    s.shapes.push_back({"bad", Triangle<double>{{0, 0, 0}, {1, 0, 0}, {0, std::nan(""), 0}}, ""});
    const auto e = validate_scene(s);
    ASSERT_TRUE(e);
    EXPECT_EQ(e->pointer, "/shapes/1/c");
    EXPECT_CONTAINS(e->message, "vertex c must be finite");
}

TEST(SceneFileErrors, AabbMinAboveMax) {
    const auto e = error_of(R"({"shapes": [{"type": "aabb", "min": [0, 2, 0], "max": [1, 1, 1]}]})");
    EXPECT_EQ(e.pointer, "/shapes/0/min");
    EXPECT_CONTAINS(e.message, "min must be <= max");
}

TEST(SceneFileErrors, NonOrthonormalObbAxes) {
    const std::string text =
        "{\"shapes\": [\n"
        "  {\"type\": \"obb\", \"center\": [0, 0, 0],\n"
        "   \"axes\": [[1, 0, 0], [0, 1, 0], [0, 1, 1]], \"half_extents\": [1, 1, 1]}\n"
        "]}";
    const auto e = error_of(text);
    EXPECT_EQ(e.pointer, "/shapes/0/axes");
    EXPECT_EQ(e.line, 3);
    EXPECT_EQ(e.column, 12);
    EXPECT_CONTAINS(e.message, "orthonormal");
    // not unit length
    EXPECT_CONTAINS(error_of(R"({"shapes": [{"type": "obb", "center": [0, 0, 0], "axes": [[2, 0, 0], [0, 1, 0], [0, 0, 1]], "half_extents": [1, 1, 1]}]})")
                        .message,
                    "orthonormal");
    // left-handed (a reflection)
    const auto l = error_of(
        R"({"shapes": [{"type": "obb", "center": [0, 0, 0], "axes": [[1, 0, 0], [0, 1, 0], [0, 0, -1]], "half_extents": [1, 1, 1]}]})");
    EXPECT_EQ(l.pointer, "/shapes/0/axes");
    EXPECT_CONTAINS(l.message, "determinant");
    // wrong shape of the axes array
    EXPECT_EQ(error_of(R"({"shapes": [{"type": "obb", "center": [0, 0, 0], "axes": [[1, 0, 0], [0, 1, 0]], "half_extents": [1, 1, 1]}]})")
                  .pointer,
              "/shapes/0/axes");
    EXPECT_EQ(error_of(R"({"shapes": [{"type": "obb", "center": [0, 0, 0], "axes": [[1, 0, 0], [0, 1, 0], [0, 0]], "half_extents": [1, 1, 1]}]})")
                  .pointer,
              "/shapes/0/axes/2");
    // both orientations given
    EXPECT_EQ(error_of(R"({"shapes": [{"type": "obb", "center": [0, 0, 0], "axes": [[1, 0, 0], [0, 1, 0], [0, 0, 1]], "euler_degrees": [0, 0, 0], "half_extents": [1, 1, 1]}]})")
                  .pointer,
              "/shapes/0/euler_degrees");
}

TEST(SceneFileErrors, ZeroDirection) {
    const std::string text =
        "{\"rays\": [\n"
        "  {\"name\": \"ok\", \"origin\": [0, 0, 0], \"direction\": [0, 0, 1]},\n"
        "  {\"name\": \"bad\", \"origin\": [0, 0, 0], \"direction\": [0, 0, 0]}\n"
        "]}";
    const auto e = error_of(text);
    EXPECT_EQ(e.pointer, "/rays/1/direction");
    EXPECT_EQ(e.line, 3);
    EXPECT_EQ(e.column, 53);
    EXPECT_CONTAINS(e.message, "direction must be non-zero");
    // underflowing squared length counts as zero (the core's rule)
    EXPECT_EQ(error_of(R"({"rays": [{"origin": [0, 0, 0], "direction": [1e-200, 0, 0]}]})").pointer, "/rays/0/direction");
}

TEST(SceneFileErrors, RayRange) {
    const auto e = error_of(R"({"rays": [{"origin": [0, 0, 0], "direction": [1, 0, 0], "t_min": 2, "t_max": 1}]})");
    EXPECT_EQ(e.pointer, "/rays/0/t_max");
    EXPECT_CONTAINS(e.message, "t_max must be >= t_min");
    EXPECT_EQ(error_of(R"({"rays": [{"origin": [0, 0, 0], "direction": [1, 0, 0], "t_min": "soon"}]})").pointer,
              "/rays/0/t_min");
}

TEST(SceneFileErrors, DuplicateNames) {
    const std::string text = std::string("{\"shapes\": [\n  {\"name\": \"x\", ") + kSphere + "},\n  {\"name\": \"x\", " +
                             kSphere + "}\n]}";
    const auto e = error_of(text);
    EXPECT_EQ(e.pointer, "/shapes/1/name");
    EXPECT_EQ(e.line, 3);
    EXPECT_EQ(e.column, 12);
    EXPECT_CONTAINS(e.message, "duplicate shape name \"x\" (already used by shape 0)");
    const auto r = error_of(
        R"({"rays": [{"name": "r", "origin": [0, 0, 0], "direction": [1, 0, 0]}, {"name": "r", "origin": [0, 0, 0], "direction": [1, 0, 0]}]})");
    EXPECT_EQ(r.pointer, "/rays/1/name");
    // a shape and a ray may share a name; unnamed items never clash
    auto ok = parse_scene(std::string(R"({"shapes": [{"name": "r", )") + kSphere + "}, {" + kSphere + "}, {" + kSphere +
                              R"(}], "rays": [{"name": "r", "origin": [0, 0, 0], "direction": [1, 0, 0]}]})",
                          "ok.json");
    EXPECT_TRUE(std::holds_alternative<Scene>(ok));
}

TEST(SceneFileErrors, BadCamera) {
    EXPECT_EQ(error_of(R"({"camera": {"eye": [1, 1, 1], "target": [1, 1, 1]}})").pointer, "/camera/target");
    EXPECT_EQ(error_of(R"({"camera": {"fov_y_degrees": 180}})").pointer, "/camera/fov_y_degrees");
    EXPECT_EQ(error_of(R"({"tolerance": -1})").pointer, "/tolerance");
}

TEST(SceneFileErrors, BadExpectations) {
    const std::string scene = std::string(R"("shapes": [{"name": "ball", )") + kSphere +
                              R"(}], "rays": [{"name": "r", "origin": [0, 0, -5], "direction": [0, 0, 1]}])";
    auto bad = [&](const std::string& ex) { return error_of("{" + scene + ", \"expectations\": [" + ex + "]}"); };
    EXPECT_EQ(bad(R"({"ray": "nope", "shape": "ball", "hit": true})").pointer, "/expectations/0/ray");
    EXPECT_CONTAINS(bad(R"({"ray": "nope", "shape": "ball", "hit": true})").message, "no ray is named \"nope\"");
    EXPECT_EQ(bad(R"({"ray": "r", "shape": 3, "hit": true})").pointer, "/expectations/0/shape");
    EXPECT_EQ(bad(R"({"ray": "r", "shape": -1, "hit": true})").pointer, "/expectations/0/shape");
    EXPECT_EQ(bad(R"({"ray": "r", "shape": "ball"})").pointer, "/expectations/0");
    EXPECT_CONTAINS(bad(R"({"ray": "r", "shape": "ball"})").message, "checks nothing");
    EXPECT_EQ(bad(R"({"ray": "r", "shape": "ball", "hit": false, "t_near": 4})").pointer, "/expectations/0/hit");
    EXPECT_EQ(bad(R"({"ray": "r", "shape": "ball", "hit": "yes"})").pointer, "/expectations/0/hit");
    EXPECT_EQ(bad(R"({"ray": "r", "shape": "ball", "n_near": [0, 0]})").pointer, "/expectations/0/n_near");
    EXPECT_EQ(bad(R"({"ray": "r", "shape": "ball", "t": 4})").pointer, "/expectations/0");
    EXPECT_EQ(bad(R"({"ray": "r", "hit": true})").pointer, "/expectations/0");
    EXPECT_EQ(bad(R"({"ray": "r", "picked": null, "t": 4})").pointer, "/expectations/0/t");
    EXPECT_EQ(bad(R"({"ray": "r", "picked": "ball", "tolerance": -1})").pointer, "/expectations/0/tolerance");
    EXPECT_EQ(bad(R"({"shape": "ball", "hit": true})").pointer, "/expectations/0");
    EXPECT_EQ(bad(R"({"ray": "r", "shape": "ball", "hit": true, "colour": "red"})").pointer, "/expectations/0/colour");
}

TEST(SceneFileErrors, PositionOfLastDuplicateKey) {
    // nlohmann keeps the last of duplicate keys, so the message must point at that one.
    const std::string text = "{\"shapes\": [{\"type\": \"sphere\", \"center\": [0, 0, 0], \"radius\": 1,\n"
                             "\"radius\": -2}]}";
    const auto e = error_of(text);
    EXPECT_EQ(e.line, 2);
    EXPECT_EQ(e.column, 11);
}

TEST(SceneFileErrors, StringsWithEscapesDoNotConfuseTheLocator) {
    const std::string text = "{\"description\": \"a \\\"quoted\\\" [tricky] {text}, with \\\\ and \\u00e9\",\n"
                             " \"shapes\": [{\"name\": \"}]\", \"type\": \"sphere\", \"center\": [0, 0, 0], \"radius\": -1}]}";
    const auto e = error_of(text);
    EXPECT_EQ(e.pointer, "/shapes/0/radius");
    EXPECT_EQ(e.line, 2);
    EXPECT_EQ(e.column, 77);
}

TEST(SceneFileErrors, MissingFileNamesTheFile) {
    auto r = load_scene_file("/nonexistent/dir/scene.json");
    ASSERT_TRUE(std::holds_alternative<SceneLoadError>(r));
    const auto& e = std::get<SceneLoadError>(r);
    EXPECT_EQ(e.what(), "/nonexistent/dir/scene.json: cannot open the file: No such file or directory");
}

TEST(SceneFileErrors, ADirectoryIsAnErrorNotACrash) {
    auto r = load_scene_file(RAYPICK_ASSETS_DIR);
    ASSERT_TRUE(std::holds_alternative<SceneLoadError>(r));
    const auto& e = std::get<SceneLoadError>(r);
    EXPECT_CONTAINS(e.what(), "directory");
}

TEST(SceneFileErrors, ValidateSceneBuiltInCode) {
    Scene s;
    s.shapes.push_back({"ball", Sphere<double>{{0, 0, 0}, -1.0}, ""});
    auto e = validate_scene(s);
    ASSERT_TRUE(e);
    EXPECT_EQ(e->pointer, "/shapes/0/radius");
    s.shapes[0].shape = Sphere<double>{{0, 0, 0}, 1.0};
    EXPECT_FALSE(validate_scene(s));
    SceneExpectation x;
    x.ray = 0;
    x.shape = 0;
    x.hit = true;
    s.expectations.push_back(x);
    e = validate_scene(s);
    ASSERT_TRUE(e);
    EXPECT_EQ(e->pointer, "/expectations/0/ray");
}

TEST(SceneFileErrors, LongMultibyteStringInAMessage) {
    // the message quotes the first 37 bytes of the string; cutting a UTF-8 sequence must not throw
    std::string v;
    for (int i = 0; i < 30; ++i) v += "\xc3\xa9";  // 60 bytes of e-acute
    const auto e = error_of(R"({"shapes": [{"type": "sphere", "center": [0, 0, 0], "radius": ")" + v + "\"}]}");
    EXPECT_EQ(e.pointer, "/shapes/0/radius");
    EXPECT_CONTAINS(e.message, "got the string");
}

TEST(SceneFileErrors, InvalidUtf8IsASyntaxError) {
    const auto e = error_of("{\"description\": \"\xff\"}");
    EXPECT_EQ(e.line, 1);
    EXPECT_CONTAINS(e.message, "invalid JSON");
}
