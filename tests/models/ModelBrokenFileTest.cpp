// Files that must not load, each with a message naming the file, the place and the reason; and the
// limits, which refuse what a file claims before it is allocated.
#include <limits>

#include "ModelTestUtil.h"

using namespace raypick;
using namespace raypick::test;

namespace {

/// The error of a .glb made of `g` and `bin`, written to a fresh folder as `name`.
ModelLoadError glb_error(const std::string& name, const json& g, const std::string& bin, const ModelLimits& lim = {}) {
    return load_error(write_file(temp_dir(name) / (name + ".glb"), pack_glb(g, bin)), lim);
}

ModelLoadError obj_error(const std::string& name, const std::string& text, const ModelLimits& lim = {}) {
    return load_error(write_file(temp_dir(name) / (name + ".obj"), text), lim);
}

}  // namespace

TEST(ModelBrokenFile, MissingFileAndUnknownExtension) {
    const fs::path dir = temp_dir("missing");
    const ModelLoadError e = load_error((dir / "nothing.obj").string());
    EXPECT_EQ(e.file, (dir / "nothing.obj").string());
    expect_contains(e.what(), {"nothing.obj", "cannot open", "No such file"});
    expect_contains(load_error(write_file(dir / "model.stl", "solid")).what(), {"model.stl", ".obj, .gltf or .glb"});
    expect_contains(load_error(dir.string() + "/").what(), {"unknown model format"});
}

TEST(ModelBrokenFile, TruncatedGlb) {
    std::string bin;
    const std::string whole = pack_glb(one_triangle(bin), bin);
    const fs::path dir = temp_dir("truncated_glb");
    const ModelLoadError e = load_error(write_file(dir / "cut.glb", whole.substr(0, whole.size() - 10)));
    expect_contains(e.what(), {"cut.glb", "truncated .glb", std::to_string(whole.size()).c_str()});
    expect_contains(load_error(write_file(dir / "tiny.glb", "glTF")).what(), {"truncated .glb", "12-byte header"});
    expect_contains(load_error(write_file(dir / "other.glb", "solid cube endsolid")).what(), {"not a .glb file"});
}

TEST(ModelBrokenFile, GlbChunkLengthBeyondTheFile) {
    std::string bin;
    std::string glb = pack_glb(one_triangle(bin), bin);
    const std::uint32_t huge = 0x7ffffff0u;
    std::memcpy(&glb[12], &huge, 4);  // the JSON chunk's length
    const fs::path dir = temp_dir("chunk_length");
    expect_contains(load_error(write_file(dir / "json.glb", glb)).what(),
                    {"JSON chunk claims 2147483632 bytes", "beyond the end of the file"});
    glb = pack_glb(one_triangle(bin), bin);
    const std::uint32_t json_len = [&] { std::uint32_t v; std::memcpy(&v, &glb[12], 4); return v; }();
    std::memcpy(&glb[20 + json_len], &huge, 4);  // the BIN chunk's length
    expect_contains(load_error(write_file(dir / "bin.glb", glb)).what(), {"claims 2147483632 bytes", "beyond the end"});
}

TEST(ModelBrokenFile, BadJsonNamesLineAndColumn) {
    const fs::path dir = temp_dir("bad_json");
    const ModelLoadError e = load_error(write_file(dir / "bad.gltf", "{\n  \"asset\": {\"version\": \"2.0\"},\n  \"nodes\": [,]\n}\n"));
    expect_contains(e.what(), {"bad.gltf", "malformed JSON", "line 3"});
    std::string deep(100, '[');
    deep += std::string(100, ']');
    expect_contains(load_error(write_file(dir / "deep.gltf", deep)).what(), {"nests", "64 deep"});
}

TEST(ModelBrokenFile, ABufferShorterThanItsByteLengthIsNamedInOneShortLine) {
    std::string bin;
    json g = one_triangle(bin);
    g["buffers"][0]["uri"] = "data:application/octet-stream;base64," + std::string(4000, 'A');
    g["buffers"][0]["byteLength"] = 1000000000000;
    const ModelLoadError e = load_error(write_file(temp_dir("short_buffer") / "b.gltf", g.dump()));
    expect_contains(e.what(), {"b.gltf", "malformed glTF", "Failed to decode"});
    EXPECT_LT(e.what().size(), 500u);
}

TEST(ModelBrokenFile, GltfIndexOutOfRange) {
    std::string bin;
    json g = one_triangle(bin);
    bin.clear();
    put(bin, std::vector<float>{0, 0, 0, 1, 0, 0, 0, 1, 0});
    put(bin, std::vector<std::uint16_t>{0, 1, 7, 0});
    const ModelLoadError e = glb_error("index_range", g, bin);
    expect_contains(e.what(), {"accessor 1", "indices of mesh 0, primitive 0", "index 7 at element 2 is out of range",
                               "3 vertices"});
}

TEST(ModelBrokenFile, AccessorCountTooLargeIsRefusedBeforeAllocating) {
    std::string bin;
    json g = one_triangle(bin);
    g["accessors"][0]["count"] = 1000000000;  // 10⁹ positions claimed, 36 bytes present
    expect_contains(glb_error("count_vertices", g, bin).what(),
                    {"accessor 0 (POSITION of mesh 0, primitive 0)", "count 1000000000 exceeds the limit"});
    g = one_triangle(bin);
    g["accessors"][1]["count"] = 3000000000u;  // 10⁹ triangles claimed
    expect_contains(glb_error("count_triangles", g, bin).what(), {"accessor 1", "count 3000000000 exceeds the limit"});
    // More normals than positions, without data (zeros): refused before allocating them.
    g = one_triangle(bin);
    g["meshes"][0]["primitives"][0]["attributes"]["NORMAL"] = 2;
    g["accessors"].push_back({{"componentType", 5126}, {"count", 1000000000}, {"type", "VEC3"}});
    expect_contains(glb_error("count_normals", g, bin).what(),
                    {"accessor 2 (NORMAL", "count 1000000000 exceeds the limit of 3 normals (one per position)"});
    // Within the limits but beyond the buffer view: the view is checked before reading.
    ModelLimits lim;
    g = one_triangle(bin);
    g["accessors"][0]["count"] = 1000;
    expect_contains(glb_error("count_view", g, bin, lim).what(), {"1000 elements", "run past the end of buffer view 0"});
}

TEST(ModelBrokenFile, MissingExternalBin) {
    std::string bin;
    json g = one_triangle(bin);
    g["buffers"][0]["uri"] = "absent.bin";
    const fs::path dir = temp_dir("missing_bin");
    expect_contains(load_error(write_file(dir / "m.gltf", g.dump())).what(),
                    {"m.gltf", "external file", "absent.bin", "No such file"});
    // Parsed from memory without a folder, no file is read at all.
    const auto r = parse_model(g.dump(), ModelFormat::Gltf, "memory");
    ASSERT_TRUE(std::holds_alternative<ModelLoadError>(r));
    expect_contains(std::get<ModelLoadError>(r).what(), {"memory", "not loaded from a file"});
}

TEST(ModelBrokenFile, NonFinitePositions) {
    std::string bin;
    json g = one_triangle(bin);
    const float nan = std::numeric_limits<float>::quiet_NaN();
    std::memcpy(&bin[4 * 4], &nan, 4);  // y of the second position
    expect_contains(glb_error("nan_position", g, bin).what(), {"accessor 0 (POSITION", "element 1 is not finite"});
    expect_contains(obj_error("inf_position", "v 0 0 0\nv 1e999 0 0\nv 0 1 0\nf 1 2 3\n").what(),
                    {"line 2", "vertex 2 is not finite"});
}

TEST(ModelBrokenFile, ObjFaceIndicesOutOfRangeOrZero) {
    expect_contains(obj_error("obj_range", "v 0 0 0\nv 1 0 0\nv 0 1 0\n\nf 1 2 4\n").what(),
                    {"obj_range.obj", "line 5", "vertex index 4 is out of range (the file has 3)"});
    expect_contains(obj_error("obj_relative", "v 0 0 0\nf -1 -2 -3\nv 1 0 0\nv 0 1 0\n").what(),
                    {"line 2", "vertex index -2 is out of range (1 defined before this line)"});
    expect_contains(obj_error("obj_zero", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 0 1 2\n").what(), {"line 4", "indices start at 1"});
    expect_contains(obj_error("obj_normal", "v 0 0 0\nv 1 0 0\nv 0 1 0\nvn 0 0 1\nf 1//1 2//2 3//1\n").what(),
                    {"line 5", "normal index 2 is out of range"});
    expect_contains(obj_error("obj_word", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 two 3\n").what(), {"'two' is not an index"});
    expect_contains(obj_error("obj_short", "v 0 0 0\nv 1 0 0\nf 1 2\n").what(), {"line 3", "at least 3 vertices"});
}

TEST(ModelBrokenFile, ObjClaimingMoreThanTheLimitsStopsAtTheLine) {
    ModelLimits lim;
    lim.max_triangles = 4;
    lim.max_vertices = 5;
    std::string text = "v 0 0 0\nv 1 0 0\nv 0 1 0\n";
    for (int i = 0; i < 5; ++i) text += "f 1 2 3\n";
    expect_contains(obj_error("obj_triangles", text, lim).what(), {"line 8", "more than 4 triangles"});
    expect_contains(obj_error("obj_vertices", "v 0 0 0\nv 0 0 0\nv 0 0 0\nv 0 0 0\nv 0 0 0\nv 0 0 0\n", lim).what(),
                    {"line 6", "more than 5 vertices"});
    // A face claiming 10⁹ triangles' worth is refused at its count, not read: 10⁹ is over the
    // default limit, and one face of more than 255 corners is refused as such.
    std::string wide = "v 0 0 0\nf";
    for (int i = 0; i < 300; ++i) wide += " 1";
    expect_contains(obj_error("obj_wide", wide + "\n").what(), {"line 2", "300 vertices; at most 255"});
}

TEST(ModelBrokenFile, FileLargerThanTheLimit) {
    ModelLimits lim;
    lim.max_file_bytes = 16;
    expect_contains(obj_error("too_big", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n", lim).what(), {"more than the limit of 16 bytes"});
    // The limit covers a .gltf and its external buffers together.
    std::string bin;
    json g = one_triangle(bin);
    g["buffers"][0]["uri"] = "tri.bin";
    const fs::path dir = temp_dir("too_big_bin");
    write_file(dir / "tri.bin", bin);
    const std::string text = g.dump();
    lim.max_file_bytes = text.size() + bin.size() - 1;
    expect_contains(load_error(write_file(dir / "m.gltf", text), lim).what(), {"external file", "tri.bin", "more than the limit"});
    lim.max_file_bytes = text.size() + bin.size();
    EXPECT_EQ(load_ok((dir / "m.gltf").string(), lim).meshes.size(), 1u);
}

TEST(ModelBrokenFile, UnsupportedGltfFeatures) {
    std::string bin;
    json g = one_triangle(bin);
    g["meshes"][0]["primitives"][0]["mode"] = 1;
    expect_contains(glb_error("lines", g, bin).what(), {"mesh 0, primitive 0", "mode 1", "only triangles, strips and fans"});
    g = one_triangle(bin);
    g["extensionsUsed"] = {"KHR_draco_mesh_compression"};
    g["extensionsRequired"] = {"KHR_draco_mesh_compression"};
    expect_contains(glb_error("draco", g, bin).what(), {"requires the extension KHR_draco_mesh_compression"});
    g = one_triangle(bin);
    g["accessors"][0]["componentType"] = 5123;
    expect_contains(glb_error("short_positions", g, bin).what(), {"component type must be FLOAT"});
    g = one_triangle(bin);
    g["accessors"][1]["componentType"] = 5126;
    expect_contains(glb_error("float_indices", g, bin).what(), {"UNSIGNED_BYTE, UNSIGNED_SHORT or UNSIGNED_INT"});
}

TEST(ModelBrokenFile, NodeHierarchyThatIsNotATree) {
    std::string bin;
    json g = one_triangle(bin);
    g["nodes"] = json::array({{{"mesh", 0}, {"children", {1}}}, {{"children", {0}}}});
    expect_contains(glb_error("cycle", g, bin).what(), {"node 0", "reached twice"});
    g["nodes"] = json::array({{{"mesh", 0}, {"matrix", {1, 0, 0, 1, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}}}});
    expect_contains(glb_error("projective", g, bin).what(), {"node 0", "not affine"});
    g["nodes"] = json::array({{{"mesh", 3}}});
    expect_contains(glb_error("no_mesh", g, bin).what(), {"node 0", "mesh 3 does not exist"});
}

TEST(ModelBrokenFile, InstancesBeyondTheLimit) {
    std::string bin;
    json g = one_triangle(bin);
    g["nodes"] = json::array({{{"mesh", 0}}, {{"mesh", 0}}, {{"mesh", 0}}});
    g["scenes"][0]["nodes"] = {0, 1, 2};
    ModelLimits lim;
    lim.max_instances = 2;
    expect_contains(glb_error("instances", g, bin, lim).what(), {"node 2", "more than 2 instances"});
}

TEST(ModelBrokenFile, SparseSubstitutionsOutOfOrderOrOutOfRange) {
    std::string bin;
    json g = one_triangle(bin);
    put(bin, std::vector<std::uint8_t>{2, 1, 0, 0});                  // sparse indices at 44
    put(bin, std::vector<float>{0, 5, 0, 0, 6, 0});                   // sparse values at 48
    g["bufferViews"].push_back({{"buffer", 0}, {"byteOffset", 44}, {"byteLength", 2}});
    g["bufferViews"].push_back({{"buffer", 0}, {"byteOffset", 48}, {"byteLength", 24}});
    g["buffers"][0]["byteLength"] = bin.size();
    g["accessors"][0]["sparse"] = {{"count", 2},
                                   {"indices", {{"bufferView", 2}, {"componentType", 5121}}},
                                   {"values", {{"bufferView", 3}}}};
    expect_contains(glb_error("sparse_order", g, bin).what(),
                    {"accessor 0 (POSITION of mesh 0, primitive 0), sparse", "index 1 at element 1 does not increase"});
    bin[44] = 7;
    expect_contains(glb_error("sparse_range", g, bin).what(), {"index 7 at element 0 is out of range (count 3)"});
    g["accessors"][0]["sparse"]["count"] = 3;
    expect_contains(glb_error("sparse_view", g, bin).what(), {"sparse indices", "3 elements", "run past the end of buffer view 2"});
}
