// The generators' shapes (counts, closedness, outward winding, normals) and the writers' round
// trips: generator -> OBJ / .gltf / .glb -> loader gives the same model; and raypick-models itself.
#include <cmath>
#include <map>

#include <raypick/scene/ModelGenerators.h>

#include "../common/RunProgram.h"
#include "ModelTestUtil.h"

using namespace raypick;
using namespace raypick::test;

namespace {

/// The volume a closed mesh encloses, positive when its triangles wind counter-clockwise seen
/// from outside (the divergence theorem over the triangles' tetrahedra with the origin).
double signed_volume(const ModelMesh& m) {
    double v = 0;
    for (std::size_t i = 0; i < m.triangles.size(); i += 3) {
        const glm::dvec3 a(m.positions[m.triangles[i]]), b(m.positions[m.triangles[i + 1]]), c(m.positions[m.triangles[i + 2]]);
        v += glm::dot(a, glm::cross(b, c)) / 6.0;
    }
    return v;
}

/// True when every edge a -> b of a triangle is matched by exactly one b -> a of another: the
/// mesh is closed and consistently wound.
bool closed(const ModelMesh& m) {
    std::map<std::pair<std::uint32_t, std::uint32_t>, int> edges;
    for (std::size_t i = 0; i < m.triangles.size(); i += 3)
        for (int k = 0; k < 3; ++k) ++edges[{m.triangles[i + k], m.triangles[i + (k + 1) % 3]}];
    for (const auto& [e, n] : edges)
        if (n != 1 || edges.count({e.second, e.first}) == 0 || edges.at({e.second, e.first}) != 1) return false;
    return true;
}

bool valid(const Model& m) {
    const auto err = validate_model(m);
    if (err) ADD_FAILURE() << err->what();
    return !err;
}

/// The model after writing it to `name` in `dir` and loading it again.
Model round_trip(const Model& m, const fs::path& dir, const std::string& name) {
    const std::string path = (dir / name).string();
    if (const auto err = save_model_file(path, m)) {
        ADD_FAILURE() << err->what();
        return {};
    }
    return load_ok(path);
}

void expect_same(const Model& a, const Model& b) {
    ASSERT_EQ(a.meshes.size(), b.meshes.size());
    for (std::size_t i = 0; i < a.meshes.size(); ++i) {
        EXPECT_EQ(a.meshes[i].name, b.meshes[i].name);
        EXPECT_EQ(a.meshes[i].positions, b.meshes[i].positions);
        EXPECT_EQ(a.meshes[i].normals, b.meshes[i].normals);
        EXPECT_EQ(a.meshes[i].triangles, b.meshes[i].triangles);
    }
    ASSERT_EQ(a.instances.size(), b.instances.size());
    for (std::size_t i = 0; i < a.instances.size(); ++i) {
        EXPECT_EQ(a.instances[i].mesh, b.instances[i].mesh);
        EXPECT_EQ(a.instances[i].transform, b.instances[i].transform);
        EXPECT_EQ(a.instances[i].name, b.instances[i].name);
    }
}

/// The instance's mesh in world space: positions transformed, triangles as they are.
std::vector<glm::vec3> world_positions(const Model& m, const ModelInstance& inst) {
    std::vector<glm::vec3> out;
    for (const glm::vec3& p : m.meshes[inst.mesh].positions)
        out.push_back(glm::vec3(inst.transform * glm::dvec4(glm::dvec3(p), 1.0)));
    return out;
}

}  // namespace

TEST(ModelGenerators, IcosphereCountsRadiusWindingAndNormals) {
    for (int level = 0; level <= 3; ++level) {
        const Model m = make_icosphere(level, 2.0);
        ASSERT_TRUE(valid(m));
        const ModelMesh& s = m.meshes[0];
        const std::size_t four = std::size_t(1) << (2 * level);
        EXPECT_EQ(s.triangles.size(), 3 * 20 * four);
        EXPECT_EQ(s.positions.size(), 10 * four + 2);
        EXPECT_TRUE(closed(s));
        for (std::size_t i = 0; i < s.positions.size(); ++i) {
            EXPECT_NEAR(glm::length(s.positions[i]), 2.0f, 1e-5f);
            EXPECT_NEAR(glm::length(s.normals[i]), 1.0f, 1e-6f);
        }
        EXPECT_GT(signed_volume(s), 0.0);
    }
    // Level 5 is within 0.5 % of the sphere's volume.
    EXPECT_NEAR(signed_volume(make_icosphere(5, 1.0).meshes[0]), 4.0 / 3.0 * M_PI, 0.005 * 4.0 / 3.0 * M_PI);
}

TEST(ModelGenerators, TorusIsClosedWithTheTorusVolume) {
    const Model m = make_torus(2.0, 0.5, 96, 48);
    ASSERT_TRUE(valid(m));
    EXPECT_EQ(m.meshes[0].triangles.size(), 3u * 2 * 96 * 48);
    EXPECT_TRUE(closed(m.meshes[0]));
    const double volume = 2 * M_PI * M_PI * 2.0 * 0.5 * 0.5;
    EXPECT_NEAR(signed_volume(m.meshes[0]), volume, 0.01 * volume);
}

TEST(ModelGenerators, TerrainIsAnUpwardHeightFieldWithinItsHeight) {
    const Model m = make_terrain(20, 10.0, 2.0, 7);
    ASSERT_TRUE(valid(m));
    const ModelMesh& t = m.meshes[0];
    EXPECT_EQ(t.positions.size(), 21u * 21);
    EXPECT_EQ(t.triangles.size(), 3u * 2 * 20 * 20);
    for (const glm::vec3& p : t.positions) {
        EXPECT_GE(p.y, 0.0f);
        EXPECT_LE(p.y, 2.0f);
    }
    for (const glm::vec3& n : t.normals) EXPECT_GT(n.y, 0.0f);
    for (std::size_t i = 0; i < t.triangles.size(); i += 3) {  // every triangle faces up
        const glm::vec3 a = t.positions[t.triangles[i]], b = t.positions[t.triangles[i + 1]], c = t.positions[t.triangles[i + 2]];
        EXPECT_GT(glm::cross(b - a, c - a).y, 0.0f);
    }
    // The seed changes the heights; the same seed gives the same model.
    EXPECT_NE(make_terrain(20, 10.0, 2.0, 8).meshes[0].positions, t.positions);
    EXPECT_EQ(make_terrain(20, 10.0, 2.0, 7).meshes[0].positions, t.positions);
}

TEST(ModelGenerators, CityIsOneBoxPlacedOnEveryLotWithoutOverlap) {
    const Model m = make_city(5, 3);
    ASSERT_TRUE(valid(m));
    ASSERT_EQ(m.meshes.size(), 1u);
    EXPECT_EQ(m.meshes[0].triangles.size(), 36u);
    EXPECT_GT(signed_volume(m.meshes[0]), 0.99);  // the unit box, wound outwards
    ASSERT_EQ(m.instances.size(), 25u);
    for (std::size_t i = 0; i < m.instances.size(); ++i) {
        const auto p = world_positions(m, m.instances[i]);
        glm::vec3 lo = p[0], hi = p[0];
        for (const glm::vec3& q : p) lo = glm::min(lo, q), hi = glm::max(hi, q);
        const int bx = int(i % 5), bz = int(i / 5);
        // Inside its own 1.5-unit lot.
        EXPECT_GE(lo.x, (bx - 2.5f) * 1.5f - 1e-5f);
        EXPECT_LE(hi.x, (bx - 2.5f) * 1.5f + 1.5f + 1e-5f);
        EXPECT_GE(lo.z, (bz - 2.5f) * 1.5f - 1e-5f);
        EXPECT_LE(hi.z, (bz - 2.5f) * 1.5f + 1.5f + 1e-5f);
        EXPECT_EQ(lo.y, 0.0f);
    }
}

TEST(ModelGenerators, ThinNeedleIsClosedWithLongThinTriangles) {
    const Model m = make_thin(64, 10.0, 0.01);
    ASSERT_TRUE(valid(m));
    const ModelMesh& t = m.meshes[0];
    EXPECT_EQ(t.triangles.size(), 3u * 4 * 64);
    EXPECT_TRUE(closed(t));
    EXPECT_TRUE(t.normals.empty());
    const double volume = M_PI * 0.01 * 0.01 * 10.0;
    EXPECT_NEAR(signed_volume(t), volume, 0.01 * volume);
    // The side triangles: 10 long, about 2π·0.01/64 ≈ 0.001 wide.
    const glm::vec3 a = t.positions[t.triangles[0]], c = t.positions[t.triangles[2]];
    EXPECT_NEAR(glm::length(c - a), 10.0f, 1e-3f);
}

TEST(ModelRoundTrip, GltfAndGlbGiveBackEveryGeneratedModelExactly) {
    const fs::path dir = temp_dir("round_trip_gltf");
    const std::vector<std::pair<std::string, Model>> models = {
        {"icosphere", make_icosphere(2)}, {"torus", make_torus(1, 0.25, 12, 8)}, {"terrain", make_terrain(6, 4, 1, 2)},
        {"city", make_city(4, 5)}, {"thin", make_thin(16, 5, 0.02)}};
    for (const auto& [name, m] : models) {
        SCOPED_TRACE(name);
        expect_same(m, round_trip(m, dir, name + ".gltf"));
        expect_same(m, round_trip(m, dir, name + ".glb"));
    }
}

TEST(ModelRoundTrip, AMeshWithoutTrianglesOrPositionsRoundTrips) {
    const fs::path dir = temp_dir("round_trip_empty");
    Model m = make_icosphere(0);
    m.meshes.push_back(ModelMesh{"points only", {{1, 2, 3}}, {}, {}});
    m.meshes.push_back(ModelMesh{"nothing", {}, {}, {}});
    m.instances.push_back(ModelInstance{2, glm::dmat4(1.0), "empty"});
    expect_same(m, round_trip(m, dir, "empty.glb"));
    expect_same(m, round_trip(m, dir, "empty.gltf"));
}

/// A model whose meshes are placed nowhere (a glTF scene without nodes) stays so: the written
/// file is not read back as every mesh placed once.
TEST(ModelRoundTrip, MeshesPlacedNowhereStayUnplaced) {
    const fs::path dir = temp_dir("round_trip_unplaced");
    Model m = make_icosphere(1);
    m.instances.clear();
    for (const char* file : {"unplaced.glb", "unplaced.gltf"}) {
        SCOPED_TRACE(file);
        const Model again = round_trip(m, dir, file);
        EXPECT_TRUE(again.instances.empty());
        expect_same(m, again);
    }
}

TEST(ModelRoundTrip, ObjGivesBackEachInstanceInWorldSpace) {
    const fs::path dir = temp_dir("round_trip_obj");
    const Model ico = make_icosphere(2);
    const Model back = round_trip(ico, dir, "ico.obj");
    ASSERT_EQ(back.meshes.size(), 1u);
    // Every vertex is used and has one normal, so the numbering survives; the numbers are the
    // shortest text that reads back, up to the reader's own decimal conversion (a float's rounding).
    ASSERT_EQ(back.meshes[0].positions.size(), ico.meshes[0].positions.size());
    EXPECT_EQ(back.meshes[0].triangles, ico.meshes[0].triangles);
    for (std::size_t i = 0; i < ico.meshes[0].positions.size(); ++i) {
        EXPECT_NEAR(glm::length(back.meshes[0].positions[i] - ico.meshes[0].positions[i]), 0.0f, 2e-7f);
        EXPECT_NEAR(glm::length(back.meshes[0].normals[i] - ico.meshes[0].normals[i]), 0.0f, 2e-7f);
    }
    // A city becomes one object per building, its box moved into place.
    const Model city = make_city(3, 1);
    const Model flat = round_trip(city, dir, "city.obj");
    ASSERT_EQ(flat.meshes.size(), 9u);
    ASSERT_EQ(flat.instances.size(), 9u);
    for (std::size_t i = 0; i < 9; ++i) {
        EXPECT_EQ(flat.instances[i].transform, glm::dmat4(1.0));
        EXPECT_EQ(flat.meshes[i].name, "building_" + std::to_string(i % 3) + "," + std::to_string(i / 3));
        const auto expect = world_positions(city, city.instances[i]);
        ASSERT_EQ(flat.meshes[i].positions.size(), expect.size());
        EXPECT_EQ(flat.meshes[i].triangles, city.meshes[0].triangles);
        for (std::size_t k = 0; k < expect.size(); ++k)
            EXPECT_NEAR(glm::length(flat.meshes[i].positions[k] - expect[k]), 0.0f, 1e-5f);
    }
}

TEST(ModelRoundTrip, SavingRefusesAnInvalidModelAndWritesNothing) {
    const fs::path dir = temp_dir("save_invalid");
    Model m = make_icosphere(0);
    m.meshes[0].triangles.push_back(99);
    m.meshes[0].triangles.push_back(0);
    m.meshes[0].triangles.push_back(1);
    const auto err = save_model_file((dir / "bad.glb").string(), m);
    ASSERT_TRUE(err.has_value());
    expect_contains(err->what(), {"bad.glb", "cannot save", "uses vertex 99, out of range"});
    EXPECT_FALSE(fs::exists(dir / "bad.glb"));
}

namespace {

/// Runs raypick-models with `args` (stdout and stderr together).
ProgramRun tool(const std::string& args) { return run_program(std::string(RAYPICK_MODELS_EXE) + " " + args + " 2>&1"); }

}  // namespace

TEST(ModelsTool, GeneratesConvertsAndDescribesModels) {
    const fs::path dir = temp_dir("tool");
    const std::string glb = (dir / "t.glb").string(), obj = (dir / "t.obj").string();
    ProgramRun r = tool("torus --around 10 --across 6 -o " + glb);
    ASSERT_EQ(r.status, 0) << r.out;
    expect_same(make_torus(1.0, 0.3, 10, 6), load_ok(glb));
    r = tool("convert " + glb + " " + obj);
    ASSERT_EQ(r.status, 0) << r.out;
    r = tool("info " + obj);
    EXPECT_EQ(r.status, 0);
    expect_contains(r.out, {"t.obj: 1 meshes (1 with normals), 1 instances, 60 vertices, 120 triangles"});
}

TEST(ModelsTool, WrongUsageAndUnreadableFilesGiveOneLineErrors) {
    ProgramRun r = tool("--help");
    EXPECT_EQ(r.status, 0);
    expect_contains(r.out, {"usage: raypick-models", "icosphere", "convert"});
    r = tool("icosphere --level 11 -o x.obj");
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.out, "raypick-models: --level must be a whole number from 0 to 10, not '11' (see raypick-models --help)\n");
    r = tool("cube -o x.obj");
    EXPECT_EQ(r.status, 2);
    expect_contains(r.out, {"unknown command 'cube'"});
    r = tool("icosphere");
    EXPECT_EQ(r.status, 2);
    expect_contains(r.out, {"missing -o OUT"});
    const fs::path dir = temp_dir("tool_errors");
    r = tool("info " + (dir / "absent.glb").string());
    EXPECT_EQ(r.status, 1);
    expect_contains(r.out, {"absent.glb: cannot open"});
    r = tool("thin -o " + (dir / "thin.stl").string());
    EXPECT_EQ(r.status, 1);
    expect_contains(r.out, {"thin.stl", "unknown model format"});
}
