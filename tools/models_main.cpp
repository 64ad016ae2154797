// raypick-models: generates models (icosphere, torus, terrain, city, thin needle) and writes them as
// OBJ, .gltf or .glb; converts a model between those formats; prints what a model file holds.
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include <raypick/scene/Model.h>
#include <raypick/scene/ModelGenerators.h>

using namespace raypick;

namespace {

const char* const kUsage = R"(usage: raypick-models COMMAND [OPTIONS]

Generate a model and write it (the format follows OUT's extension: .obj, .gltf or .glb):
  raypick-models icosphere [--level N] [--radius R] -o OUT           level 0-10 (3), radius 1
  raypick-models torus [--major R] [--minor R] [--around N] [--across N] -o OUT
                                                  1, 0.3, 48 and 24 segments (3-4096)
  raypick-models terrain [--cells N] [--size S] [--height H] [--seed N] -o OUT
                                                  64 cells a side (1-4096), 10, 1.5, seed 1
  raypick-models city [--blocks N] [--seed N] -o OUT                 8 x 8 buildings (1-1000), seed 1
  raypick-models thin [--segments N] [--length L] [--radius R] -o OUT
                                                  64 sides (3-1048576), 10 long, radius 0.01
Other commands:
  raypick-models convert IN OUT     read a model and write it in OUT's format
  raypick-models info FILE...       meshes, instances, vertices and triangles of each file
  raypick-models --help             this text

Exit status: 0 done, 1 a file could not be read or written, 2 wrong usage.
)";

struct Usage {
    std::string message;
};

/// The options of one command: "--name value" pairs and "-o OUT"; positional arguments apart.
struct Args {
    std::map<std::string, std::string> options;
    std::vector<std::string> positional;
};

Args split(int argc, char** argv, const std::vector<std::string>& known) {
    Args a;
    for (int i = 2; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg.size() > 1 && arg[0] == '-') {
            bool ok = false;
            for (const auto& k : known) ok |= k == arg;
            if (!ok) throw Usage{"unknown option '" + arg + "' for " + argv[1]};
            if (i + 1 >= argc) throw Usage{"option " + arg + " needs a value"};
            a.options[arg] = argv[++i];
        } else {
            a.positional.push_back(arg);
        }
    }
    return a;
}

long long integer(const Args& a, const std::string& name, long long fallback, long long lo, long long hi) {
    const auto it = a.options.find(name);
    if (it == a.options.end()) return fallback;
    long long v = 0;
    const std::string& s = it->second;
    const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
    if (r.ec != std::errc() || r.ptr != s.data() + s.size() || v < lo || v > hi)
        throw Usage{name + " must be a whole number from " + std::to_string(lo) + " to " + std::to_string(hi) +
                    ", not '" + s + "'"};
    return v;
}

double number(const Args& a, const std::string& name, double fallback) {
    const auto it = a.options.find(name);
    if (it == a.options.end()) return fallback;
    const std::string& s = it->second;
    char* end = nullptr;
    const double v = std::strtod(s.c_str(), &end);
    if (s.empty() || *end != '\0' || !std::isfinite(v) || !(v > 0) || v > 1e6)
        throw Usage{name + " must be a positive number up to 1e6, not '" + s + "'"};
    return v;
}

std::string output(const Args& a) {
    const auto it = a.options.find("-o");
    if (it == a.options.end()) throw Usage{"missing -o OUT (a .obj, .gltf or .glb file to write)"};
    if (!a.positional.empty()) throw Usage{"unexpected argument '" + a.positional[0] + "'"};
    return it->second;
}

int save(const std::string& path, const Model& m) {
    if (const auto err = save_model_file(path, m)) {
        std::fprintf(stderr, "raypick-models: %s\n", err->what().c_str());
        return 1;
    }
    return 0;
}

int info(const std::vector<std::string>& files) {
    if (files.empty()) throw Usage{"info needs at least one model file"};
    int status = 0;
    for (const std::string& f : files) {
        const auto loaded = load_model(f);
        if (const auto* err = std::get_if<ModelLoadError>(&loaded)) {
            std::fprintf(stderr, "raypick-models: %s\n", err->what().c_str());
            status = 1;
            continue;
        }
        const Model& m = std::get<Model>(loaded);
        std::uint64_t v = 0, t = 0, placed = 0, with_normals = 0;
        for (const ModelMesh& mesh : m.meshes) {
            v += mesh.positions.size();
            t += mesh.triangles.size() / 3;
            with_normals += mesh.normals.empty() ? 0 : 1;
        }
        for (const ModelInstance& i : m.instances) placed += m.meshes[i.mesh].triangles.size() / 3;
        std::printf("%s: %zu meshes (%llu with normals), %zu instances, %llu vertices, %llu triangles, %llu placed\n",
                    f.c_str(), m.meshes.size(), (unsigned long long)with_normals, m.instances.size(),
                    (unsigned long long)v, (unsigned long long)t, (unsigned long long)placed);
    }
    return status;
}

int run(int argc, char** argv) {
    if (argc < 2) throw Usage{"missing command"};
    const std::string cmd = argv[1];
    if (cmd == "--help" || cmd == "-h") {
        std::fputs(kUsage, stdout);
        return 0;
    }
    if (cmd == "icosphere") {
        const Args a = split(argc, argv, {"--level", "--radius", "-o"});
        const std::string out = output(a);
        return save(out, make_icosphere(int(integer(a, "--level", 3, 0, 10)), number(a, "--radius", 1.0)));
    }
    if (cmd == "torus") {
        const Args a = split(argc, argv, {"--major", "--minor", "--around", "--across", "-o"});
        const std::string out = output(a);
        return save(out, make_torus(number(a, "--major", 1.0), number(a, "--minor", 0.3),
                                    int(integer(a, "--around", 48, 3, 4096)), int(integer(a, "--across", 24, 3, 4096))));
    }
    if (cmd == "terrain") {
        const Args a = split(argc, argv, {"--cells", "--size", "--height", "--seed", "-o"});
        const std::string out = output(a);
        return save(out, make_terrain(int(integer(a, "--cells", 64, 1, 4096)), number(a, "--size", 10.0),
                                      number(a, "--height", 1.5), std::uint32_t(integer(a, "--seed", 1, 0, 4294967295LL))));
    }
    if (cmd == "city") {
        const Args a = split(argc, argv, {"--blocks", "--seed", "-o"});
        const std::string out = output(a);
        return save(out, make_city(int(integer(a, "--blocks", 8, 1, 1000)),
                                   std::uint32_t(integer(a, "--seed", 1, 0, 4294967295LL))));
    }
    if (cmd == "thin") {
        const Args a = split(argc, argv, {"--segments", "--length", "--radius", "-o"});
        const std::string out = output(a);
        return save(out, make_thin(int(integer(a, "--segments", 64, 3, 1 << 20)), number(a, "--length", 10.0),
                                   number(a, "--radius", 0.01)));
    }
    if (cmd == "convert") {
        const Args a = split(argc, argv, {});
        if (a.positional.size() != 2) throw Usage{"convert needs IN and OUT"};
        const auto loaded = load_model(a.positional[0]);
        if (const auto* err = std::get_if<ModelLoadError>(&loaded)) {
            std::fprintf(stderr, "raypick-models: %s\n", err->what().c_str());
            return 1;
        }
        return save(a.positional[1], std::get<Model>(loaded));
    }
    if (cmd == "info") return info(split(argc, argv, {}).positional);
    throw Usage{"unknown command '" + cmd + "'"};
}

}  // namespace

int main(int argc, char** argv) {
    try {
        return run(argc, argv);
    } catch (const Usage& u) {
        std::fprintf(stderr, "raypick-models: %s (see raypick-models --help)\n", u.message.c_str());
        return 2;
    }
}
