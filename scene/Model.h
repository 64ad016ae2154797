// raypick models: triangle meshes and their instances read from OBJ and glTF 2.0 files (.gltf,
// .glb), and written back as OBJ, .gltf (embedded buffer) or .glb. Independent of the core's mesh
// type: a Model is plain arrays that any mesh structure can be built from.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include <glm/mat4x4.hpp>
#include <glm/vec3.hpp>

namespace raypick {

/// One triangle mesh: positions, optionally one normal per position, and triangles as index
/// triples into the positions.
struct ModelMesh {
    std::string name;
    std::vector<glm::vec3> positions;
    std::vector<glm::vec3> normals;  ///< empty, or exactly one per position
    std::vector<std::uint32_t> triangles;  ///< 3 indices per triangle, each < positions.size()
};

/// One placement of a mesh in the model.
struct ModelInstance {
    std::uint32_t mesh = 0;        ///< index into Model::meshes
    glm::dmat4 transform{1.0};     ///< affine, column-major (transform[3] is the translation)
    std::string name;
};

/// Meshes and where they are placed. A mesh may be placed several times or not at all.
struct Model {
    std::vector<ModelMesh> meshes;
    std::vector<ModelInstance> instances;
};

/// What a loader accepts at most. A file that claims more (vertex or face lines, accessor counts,
/// chunk or buffer lengths) is refused before its data is allocated.
struct ModelLimits {
    std::uint64_t max_file_bytes = 512ull << 20;  ///< each file read, and all of them together (512 MiB)
    std::uint64_t max_vertices = 1u << 25;        ///< positions over all meshes (33.5 million)
    std::uint64_t max_triangles = 1u << 25;       ///< triangles over all meshes (33.5 million)
    std::uint64_t max_instances = 1u << 22;       ///< instances (4.2 million)
    std::uint64_t max_json_values = 1u << 22;     ///< values in a glTF's JSON (4.2 million)
    std::uint32_t max_json_depth = 64;            ///< nesting of arrays and objects in a glTF's JSON
};

/// Why a model could not be loaded or saved.
struct ModelLoadError {
    std::string file;     ///< the path or label given to the loader
    std::string where;    ///< "line 12", "object 'wheel', face 7", "node 3", "accessor 2"; may be empty
    std::string message;  ///< what is wrong and what was expected

    /// One readable line: "FILE: WHERE: MESSAGE" (or "FILE: MESSAGE" without a place).
    std::string what() const;
};

enum class ModelFormat { Obj, Gltf, Glb };

/// The format a path's extension names (.obj, .gltf, .glb, any letter case), or nullopt.
std::optional<ModelFormat> model_format_of(const std::string& path);

/// Reads the model at `path`, in the format its extension names. A .gltf's external buffers are
/// read relative to the file's directory. On failure nothing is partially returned.
std::variant<Model, ModelLoadError> load_model(const std::string& path, const ModelLimits& limits = {});

/// Parses a model from bytes in memory; `file_label` is used as ModelLoadError::file. A .gltf's
/// external buffers are read relative to `base_dir`; with an empty `base_dir` they are refused
/// (only data URIs and a .glb's own chunk are read), so no file is touched.
std::variant<Model, ModelLoadError> parse_model(std::string_view bytes, ModelFormat format,
                                                const std::string& file_label,
                                                const ModelLimits& limits = {},
                                                const std::string& base_dir = {});

/// Checks what every loaded model satisfies: normals empty or one per position, a multiple of 3
/// indices each in range, finite positions and normals, instances naming existing meshes with
/// finite affine transforms (last row 0 0 0 1), totals within `limits`. `file` labels the error.
std::optional<ModelLoadError> validate_model(const Model& model, const ModelLimits& limits = {},
                                             const std::string& file = {});

/// The model as OBJ text: one object per instance ("o NAME"), its positions transformed to world
/// space in single precision and its normals by the inverse transpose, so a model of identity
/// instances reads back as the same meshes. Numbers are the shortest text that reads back exactly.
std::string model_to_obj(const Model& model);

/// The model as glTF 2.0 JSON with one buffer embedded as a base64 data URI: a glTF mesh per
/// ModelMesh (one primitive: POSITION, NORMAL when present, uint32 indices), a node per instance
/// with its matrix, all nodes in the default scene. Loads back as the same model.
std::string model_to_gltf(const Model& model);

/// The same content as model_to_gltf() as a binary .glb (JSON chunk + BIN chunk).
std::string model_to_glb(const Model& model);

/// Writes the model in the format the extension of `path` names, atomically (a temporary file
/// renamed over `path`). Returns an error, or nullopt on success; refuses a model that fails
/// validate_model() and writes nothing then.
std::optional<ModelLoadError> save_model_file(const std::string& path, const Model& model);

}  // namespace raypick
