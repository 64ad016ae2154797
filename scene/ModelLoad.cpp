// raypick models: the entry points (load_model, parse_model), reading files within the limits,
// and the checks every loaded model passes (validate_model).
#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>

#include <sys/stat.h>

#include <raypick/scene/Model.h>
#include <raypick/scene/detail/ModelParse.h>

namespace raypick {

using namespace model_detail;

std::string ModelLoadError::what() const {
    return where.empty() ? file + ": " + message : file + ": " + where + ": " + message;
}

std::optional<ModelFormat> model_format_of(const std::string& path) {
    const std::size_t dot = path.find_last_of('.');
    const std::size_t slash = path.find_last_of('/');
    if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return std::nullopt;
    std::string ext = path.substr(dot + 1);
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    if (ext == "obj") return ModelFormat::Obj;
    if (ext == "gltf") return ModelFormat::Gltf;
    if (ext == "glb") return ModelFormat::Glb;
    return std::nullopt;
}

namespace model_detail {

std::string byte_count(std::uint64_t n) {
    if (n < 10 * 1024) return std::to_string(n) + " bytes";
    char buf[32];
    if (n < (10ull << 20)) std::snprintf(buf, sizeof buf, "%.1f KiB", double(n) / 1024.0);
    else if (n < (10ull << 30)) std::snprintf(buf, sizeof buf, "%.1f MiB", double(n) / double(1 << 20));
    else std::snprintf(buf, sizeof buf, "%.1f GiB", double(n) / double(1ull << 30));
    return buf;
}

std::string read_file_limited(const std::string& path, std::uint64_t max_bytes, std::string& out) {
    struct stat st{};
    if (::stat(path.c_str(), &st) != 0) return std::string("cannot open: ") + std::strerror(errno);
    if (S_ISDIR(st.st_mode)) return "is a directory, not a file";
    // Regular files are checked before reading; anything else (a pipe) is read up to the limit.
    if (S_ISREG(st.st_mode) && std::uint64_t(st.st_size) > max_bytes)
        return "is " + byte_count(std::uint64_t(st.st_size)) + ", more than the limit of " + byte_count(max_bytes);
    std::ifstream in(path, std::ios::binary);
    if (!in) return std::string("cannot open: ") + std::strerror(errno);
    out.clear();
    if (S_ISREG(st.st_mode)) out.reserve(std::size_t(st.st_size));
    char buf[1 << 16];
    while (in) {
        in.read(buf, sizeof buf);
        out.append(buf, std::size_t(in.gcount()));
        if (out.size() > max_bytes) return "is more than the limit of " + byte_count(max_bytes);
    }
    if (in.bad()) return "read failed";
    return {};
}

}  // namespace model_detail

std::variant<Model, ModelLoadError> parse_model(std::string_view bytes, ModelFormat format,
                                                const std::string& file_label, const ModelLimits& limits,
                                                const std::string& base_dir) {
    const ParseContext ctx{file_label, limits, base_dir};
    if (bytes.size() > limits.max_file_bytes)
        return model_error(ctx, "", "is " + byte_count(bytes.size()) + ", more than the limit of " +
                                        byte_count(limits.max_file_bytes));
    std::variant<Model, ModelLoadError> result;
    switch (format) {
        case ModelFormat::Obj: result = parse_obj(bytes, ctx); break;
        case ModelFormat::Gltf: result = parse_gltf(bytes, false, ctx); break;
        case ModelFormat::Glb: result = parse_gltf(bytes, true, ctx); break;
    }
    // The parsers check as they go; this states the contract once for every format.
    if (const Model* m = std::get_if<Model>(&result))
        if (auto err = validate_model(*m, limits, file_label)) return *err;
    return result;
}

std::variant<Model, ModelLoadError> load_model(const std::string& path, const ModelLimits& limits) {
    const auto format = model_format_of(path);
    if (!format)
        return ModelLoadError{path, "", "unknown model format: the name must end in .obj, .gltf or .glb"};
    std::string bytes;
    if (std::string err = read_file_limited(path, limits.max_file_bytes, bytes); !err.empty())
        return ModelLoadError{path, "", err};
    const std::size_t slash = path.find_last_of('/');
    const std::string dir = slash == std::string::npos ? "." : path.substr(0, slash + 1);
    return parse_model(bytes, *format, path, limits, dir);
}

namespace {

bool finite(const glm::vec3& v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }

std::string mesh_where(const ModelMesh& m, std::size_t i) {
    return m.name.empty() ? "mesh " + std::to_string(i) : "mesh " + std::to_string(i) + " '" + m.name + "'";
}

}  // namespace

std::optional<ModelLoadError> validate_model(const Model& model, const ModelLimits& limits, const std::string& file) {
    auto error = [&](std::string where, std::string message) {
        return ModelLoadError{file, std::move(where), std::move(message)};
    };
    std::uint64_t vertices = 0, triangles = 0;
    for (std::size_t i = 0; i < model.meshes.size(); ++i) {
        const ModelMesh& m = model.meshes[i];
        if (!m.normals.empty() && m.normals.size() != m.positions.size())
            return error(mesh_where(m, i), std::to_string(m.normals.size()) + " normals for " +
                                               std::to_string(m.positions.size()) + " positions (must be one each, or none)");
        if (m.triangles.size() % 3 != 0)
            return error(mesh_where(m, i), std::to_string(m.triangles.size()) + " triangle indices, not a multiple of 3");
        for (std::size_t k = 0; k < m.positions.size(); ++k)
            if (!finite(m.positions[k]))
                return error(mesh_where(m, i), "position " + std::to_string(k) + " is not finite");
        for (std::size_t k = 0; k < m.normals.size(); ++k)
            if (!finite(m.normals[k])) return error(mesh_where(m, i), "normal " + std::to_string(k) + " is not finite");
        for (std::size_t k = 0; k < m.triangles.size(); ++k)
            if (m.triangles[k] >= m.positions.size())
                return error(mesh_where(m, i), "triangle " + std::to_string(k / 3) + " uses vertex " +
                                                   std::to_string(m.triangles[k]) + ", out of range (" +
                                                   std::to_string(m.positions.size()) + " positions)");
        vertices += m.positions.size();
        triangles += m.triangles.size() / 3;
    }
    if (vertices > limits.max_vertices)
        return error("", std::to_string(vertices) + " vertices, more than the limit of " + std::to_string(limits.max_vertices));
    if (triangles > limits.max_triangles)
        return error("", std::to_string(triangles) + " triangles, more than the limit of " + std::to_string(limits.max_triangles));
    if (model.instances.size() > limits.max_instances)
        return error("", std::to_string(model.instances.size()) + " instances, more than the limit of " +
                             std::to_string(limits.max_instances));
    for (std::size_t i = 0; i < model.instances.size(); ++i) {
        const ModelInstance& inst = model.instances[i];
        const std::string where = "instance " + std::to_string(i) + (inst.name.empty() ? "" : " '" + inst.name + "'");
        if (inst.mesh >= model.meshes.size())
            return error(where, "mesh " + std::to_string(inst.mesh) + " does not exist (" +
                                    std::to_string(model.meshes.size()) + " meshes)");
        for (int c = 0; c < 4; ++c)
            for (int r = 0; r < 4; ++r)
                if (!std::isfinite(inst.transform[c][r])) return error(where, "the transform is not finite");
        if (inst.transform[0][3] != 0 || inst.transform[1][3] != 0 || inst.transform[2][3] != 0 || inst.transform[3][3] != 1)
            return error(where, "the transform is not affine (its last row must be 0 0 0 1)");
    }
    return std::nullopt;
}

}  // namespace raypick
