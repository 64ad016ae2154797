// Helpers for the tests of scene/: parse a scene that must load, failing the test (with the
// loader's message and the text) when it does not.
#pragma once

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

}  // namespace raypick::test
