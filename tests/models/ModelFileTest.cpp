// Models that must load: OBJ objects, polygons, normals and relative indices; glTF node hierarchies
// (matrix and TRS), every index type, strides, strips and fans, external and embedded buffers;
// the committed sample models.
#include <array>
#include <cmath>

#include <glm/gtc/matrix_transform.hpp>

#include "ModelTestUtil.h"

using namespace raypick;
using namespace raypick::test;

namespace {

/// The mesh's triangle `t` as its three positions.
std::array<glm::vec3, 3> corners(const ModelMesh& m, std::size_t t) {
    return {m.positions[m.triangles[3 * t]], m.positions[m.triangles[3 * t + 1]], m.positions[m.triangles[3 * t + 2]]};
}

}  // namespace

TEST(ModelObj, ObjectsAndGroupsAreMeshesWithPolygonsTriangulated) {
    const fs::path dir = temp_dir("obj_objects");
    const std::string path = write_file(dir / "two.obj",
                                        "# a quad and a pentagon\n"
                                        "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\n"
                                        "o quad\nf 1 2 3 4\n"
                                        "v 0 0 1\nv 1 0 1\nv 2 1 1\nv 1 2 1\nv 0 1 1\n"
                                        "g pentagon\nf 5 6 7 8 9\n");
    const Model m = load_ok(path);
    ASSERT_EQ(m.meshes.size(), 2u);
    ASSERT_EQ(m.instances.size(), 2u);
    EXPECT_EQ(m.meshes[0].name, "quad");
    EXPECT_EQ(m.meshes[0].positions.size(), 4u);  // only the vertices the object uses
    EXPECT_EQ(m.meshes[0].triangles.size(), 2u * 3);
    EXPECT_EQ(m.meshes[1].name, "pentagon");
    EXPECT_EQ(m.meshes[1].positions.size(), 5u);
    EXPECT_EQ(m.meshes[1].triangles.size(), 3u * 3);
    EXPECT_TRUE(m.meshes[0].normals.empty());
    for (std::size_t i = 0; i < 2; ++i) {
        EXPECT_EQ(m.instances[i].mesh, i);
        EXPECT_EQ(m.instances[i].transform, glm::dmat4(1.0));
    }
    // The fan keeps the polygon's winding: every triangle of the quad faces +z.
    for (std::size_t t = 0; t < 2; ++t) {
        const auto c = corners(m.meshes[0], t);
        EXPECT_GT(glm::cross(c[1] - c[0], c[2] - c[0]).z, 0.0f);
    }
}

TEST(ModelObj, AVertexWithSeveralNormalsSplitsAndRelativeIndicesResolve) {
    const fs::path dir = temp_dir("obj_normals");
    // Two triangles sharing the edge 1-2, each with its own face normal; the second face uses
    // negative indices (relative to the vertices and normals defined so far).
    const std::string path = write_file(dir / "fold.obj",
                                        "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 1\n"
                                        "vn 0 0 1\nvn 0.57735 0.57735 -0.57735\n"
                                        "f 1//1 2//1 3//1\n"
                                        "f -3//-1 -1//-1 -2//-1\n");
    const Model m = load_ok(path);
    ASSERT_EQ(m.meshes.size(), 1u);
    const ModelMesh& mesh = m.meshes[0];
    ASSERT_EQ(mesh.normals.size(), mesh.positions.size());
    EXPECT_EQ(mesh.positions.size(), 6u);  // vertices 2 and 3 carry two normals each
    ASSERT_EQ(mesh.triangles.size(), 6u);
    const auto second = corners(mesh, 1);
    EXPECT_EQ(second[0], glm::vec3(1, 0, 0));
    EXPECT_EQ(second[1], glm::vec3(1, 1, 1));
    EXPECT_EQ(second[2], glm::vec3(0, 1, 0));
    for (int k = 0; k < 3; ++k) {
        EXPECT_EQ(mesh.normals[mesh.triangles[k]], glm::vec3(0, 0, 1));
        EXPECT_NEAR(mesh.normals[mesh.triangles[3 + k]].z, -0.57735f, 1e-6f);
    }
}

TEST(ModelObj, AnObjectWithSomeCornersWithoutNormalsHasNone) {
    const fs::path dir = temp_dir("obj_partial_normals");
    const Model m = load_ok(write_file(dir / "p.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nvn 0 0 1\nf 1//1 2 3//1\n"));
    ASSERT_EQ(m.meshes.size(), 1u);
    EXPECT_TRUE(m.meshes[0].normals.empty());
    EXPECT_EQ(m.meshes[0].positions.size(), 3u);
}

TEST(ModelObj, CrLfLineEndsAndTextureIndicesAreRead) {
    const fs::path dir = temp_dir("obj_crlf");
    const Model m = load_ok(write_file(dir / "c.obj", "v 0 0 0\r\nv 1 0 0\r\nv 0 1 0\r\nvt 0 0\r\nf 1/1 2/1 3/1\r\n"));
    ASSERT_EQ(m.meshes.size(), 1u);
    EXPECT_EQ(m.meshes[0].triangles, (std::vector<std::uint32_t>{0, 1, 2}));
}

TEST(ModelGltf, NodeHierarchyComposesMatrixAndTrsTransforms) {
    const fs::path dir = temp_dir("gltf_nodes");
    std::string bin;
    json g = one_triangle(bin);
    // node 0 (matrix: translate by (10, 0, 0)) has child 1 (TRS) which has child 2 (no transform)
    // placing the mesh; node 3 is a root placing the mesh with a scale only.
    g["nodes"] = json::array({
        {{"name", "root"}, {"matrix", {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 10, 0, 0, 1}}, {"children", {1}}},
        {{"name", "arm"}, {"translation", {0, 2, 0}}, {"rotation", {0, 0, 0.7071067811865476, 0.7071067811865476}},
         {"scale", {2, 2, 2}}, {"children", {2}}},
        {{"name", "hand"}, {"mesh", 0}},
        {{"name", "scaled"}, {"mesh", 0}, {"scale", {1, 1, 3}}},
    });
    g["scenes"] = json::array({{{"nodes", {0, 3}}}});
    g["buffers"][0]["uri"] = "tri.bin";
    write_file(dir / "tri.bin", bin);
    const Model m = load_ok(write_file(dir / "nodes.gltf", g.dump()));
    ASSERT_EQ(m.meshes.size(), 1u);
    ASSERT_EQ(m.instances.size(), 2u);
    EXPECT_EQ(m.instances[0].name, "hand");
    EXPECT_EQ(m.instances[1].name, "scaled");
    // hand: translate(10,0,0) * translate(0,2,0) * rotate(90° about z) * scale(2)
    const glm::dmat4 expect = glm::scale(glm::rotate(glm::translate(glm::dmat4(1.0), glm::dvec3(10, 2, 0)),
                                                     M_PI / 2, glm::dvec3(0, 0, 1)),
                                         glm::dvec3(2.0));
    for (int c = 0; c < 4; ++c)
        for (int r = 0; r < 4; ++r) EXPECT_NEAR(m.instances[0].transform[c][r], expect[c][r], 1e-12) << c << "," << r;
    // The point (1, 0, 0) of the mesh lands at (10, 4, 0).
    const glm::dvec4 p = m.instances[0].transform * glm::dvec4(1, 0, 0, 1);
    EXPECT_NEAR(p.x, 10, 1e-12);
    EXPECT_NEAR(p.y, 4, 1e-12);
    EXPECT_EQ(m.instances[1].transform, glm::scale(glm::dmat4(1.0), glm::dvec3(1, 1, 3)));
}

TEST(ModelGltf, EveryIndexTypeAndNonIndexedPrimitivesLoad) {
    const fs::path dir = temp_dir("gltf_index_types");
    std::string bin;
    put(bin, std::vector<float>{0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0});       // 4 positions, 48 bytes
    put(bin, std::vector<std::uint8_t>{0, 1, 2, 2, 1, 3, 0, 0});            // 6 uint8 (+2 padding) at 48
    put(bin, std::vector<std::uint16_t>{0, 1, 2, 2, 1, 3});                 // 6 uint16 at 56
    put(bin, std::vector<std::uint32_t>{0, 1, 2, 2, 1, 3});                 // 6 uint32 at 68
    const json views = json::array({{{"buffer", 0}, {"byteOffset", 0}, {"byteLength", 48}},
                                    {{"buffer", 0}, {"byteOffset", 48}, {"byteLength", 6}},
                                    {{"buffer", 0}, {"byteOffset", 56}, {"byteLength", 12}},
                                    {{"buffer", 0}, {"byteOffset", 68}, {"byteLength", 24}}});
    json accessors = json::array({{{"bufferView", 0}, {"componentType", 5126}, {"count", 4}, {"type", "VEC3"}},
                                  {{"bufferView", 1}, {"componentType", 5121}, {"count", 6}, {"type", "SCALAR"}},
                                  {{"bufferView", 2}, {"componentType", 5123}, {"count", 6}, {"type", "SCALAR"}},
                                  {{"bufferView", 3}, {"componentType", 5125}, {"count", 6}, {"type", "SCALAR"}},
                                  {{"bufferView", 0}, {"componentType", 5126}, {"count", 3}, {"type", "VEC3"}}});
    const json prims = json::array({{{"attributes", {{"POSITION", 0}}}, {"indices", 1}},
                                    {{"attributes", {{"POSITION", 0}}}, {"indices", 2}},
                                    {{"attributes", {{"POSITION", 0}}}, {"indices", 3}},
                                    {{"attributes", {{"POSITION", 4}}}}});
    json g = {{"asset", {{"version", "2.0"}}},
              {"nodes", {{{"mesh", 0}}}},
              {"meshes", {{{"name", "quad"}, {"primitives", prims}}}},
              {"accessors", accessors},
              {"bufferViews", views},
              {"buffers", {{{"byteLength", bin.size()}}}}};
    const Model m = load_ok(write_file(dir / "types.glb", pack_glb(g, bin)));
    ASSERT_EQ(m.meshes.size(), 4u);
    const std::vector<std::uint32_t> quad = {0, 1, 2, 2, 1, 3};
    for (int i = 0; i < 3; ++i) {
        EXPECT_EQ(m.meshes[i].triangles, quad) << "primitive " << i;
        EXPECT_EQ(m.meshes[i].positions.size(), 4u);
        EXPECT_EQ(m.meshes[i].name, "quad/" + std::to_string(i));
    }
    EXPECT_EQ(m.meshes[3].triangles, (std::vector<std::uint32_t>{0, 1, 2}));
    EXPECT_EQ(m.meshes[3].positions.size(), 3u);
    // No scene: the roots are the nodes nobody has as a child; one instance per primitive.
    ASSERT_EQ(m.instances.size(), 4u);
    for (std::uint32_t i = 0; i < 4; ++i) EXPECT_EQ(m.instances[i].mesh, i);
}

TEST(ModelGltf, InterleavedPositionsAndNormalsWithAByteStride) {
    const fs::path dir = temp_dir("gltf_stride");
    std::string bin;
    // position, normal, position, normal, ...: 24 bytes a vertex
    put(bin, std::vector<float>{0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 1, 0, 1, 0, 0, 0, 1});
    json g = {{"asset", {{"version", "2.0"}}},
              {"meshes", {{{"primitives", {{{"attributes", {{"POSITION", 0}, {"NORMAL", 1}}}}}}}}},
              {"accessors",
               {{{"bufferView", 0}, {"componentType", 5126}, {"count", 3}, {"type", "VEC3"}},
                {{"bufferView", 0}, {"byteOffset", 12}, {"componentType", 5126}, {"count", 3}, {"type", "VEC3"}}}},
              {"bufferViews", {{{"buffer", 0}, {"byteLength", 72}, {"byteStride", 24}}}},
              {"buffers", {{{"byteLength", 72}}}}};
    const Model m = load_ok(write_file(dir / "stride.glb", pack_glb(g, bin)));
    ASSERT_EQ(m.meshes.size(), 1u);
    EXPECT_EQ(m.meshes[0].positions, (std::vector<glm::vec3>{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}));
    EXPECT_EQ(m.meshes[0].normals, (std::vector<glm::vec3>(3, glm::vec3(0, 0, 1))));
    // No nodes at all: each mesh placed once as it is.
    ASSERT_EQ(m.instances.size(), 1u);
    EXPECT_EQ(m.instances[0].transform, glm::dmat4(1.0));
}

TEST(ModelGltf, StripsAndFansBecomeTrianglesKeepingTheirWinding) {
    const fs::path dir = temp_dir("gltf_strip_fan");
    std::string bin;
    put(bin, std::vector<float>{0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0, 0, 2, 0});
    json g = {{"asset", {{"version", "2.0"}}},
              {"meshes",
               {{{"primitives",
                  {{{"attributes", {{"POSITION", 0}}}, {"mode", 5}}, {{"attributes", {{"POSITION", 0}}}, {"mode", 6}}}}}}},
              {"accessors", {{{"bufferView", 0}, {"componentType", 5126}, {"count", 5}, {"type", "VEC3"}}}},
              {"bufferViews", {{{"buffer", 0}, {"byteLength", 60}}}},
              {"buffers", {{{"byteLength", 60}}}}};
    const Model m = load_ok(write_file(dir / "sf.glb", pack_glb(g, bin)));
    ASSERT_EQ(m.meshes.size(), 2u);
    EXPECT_EQ(m.meshes[0].triangles, (std::vector<std::uint32_t>{0, 1, 2, 2, 1, 3, 2, 3, 4}));
    EXPECT_EQ(m.meshes[1].triangles, (std::vector<std::uint32_t>{0, 1, 2, 0, 2, 3, 0, 3, 4}));
}

TEST(ModelGltf, SparseAccessorsReplaceElementsOfTheirBaseOrOfZeros) {
    std::string bin;
    json g = one_triangle(bin);
    put(bin, std::vector<std::uint8_t>{2, 0, 0, 0});   // sparse index at 44: element 2
    put(bin, std::vector<float>{0, 5, 0});             // its value at 48
    put(bin, std::vector<std::uint16_t>{1, 2});        // sparse indices of the index accessor at 60
    put(bin, std::vector<std::uint16_t>{2, 1});        // their values at 64: the triangle flips
    g["bufferViews"].push_back({{"buffer", 0}, {"byteOffset", 44}, {"byteLength", 1}});
    g["bufferViews"].push_back({{"buffer", 0}, {"byteOffset", 48}, {"byteLength", 12}});
    g["bufferViews"].push_back({{"buffer", 0}, {"byteOffset", 60}, {"byteLength", 4}});
    g["bufferViews"].push_back({{"buffer", 0}, {"byteOffset", 64}, {"byteLength", 4}});
    g["buffers"][0]["byteLength"] = bin.size();
    g["accessors"][0]["sparse"] = {{"count", 1},
                                   {"indices", {{"bufferView", 2}, {"componentType", 5121}}},
                                   {"values", {{"bufferView", 3}}}};
    g["accessors"][1]["sparse"] = {{"count", 2},
                                   {"indices", {{"bufferView", 4}, {"componentType", 5123}}},
                                   {"values", {{"bufferView", 5}}}};
    const fs::path dir = temp_dir("gltf_sparse");
    Model m = load_ok(write_file(dir / "sparse.glb", pack_glb(g, bin)));
    ASSERT_EQ(m.meshes.size(), 1u);
    EXPECT_EQ(m.meshes[0].positions, (std::vector<glm::vec3>{{0, 0, 0}, {1, 0, 0}, {0, 5, 0}}));
    EXPECT_EQ(m.meshes[0].triangles, (std::vector<std::uint32_t>{0, 2, 1}));
    // Without a base buffer view the elements start as zeros.
    g["accessors"][0].erase("bufferView");
    m = load_ok(write_file(dir / "zeros.glb", pack_glb(g, bin)));
    ASSERT_EQ(m.meshes.size(), 1u);
    EXPECT_EQ(m.meshes[0].positions, (std::vector<glm::vec3>{{0, 0, 0}, {0, 0, 0}, {0, 5, 0}}));
}

TEST(ModelGltf, AGltfWithAnEmbeddedBufferParsesFromMemoryWithoutTouchingFiles) {
    std::string bin;
    json g = one_triangle(bin);
    g["buffers"][0]["uri"] = "data:application/octet-stream;base64,"
                             "AAAAAAAAAAAAAAAAAACAPwAAAAAAAAAAAAAAAAAAgD8AAAAAAAABAAIAAAA=";
    const auto r = parse_model(g.dump(), ModelFormat::Gltf, "memory");
    ASSERT_TRUE(std::holds_alternative<Model>(r)) << std::get<ModelLoadError>(r).what();
    const Model& m = std::get<Model>(r);
    ASSERT_EQ(m.meshes.size(), 1u);
    EXPECT_EQ(m.meshes[0].positions, (std::vector<glm::vec3>{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}));
    EXPECT_EQ(m.meshes[0].triangles, (std::vector<std::uint32_t>{0, 1, 2}));
}

TEST(ModelAssets, TheSampleModelsLoadWithTheirCounts) {
    const std::string dir = RAYPICK_MODELS_DIR;
    const Model ico = load_ok(dir + "/icosphere.obj");
    ASSERT_EQ(ico.meshes.size(), 1u);
    EXPECT_EQ(ico.meshes[0].positions.size(), 642u);
    EXPECT_EQ(ico.meshes[0].triangles.size(), 1280u * 3);
    EXPECT_EQ(ico.meshes[0].normals.size(), 642u);
    for (const glm::vec3& p : ico.meshes[0].positions) EXPECT_NEAR(glm::length(p), 1.0f, 1e-6f);

    const Model torus = load_ok(dir + "/torus.glb");
    ASSERT_EQ(torus.meshes.size(), 1u);
    EXPECT_EQ(torus.meshes[0].triangles.size(), 2304u * 3);
    EXPECT_EQ(torus.meshes[0].normals.size(), torus.meshes[0].positions.size());

    const Model city = load_ok(dir + "/city.gltf");
    ASSERT_EQ(city.meshes.size(), 1u);
    EXPECT_EQ(city.meshes[0].triangles.size(), 12u * 3);
    ASSERT_EQ(city.instances.size(), 64u);
    for (const ModelInstance& b : city.instances) {
        EXPECT_EQ(b.mesh, 0u);
        EXPECT_EQ(b.transform[3][1], 0.0);  // every building stands on the ground
        EXPECT_GE(b.transform[1][1], 1.0);  // and is 1 to 8 tall
        EXPECT_LE(b.transform[1][1], 8.0);
    }

    const Model thin = load_ok(dir + "/thin.obj");
    ASSERT_EQ(thin.meshes.size(), 1u);
    EXPECT_EQ(thin.meshes[0].triangles.size(), 256u * 3);

    const Model terrain = load_ok(dir + "/terrain.glb");
    ASSERT_EQ(terrain.meshes.size(), 1u);
    EXPECT_EQ(terrain.meshes[0].positions.size(), 33u * 33);
}
