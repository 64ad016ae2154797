// Helpers for the tests of scene/: parse a scene that must load, failing the test (with the
// loader's message and the text) when it does not, or that must be rejected; temporary folders and
// files.
#pragma once

#include <filesystem>
#include <fstream>
#include <string>
#include <variant>

#include <gtest/gtest.h>

#include <raypick/scene/SceneFile.h>

namespace raypick::test {

/// The scene in `text`; an empty scene, and a test failure, when the loader rejects it.
inline Scene parse_ok(const std::string& text) {
    auto r = parse_scene(text, "text");
    if (auto* e = std::get_if<SceneLoadError>(&r)) {
        ADD_FAILURE() << e->what() << "\n" << text;
        return {};
    }
    return std::get<Scene>(std::move(r));
}

/// The scene file at `path`; an empty scene, and a test failure, when the loader rejects it.
inline Scene load_ok(const std::string& path) {
    auto r = load_scene_file(path);
    if (auto* e = std::get_if<SceneLoadError>(&r)) {
        ADD_FAILURE() << e->what();
        return {};
    }
    return std::get<Scene>(std::move(r));
}

/// The loader's error for `text` (labelled "bad.json"); a test failure when the text loads.
inline SceneLoadError error_of(const std::string& text) {
    auto r = parse_scene(text, "bad.json");
    EXPECT_TRUE(std::holds_alternative<SceneLoadError>(r)) << "expected the file to be rejected:\n" << text;
    if (auto* e = std::get_if<SceneLoadError>(&r)) return *e;
    return {};
}

/// A fresh, empty directory for one test: <build>/tests/scene/tmp/<name>.
inline std::filesystem::path temp_dir(const std::string& name) {
    const std::filesystem::path d = std::filesystem::path(RAYPICK_TEST_TMP) / name;
    std::filesystem::remove_all(d);
    std::filesystem::create_directories(d);
    return d;
}

/// Writes `bytes` to `path` (creating or replacing the file).
inline void write_all(const std::filesystem::path& path, const std::string& bytes) {
    std::ofstream(path, std::ios::binary) << bytes;
}

}  // namespace raypick::test
