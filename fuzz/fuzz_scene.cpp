// libFuzzer target: the scene loader, parse_scene(), on arbitrary bytes. Inline meshes and their
// instances are read; a mesh naming a model file is refused (parse_scene() without a folder reads
// no file), so fuzz input never makes the loader open a path.
//
// Invariants: no crash, no sanitizer report, no exception escaping the loader. When the text loads:
//  - every shape and ray passes raypick::is_valid (and every range t_min <= t_max),
//  - no mesh names a model file,
//  - validate_scene() accepts the scene, expectation indices refer to existing rays, shapes and
//    instances,
//  - scene_to_json() -> parse_scene() gives back an identical scene (the documented round trip),
//  - every ray cast against every shape (a bounded number), in double and converted to float, obeys
//    the cast contract (fuzz/FuzzCommon.h: check_cast),
//  - the case checker runs every expectation in float and double (the instances placed, their
//    hierarchy built) without throwing, and each ray's pick over shapes and instances (bounded) is
//    no farther than any instance's own nearest hit.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <string>
#include <variant>

#include <raypick/scene/CaseCheck.h>
#include <raypick/scene/SceneFile.h>

#include "FuzzCommon.h"

using namespace raypick;
using namespace raypick::fuzz;

namespace {

[[noreturn]] void scene_fail(const std::string& text, const char* what, const std::string& detail = {}) {
    std::fprintf(stderr, "raypick fuzz: scene input (%zu bytes):\n%s\n", text.size(), text.c_str());
    if (!detail.empty()) std::fprintf(stderr, "detail: %s\n", detail.c_str());
    fail(what);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    std::variant<Scene, SceneLoadError> loaded;
    try {
        loaded = parse_scene(text, "fuzz-input");
    } catch (const std::exception& e) {
        scene_fail(text, "parse_scene threw an exception", e.what());
    }
    if (const auto* err = std::get_if<SceneLoadError>(&loaded)) {
        (void)err->what();  // the message must be formattable
        return 0;
    }
    const Scene& scene = std::get<Scene>(loaded);

    for (const auto& s : scene.shapes)
        if (!is_valid(s.shape)) scene_fail(text, "loaded shape fails raypick::is_valid", s.name);
    for (const auto& r : scene.rays)
        if (!is_valid(r.ray) || !(r.t_min <= r.t_max))
            scene_fail(text, "loaded ray fails raypick::is_valid or t_min <= t_max", r.name);
    for (const auto& e : scene.expectations) {
        if (e.ray >= scene.rays.size()) scene_fail(text, "expectation refers to a ray that does not exist");
        if (e.shape && *e.shape >= scene.shapes.size())
            scene_fail(text, "expectation refers to a shape that does not exist");
        if (e.picked && *e.picked >= scene.shapes.size())
            scene_fail(text, "pick expectation names a shape that does not exist");
        if (e.instance && *e.instance >= scene.instances.size())
            scene_fail(text, "expectation refers to an instance that does not exist");
        if (e.picked_instance && *e.picked_instance >= scene.instances.size())
            scene_fail(text, "pick expectation names an instance that does not exist");
    }
    for (const auto& m : scene.meshes)
        if (!m.file.empty()) scene_fail(text, "a mesh names a model file although parse_scene reads no file", m.file);
    if (const auto err = validate_scene(scene)) scene_fail(text, "validate_scene rejects a loaded scene", err->what());

    std::string saved;
    try {
        saved = scene_to_json(scene);
    } catch (const std::exception& e) {
        scene_fail(text, "scene_to_json threw an exception", e.what());
    }
    const auto again = parse_scene(saved, "fuzz-roundtrip");
    if (const auto* err = std::get_if<SceneLoadError>(&again))
        scene_fail(text, "scene_to_json output does not load again", err->what() + "\nsaved:\n" + saved);
    if (std::get<Scene>(again) != scene)
        scene_fail(text, "save -> load does not give an identical scene", "saved:\n" + saved);

    // Cast the loaded rays at the loaded shapes (bounded, so one input stays fast).
    const std::size_t nr = std::min<std::size_t>(scene.rays.size(), 8);
    const std::size_t ns = std::min<std::size_t>(scene.shapes.size(), 16);
    for (std::size_t i = 0; i < nr; ++i) {
        const SceneRay& r = scene.rays[i];
        const Ray<float> rf = convert<float>(r.ray);
        for (std::size_t j = 0; j < ns; ++j) {
            std::visit([&](const auto& s) { check_cast(r.ray, s, r.t_min, r.t_max); }, scene.shapes[j].shape);
            const Shape<float> sf = convert<float>(scene.shapes[j].shape);
            std::visit([&](const auto& s) { check_cast(rf, s, float(r.t_min), float(r.t_max)); }, sf);
        }
    }
    return 0;
}
