// raypick-cast: casts every ray of a scene file against every shape and mesh instance, no window.
//
//   raypick-cast [--check] [--double] FILE
//   raypick-cast --query pick|occluded|crossings|contains|all [--mask M] [--cull-back-faces] [--double] FILE
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
// --query Q: asks the scene's SceneBvh instead (SceneQuery.h), one JSON object per line, things
//   named as the file names them (a name, else an index): per ray, for pick
//   {"query":"pick","ray":R,"picked":X,"t":..,"point":[..],"normal":[..],"front":..} (an instance
//   adds "placement", "triangle", "barycentric"; an unnamed instance is "picked_instance":k;
//   nothing picked is "picked":null), for occluded {"query":"occluded","ray":R,"occluded":..}, for
//   crossings {"query":"crossings","ray":R,"crossings":N,"crossing_t":[..],"crossing_kinds":[..],
//   "crossing_objects":[{"shape":S} or {"instance":I,"placement":p,"triangle":n}, ..]}; per point,
//   for contains {"query":"contains","point":P,"contained_by":[..]}. "all" prints the three ray
//   lines of each ray, then the points' lines. --mask M and --cull-back-faces filter every query
//   (contains takes the mask only).
// --double: the double-precision core (default: the float core, via convert<float>()).
// Exit status: 0 ok, 1 an expectation failed, 2 bad usage or a file that cannot be loaded.
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <system_error>
#include <cstring>
#include <exception>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include <raypick/scene/CaseCheck.h>
#include <raypick/scene/SceneFile.h>
#include <raypick/scene/SceneQuery.h>

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

// ---- --query: the scene queries ----------------------------------------------------------------

enum class Query { none, pick, occluded, crossings, contains, all };

std::optional<Query> query_named(const std::string& q) {
    if (q == "pick") return Query::pick;
    if (q == "occluded") return Query::occluded;
    if (q == "crossings") return Query::crossings;
    if (q == "contains") return Query::contains;
    if (q == "all") return Query::all;
    return std::nullopt;
}

/// `s` as a JSON string (names come from a parsed file: valid UTF-8, passed through).
std::string json_string(const std::string& s) {
    std::string out = "\"";
    for (const char c : s) {
        const auto u = static_cast<unsigned char>(c);
        if (c == '"' || c == '\\') {
            out += '\\';
            out += c;
        } else if (u < 0x20) {
            char b[8];
            std::snprintf(b, sizeof b, "\\u%04x", unsigned(u));
            out += b;
        } else {
            out += c;
        }
    }
    return out + "\"";
}

/// An item as the file names it: its name as a JSON string, else its index.
template <typename Item> std::string file_ref(const std::vector<Item>& items, std::size_t i) {
    return items[i].name.empty() ? std::to_string(i) : json_string(items[i].name);
}

/// A shape or instance as "contained_by" names it: a name, a shape's index, or {"instance":k}.
std::string object_json(const Scene& scene, const SceneObjectRef& r) {
    if (!r.is_instance()) return file_ref(scene.shapes, r.index);
    if (!scene.instances[r.index].name.empty()) return json_string(scene.instances[r.index].name);
    return "{\"instance\":" + std::to_string(r.index) + "}";
}

template <typename T> struct QueryRun {
    const Scene& scene;
    const SceneQuery<T>& q;
    QueryFilter<T> filter;
    Out& out;

    void ray_head(const char* query, std::size_t i) {
        out.put("{\"query\":\"");
        out.put(query);
        out.put("\",\"ray\":");
        out.put(file_ref(scene.rays, i));
    }

    void pick(std::size_t i) {
        const auto& r = q.ray(i);
        ray_head("pick", i);
        const auto h = q.bvh().pick(r.ray, r.t_min, r.t_max, filter);
        if (!h) {
            out.put(",\"picked\":null}\n");
            return;
        }
        const SceneQueryObject& o = q.object(h->object);
        if (o.object.is_instance() && scene.instances[o.object.index].name.empty()) {
            out.put(",\"picked_instance\":");
            out.put(o.object.index);
        } else {
            out.put(",\"picked\":");
            out.put(o.object.is_instance() ? json_string(scene.instances[o.object.index].name)
                                           : file_ref(scene.shapes, o.object.index));
        }
        if (o.object.is_instance()) {
            out.put(",\"placement\":");
            out.put(o.placement);
            out.put(",\"triangle\":");
            out.put(std::size_t(h->triangle));
        }
        out.put(",\"t\":");
        out.num(h->t);
        out.put(",\"point\":");
        out.vec(r.ray.at(h->t));
        out.put(",\"normal\":");
        out.vec(h->normal);
        if (o.object.is_instance()) {
            out.put(",\"barycentric\":");
            out.vec(h->barycentric);
        }
        out.put(h->front ? ",\"front\":true}\n" : ",\"front\":false}\n");
    }

    void occluded(std::size_t i) {
        const auto& r = q.ray(i);
        ray_head("occluded", i);
        out.put(q.bvh().occluded(r.ray, r.t_min, r.t_max, filter) ? ",\"occluded\":true}\n" : ",\"occluded\":false}\n");
    }

    void crossings(std::size_t i) {
        const auto& r = q.ray(i);
        ray_head("crossings", i);
        const auto xs = q.bvh().crossings(r.ray, r.t_min, r.t_max, filter);
        out.put(",\"crossings\":");
        out.put(xs.size());
        out.put(",\"crossing_t\":[");
        for (std::size_t k = 0; k < xs.size(); ++k) {
            if (k) out.put(",");
            out.num(xs[k].t);
        }
        out.put("],\"crossing_kinds\":[");
        for (std::size_t k = 0; k < xs.size(); ++k) {
            out.put(k ? ",\"" : "\"");
            out.put(crossing_kind_name(xs[k].kind));
            out.put("\"");
        }
        out.put("],\"crossing_objects\":[");
        for (std::size_t k = 0; k < xs.size(); ++k) {
            if (k) out.put(",");
            const SceneQueryObject& o = q.object(xs[k].object);
            if (!o.object.is_instance()) {
                out.put("{\"shape\":");
                out.put(file_ref(scene.shapes, o.object.index));
                out.put("}");
                continue;
            }
            out.put("{\"instance\":");
            out.put(file_ref(scene.instances, o.object.index));
            out.put(",\"placement\":");
            out.put(o.placement);
            out.put(",\"triangle\":");
            out.put(std::size_t(xs[k].triangle));
            out.put("}");
        }
        out.put("]}\n");
    }

    void contains(std::size_t p) {
        out.put("{\"query\":\"contains\",\"point\":");
        out.put(file_ref(scene.points, p));
        QueryFilter<T> mask_only;
        mask_only.mask = filter.mask;
        out.put(",\"contained_by\":[");
        const auto in = q.contains(q.point(p), mask_only);
        for (std::size_t k = 0; k < in.size(); ++k) {
            if (k) out.put(",");
            out.put(object_json(scene, in[k]));
        }
        out.put("]}\n");
    }
};

template <typename T> void query_all(const Scene& scene, Query query, const QueryFilter<T>& filter, Out& out) {
    const SceneQuery<T> q(scene);
    QueryRun<T> run{scene, q, filter, out};
    for (std::size_t i = 0; i < scene.rays.size(); ++i) {
        if (query == Query::pick || query == Query::all) run.pick(i);
        if (query == Query::occluded || query == Query::all) run.occluded(i);
        if (query == Query::crossings || query == Query::all) run.crossings(i);
    }
    if (query == Query::contains || query == Query::all)
        for (std::size_t p = 0; p < scene.points.size(); ++p) run.contains(p);
}

/// A --mask value: a decimal or 0x-hexadecimal integer from 0 to 2^32 - 1.
std::optional<std::uint32_t> parse_mask(const std::string& text) {
    const bool hex = text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
    const char* first = text.data() + (hex ? 2 : 0);
    const char* last = text.data() + text.size();
    std::uint32_t v = 0;
    const auto r = std::from_chars(first, last, v, hex ? 16 : 10);
    if (first == last || r.ec != std::errc() || r.ptr != last) return std::nullopt;
    return v;
}

int help() {
    std::fputs("usage: raypick-cast [--check] [--double] FILE\n"
               "       raypick-cast --query pick|occluded|crossings|contains|all [--mask M] [--cull-back-faces]\n"
               "                    [--double] FILE\n"
               "  Casts every ray in the scene file FILE against every shape and instance, one JSON\n"
               "  object per line: {\"ray\":i,\"shape\":j,\"hit\":..,\"t_near\":..,\"t_far\":..,\"n_near\":[..],\n"
               "  \"n_far\":[..],\"inside\":..} per ray x shape (a triangle's hit adds \"barycentric\":[wa,wb,wc]\n"
               "  and \"front\":true|false), {\"ray\":i,\"instance\":k,\"hit\":..,\"placement\":p,\"triangle\":n,\n"
               "  \"t\":..,\"barycentric\":[..],\"normal\":[..],\"front\":..} per ray x instance, and\n"
               "  {\"ray\":i,\"picked\":j|null,\"t\":..} or {\"ray\":i,\"picked_instance\":k,\"t\":..,\"triangle\":n} per ray.\n"
               "  --check   compare with the file's expectations instead; print failures, exit 1 on any\n"
               "  --double  use the double-precision core (default: float)\n"
               "  --query Q ask the scene's queries instead, one JSON object per ray (per point for contains),\n"
               "            things named as in the file: pick (the nearest hit), occluded, crossings (every\n"
               "            crossing: t, enter/leave/touch, object, triangle), contains, or all of them\n"
               "  --mask M  the queries' mask (decimal or 0x hexadecimal; objects whose mask shares no bit\n"
               "            with it are not seen); --cull-back-faces skips triangles met from behind\n"
               "  Exit: 0 ok, 1 failed expectation, 2 usage error or unreadable/invalid file.\n"
               "  Format: scene/FORMAT.md\n",
               stdout);
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    bool check = false;
    Precision precision = Precision::Float;
    Query query = Query::none;
    std::optional<std::uint32_t> mask;
    bool cull_back_faces = false;
    std::string file;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        // An option's value: "--query X" or "--query=X".
        auto value = [&](const char* option) -> std::optional<std::string> {
            const std::string o = option;
            if (a.compare(0, o.size() + 1, o + "=") == 0) return a.substr(o.size() + 1);
            if (a != o) return std::nullopt;
            if (i + 1 >= argc) {
                std::fprintf(stderr, "raypick-cast: %s needs a value (see --help)\n", option);
                std::exit(2);
            }
            return std::string(argv[++i]);
        };
        if (a == "--check") check = true;
        else if (const auto q = value("--query")) {
            const auto named = query_named(*q);
            if (!named) {
                std::fprintf(stderr,
                             "raypick-cast: unknown query \"%s\" (expected pick, occluded, crossings, contains or all)\n",
                             q->c_str());
                return 2;
            }
            query = *named;
        } else if (const auto m = value("--mask")) {
            mask = parse_mask(*m);
            if (!mask) {
                std::fprintf(stderr,
                             "raypick-cast: bad --mask \"%s\" (expected an integer from 0 to 4294967295, or 0x...)\n",
                             m->c_str());
                return 2;
            }
        } else if (a == "--cull-back-faces") cull_back_faces = true;
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
    if (check && query != Query::none) {
        std::fprintf(stderr, "raypick-cast: give either --check or --query, not both (see --help)\n");
        return 2;
    }
    if (query == Query::none && (mask || cull_back_faces)) {
        std::fprintf(stderr, "raypick-cast: --mask and --cull-back-faces apply to --query (see --help)\n");
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
        if (query != Query::none) {
            if (precision == Precision::Float) query_all(scene, query, query_filter<float>(mask, cull_back_faces), out);
            else query_all(scene, query, query_filter<double>(mask, cull_back_faces), out);
        } else if (precision == Precision::Float) {
            cast_all<float>(scene, out);
        } else {
            cast_all<double>(scene, out);
        }
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
