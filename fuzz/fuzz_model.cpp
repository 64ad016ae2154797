// libFuzzer target: the model loaders, parse_model(), on arbitrary bytes as OBJ, .gltf and .glb.
//
// Invariants: no crash, no sanitizer report, no exception escaping the loader, no file read (the
// bytes are parsed without a folder, so external buffers are refused). When the bytes load:
//  - validate_model() accepts the model (indices in range, finite values, affine transforms,
//    normals one per position, totals within the limits),
//  - model_to_glb() -> parse_model() and model_to_gltf() -> parse_model() give back the same
//    meshes (positions, normals, triangles bit for bit) and instances (mesh, transform),
//  - model_to_obj() does not throw.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <string_view>
#include <variant>

#include <raypick/scene/Model.h>

#include "FuzzCommon.h"

namespace {

using namespace raypick;

[[noreturn]] void model_fail(std::string_view bytes, const char* format, const char* what, const std::string& detail = {}) {
    std::fprintf(stderr, "raypick fuzz: model input as %s (%zu bytes):\n", format, bytes.size());
    std::fwrite(bytes.data(), 1, bytes.size() < 4096 ? bytes.size() : 4096, stderr);
    std::fprintf(stderr, "\n");
    if (!detail.empty()) std::fprintf(stderr, "detail: %s\n", detail.c_str());
    raypick::fuzz::fail(what);
}

/// Bitwise equality of float vectors (so that -0 and NaN payloads count).
template <typename T> bool same_bits(const std::vector<T>& a, const std::vector<T>& b) {
    return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

/// Whether `b` has the geometry and placements of `a` (names aside: a writer may not carry every
/// byte of a name, and an unnamed glTF mesh reads back with a name of its place).
std::string difference(const Model& a, const Model& b) {
    if (a.meshes.size() != b.meshes.size()) return "mesh count";
    for (std::size_t i = 0; i < a.meshes.size(); ++i) {
        if (!same_bits(a.meshes[i].positions, b.meshes[i].positions)) return "positions of mesh " + std::to_string(i);
        if (!same_bits(a.meshes[i].normals, b.meshes[i].normals)) return "normals of mesh " + std::to_string(i);
        if (a.meshes[i].triangles != b.meshes[i].triangles) return "triangles of mesh " + std::to_string(i);
    }
    if (a.instances.size() != b.instances.size()) return "instance count";
    for (std::size_t i = 0; i < a.instances.size(); ++i)
        if (a.instances[i].mesh != b.instances[i].mesh || a.instances[i].transform != b.instances[i].transform)
            return "instance " + std::to_string(i);
    return {};
}

void check(std::string_view bytes, ModelFormat format, const char* name, const ModelLimits& limits) {
    std::variant<Model, ModelLoadError> loaded;
    try {
        loaded = parse_model(bytes, format, "fuzz-input", limits);
    } catch (const std::exception& e) {
        model_fail(bytes, name, "parse_model threw an exception", e.what());
    }
    if (const auto* err = std::get_if<ModelLoadError>(&loaded)) {
        (void)err->what();  // the message must be formattable
        return;
    }
    const Model& m = std::get<Model>(loaded);
    if (const auto err = validate_model(m, limits)) model_fail(bytes, name, "validate_model rejects a loaded model", err->what());
    try {
        for (const auto& [out, again_format] : {std::pair{model_to_glb(m), ModelFormat::Glb},
                                                std::pair{model_to_gltf(m), ModelFormat::Gltf}}) {
            const auto again = parse_model(out, again_format, "fuzz-roundtrip", limits);
            if (const auto* err = std::get_if<ModelLoadError>(&again))
                model_fail(bytes, name, "a written model does not load again", err->what());
            if (const std::string d = difference(m, std::get<Model>(again)); !d.empty())
                model_fail(bytes, name, "write -> load does not give the same model", d);
        }
        (void)model_to_obj(m);
    } catch (const std::exception& e) {
        model_fail(bytes, name, "a writer or the reload threw an exception", e.what());
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view bytes(reinterpret_cast<const char*>(data), size);
    // Small limits keep one input fast; the checks before allocating are the same at any size.
    ModelLimits limits;
    limits.max_vertices = 1u << 16;
    limits.max_triangles = 1u << 16;
    limits.max_instances = 1u << 12;
    check(bytes, ModelFormat::Obj, "OBJ", limits);
    check(bytes, ModelFormat::Gltf, ".gltf", limits);
    check(bytes, ModelFormat::Glb, ".glb", limits);
    return 0;
}
