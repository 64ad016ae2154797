// raypick models: Wavefront OBJ through tinyobjloader. The text is scanned first (counts against the
// limits, face syntax and index ranges, with line numbers), so tinyobjloader only ever sees a file
// whose size and indices are known to be acceptable.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <sstream>

#define TINYOBJLOADER_IMPLEMENTATION
#include <tiny_obj_loader.h>

#include <raypick/scene/detail/ModelParse.h>

namespace raypick::model_detail {

namespace {

/// The lines of a text, split as tinyobjloader splits them (at "\n", "\r\n" or a lone "\r").
class Lines {
public:
    explicit Lines(std::string_view text) : text_(text) {}
    /// The next line without its end, or false at the end of the text.
    bool next(std::string_view& line) {
        if (pos_ >= text_.size()) return false;
        const std::size_t end = text_.find_first_of("\r\n", pos_);
        const std::size_t stop = end == std::string_view::npos ? text_.size() : end;
        line = text_.substr(pos_, stop - pos_);
        pos_ = stop + 1;
        if (stop < text_.size() && text_[stop] == '\r' && pos_ < text_.size() && text_[pos_] == '\n') ++pos_;
        ++number_;
        return true;
    }
    std::uint64_t number() const { return number_; }

private:
    std::string_view text_;
    std::size_t pos_ = 0;
    std::uint64_t number_ = 0;
};

bool is_space(char c) { return c == ' ' || c == '\t'; }

/// The statement keyword of a line ("v", "vn", "f", ...) and the rest after it; empty keyword for
/// blank lines and comments. A keyword counts only when a space or tab follows it, as in
/// tinyobjloader.
std::string_view keyword(std::string_view line, std::string_view& rest) {
    std::size_t i = 0;
    while (i < line.size() && is_space(line[i])) ++i;
    std::size_t j = i;
    while (j < line.size() && !is_space(line[j])) ++j;
    if (j >= line.size()) return {};
    rest = line.substr(j);
    return line.substr(i, j - i);
}

/// Splits `rest` at spaces and tabs.
template <typename F> void for_each_token(std::string_view rest, F&& f) {
    std::size_t i = 0;
    while (i < rest.size()) {
        while (i < rest.size() && is_space(rest[i])) ++i;
        std::size_t j = i;
        while (j < rest.size() && !is_space(rest[j])) ++j;
        if (j > i) f(rest.substr(i, j - i));
        i = j;
    }
}

/// An OBJ index: an optional '-' and decimal digits, within int's range. False otherwise.
bool parse_index(std::string_view s, long long& out) {
    bool neg = false;
    std::size_t i = 0;
    if (i < s.size() && (s[i] == '-' || s[i] == '+')) neg = s[i++] == '-';
    if (i == s.size()) return false;
    long long v = 0;
    for (; i < s.size(); ++i) {
        if (s[i] < '0' || s[i] > '9') return false;
        v = v * 10 + (s[i] - '0');
        if (v > 2147483647LL) return false;
    }
    out = neg ? -v : v;
    return true;
}

struct Counts {
    std::uint64_t vertices = 0, normals = 0, texcoords = 0;
};

/// A face corner "v", "v/vt", "v//vn" or "v/vt/vn": syntax, and each index non-zero and within the
/// counts (negative indices count back from the elements defined so far; positive ones may refer
/// to any element of the file). Returns an error message or "".
std::string check_corner(std::string_view token, const Counts& so_far, const Counts& total) {
    std::string_view parts[3];
    int n = 0;
    std::size_t start = 0;
    for (std::size_t i = 0; i <= token.size(); ++i) {
        if (i == token.size() || token[i] == '/') {
            if (n == 3) return "face corner '" + std::string(token) + "' has more than three indices";
            parts[n++] = token.substr(start, i - start);
            start = i + 1;
        }
    }
    static const char* const kinds[3] = {"vertex", "texture coordinate", "normal"};
    const std::uint64_t defined[3] = {so_far.vertices, so_far.texcoords, so_far.normals};
    const std::uint64_t all[3] = {total.vertices, total.texcoords, total.normals};
    for (int k = 0; k < n; ++k) {
        if (k > 0 && parts[k].empty()) continue;  // "v//vn", "v/vt/"
        long long idx = 0;
        if (!parse_index(parts[k], idx))
            return "face corner '" + std::string(token) + "': '" + std::string(parts[k]) + "' is not an index";
        if (idx == 0) return "face corner '" + std::string(token) + "': indices start at 1 (0 is not an index)";
        if (idx > 0 && std::uint64_t(idx) > all[k])
            return std::string(kinds[k]) + " index " + std::to_string(idx) + " is out of range (the file has " +
                   std::to_string(all[k]) + ")";
        if (idx < 0 && std::uint64_t(-idx) > defined[k])
            return std::string(kinds[k]) + " index " + std::to_string(idx) + " is out of range (" +
                   std::to_string(defined[k]) + " defined before this line)";
    }
    return {};
}

/// Scans the text before tinyobjloader reads it: counts vertices and triangles against the limits,
/// checks every face. Returns an error, or nullopt when the text may be parsed.
std::optional<ModelLoadError> prescan(std::string_view text, const ParseContext& ctx) {
    const ModelLimits& lim = ctx.limits;
    auto at_line = [&](std::uint64_t line, std::string message) {
        return model_error(ctx, "line " + std::to_string(line), std::move(message));
    };
    // Pass 1: totals, so that positive indices can be checked (they may refer forward).
    Counts total;
    std::uint64_t triangles = 0;
    {
        Lines lines(text);
        std::string_view line, rest;
        while (lines.next(line)) {
            const std::string_view k = keyword(line, rest);
            if (k == "v") {
                if (++total.vertices > lim.max_vertices)
                    return at_line(lines.number(), "more than " + std::to_string(lim.max_vertices) +
                                                       " vertices (the limit)");
            } else if (k == "vn") {
                if (++total.normals > lim.max_vertices)
                    return at_line(lines.number(), "more than " + std::to_string(lim.max_vertices) +
                                                       " normals (the vertex limit)");
            } else if (k == "vt") {
                ++total.texcoords;
            } else if (k == "f") {
                std::uint64_t corners = 0;
                for_each_token(rest, [&](std::string_view) { ++corners; });
                if (corners < 3)
                    return at_line(lines.number(), "a face needs at least 3 vertices, this one has " +
                                                       std::to_string(corners));
                if (corners > 255)
                    return at_line(lines.number(), "a face with " + std::to_string(corners) +
                                                       " vertices; at most 255 are supported");
                triangles += corners - 2;
                if (triangles > lim.max_triangles)
                    return at_line(lines.number(), "more than " + std::to_string(lim.max_triangles) +
                                                       " triangles (the limit)");
            }
        }
    }
    // Pass 2: every face corner's syntax and range.
    Counts so_far;
    Lines lines(text);
    std::string_view line, rest;
    while (lines.next(line)) {
        const std::string_view k = keyword(line, rest);
        if (k == "v") ++so_far.vertices;
        else if (k == "vn") ++so_far.normals;
        else if (k == "vt") ++so_far.texcoords;
        else if (k == "f") {
            std::string err;
            for_each_token(rest, [&](std::string_view t) {
                if (err.empty()) err = check_corner(t, so_far, total);
            });
            if (!err.empty()) return at_line(lines.number(), err);
        }
    }
    return std::nullopt;
}

/// The line of the `n`-th (0-based) statement with keyword `kw`.
std::uint64_t line_of(std::string_view text, std::string_view kw, std::uint64_t n) {
    Lines lines(text);
    std::string_view line, rest;
    while (lines.next(line))
        if (keyword(line, rest) == kw && n-- == 0) return lines.number();
    return 0;
}

bool finite3(const std::vector<tinyobj::real_t>& v, std::size_t i) {
    return std::isfinite(v[3 * i]) && std::isfinite(v[3 * i + 1]) && std::isfinite(v[3 * i + 2]);
}

}  // namespace

std::variant<Model, ModelLoadError> parse_obj(std::string_view text, const ParseContext& ctx) {
    if (auto err = prescan(text, ctx)) return *err;

    tinyobj::attrib_t attrib;
    std::vector<tinyobj::shape_t> shapes;
    std::vector<tinyobj::material_t> materials;
    std::string warn, err;
    std::istringstream in{std::string(text)};
    // No material reader: "mtllib" statements never open files. Polygons are triangulated below.
    bool ok = false;
    try {
        ok = tinyobj::LoadObj(&attrib, &shapes, &materials, &warn, &err, &in, nullptr, false, false);
    } catch (const std::exception& e) {
        return model_error(ctx, "", std::string("malformed OBJ: ") + e.what());
    }
    if (!ok) {
        while (!err.empty() && (err.back() == '\n' || err.back() == '\r')) err.pop_back();
        return model_error(ctx, "", "malformed OBJ: " + err);
    }

    const std::size_t nv = attrib.vertices.size() / 3, nn = attrib.normals.size() / 3;
    for (std::size_t i = 0; i < nv; ++i)
        if (!finite3(attrib.vertices, i))
            return model_error(ctx, "line " + std::to_string(line_of(text, "v", i)),
                               "vertex " + std::to_string(i + 1) + " is not finite");
    for (std::size_t i = 0; i < nn; ++i)
        if (!finite3(attrib.normals, i))
            return model_error(ctx, "line " + std::to_string(line_of(text, "vn", i)),
                               "normal " + std::to_string(i + 1) + " is not finite");

    Model model;
    for (const tinyobj::shape_t& shape : shapes) {
        const tinyobj::mesh_t& src = shape.mesh;
        if (src.num_face_vertices.empty()) continue;  // only lines or points
        const std::string where = "object '" + shape.name + "'";
        // Normals only when every corner of the object has one.
        bool with_normals = true;
        for (const tinyobj::index_t& idx : src.indices) with_normals &= idx.normal_index >= 0;

        // One position per distinct (vertex, normal) pair, in the file's order of vertices: a
        // vertex with several normals splits, and a file whose vertices are all used once each
        // keeps its numbering.
        std::vector<std::uint64_t> keys;
        keys.reserve(src.indices.size());
        std::size_t first = 0;
        for (std::size_t f = 0; f < src.num_face_vertices.size(); ++f) {
            const std::size_t n = src.num_face_vertices[f];
            if (first + n > src.indices.size())
                return model_error(ctx, where, "face " + std::to_string(f) + " runs past the object's indices");
            for (std::size_t c = first; c < first + n; ++c) {
                const int vi = src.indices[c].vertex_index, ni = with_normals ? src.indices[c].normal_index : 0;
                if (vi < 0 || std::size_t(vi) >= nv || (with_normals && std::size_t(ni) >= nn))
                    return model_error(ctx, where + ", face " + std::to_string(f), "index out of range");
                keys.push_back((std::uint64_t(std::uint32_t(vi)) << 32) | std::uint32_t(ni));
            }
            first += n;
        }
        std::vector<std::uint64_t> unique = keys;
        std::sort(unique.begin(), unique.end());
        unique.erase(std::unique(unique.begin(), unique.end()), unique.end());

        ModelMesh mesh;
        mesh.name = shape.name;
        for (const std::uint64_t key : unique) {
            const std::size_t vi = key >> 32, ni = key & 0xffffffffu;
            mesh.positions.emplace_back(attrib.vertices[3 * vi], attrib.vertices[3 * vi + 1], attrib.vertices[3 * vi + 2]);
            if (with_normals)
                mesh.normals.emplace_back(attrib.normals[3 * ni], attrib.normals[3 * ni + 1], attrib.normals[3 * ni + 2]);
        }
        auto local = [&](std::size_t c) {
            return std::uint32_t(std::lower_bound(unique.begin(), unique.end(), keys[c]) - unique.begin());
        };
        // Each polygon as a fan from its first corner: exact for convex polygons.
        first = 0;
        for (const unsigned char n : src.num_face_vertices) {
            for (std::size_t c = 1; c + 1 < n; ++c)
                mesh.triangles.insert(mesh.triangles.end(), {local(first), local(first + c), local(first + c + 1)});
            first += n;
        }
        ModelInstance inst;
        inst.mesh = std::uint32_t(model.meshes.size());
        inst.name = mesh.name;
        model.instances.push_back(std::move(inst));
        model.meshes.push_back(std::move(mesh));
    }
    return model;
}

}  // namespace raypick::model_detail
