// raypick models: glTF 2.0 (.gltf and .glb) through tinygltf. Before tinygltf sees a file, its .glb
// framing and its JSON (syntax, size, nesting) are checked here; tinygltf reads no images and no
// file except the external buffers, within the byte limit; every accessor (sparse ones too) is
// checked against its buffer view and buffer, and its count against the limits, before anything is
// allocated for it.
#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>

#include <sys/stat.h>
#include <functional>

#define TINYGLTF_IMPLEMENTATION
#define TINYGLTF_NO_STB_IMAGE
#define TINYGLTF_NO_STB_IMAGE_WRITE
#define TINYGLTF_NO_EXTERNAL_IMAGE
#include <tiny_gltf.h>

#include <glm/gtc/quaternion.hpp>
#include <glm/gtc/type_ptr.hpp>

#include <raypick/scene/detail/ModelParse.h>

namespace raypick::model_detail {

namespace {

using json = nlohmann::json;

// ---- the JSON before tinygltf: syntax with its line and column, size, nesting -------------------

/// Counts values and nesting depth while nlohmann parses, and stops at the first limit exceeded or
/// syntax error (with nlohmann's "line L, column C" message).
class JsonGuard : public nlohmann::json_sax<json> {
public:
    JsonGuard(std::uint64_t max_values, std::uint32_t max_depth) : max_values_(max_values), max_depth_(max_depth) {}
    const std::string& error() const { return error_; }

    bool null() override { return value(); }
    bool boolean(bool) override { return value(); }
    bool number_integer(number_integer_t) override { return value(); }
    bool number_unsigned(number_unsigned_t) override { return value(); }
    bool number_float(number_float_t, const string_t&) override { return value(); }
    bool string(string_t&) override { return value(); }
    bool binary(binary_t&) override { return value(); }
    bool start_object(std::size_t) override { return open(); }
    bool key(string_t&) override { return true; }
    bool end_object() override { return close(); }
    bool start_array(std::size_t) override { return open(); }
    bool end_array() override { return close(); }
    bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception& ex) override {
        std::string msg = ex.what();
        if (msg.size() > 0 && msg[0] == '[') msg.erase(0, msg.find("] ") == std::string::npos ? 0 : msg.find("] ") + 2);
        error_ = "malformed JSON: " + msg;
        return false;
    }

private:
    std::uint64_t values_ = 0, max_values_;
    std::uint32_t depth_ = 0, max_depth_;
    std::string error_;

    bool value() {
        if (++values_ <= max_values_) return true;
        error_ = "the JSON has more than " + std::to_string(max_values_) + " values (the limit)";
        return false;
    }
    bool open() {
        if (++depth_ > max_depth_) {
            error_ = "the JSON nests arrays and objects more than " + std::to_string(max_depth_) + " deep (the limit)";
            return false;
        }
        return value();
    }
    bool close() {
        --depth_;
        return true;
    }
};

/// The JSON's syntax error or exceeded limit, or "".
std::string check_json(std::string_view text, const ModelLimits& lim) {
    JsonGuard guard(lim.max_json_values, lim.max_json_depth);
    try {
        if (!json::sax_parse(text.begin(), text.end(), &guard) && guard.error().empty())
            return "malformed JSON";
    } catch (const std::exception& e) {
        return std::string("malformed JSON: ") + e.what();
    }
    return guard.error();
}

// ---- the .glb framing -------------------------------------------------------------------------

std::uint32_t u32_at(std::string_view b, std::size_t at) {
    std::uint32_t v;
    std::memcpy(&v, b.data() + at, 4);
    return v;  // little-endian, as the file
}

/// Checks the 12-byte header and the chunk headers against the file's size; on success `json_out`
/// is the JSON chunk. Returns an error message or "".
std::string check_glb(std::string_view b, std::string_view& json_out) {
    if (b.size() < 12)
        return "truncated .glb: " + std::to_string(b.size()) + " bytes, less than the 12-byte header";
    if (b.substr(0, 4) != "glTF") return "not a .glb file (it does not start with the bytes 'glTF')";
    if (const std::uint32_t version = u32_at(b, 4); version != 2)
        return "glTF binary version " + std::to_string(version) + " is not supported (only version 2)";
    const std::uint64_t length = u32_at(b, 8);
    if (length > b.size())
        return "truncated .glb: the header says " + std::to_string(length) + " bytes, the file has " +
               std::to_string(b.size());
    if (length < b.size())
        return "the .glb header says " + std::to_string(length) + " bytes but the file has " + std::to_string(b.size());
    if (length < 20) return "truncated .glb: no room for the JSON chunk's header";
    const std::uint64_t json_len = u32_at(b, 12);
    if (u32_at(b, 16) != 0x4E4F534Au) return "the first chunk of the .glb is not its JSON chunk";
    if (20 + json_len > length)
        return "the JSON chunk claims " + std::to_string(json_len) + " bytes, beyond the end of the file (" +
               std::to_string(length - 20) + " bytes follow its header)";
    std::uint64_t at = 20 + json_len;
    while (at < length) {  // the chunks after it: each header and length within the file
        if (at + 8 > length) return "truncated .glb: a chunk header at byte " + std::to_string(at) + " is incomplete";
        const std::uint64_t len = u32_at(b, std::size_t(at));
        if (at + 8 + len > length)
            return "the chunk at byte " + std::to_string(at) + " claims " + std::to_string(len) +
                   " bytes, beyond the end of the file (" + std::to_string(length - at - 8) + " bytes follow its header)";
        at += 8 + len;
    }
    json_out = b.substr(20, std::size_t(json_len));
    return {};
}

// ---- tinygltf's file access: external buffers only, within the byte budget ----------------------

struct FileAccess {
    bool allowed = false;          // false when parsing bytes without a directory
    std::uint64_t remaining = 0;   // bytes that may still be read
    std::string error;             // why a file was refused (tinygltf's own message is vaguer)
};

bool file_exists(const std::string& path, void* user) {
    auto* fa = static_cast<FileAccess*>(user);
    if (!fa->allowed) {
        fa->error = "external file '" + path + "' cannot be read: the model was not loaded from a file";
        return false;
    }
    struct stat st{};
    if (::stat(path.c_str(), &st) != 0) {
        fa->error = "external file '" + path + "' cannot be read: " + std::strerror(errno);
        return false;
    }
    if (S_ISREG(st.st_mode)) return true;
    fa->error = "external file '" + path + "' cannot be read: not a file";
    return false;
}

std::string expand_path(const std::string& path, void*) { return path; }

bool read_whole_file(std::vector<unsigned char>* out, std::string* err, const std::string& path, void* user) {
    auto* fa = static_cast<FileAccess*>(user);
    std::string bytes;
    if (std::string e = read_file_limited(path, fa->remaining, bytes); !e.empty()) {
        fa->error = "external file '" + path + "' " + (e.rfind("cannot", 0) == 0 ? e : "together with the model " + e);
        if (err) *err += fa->error;
        return false;
    }
    fa->remaining -= bytes.size();
    out->assign(bytes.begin(), bytes.end());
    return true;
}

bool write_refused(std::string* err, const std::string&, const std::vector<unsigned char>&, void*) {
    if (err) *err += "writing is not supported";
    return false;
}

/// Images are not needed for ray casting: accepted as they are, never decoded.
bool skip_image(tinygltf::Image*, const int, std::string*, std::string*, int, int, const unsigned char*, int, void*) {
    return true;
}

/// tinygltf's message as one line of at most 300 bytes (it may quote a whole data URI).
std::string one_line(std::string s) {
    while (!s.empty() && (s.back() == '\n' || s.back() == '\r' || s.back() == ' ')) s.pop_back();
    for (char& c : s)
        if (c == '\n' || c == '\r') c = ';';
    if (s.size() > 300) s = s.substr(0, 300) + "...";
    return s;
}

// ---- accessors ----------------------------------------------------------------------------------

/// Where an accessor's elements are: `count` elements of `element` bytes, `stride` apart from
/// `data` (null: all zeros, an accessor without a buffer view).
struct ElementView {
    const unsigned char* data = nullptr;
    std::size_t count = 0, stride = 0, element = 0;
    int component_type = 0;
};

std::size_t component_size(int type) {
    switch (type) {
        case TINYGLTF_COMPONENT_TYPE_BYTE:
        case TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE: return 1;
        case TINYGLTF_COMPONENT_TYPE_SHORT:
        case TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT: return 2;
        case TINYGLTF_COMPONENT_TYPE_INT:
        case TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT:
        case TINYGLTF_COMPONENT_TYPE_FLOAT: return 4;
        case TINYGLTF_COMPONENT_TYPE_DOUBLE: return 8;
        default: return 0;
    }
}

std::string component_name(int type) {
    switch (type) {
        case TINYGLTF_COMPONENT_TYPE_BYTE: return "BYTE";
        case TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE: return "UNSIGNED_BYTE";
        case TINYGLTF_COMPONENT_TYPE_SHORT: return "SHORT";
        case TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT: return "UNSIGNED_SHORT";
        case TINYGLTF_COMPONENT_TYPE_INT: return "INT";
        case TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT: return "UNSIGNED_INT";
        case TINYGLTF_COMPONENT_TYPE_FLOAT: return "FLOAT";
        default: return "component type " + std::to_string(type);
    }
}

/// The unsigned integer of `type` (UNSIGNED_BYTE, _SHORT or _INT) at `p`.
std::uint32_t read_index(const unsigned char* p, int type) {
    if (type == TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE) return *p;
    if (type == TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT) {
        std::uint16_t s;
        std::memcpy(&s, p, 2);
        return s;
    }
    std::uint32_t u;
    std::memcpy(&u, p, 4);
    return u;
}

class Converter {
public:
    Converter(const tinygltf::Model& gm, const ParseContext& ctx) : gm_(gm), ctx_(ctx) {}

    std::variant<Model, ModelLoadError> run() {
        // Required extensions that change where the geometry is or what it means; the others
        // (materials, textures, lights, ...) do not concern ray casting.
        for (const std::string& ext : gm_.extensionsRequired)
            if (ext == "KHR_draco_mesh_compression" || ext == "EXT_meshopt_compression" ||
                ext == "KHR_mesh_quantization" || ext == "EXT_mesh_gpu_instancing")
                return error("", "the file requires the extension " + ext + ", which is not supported");
        if (auto err = meshes()) return *err;
        if (auto err = instances()) return *err;
        return std::move(model_);
    }

private:
    const tinygltf::Model& gm_;
    const ParseContext& ctx_;
    Model model_;
    std::vector<std::vector<std::uint32_t>> mesh_of_;  // glTF mesh -> its primitives' ModelMesh indices
    std::uint64_t vertices_ = 0, triangles_ = 0;

    ModelLoadError error(std::string where, std::string message) const {
        return model_error(ctx_, std::move(where), std::move(message));
    }

    /// The bytes of buffer view `bv_index` from `offset` on, checked to hold `count` elements of
    /// `element` bytes `stride` apart, the view itself within its buffer. `where` names the reader.
    std::variant<const unsigned char*, ModelLoadError> view_bytes(int bv_index, std::uint64_t offset, std::uint64_t count,
                                                                  std::uint64_t element, std::uint64_t stride,
                                                                  const std::string& where) const {
        if (bv_index < 0 || std::size_t(bv_index) >= gm_.bufferViews.size())
            return error(where, "buffer view " + std::to_string(bv_index) + " does not exist");
        const tinygltf::BufferView& bv = gm_.bufferViews[std::size_t(bv_index)];
        const std::string bv_where = "buffer view " + std::to_string(bv_index);
        if (bv.buffer < 0 || std::size_t(bv.buffer) >= gm_.buffers.size())
            return error(bv_where, "buffer " + std::to_string(bv.buffer) + " does not exist");
        const std::vector<unsigned char>& data = gm_.buffers[std::size_t(bv.buffer)].data;
        std::uint64_t bv_end = 0;
        if (__builtin_add_overflow(std::uint64_t(bv.byteOffset), std::uint64_t(bv.byteLength), &bv_end) ||
            bv_end > data.size())
            return error(bv_where, "bytes " + std::to_string(bv.byteOffset) + " + " + std::to_string(bv.byteLength) +
                                       " run past the end of buffer " + std::to_string(bv.buffer) + " (" +
                                       std::to_string(data.size()) + " bytes)");
        if (count > 0) {
            std::uint64_t span = 0, end = 0;
            if (__builtin_mul_overflow(count - 1, stride, &span) || __builtin_add_overflow(span, element, &span) ||
                __builtin_add_overflow(span, offset, &end) || end > bv.byteLength)
                return error(where, std::to_string(count) + " elements from byte offset " + std::to_string(offset) +
                                        " run past the end of " + bv_where + " (" + std::to_string(bv.byteLength) +
                                        " bytes)");
        } else if (offset > bv.byteLength) {
            return error(where, "byte offset " + std::to_string(offset) + " is past the end of " + bv_where);
        }
        return data.data() + bv.byteOffset + offset;
    }

    /// Checks accessor `index` as `what` ("POSITION of mesh 0, primitive 1"): its type, its
    /// component type (one of `allowed`, named by `allowed_text`), its count against `max_count`
    /// (what the limits still allow) and its place in its buffer view and buffer.
    std::variant<ElementView, ModelLoadError> view(int index, const std::string& what, int type,
                                                   std::initializer_list<int> allowed, const char* allowed_text,
                                                   std::uint64_t max_count, const std::string& limit_name) const {
        if (index < 0 || std::size_t(index) >= gm_.accessors.size())
            return error(what, "accessor " + std::to_string(index) + " does not exist (" +
                                   std::to_string(gm_.accessors.size()) + " accessors)");
        const tinygltf::Accessor& a = gm_.accessors[std::size_t(index)];
        const std::string where = "accessor " + std::to_string(index) + " (" + what + ")";
        if (a.type != type)
            return error(where, std::string("type must be ") + (type == TINYGLTF_TYPE_VEC3 ? "VEC3" : "SCALAR"));
        if (std::find(allowed.begin(), allowed.end(), a.componentType) == allowed.end())
            return error(where, std::string("component type must be ") + allowed_text + ", not " + component_name(a.componentType));
        if (a.count > max_count)
            return error(where, "count " + std::to_string(a.count) + " exceeds the limit of " +
                                    std::to_string(max_count) + " " + limit_name);
        ElementView v;
        v.count = a.count;
        v.component_type = a.componentType;
        v.element = component_size(a.componentType) * (type == TINYGLTF_TYPE_VEC3 ? 3 : 1);
        if (a.bufferView < 0) return v;  // no data: all zeros (and the sparse values, if any)
        if (std::size_t(a.bufferView) < gm_.bufferViews.size()) {
            const tinygltf::BufferView& bv = gm_.bufferViews[std::size_t(a.bufferView)];
            v.stride = bv.byteStride == 0 ? v.element : bv.byteStride;
            if (v.stride < v.element)
                return error("buffer view " + std::to_string(a.bufferView),
                             "byte stride " + std::to_string(bv.byteStride) + " is less than the " +
                                 std::to_string(v.element) + "-byte elements of " + where);
        }
        auto bytes = view_bytes(a.bufferView, a.byteOffset, v.count, v.element, v.stride, where);
        if (auto* e = std::get_if<ModelLoadError>(&bytes)) return *e;
        v.data = std::get<const unsigned char*>(bytes);
        return v;
    }

    /// Applies accessor `index`'s sparse substitutions, if it has any: `set(i, bytes)` replaces
    /// element i by the `element` bytes at `bytes`. Indices must increase and be below the count.
    std::optional<ModelLoadError> apply_sparse(int index, const std::string& what, std::size_t element,
                                               const std::function<void(std::size_t, const unsigned char*)>& set) const {
        const tinygltf::Accessor& a = gm_.accessors[std::size_t(index)];
        if (!a.sparse.isSparse) return std::nullopt;
        const std::string where = "accessor " + std::to_string(index) + " (" + what + "), sparse";
        const auto& sp = a.sparse;
        if (sp.count < 1 || std::size_t(sp.count) > a.count)
            return error(where, "count " + std::to_string(sp.count) + " must be from 1 to the accessor's count " +
                                    std::to_string(a.count));
        const int it = sp.indices.componentType;
        if (it != TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE && it != TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT &&
            it != TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT)
            return error(where, "indices must be UNSIGNED_BYTE, UNSIGNED_SHORT or UNSIGNED_INT, not " + component_name(it));
        if (sp.indices.byteOffset < 0 || sp.values.byteOffset < 0) return error(where, "a byte offset is negative");
        const std::size_t isize = component_size(it);
        auto indices = view_bytes(sp.indices.bufferView, std::uint64_t(sp.indices.byteOffset), std::uint64_t(sp.count),
                                  isize, isize, where + " indices");
        if (auto* e = std::get_if<ModelLoadError>(&indices)) return *e;
        auto values = view_bytes(sp.values.bufferView, std::uint64_t(sp.values.byteOffset), std::uint64_t(sp.count),
                                 element, element, where + " values");
        if (auto* e = std::get_if<ModelLoadError>(&values)) return *e;
        const unsigned char* ip = std::get<const unsigned char*>(indices);
        const unsigned char* vp = std::get<const unsigned char*>(values);
        std::uint64_t previous = 0;
        for (std::size_t k = 0; k < std::size_t(sp.count); ++k) {
            const std::uint32_t i = read_index(ip + k * isize, it);
            if (i >= a.count || (k > 0 && i <= previous))
                return error(where, "index " + std::to_string(i) + " at element " + std::to_string(k) +
                                        (i >= a.count ? " is out of range (count " + std::to_string(a.count) + ")"
                                                      : " does not increase"));
            previous = i;
            set(i, vp + k * element);
        }
        return std::nullopt;
    }

    /// Reads a VEC3 FLOAT accessor of at most `max_count` elements (`limit_name` in the message)
    /// into `out`, with its sparse substitutions, rejecting non-finite values.
    std::optional<ModelLoadError> read_vec3(int index, const std::string& what, std::uint64_t max_count,
                                            std::vector<glm::vec3>& out, const char* limit_name = "vertices") const {
        auto r = view(index, what, TINYGLTF_TYPE_VEC3, {TINYGLTF_COMPONENT_TYPE_FLOAT}, "FLOAT", max_count, limit_name);
        if (auto* e = std::get_if<ModelLoadError>(&r)) return *e;
        const ElementView v = std::get<ElementView>(r);
        out.assign(v.count, glm::vec3(0.0f));
        for (std::size_t i = 0; i < v.count && v.data; ++i) std::memcpy(&out[i], v.data + i * v.stride, sizeof(glm::vec3));
        if (auto e = apply_sparse(index, what, sizeof(glm::vec3),
                                  [&](std::size_t i, const unsigned char* p) { std::memcpy(&out[i], p, sizeof(glm::vec3)); }))
            return e;
        for (std::size_t i = 0; i < v.count; ++i)
            if (!std::isfinite(out[i].x) || !std::isfinite(out[i].y) || !std::isfinite(out[i].z))
                return error("accessor " + std::to_string(index) + " (" + what + ")",
                             "element " + std::to_string(i) + " is not finite");
        return std::nullopt;
    }

    /// Reads a SCALAR unsigned index accessor into `out`, with its sparse substitutions, each index
    /// below `vertex_count`.
    std::optional<ModelLoadError> read_indices(int index, const std::string& what, std::uint64_t max_count,
                                               std::size_t vertex_count, std::vector<std::uint32_t>& out) const {
        auto r = view(index, what, TINYGLTF_TYPE_SCALAR,
                      {TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE, TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT,
                       TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT},
                      "UNSIGNED_BYTE, UNSIGNED_SHORT or UNSIGNED_INT", max_count, "indices");
        if (auto* e = std::get_if<ModelLoadError>(&r)) return *e;
        const ElementView v = std::get<ElementView>(r);
        out.assign(v.count, 0u);
        for (std::size_t i = 0; i < v.count && v.data; ++i) out[i] = read_index(v.data + i * v.stride, v.component_type);
        if (auto e = apply_sparse(index, what, v.element,
                                  [&](std::size_t i, const unsigned char* p) { out[i] = read_index(p, v.component_type); }))
            return e;
        for (std::size_t i = 0; i < v.count; ++i)
            if (out[i] >= vertex_count)
                return error("accessor " + std::to_string(index) + " (" + what + ")",
                             "index " + std::to_string(out[i]) + " at element " + std::to_string(i) +
                                 " is out of range (" + std::to_string(vertex_count) + " vertices)");
        return std::nullopt;
    }

    std::optional<ModelLoadError> meshes() {
        const ModelLimits& lim = ctx_.limits;
        mesh_of_.resize(gm_.meshes.size());
        for (std::size_t mi = 0; mi < gm_.meshes.size(); ++mi) {
            const tinygltf::Mesh& gmesh = gm_.meshes[mi];
            const std::string mesh_name = gmesh.name.empty() ? "mesh " + std::to_string(mi) : gmesh.name;
            for (std::size_t pi = 0; pi < gmesh.primitives.size(); ++pi) {
                const tinygltf::Primitive& prim = gmesh.primitives[pi];
                const std::string what = "mesh " + std::to_string(mi) +
                                         (gmesh.name.empty() ? "" : " '" + gmesh.name + "'") + ", primitive " +
                                         std::to_string(pi);
                const int mode = prim.mode < 0 ? TINYGLTF_MODE_TRIANGLES : prim.mode;
                if (mode != TINYGLTF_MODE_TRIANGLES && mode != TINYGLTF_MODE_TRIANGLE_STRIP &&
                    mode != TINYGLTF_MODE_TRIANGLE_FAN)
                    return error(what, "mode " + std::to_string(mode) +
                                           " (points or lines) is not supported: only triangles, strips and fans");
                const auto pos = prim.attributes.find("POSITION");
                if (pos == prim.attributes.end()) return error(what, "the primitive has no POSITION attribute");

                ModelMesh mesh;
                mesh.name = gmesh.primitives.size() == 1 ? mesh_name : mesh_name + "/" + std::to_string(pi);
                if (auto e = read_vec3(pos->second, "POSITION of " + what, lim.max_vertices - vertices_, mesh.positions))
                    return e;
                vertices_ += mesh.positions.size();
                if (const auto nrm = prim.attributes.find("NORMAL"); nrm != prim.attributes.end()) {
                    // At most one normal per position, refused before reading a larger count.
                    if (auto e = read_vec3(nrm->second, "NORMAL of " + what, mesh.positions.size(), mesh.normals,
                                           "normals (one per position)"))
                        return e;
                    if (mesh.normals.size() != mesh.positions.size())
                        return error(what, std::to_string(mesh.normals.size()) + " normals for " +
                                               std::to_string(mesh.positions.size()) + " positions");
                }

                // Corners: the index accessor, or 0, 1, 2, ... without one.
                const std::uint64_t tri_left = lim.max_triangles - triangles_;
                const std::uint64_t max_corners = mode == TINYGLTF_MODE_TRIANGLES ? 3 * tri_left : tri_left + 2;
                std::vector<std::uint32_t> corners;
                if (prim.indices >= 0) {
                    if (auto e = read_indices(prim.indices, "indices of " + what, max_corners, mesh.positions.size(), corners))
                        return e;
                } else {
                    if (mesh.positions.size() > max_corners)
                        return error(what, std::to_string(mesh.positions.size()) +
                                               " vertices make more triangles than the limit of " +
                                               std::to_string(lim.max_triangles));
                    corners.resize(mesh.positions.size());
                    for (std::size_t i = 0; i < corners.size(); ++i) corners[i] = std::uint32_t(i);
                }
                if (mode == TINYGLTF_MODE_TRIANGLES) {
                    if (corners.size() % 3 != 0)
                        return error(what, std::to_string(corners.size()) + " corners, not a multiple of 3");
                    mesh.triangles = std::move(corners);
                } else if (corners.size() >= 3) {
                    mesh.triangles.reserve(3 * (corners.size() - 2));
                    for (std::size_t i = 0; i + 2 < corners.size(); ++i) {
                        std::uint32_t a = corners[i], b = corners[i + 1], c = corners[i + 2];
                        if (mode == TINYGLTF_MODE_TRIANGLE_FAN) a = corners[0];
                        else if (i % 2 == 1) std::swap(a, b);  // every other strip triangle keeps the winding
                        mesh.triangles.insert(mesh.triangles.end(), {a, b, c});
                    }
                }
                triangles_ += mesh.triangles.size() / 3;
                mesh_of_[mi].push_back(std::uint32_t(model_.meshes.size()));
                model_.meshes.push_back(std::move(mesh));
            }
        }
        return std::nullopt;
    }

    /// A node's own transform: its matrix, or translation * rotation * scale.
    std::variant<glm::dmat4, ModelLoadError> local_transform(const tinygltf::Node& n, const std::string& where) const {
        auto all_finite = [](const std::vector<double>& v) {
            for (double x : v)
                if (!std::isfinite(x)) return false;
            return true;
        };
        if (!all_finite(n.matrix) || !all_finite(n.translation) || !all_finite(n.rotation) || !all_finite(n.scale))
            return error(where, "the transform is not finite");
        if (!n.matrix.empty()) {
            if (n.matrix.size() != 16)
                return error(where, "the matrix has " + std::to_string(n.matrix.size()) + " numbers, not 16");
            const glm::dmat4 m = glm::make_mat4(n.matrix.data());  // column-major, as glTF
            if (m[0][3] != 0 || m[1][3] != 0 || m[2][3] != 0 || m[3][3] != 1)
                return error(where, "the matrix is not affine (its last row must be 0 0 0 1)");
            return m;
        }
        if (!n.translation.empty() && n.translation.size() != 3)
            return error(where, "the translation has " + std::to_string(n.translation.size()) + " numbers, not 3");
        if (!n.rotation.empty() && n.rotation.size() != 4)
            return error(where, "the rotation has " + std::to_string(n.rotation.size()) + " numbers, not 4");
        if (!n.scale.empty() && n.scale.size() != 3)
            return error(where, "the scale has " + std::to_string(n.scale.size()) + " numbers, not 3");
        glm::dmat4 m(1.0);
        if (!n.translation.empty()) m[3] = glm::dvec4(n.translation[0], n.translation[1], n.translation[2], 1.0);
        if (!n.rotation.empty()) {
            glm::dquat q(n.rotation[3], n.rotation[0], n.rotation[1], n.rotation[2]);  // glTF: x, y, z, w
            const double len = glm::length(q);
            if (!(len > 0) || !std::isfinite(len)) return error(where, "the rotation quaternion has no length");
            m = m * glm::mat4_cast(q / len);
        }
        if (!n.scale.empty()) m = m * glm::scale(glm::dmat4(1.0), glm::dvec3(n.scale[0], n.scale[1], n.scale[2]));
        return m;
    }

    std::optional<ModelLoadError> instances() {
        if (gm_.nodes.empty()) {  // meshes without a node hierarchy: each placed once as it is
            for (std::uint32_t i = 0; i < model_.meshes.size(); ++i)
                model_.instances.push_back(ModelInstance{i, glm::dmat4(1.0), model_.meshes[i].name});
            return std::nullopt;
        }
        // The roots: the default scene's nodes, else the first scene's, else every node no node
        // has as a child.
        std::vector<int> roots;
        if (gm_.defaultScene >= 0 && std::size_t(gm_.defaultScene) >= gm_.scenes.size())
            return error("", "the default scene " + std::to_string(gm_.defaultScene) + " does not exist");
        if (!gm_.scenes.empty()) {
            roots = gm_.scenes[gm_.defaultScene >= 0 ? std::size_t(gm_.defaultScene) : 0].nodes;
        } else {
            std::vector<char> is_child(gm_.nodes.size(), 0);
            for (const tinygltf::Node& n : gm_.nodes)
                for (int c : n.children)
                    if (c >= 0 && std::size_t(c) < gm_.nodes.size()) is_child[std::size_t(c)] = 1;
            for (std::size_t i = 0; i < gm_.nodes.size(); ++i)
                if (!is_child[i]) roots.push_back(int(i));
        }
        // Depth first, without recursion; each node reached at most once (the nodes form trees).
        std::vector<char> seen(gm_.nodes.size(), 0);
        std::vector<std::pair<int, glm::dmat4>> stack;
        for (auto it = roots.rbegin(); it != roots.rend(); ++it) stack.emplace_back(*it, glm::dmat4(1.0));
        while (!stack.empty()) {
            const auto [ni, parent] = stack.back();
            stack.pop_back();
            if (ni < 0 || std::size_t(ni) >= gm_.nodes.size())
                return error("", "node " + std::to_string(ni) + " does not exist (" + std::to_string(gm_.nodes.size()) +
                                     " nodes)");
            const std::string where = "node " + std::to_string(ni);
            if (seen[std::size_t(ni)])
                return error(where, "the node is reached twice: the node hierarchy must be a tree");
            seen[std::size_t(ni)] = 1;
            const tinygltf::Node& n = gm_.nodes[std::size_t(ni)];
            auto local = local_transform(n, where);
            if (auto* e = std::get_if<ModelLoadError>(&local)) return *e;
            const glm::dmat4 world = parent * std::get<glm::dmat4>(local);
            if (n.mesh >= 0) {
                if (std::size_t(n.mesh) >= gm_.meshes.size())
                    return error(where, "mesh " + std::to_string(n.mesh) + " does not exist");
                const auto& parts = mesh_of_[std::size_t(n.mesh)];
                if (model_.instances.size() + parts.size() > ctx_.limits.max_instances)
                    return error(where, "more than " + std::to_string(ctx_.limits.max_instances) + " instances (the limit)");
                const std::string name = n.name.empty() ? where : n.name;
                for (std::uint32_t m : parts) model_.instances.push_back(ModelInstance{m, world, name});
            }
            for (auto it = n.children.rbegin(); it != n.children.rend(); ++it) stack.emplace_back(*it, world);
        }
        return std::nullopt;
    }
};

}  // namespace

std::variant<Model, ModelLoadError> parse_gltf(std::string_view bytes, bool binary, const ParseContext& ctx) {
    if (bytes.size() > 0xFFFFFFFFull) return model_error(ctx, "", "glTF files of 4 GiB or more are not supported");
    std::string_view json_text = bytes;
    if (binary)
        if (std::string e = check_glb(bytes, json_text); !e.empty()) return model_error(ctx, "", e);
    if (std::string e = check_json(json_text, ctx.limits); !e.empty())
        return model_error(ctx, binary ? "JSON chunk" : "", e);

    FileAccess access;
    access.allowed = !ctx.base_dir.empty();
    access.remaining = ctx.limits.max_file_bytes - std::min<std::uint64_t>(bytes.size(), ctx.limits.max_file_bytes);
    tinygltf::TinyGLTF loader;
    loader.SetImageLoader(&skip_image, nullptr);
    loader.SetFsCallbacks(tinygltf::FsCallbacks{&file_exists, &expand_path, &read_whole_file, &write_refused, &access});
    tinygltf::Model gm;
    std::string err, warn;
    bool ok = false;
    try {
        const auto* data = reinterpret_cast<const unsigned char*>(bytes.data());
        ok = binary ? loader.LoadBinaryFromMemory(&gm, &err, &warn, data, unsigned(bytes.size()), ctx.base_dir)
                    : loader.LoadASCIIFromString(&gm, &err, &warn, bytes.data(), unsigned(bytes.size()), ctx.base_dir);
    } catch (const std::exception& e) {
        return model_error(ctx, "", std::string("malformed glTF: ") + e.what());
    }
    if (!ok) {
        if (!access.error.empty()) return model_error(ctx, "", access.error);
        return model_error(ctx, "", "malformed glTF: " + (err.empty() ? std::string("tinygltf gave no reason") : one_line(err)));
    }
    try {
        return Converter(gm, ctx).run();
    } catch (const std::bad_alloc&) {
        return model_error(ctx, "", "out of memory");
    }
}

}  // namespace raypick::model_detail
