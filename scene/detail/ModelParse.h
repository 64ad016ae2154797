// raypick models, internal: the format parsers behind load_model() and parse_model().
#pragma once

#include <string>
#include <string_view>
#include <variant>

#include <raypick/scene/Model.h>

namespace raypick::model_detail {

/// Everything a parser needs besides the bytes: the label for errors, the limits, and the directory
/// external files are read from (empty: external files are refused).
struct ParseContext {
    std::string file;
    ModelLimits limits;
    std::string base_dir;
};

/// An error of `ctx`'s file at `where`.
inline ModelLoadError model_error(const ParseContext& ctx, std::string where, std::string message) {
    return ModelLoadError{ctx.file, std::move(where), std::move(message)};
}

/// OBJ text to a model: each object or group a mesh with one identity instance.
std::variant<Model, ModelLoadError> parse_obj(std::string_view text, const ParseContext& ctx);

/// glTF 2.0 (.gltf JSON when `binary` is false, .glb otherwise) to a model: each triangle primitive
/// a mesh, each node that holds a mesh an instance per primitive.
std::variant<Model, ModelLoadError> parse_gltf(std::string_view bytes, bool binary, const ParseContext& ctx);

/// Reads a whole file of at most `max_bytes` bytes into `out`, checking the size before reading.
/// Returns an error message ("cannot open: No such file or directory", "is 600 MiB, more than the
/// limit of 512 MiB"), or an empty string on success.
std::string read_file_limited(const std::string& path, std::uint64_t max_bytes, std::string& out);

/// A byte count for messages: "812 bytes", "3.2 MiB".
std::string byte_count(std::uint64_t n);

}  // namespace raypick::model_detail
