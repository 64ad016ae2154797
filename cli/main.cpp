// raypick-cast: casts every ray of a scene file against every shape and mesh instance, no window.
//
//   raypick-cast [--check] [--double] FILE
//
// Default: one JSON object per line, for each ray i: a line per shape j
//   {"ray":i,"shape":j,"hit":true,"t_near":..,"t_far":..,"n_near":[..],"n_far":[..],"inside":false}
//   ({"ray":i,"shape":j,"hit":false} on a miss; a triangle's hit adds "barycentric":[wa,wb,wc],
//   the weights of its vertices a, b, c, and "front":true|false, the face the ray arrives at),
//   then a line per instance k (its nearest triangle)
//   {"ray":i,"instance":k,"hit":true,"placement":p,"triangle":n,"t":..,"barycentric":[..],
//    "normal":[..],"front":true} ({"ray":i,"instance":k,"hit":false} on a miss), then the ray's
//   pick over shapes and instances: {"ray":i,"picked":j,"t":..} (a shape),
//   {"ray":i,"picked_instance":k,"t":..,"triangle":n} (an instance) or {"ray":i,"picked":null}.
// --check: evaluates the file's expectations instead, prints each failure and a summary.
// --double: the double-precision core (default: the float core, via convert<float>()).
// Exit status: 0 ok, 1 an expectation failed, 2 bad usage or a file that cannot be loaded.
#include <charconv>
#include <cstdio>
#include <cstring>
#include <exception>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include <raypick/scene/CaseCheck.h>
#include <raypick/scene/SceneFile.h>

namespace {

using namespace raypick;

/// Buffered stdout writer: appends into a large buffer, writes it out when full. No per-line flush.
class Out {
public:
    explicit Out(std::FILE* f) : f_(f) { buf_.reserve(kSize + 1024); }
    ~Out() { flush(); }
    void put(const char* s, std::size_t n) {
        buf_.append(s, n);
        if (buf_.size() >= kSize) flush();
    }
    void put(const char* s) { put(s, std::strlen(s)); }
    void put(const std::string& s) { put(s.data(), s.size()); }
    void put(std::size_t v) {
        char b[24];
        const auto r = std::to_chars(b, b + sizeof b, v);
        put(b, std::size_t(r.ptr - b));
    }
    template <typename T> void num(T v) {
        char b[48];
        const auto r = std::to_chars(b, b + sizeof b, v);  // shortest round-trip in T's precision
        put(b, std::size_t(r.ptr - b));
    }
    template <typename T> void vec(const Vec3<T>& v) {
        put("[", 1);
        num(v.x);
        put(",", 1);
        num(v.y);
        put(",", 1);
        num(v.z);
        put("]", 1);
    }
    bool flush() {
        if (!buf_.empty() && std::fwrite(buf_.data(), 1, buf_.size(), f_) != buf_.size()) failed_ = true;
        buf_.clear();
        return !failed_;
    }
    bool failed() const { return failed_; }

private:
    static constexpr std::size_t kSize = 1 << 20;
    std::FILE* f_;
    std::string buf_;
    bool failed_ = false;
};

/// Prints ray i's line for instance k and returns the instance's nearest hit.
template <typename T>
std::optional<SceneInstanceHit<T>> instance_line(const CastScene<T>& cs, std::size_t i, std::size_t k, Out& out) {
    const auto h = cast_instance(cs, k, cs.rays[i], cs.t_min[i], cs.t_max[i]);
    out.put("{\"ray\":");
    out.put(i);
    out.put(",\"instance\":");
    out.put(k);
    if (!h) {
        out.put(",\"hit\":false}\n");
        return h;
    }
    out.put(",\"hit\":true,\"placement\":");
    out.put(h->placement);
    out.put(",\"triangle\":");
    out.put(std::size_t(h->hit.triangle));
    out.put(",\"t\":");
    out.num(h->hit.t);
    out.put(",\"barycentric\":");
    out.vec(h->hit.barycentric);
    out.put(",\"normal\":");
    out.vec(h->hit.normal);
    out.put(h->hit.front ? ",\"front\":true}\n" : ",\"front\":false}\n");
    return h;
}

template <typename T> void cast_all(const Scene& scene, Out& out) {
    const CastScene<T> cs = prepare_scene<T>(scene);
    for (std::size_t i = 0; i < cs.rays.size(); ++i) {
        const Ray<T>& ray = cs.rays[i];
        const T t_min = cs.t_min[i], t_max = cs.t_max[i];
        bool picked = false;
        std::size_t pick_shape = 0;
        T pick_t = T(0);
        for (std::size_t j = 0; j < cs.shapes.size(); ++j) {
            const auto h = cast(ray, cs.shapes[j], t_min, t_max);
            out.put("{\"ray\":");
            out.put(i);
            out.put(",\"shape\":");
            out.put(j);
            if (!h) {
                out.put(",\"hit\":false}\n");
                continue;
            }
            out.put(",\"hit\":true,\"t_near\":");
            out.num(h->t_near);
            out.put(",\"t_far\":");
            out.num(h->t_far);
            out.put(",\"n_near\":");
            out.vec(h->n_near);
            out.put(",\"n_far\":");
            out.vec(h->n_far);
            out.put(h->origin_inside ? ",\"inside\":true" : ",\"inside\":false");
            // A triangle also says where it was crossed and from which side.
            if (const auto* tri = std::get_if<Triangle<T>>(&cs.shapes[j]))
                if (const auto th = intersect(ray, *tri, t_min, t_max)) {
                    out.put(",\"barycentric\":");
                    out.vec(th->barycentric);
                    out.put(th->front ? ",\"front\":true" : ",\"front\":false");
                }
            out.put("}\n");
            // Same rule as pick_scene(): first surface point, nearest t, lowest index on ties.
            if (const auto s = first_surface(ray, *h, t_min, t_max))
                if (!picked || s->t < pick_t) {
                    picked = true;
                    pick_shape = j;
                    pick_t = s->t;
                }
        }
        // The nearest instance, the lowest index on ties; against the shapes' pick as pick_scene().
        std::optional<SceneInstanceHit<T>> nearest_instance;
        for (std::size_t k = 0; k < scene.instances.size(); ++k)
            if (const auto h = instance_line(cs, i, k, out))
                if (!nearest_instance || h->hit.t < nearest_instance->hit.t) nearest_instance = h;
        out.put("{\"ray\":");
        out.put(i);
        switch (nearer_side(picked ? &pick_t : nullptr, nearest_instance ? &nearest_instance->hit.t : nullptr)) {
            case MixedSide::instance:
                out.put(",\"picked_instance\":");
                out.put(nearest_instance->instance);
                out.put(",\"t\":");
                out.num(nearest_instance->hit.t);
                out.put(",\"triangle\":");
                out.put(std::size_t(nearest_instance->hit.triangle));
                out.put("}\n");
                break;
            case MixedSide::shape:
                out.put(",\"picked\":");
                out.put(pick_shape);
                out.put(",\"t\":");
                out.num(pick_t);
                out.put("}\n");
                break;
            case MixedSide::none: out.put(",\"picked\":null}\n"); break;
        }
    }
}

int help() {
    std::fputs("usage: raypick-cast [--check] [--double] FILE\n"
               "  Casts every ray in the scene file FILE against every shape and instance, one JSON\n"
               "  object per line: {\"ray\":i,\"shape\":j,\"hit\":..,\"t_near\":..,\"t_far\":..,\"n_near\":[..],\n"
               "  \"n_far\":[..],\"inside\":..} per ray x shape (a triangle's hit adds \"barycentric\":[wa,wb,wc]\n"
               "  and \"front\":true|false), {\"ray\":i,\"instance\":k,\"hit\":..,\"placement\":p,\"triangle\":n,\n"
               "  \"t\":..,\"barycentric\":[..],\"normal\":[..],\"front\":..} per ray x instance, and\n"
               "  {\"ray\":i,\"picked\":j|null,\"t\":..} or {\"ray\":i,\"picked_instance\":k,\"t\":..,\"triangle\":n} per ray.\n"
               "  --check   compare with the file's expectations instead; print failures, exit 1 on any\n"
               "  --double  use the double-precision core (default: float)\n"
               "  Exit: 0 ok, 1 failed expectation, 2 usage error or unreadable/invalid file.\n"
               "  Format: scene/FORMAT.md\n",
               stdout);
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    bool check = false;
    Precision precision = Precision::Float;
    std::string file;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--check") check = true;
        else if (a == "--double") precision = Precision::Double;
        else if (a == "--float") precision = Precision::Float;
        else if (a == "-h" || a == "--help") return help();
        else if (a.size() > 1 && a[0] == '-' && a != "-") {
            std::fprintf(stderr, "raypick-cast: unknown option %s (see --help)\n", a.c_str());
            return 2;
        } else if (!file.empty()) {
            std::fprintf(stderr, "raypick-cast: more than one FILE given: %s and %s (see --help)\n", file.c_str(), a.c_str());
            return 2;
        } else {
            file = a;
        }
    }
    if (file.empty()) {
        std::fprintf(stderr, "raypick-cast: no FILE given (see --help)\n");
        return 2;
    }

    auto loaded = load_scene_file(file);
    if (const auto* err = std::get_if<SceneLoadError>(&loaded)) {
        std::fprintf(stderr, "raypick-cast: %s\n", err->what().c_str());
        return 2;
    }
    const Scene& scene = std::get<Scene>(loaded);

    // Placing the meshes allocates their hierarchies: running out of memory is reported, not a crash.
    try {
        if (check) {
            const CaseReport report = check_case(scene, precision);
            for (const auto& r : report.results)
                if (!r.passed) std::printf("%s: %s\n", file.c_str(), r.summary().c_str());
            std::printf("%s: %zu/%zu expectations passed (%s core)%s\n", file.c_str(), report.passed,
                        report.results.size(), precision_name(precision),
                        report.results.empty() ? " - the file has no expectations" : "");
            if (!report.ok())
                std::fprintf(stderr, "raypick-cast: %s: %zu expectation(s) FAILED\n", file.c_str(), report.failed);
            return report.ok() ? 0 : 1;
        }
        Out out(stdout);
        if (precision == Precision::Float) cast_all<float>(scene, out);
        else cast_all<double>(scene, out);
        if (!out.flush()) {
            std::fprintf(stderr, "raypick-cast: write error on standard output\n");
            return 2;
        }
    } catch (const std::exception& e) {
        std::fflush(stdout);
        std::fprintf(stderr, "raypick-cast: %s: cannot cast the scene: %s\n", file.c_str(), e.what());
        return 2;
    }
    if (std::fflush(stdout) != 0) {
        std::fprintf(stderr, "raypick-cast: write error on standard output\n");
        return 2;
    }
    return 0;
}
