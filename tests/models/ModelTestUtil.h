// Helpers for the model tests: files in a temporary folder, loading that must succeed or fail, and
// glTF files assembled from JSON and raw buffer bytes.
#pragma once

#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <variant>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <raypick/scene/Model.h>

namespace raypick::test {

namespace fs = std::filesystem;
using json = nlohmann::json;

/// A fresh, empty folder for one test: <build>/tests/models/tmp/<name>.
inline fs::path temp_dir(const std::string& name) {
    const fs::path dir = fs::path(RAYPICK_TEST_TMP) / name;
    fs::remove_all(dir);
    fs::create_directories(dir);
    return dir;
}

/// Writes `bytes` to `path` and returns the path as a string.
inline std::string write_file(const fs::path& path, const std::string& bytes) {
    std::ofstream(path, std::ios::binary) << bytes;
    return path.string();
}

/// The model at `path`; an empty model, and a test failure with the loader's message, on error.
inline Model load_ok(const std::string& path, const ModelLimits& limits = {}) {
    auto r = load_model(path, limits);
    if (auto* e = std::get_if<ModelLoadError>(&r)) {
        ADD_FAILURE() << e->what();
        return {};
    }
    return std::get<Model>(std::move(r));
}

/// The error loading `path` gives; a test failure when it loads.
inline ModelLoadError load_error(const std::string& path, const ModelLimits& limits = {}) {
    auto r = load_model(path, limits);
    if (auto* e = std::get_if<ModelLoadError>(&r)) return *e;
    ADD_FAILURE() << path << " loaded but should not";
    return {};
}

/// Appends the bytes of trivially copyable values to a buffer.
template <typename T> void put(std::string& buffer, const std::vector<T>& values) {
    buffer.append(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(T));
}

inline void put_u32(std::string& out, std::uint32_t v) {
    char b[4];
    std::memcpy(b, &v, 4);
    out.append(b, 4);
}

/// A .glb of `gltf` (its buffer 0 must have no uri) and `bin`, padded as the format wants.
inline std::string pack_glb(const json& gltf, std::string bin) {
    std::string text = gltf.dump();
    text.append((4 - text.size() % 4) % 4, ' ');
    bin.append((4 - bin.size() % 4) % 4, '\0');
    std::string out = "glTF";
    put_u32(out, 2);
    put_u32(out, std::uint32_t(20 + text.size() + (bin.empty() ? 0 : 8 + bin.size())));
    put_u32(out, std::uint32_t(text.size()));
    put_u32(out, 0x4E4F534Au);
    out += text;
    if (!bin.empty()) {
        put_u32(out, std::uint32_t(bin.size()));
        put_u32(out, 0x004E4942u);
        out += bin;
    }
    return out;
}

/// glTF JSON for one triangle (positions (0,0,0), (1,0,0), (0,1,0)) in buffer 0 (`bin` becomes
/// its 36 bytes of positions and 3 uint16 indices, padded to 44), mesh 0 placed by node 0. Tests
/// edit the JSON to break it.
inline json one_triangle(std::string& bin) {
    bin.clear();
    put(bin, std::vector<float>{0, 0, 0, 1, 0, 0, 0, 1, 0});
    put(bin, std::vector<std::uint16_t>{0, 1, 2, 0});
    return json{
        {"asset", {{"version", "2.0"}}},
        {"scene", 0},
        {"scenes", {{{"nodes", {0}}}}},
        {"nodes", {{{"mesh", 0}, {"name", "tri"}}}},
        {"meshes", {{{"primitives", {{{"attributes", {{"POSITION", 0}}}, {"indices", 1}}}}}}},
        {"accessors",
         {{{"bufferView", 0}, {"componentType", 5126}, {"count", 3}, {"type", "VEC3"}},
          {{"bufferView", 1}, {"componentType", 5123}, {"count", 3}, {"type", "SCALAR"}}}},
        {"bufferViews",
         {{{"buffer", 0}, {"byteOffset", 0}, {"byteLength", 36}}, {{"buffer", 0}, {"byteOffset", 36}, {"byteLength", 6}}}},
        {"buffers", {{{"byteLength", 44}}}},
    };
}

/// Expects `text` to contain every one of `parts`.
inline void expect_contains(const std::string& text, std::initializer_list<const char*> parts) {
    for (const char* p : parts) EXPECT_NE(text.find(p), std::string::npos) << "'" << p << "' not in: " << text;
}

}  // namespace raypick::test
