// raypick models: the writers (OBJ text, .gltf with an embedded buffer, .glb) and the atomic save.
#include <cmath>
#include <cstring>

#include <glm/mat3x3.hpp>
#include <glm/matrix.hpp>
#include <nlohmann/json.hpp>

#include <raypick/scene/AtomicFile.h>
#include <raypick/scene/Model.h>
#include <raypick/scene/NumberText.h>

namespace raypick {

namespace {

using json = nlohmann::json;

/// A name usable as one OBJ token: whitespace and control characters become '_'.
std::string obj_name(const std::string& name, std::size_t index) {
    if (name.empty()) return "object" + std::to_string(index);
    std::string out = name;
    for (char& c : out)
        if (static_cast<unsigned char>(c) <= ' ' || c == 0x7f) c = '_';
    return out;
}

std::string vec3_text(const glm::vec3& v) { return shortest(v.x) + " " + shortest(v.y) + " " + shortest(v.z); }

/// Base64 with padding (RFC 4648), as data URIs carry it.
std::string base64(const std::string& in) {
    static const char* const digits = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    out.reserve((in.size() + 2) / 3 * 4);
    std::size_t i = 0;
    for (; i + 2 < in.size(); i += 3) {
        const std::uint32_t v = std::uint32_t(std::uint8_t(in[i])) << 16 | std::uint32_t(std::uint8_t(in[i + 1])) << 8 |
                                std::uint8_t(in[i + 2]);
        out += {digits[v >> 18], digits[(v >> 12) & 63], digits[(v >> 6) & 63], digits[v & 63]};
    }
    if (i + 1 == in.size()) {
        const std::uint32_t v = std::uint32_t(std::uint8_t(in[i])) << 16;
        out += {digits[v >> 18], digits[(v >> 12) & 63], '=', '='};
    } else if (i + 2 == in.size()) {
        const std::uint32_t v = std::uint32_t(std::uint8_t(in[i])) << 16 | std::uint32_t(std::uint8_t(in[i + 1])) << 8;
        out += {digits[v >> 18], digits[(v >> 12) & 63], digits[(v >> 6) & 63], '='};
    }
    return out;
}

/// The glTF JSON of `model` and its one binary buffer (positions, normals and indices of each mesh,
/// 4-byte aligned). The buffer's "uri" is left for the caller.
json gltf_json(const Model& model, std::string& bin) {
    json accessors = json::array(), views = json::array(), meshes = json::array(), nodes = json::array();
    // An accessor of `count` elements of `type` in a new buffer view of `bytes` bytes. Every
    // accessor has a view, even an empty one (tinygltf wants one for indices).
    auto add_accessor = [&](const void* data, std::size_t bytes, int target, int component, std::size_t count,
                            const char* type) {
        views.push_back({{"buffer", 0}, {"byteOffset", bin.size()}, {"byteLength", bytes}, {"target", target}});
        bin.append(static_cast<const char*>(data), bytes);
        accessors.push_back({{"bufferView", views.size() - 1}, {"componentType", component}, {"count", count}, {"type", type}});
        return accessors.size() - 1;
    };
    for (std::size_t i = 0; i < model.meshes.size(); ++i) {
        const ModelMesh& m = model.meshes[i];
        glm::vec3 lo(0.0f), hi(0.0f);
        if (!m.positions.empty()) lo = hi = m.positions[0];
        for (const glm::vec3& p : m.positions) {
            lo = glm::min(lo, p);
            hi = glm::max(hi, p);
        }
        json attributes;
        attributes["POSITION"] = add_accessor(m.positions.data(), m.positions.size() * sizeof(glm::vec3), 34962, 5126,
                                              m.positions.size(), "VEC3");
        accessors.back()["min"] = {lo.x, lo.y, lo.z};
        accessors.back()["max"] = {hi.x, hi.y, hi.z};
        if (!m.normals.empty())
            attributes["NORMAL"] = add_accessor(m.normals.data(), m.normals.size() * sizeof(glm::vec3), 34962, 5126,
                                                m.normals.size(), "VEC3");
        const std::size_t indices = add_accessor(m.triangles.data(), m.triangles.size() * sizeof(std::uint32_t), 34963,
                                                 5125, m.triangles.size(), "SCALAR");
        json prim = {{"attributes", attributes}, {"indices", indices}, {"mode", 4}};
        json mesh = {{"primitives", json::array({prim})}};
        if (!m.name.empty()) mesh["name"] = m.name;
        meshes.push_back(mesh);
    }
    if (!views.empty() && bin.empty()) bin.assign(4, '\0');  // the views' buffer must exist, so not be empty
    json scene_nodes = json::array();
    for (std::size_t i = 0; i < model.instances.size(); ++i) {
        const ModelInstance& inst = model.instances[i];
        json node = {{"mesh", inst.mesh}};
        if (!inst.name.empty()) node["name"] = inst.name;
        if (inst.transform != glm::dmat4(1.0)) {
            json mat = json::array();
            for (int c = 0; c < 4; ++c)
                for (int r = 0; r < 4; ++r) mat.push_back(inst.transform[c][r]);
            node["matrix"] = mat;
        }
        nodes.push_back(node);
        scene_nodes.push_back(i);
    }
    // Meshes placed nowhere: one node without a mesh is the scene, since a file without nodes
    // reads as every mesh placed once as it is (parse_gltf).
    if (model.instances.empty() && !meshes.empty()) {
        nodes.push_back(json{{"name", "nothing placed"}});
        scene_nodes.push_back(0);
    }
    json g = {{"asset", {{"version", "2.0"}, {"generator", "raypick"}}}};
    g["scene"] = 0;
    g["scenes"] = json::array({json{{"nodes", scene_nodes}}});
    if (!nodes.empty()) g["nodes"] = nodes;
    if (!meshes.empty()) g["meshes"] = meshes;
    if (!accessors.empty()) g["accessors"] = accessors;
    if (!views.empty()) g["bufferViews"] = views;
    return g;
}

void append_u32(std::string& out, std::uint32_t v) {
    char b[4];
    std::memcpy(b, &v, 4);  // little-endian, as the format
    out.append(b, 4);
}

}  // namespace

std::string model_to_obj(const Model& model) {
    std::string out = "# raypick model: " + std::to_string(model.instances.size()) + " objects\n";
    std::size_t base = 1, nbase = 1;  // OBJ indices start at 1 and run over the whole file
    for (std::size_t i = 0; i < model.instances.size(); ++i) {
        const ModelInstance& inst = model.instances[i];
        if (inst.mesh >= model.meshes.size()) continue;
        const ModelMesh& m = model.meshes[inst.mesh];
        const bool identity = inst.transform == glm::dmat4(1.0);
        const glm::dmat3 normal_matrix = glm::transpose(glm::inverse(glm::dmat3(inst.transform)));
        out += "o " + obj_name(inst.name.empty() ? m.name : inst.name, i) + "\n";
        for (const glm::vec3& p : m.positions) {
            const glm::vec3 w = identity ? p : glm::vec3(inst.transform * glm::dvec4(glm::dvec3(p), 1.0));
            out += "v " + vec3_text(w) + "\n";
        }
        for (const glm::vec3& n : m.normals) {
            glm::vec3 w = n;
            if (!identity) {
                const glm::dvec3 d = normal_matrix * glm::dvec3(n);
                const double len = glm::length(d);
                w = len > 0 && std::isfinite(len) ? glm::vec3(d / len) : n;
            }
            out += "vn " + vec3_text(w) + "\n";
        }
        const bool with_normals = !m.normals.empty();
        for (std::size_t t = 0; t + 2 < m.triangles.size(); t += 3) {
            out += "f";
            for (int k = 0; k < 3; ++k) {
                const std::string v = std::to_string(base + m.triangles[t + k]);
                out += " " + (with_normals ? v + "//" + std::to_string(nbase + m.triangles[t + k]) : v);
            }
            out += "\n";
        }
        base += m.positions.size();
        nbase += m.normals.size();
    }
    return out;
}

std::string model_to_gltf(const Model& model) {
    std::string bin;
    json g = gltf_json(model, bin);
    if (!bin.empty())
        g["buffers"] = json::array({json{{"byteLength", bin.size()},
                                         {"uri", "data:application/octet-stream;base64," + base64(bin)}}});
    return g.dump(1, ' ', false, json::error_handler_t::replace) + "\n";
}

std::string model_to_glb(const Model& model) {
    std::string bin;
    json g = gltf_json(model, bin);
    if (!bin.empty()) g["buffers"] = json::array({json{{"byteLength", bin.size()}}});
    std::string text = g.dump(-1, ' ', false, json::error_handler_t::replace);
    text.append((4 - text.size() % 4) % 4, ' ');  // chunks are 4-byte aligned: JSON pads with spaces,
    bin.append((4 - bin.size() % 4) % 4, '\0');   // the binary chunk with zeros
    std::string out = "glTF";
    append_u32(out, 2);
    append_u32(out, std::uint32_t(12 + 8 + text.size() + (bin.empty() ? 0 : 8 + bin.size())));
    append_u32(out, std::uint32_t(text.size()));
    append_u32(out, 0x4E4F534Au);  // "JSON"
    out += text;
    if (!bin.empty()) {
        append_u32(out, std::uint32_t(bin.size()));
        append_u32(out, 0x004E4942u);  // "BIN\0"
        out += bin;
    }
    return out;
}

std::optional<ModelLoadError> save_model_file(const std::string& path, const Model& model) {
    const auto format = model_format_of(path);
    if (!format) return ModelLoadError{path, "", "unknown model format: the name must end in .obj, .gltf or .glb"};
    ModelLimits any_size;  // the loader's limits guard reading, not writing
    any_size.max_vertices = any_size.max_triangles = any_size.max_instances = UINT64_MAX;
    if (auto err = validate_model(model, any_size, path)) {
        err->message = "cannot save: " + err->message;
        return err;
    }
    std::string data;
    switch (*format) {
        case ModelFormat::Obj: data = model_to_obj(model); break;
        case ModelFormat::Gltf: data = model_to_gltf(model); break;
        case ModelFormat::Glb: data = model_to_glb(model); break;
    }
    if (auto err = write_file_atomically(path, data)) {
        const std::string prefix = "cannot save " + path + ": ";  // the path is the error's file already
        return ModelLoadError{path, "", "cannot save: " + (err->rfind(prefix, 0) == 0 ? err->substr(prefix.size()) : *err)};
    }
    return std::nullopt;
}

}  // namespace raypick
