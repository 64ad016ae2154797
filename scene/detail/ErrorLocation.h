// raypick scene files, internal: where an error is. A value's place in the document as a JSON
// pointer, the failure the reader and the checks throw, and turning that failure into a
// SceneLoadError with the line and column of the value in the file's text.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include <raypick/scene/SceneFile.h>

namespace raypick::scene_detail {

/// JSON pointer tokens ("shapes", "3", "radius").
using Tokens = std::vector<std::string>;

/// Where a value is, as a chain of nodes on the stack: building one costs nothing, the tokens are
/// only materialised when something fails (files can hold 10^5 rays).
struct Path {
    const Path* parent = nullptr;
    const char* ckey = nullptr;
    const std::string* skey = nullptr;
    std::size_t index = 0;
    enum Kind { Root, CKey, SKey, Index } kind = Root;

    Tokens tokens() const;
};

// The result refers to `p` (and a string key): use it within the full expression that made it,
// or while `p` is alive.
inline Path operator/(const Path& p, const char* key) { return Path{&p, key, nullptr, 0, Path::CKey}; }
inline Path operator/(const Path& p, const std::string& key) { return Path{&p, nullptr, &key, 0, Path::SKey}; }
inline Path operator/(const Path& p, std::size_t index) { return Path{&p, nullptr, nullptr, index, Path::Index}; }

/// "/shapes/3/radius" ("~" and "/" in a token escaped as "~0" and "~1").
std::string pointer_of(const Tokens& tokens);

/// What is wrong and where: thrown by the reader and the checks, caught at the public API.
struct Fail {
    Tokens path;
    std::string message;
};

[[noreturn]] void fail(const Path& path, std::string message);

/// The failure in a scene read from `text`: pointer, line and column of the offending value.
SceneLoadError error_in_text(const Fail& f, const std::string& text, const std::string& file_label);

/// The failure in a scene built in code: the pointer the value would have in a saved file.
SceneLoadError error_in_scene(const Fail& f);

/// An error at byte `offset` (0-based) of `text`, e.g. a JSON syntax error the parser reported.
SceneLoadError error_at_offset(const std::string& text, std::size_t offset, std::string message,
                               const std::string& file_label);

/// An error about `token` (e.g. a number beyond double's range), placed where `token` first occurs
/// in `text`; without a place when it does not occur there.
SceneLoadError error_at_token(const std::string& text, const std::string& token, std::string message,
                              const std::string& file_label);

}  // namespace raypick::scene_detail
