// raypick scene files: load, parse, validate and save the JSON scene/case format (scene/FORMAT.md).
#pragma once

#include <optional>
#include <string>
#include <variant>

#include <raypick/scene/Euler.h>  // the "euler_degrees" convention of OBB rotations
#include <raypick/scene/Scene.h>

namespace raypick {

/// Why a scene file could not be loaded: one message naming the file, the place and what was
/// expected.
struct SceneLoadError {
    std::string file;     ///< the path or label given to the loader
    std::string where;    ///< "line 12, column 5 (/shapes/3/radius)"; empty when not about a place
    std::string message;  ///< what is wrong and what was expected
    std::string pointer;  ///< JSON pointer of the offending value ("/shapes/3/radius"), may be empty
    int line = 0;         ///< 1-based line of the offending value or syntax error, 0 if unknown
    int column = 0;       ///< 1-based column (in bytes), 0 if unknown

    /// One readable line: "FILE: WHERE: MESSAGE" (or "FILE: MESSAGE" without a place).
    std::string what() const;
};

/// The limits each model file a scene names is read within (load_model()): ModelLimits' defaults
/// (512 MiB per file, 2^25 vertices, 2^25 triangles, 2^22 placements).
inline ModelLimits scene_model_limits() { return ModelLimits{}; }

/// Reads and parses `path`. Model files its meshes name are read relative to the folder of `path`.
/// On failure (the scene's or a model file's) nothing is partially returned.
std::variant<Scene, SceneLoadError> load_scene_file(const std::string& path);

/// Parses JSON text; `file_label` is used as SceneLoadError::file. Reads no file: a mesh that names
/// a model file ("file") is refused with an error at that key (the text has no folder for it).
std::variant<Scene, SceneLoadError> parse_scene(const std::string& text, const std::string& file_label);

/// Parses JSON text whose meshes' model files are read relative to `model_dir` (empty: the working
/// directory), each within scene_model_limits(); a model file that cannot be read or is invalid
/// fails the scene, with the model loader's one-line message at the mesh's "file".
std::variant<Scene, SceneLoadError> parse_scene(const std::string& text, const std::string& file_label,
                                                const std::string& model_dir);

/// Checks a scene built in code (e.g. edited in the demo) with the same rules as the loader: valid
/// shapes, meshes, instances and rays, unique non-empty names, expectations referring to existing
/// rays, shapes and instances.
/// The error's `pointer` is the JSON path the value would have in a saved file; file/line are empty.
std::optional<SceneLoadError> validate_scene(const Scene& scene);

/// The scene as JSON text in the documented format; numbers round-trip exactly. A mesh read from a
/// model file is written as its "file" reference, unchanged (the model is not written); an inline
/// mesh is written inline. Expects a scene that passes validate_scene() (non-finite values other
/// than t_min/t_max cannot be written).
std::string scene_to_json(const Scene& scene);

/// Writes the scene atomically: to a temporary file in the same directory, flushed to disk, then
/// renamed over `path`, so `path` is either the old file or the complete new one. Returns an error
/// message, or nullopt on success. Refuses (and writes nothing) when validate_scene() fails.
std::optional<std::string> save_scene_file(const std::string& path, const Scene& scene);

}  // namespace raypick
