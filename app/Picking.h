// raypick demo: the ray against every shape through the double-precision core, the nearest pick,
// and the textbook variants for comparison. No GL.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "app/Commands.h"
#include <raypick/geometry/Bvh.h>
#include <raypick/geometry/RayHit.h>
#include <raypick/scene/Scene.h>

namespace raypick::app {

/// Which textbook variant to compare with, per shape type (index = ShapeType).
struct CompareOptions {
    std::array<bool, kShapeTypeCount> enabled{};
    bool sphere_geometric = false;  ///< spheres: the geometric test of "Ray Against Sphere" instead of the algebraic one
};

/// A textbook variant's answer for one shape. Capsules report two points (the published test's
/// P1 and P2); the others report one surface point.
struct VariantResult {
    const char* name = "";
    bool hit = false;
    double t = 0.0;
    Vec3<double> point{0.0};
    Vec3<double> normal{0.0};
    bool has_second = false;
    double t2 = 0.0;
    Vec3<double> point2{0.0};
    Vec3<double> normal2{0.0};
    bool differs = false;     ///< disagrees with the robust core (hit/miss, t, point or normal)
    std::string difference;   ///< what differs, readable
};

struct ShapeResult {
    std::optional<RayHit<double>> hit;          ///< the core's line passage
    std::optional<SurfaceHit<double>> surface;  ///< first_surface(): what picking uses
    std::optional<VariantResult> variant;       ///< when comparison is on for this type
};

struct PickResult {
    Ray<double> ray;
    std::vector<ShapeResult> shapes;  ///< one per scene shape, same order
    std::optional<std::size_t> nearest;
    double micros = 0.0;              ///< time of the casts (core only) in microseconds
    std::size_t hit_count = 0;
    std::vector<std::size_t> hits;    ///< indices of the shapes hit, ascending
    /// Whether entries outside `hits` may hold anything (a variant, or a result not yet cleared);
    /// false lets the next cast clear just the entries in `hits`.
    bool entries_beyond_hits = true;
};

/// Whether shapes of `type` have a textbook variant to compare with (geometry/textbook/).
bool has_textbook_variant(ShapeType type);

/// Casts `ray` (range [0, inf)) against every shape; picks the nearest first surface point.
PickResult cast_all(const Scene& scene, const Ray<double>& ray, const CompareOptions& compare);
/// The same into `out`, reusing its memory (the demo casts every frame: no allocation per frame).
void cast_all(const Scene& scene, const Ray<double>& ray, const CompareOptions& compare, PickResult& out);
/// The same through `bvh`, which must hold scene.shapes in order: only the shapes the ray reaches
/// are cast, so the cost follows the hits, not the scene's size. Every shape result is exactly
/// cast_all()'s. With a textbook comparison on (which needs every shape of its types), this is
/// cast_all() itself.
void cast_all(const Bvh<double>& bvh, const Scene& scene, const Ray<double>& ray, const CompareOptions& compare,
              PickResult& out);
/// A textbook variant's point for one of the scene's own rays (the rays of a case file).
struct VariantPoint {
    std::size_t ray = 0, shape = 0;
    Vec3d point{0.0}, normal{0.0};  ///< the normal may be non-finite (the variant's own answer)
    bool differs = false;           ///< the variant disagrees with the core for this ray and shape
};
/// The textbook variants' points for the scene's own rays, as cast_all() gives them for the mouse
/// ray (each ray as it is; the variants know no range), for the shape types `compare` enables; the
/// first `max_rays` rays, while rays x shapes stays under `max_casts`. Empty with no type enabled.
std::vector<VariantPoint> scene_ray_variants(const Scene& scene, const CompareOptions& compare,
                                             std::size_t max_rays = 200, std::size_t max_casts = 200000);
/// `out` as a result with no ray cast: one empty ShapeResult per shape, reusing its memory.
void clear_result(PickResult& out, std::size_t shape_count);

/// The nearest shape along the ray by brute force over every shape, or empty. The reference that
/// ScenePicker is tested against.
std::optional<std::size_t> pick_nearest(const Scene& scene, const Ray<double>& ray);

/// Nearest-shape picking (hover and click) through raypick's bounding volume hierarchy, kept in
/// step with the editor's scene from its change sets: shapes whose parameters changed are
/// refitted, a structural change (shapes added, removed, reordered, or a change of type) rebuilds.
/// Same answer as pick_nearest().
class ScenePicker {
public:
    std::optional<std::size_t> pick(const SceneEditor& editor, const Ray<double>& ray);
    /// A scene outside any editor: the hierarchy is built for it (a rebuild), and the next pick
    /// through an editor builds again.
    std::optional<std::size_t> pick(const Scene& scene, const Ray<double>& ray);
    /// cast_all() through the hierarchy, synced first as pick(editor, ray) does.
    void cast_all(const SceneEditor& editor, const Ray<double>& ray, const CompareOptions& compare, PickResult& out);
    std::size_t rebuilds() const { return rebuilds_; }
    std::size_t refits() const { return refits_; }
    double last_pick_us() const { return last_pick_us_; }

private:
    void sync(const SceneEditor& editor);
    void build(const Scene& scene);
    std::optional<std::size_t> pick_synced(const Ray<double>& ray);
    Bvh<double> bvh_;
    std::optional<std::uint64_t> synced_version_;  ///< the editor's version bvh_ holds
    std::size_t rebuilds_ = 0;
    std::size_t refits_ = 0;
    double last_pick_us_ = 0.0;
};

struct TriangleReadout;

/// Plain-text report of a result in full precision (see full()), for "copy as text": what the ray
/// picks, every shape it hits (or every shape, with include_misses) and, with `mesh`, the nearest
/// mesh instance's triangle (MeshPicking.h).
std::string format_result(const Scene& scene, const PickResult& result, bool include_misses,
                          const TriangleReadout* mesh = nullptr);

/// Where `ray` crosses `shape` when it is a triangle: its intersect() (barycentric weights of a, b,
/// c and the face it arrives at), for the readouts. Empty for another type or a miss.
std::optional<TriangleHit<double>> triangle_hit(const Shape<double>& shape, const Ray<double>& ray);
/// "barycentric (wa, wb, wc), front face" / "..., back face".
std::string format_triangle_hit(const TriangleHit<double>& h);

/// A double as the shortest text that reads back as the same double (raypick::shortest: "0.1", not
/// "0.10000000000000001") / "(x, y, z)" of those.
std::string full(double v);
std::string full(const Vec3<double>& v);

}  // namespace raypick::app
