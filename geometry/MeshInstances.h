// raypick geometry: instances of triangle meshes — a MeshBvh placed by an affine transform, any
// number of instances sharing one mesh — and a top-level hierarchy over them that refits when
// instances move (the meshes' own hierarchies are never rebuilt).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <raypick/geometry/MeshBvh.h>

namespace raypick {

/// The affine map p -> linear * p + translation (column vectors: linear[c] is column c).
template <typename T> struct Affine {
    Mat3<T> linear{T(1)};
    Vec3<T> translation{T(0)};
};

template <typename T> inline Vec3<T> apply(const Affine<T>& a, const Vec3<T>& p) { return a.linear * p + a.translation; }

/// Empty when the map is valid: finite, and its linear part invertible with a finite inverse
/// (rotation, non-uniform and negative scale, shear all are); else which field is wrong and why.
template <typename T> std::optional<InputError> validate(const Affine<T>& a) {
    using detail::str;
    if (!is_finite(a.linear)) return InputError{"linear", "the linear part must be finite"};
    if (!is_finite(a.translation))
        return InputError{"translation", "translation must be finite, got " + str(a.translation)};
    const T det = glm::determinant(a.linear);
    if (!(det != T(0)) || !is_finite(glm::inverse(a.linear)))
        return InputError{"linear", "the linear part must be invertible, its determinant is " + str(det)};
    return std::nullopt;
}

/// Mesh number `mesh` (of the meshes an InstanceBvh is given) placed by `transform`. A transform
/// with a negative determinant mirrors the mesh; its triangles then keep facing the way they face
/// in the mesh (their winding is reversed with it), so front and back mean the same for every
/// instance.
template <typename T> struct Instance {
    std::uint32_t mesh = 0;
    Affine<T> transform;
};

/// Where a ray crosses an instance: the instance's index and the hit in world space — t along the
/// world ray, the triangle and its barycentrics as in the mesh, the geometric and interpolated
/// normals mapped by the inverse transpose of the linear part, then normalised (the geometric one
/// from the triangle's area vector: one rounding), front as in the mesh.
template <typename T> struct InstanceHit {
    std::uint32_t instance = 0;
    MeshHit<T> hit;
};

namespace mesh_instances {

/// What the top-level leaves hold per instance: the world-to-mesh map and the mesh.
template <typename T> struct alignas(64) Placed {
    Mat3<T> inverse;        ///< of the linear part
    Vec3<T> translation;
    const MeshBvh<T>* mesh = nullptr;
    std::uint32_t instance = 0;
};

/// Instance i's record: its inverse map and mesh.
template <typename T> inline Placed<T> placed(const Instance<T>& inst, const MeshBvh<T>* mesh, std::uint32_t i) {
    return {glm::inverse(inst.transform.linear), inst.transform.translation, mesh, i};
}

/// The ray in mesh coordinates: origin inverse * (origin - translation), direction inverse *
/// direction (not normalised, so t is the same parameter along both). In vector lanes, column by
/// column in glm's order ((c0 x + c1 y) + c2 z), so each component is the product glm computes.
template <typename T> inline Ray<T> to_mesh(const Placed<T>& p, const Ray<T>& ray) {
    static_assert(offsetof(Placed<T>, translation) == sizeof(Mat3<T>) &&
                  sizeof(Placed<T>) >= offsetof(Placed<T>, translation) + 4 * sizeof(T));
    using L = detail::Lanes4<T>;
    L c0, c1, c2, t, o, d;
    detail::load_followed(p.inverse[0], c0);  // each column followed by the next, the last by
    detail::load_followed(p.inverse[1], c1);  // the translation, the translation by the mesh
    detail::load_followed(p.inverse[2], c2);
    detail::load_followed(p.translation, t);
    detail::load_followed(ray.origin, o);
    detail::load_preceded(ray.direction, d);
    const L v = o - t;
    const L mo = (c0 * v[0] + c1 * v[1]) + c2 * v[2], md = (c0 * d[0] + c1 * d[1]) + c2 * d[2];
    return {{mo[0], mo[1], mo[2]}, {md[0], md[1], md[2]}};
}

/// The world frame of a placed mesh's normals (MeshBvh::hit()'s frame): a vector times the
/// inverse transpose of the placing map's linear part, in the vector's own precision (the
/// triangle's area vector is in TriangleWide<T>), so a world normal is normalised once.
template <typename T> struct NormalFrame {
    using W = detail::TriangleWide<T>;
    Mat3<T> map;
    Mat3<W> wide_map;

    explicit NormalFrame(const Mat3<T>& inverse) : map(glm::transpose(inverse)), wide_map(map) {}

    template <typename U> Vec3<U> operator()(const Vec3<U>& v) const {
        if constexpr (std::is_same_v<U, T>) return map * v;
        else return wide_map * v;
    }
};

/// Largest |entry| of m (its max norm).
template <typename T> inline T max_entry(const Mat3<T>& m) {
    return std::max(detail::max_abs(m[0]), std::max(detail::max_abs(m[1]), detail::max_abs(m[2])));
}

}  // namespace mesh_instances

template <typename T> struct InstanceClosest;  // InstanceClosest.inl

/// Instances of triangle meshes and a hierarchy over them (16-wide nodes as MeshBvh's, a leaf per
/// instance), for nearest-hit and every-hit picking.
///
/// - pick() gives exactly what testing every instance in index order would (pick_nearest_instance()):
///   each instance's mesh is searched along the ray mapped into mesh coordinates; ties in t go to
///   the smaller instance index, then the smaller triangle index.
/// - Instances' world boxes are the box of the mapped corners of the mesh's cover (MeshBvh::cover(),
///   up to 256 boxes of its tree's top levels: tight under rotation, where the mesh box's own
///   corners would not be), padded by the rounding of the ray's mapping (scaled by the map's
///   condition), so culling never drops an instance whose mesh the mapped ray hits.
/// - set_transform() then refit() moves instances: the boxes are recomputed bottom-up, the
///   hierarchy's shape kept; rebuild() rebuilds it (better after large moves). Picks after a
///   refit equal those after a rebuild.
/// - Meshes are shared (shared_ptr) and immutable. Const member functions may run concurrently.
/// - A pick nests the mesh's walk in the top-level one, each with its stack on the calling
///   thread's stack (README, "Stack": about 36 KB for a float pick, 70 KB for a double one, 99
///   and 160 KB for a bundle).
template <typename T> class InstanceBvh {
public:
    using Node = mesh_bvh::Node<T>;
    using Placed = mesh_instances::Placed<T>;

    InstanceBvh() = default;

    /// Throws std::invalid_argument naming the first bad instance ("instances[4].mesh: ...",
    /// "instances[4].transform.linear: ...") or a null mesh ("meshes[2] is null").
    InstanceBvh(std::vector<std::shared_ptr<const MeshBvh<T>>> meshes, std::vector<Instance<T>> instances,
                BatchIsa isa = BatchIsa::Auto)
        : meshes_(std::move(meshes)), instances_(std::move(instances)) {
        for (std::size_t m = 0; m < meshes_.size(); ++m)
            if (!meshes_[m]) throw std::invalid_argument("raypick::InstanceBvh: meshes[" + std::to_string(m) + "] is null");
        for (std::size_t i = 0; i < instances_.size(); ++i) check(std::uint32_t(i), instances_[i]);
        if (instances_.size() > mesh_bvh::kFirstMask) throw std::length_error("raypick::InstanceBvh: too many instances");
        isa_ = effective_isa(isa);
        rebuild();
    }

    const std::vector<Instance<T>>& instances() const { return instances_; }
    const std::vector<std::shared_ptr<const MeshBvh<T>>>& meshes() const { return meshes_; }

    /// Moves instance i; picks see it after refit() or rebuild(). Throws std::invalid_argument
    /// for i out of range or an invalid transform, and changes nothing then.
    void set_transform(std::uint32_t i, const Affine<T>& transform) {
        if (i >= instances_.size())
            throw std::invalid_argument("raypick::InstanceBvh::set_transform: instance " + std::to_string(i) +
                                        " out of range (" + std::to_string(instances_.size()) + " instances)");
        Instance<T> moved = instances_[i];
        moved.transform = transform;
        check(i, moved);
        instances_[i] = moved;
        place(slot_of_[i]);
    }

    /// Recomputes every box from the instances' current transforms, keeping the hierarchy's shape.
    void refit() {
        for (std::size_t k = nodes_.size(); k-- > 0;) {
            Node& n = nodes_[k];
            for (int c = 0; c < mesh_bvh::kWidth; ++c) {
                if (n.child[c] == mesh_bvh::kNone) continue;
                Aabb<T> b{Vec3<T>(infinity<T>()), Vec3<T>(-infinity<T>())};
                if (n.child[c] & mesh_bvh::kLeaf) {
                    const std::uint32_t first = mesh_bvh::leaf_first(n.child[c]);
                    for (std::uint32_t s = first; s < first + mesh_bvh::leaf_count(n.child[c]); ++s) grow(b, boxes_[s]);
                } else {
                    const Node& m = nodes_[n.child[c]];
                    for (int d = 0; d < mesh_bvh::kWidth; ++d)
                        if (m.child[d] != mesh_bvh::kNone)
                            grow(b, {Vec3<T>(m.lo[0][d], m.lo[1][d], m.lo[2][d]), Vec3<T>(m.hi[0][d], m.hi[1][d], m.hi[2][d])});
                }
                for (int a = 0; a < 3; ++a) {
                    n.lo[a][c] = b.min[a];
                    n.hi[a][c] = b.max[a];
                }
            }
        }
        update_extent();
    }

    /// Rebuilds the hierarchy over the instances' current boxes.
    void rebuild() {
        const auto n = std::uint32_t(instances_.size());
        nodes_.clear();
        placed_.assign(n, Placed{});
        boxes_.assign(n, Aabb<T>{});
        slot_of_.assign(n, 0);
        for (std::uint32_t i = 0; i < n; ++i) {
            slot_of_[i] = i;
            place(i, i);
        }
        if (n == 0) return;
        std::vector<Placed> placed = placed_;
        std::vector<Aabb<T>> boxes = boxes_;
        bvh_build::Settings settings;
        settings.max_leaf_size = 1;  // each instance culled by its own box before its ray is mapped
        settings.max_depth = mesh_bvh::kMaxDepth;
        const bvh_build::Tree<T> tree =
            bvh_build::Builder<T>().build(n, [&](std::uint32_t i) { return boxes[i]; }, settings);
        for (std::uint32_t s = 0; s < n; ++s) {
            placed_[s] = placed[tree.order[s]];
            boxes_[s] = boxes[tree.order[s]];
            slot_of_[tree.order[s]] = s;
        }
        mesh_bvh::Collapse<T>(tree.nodes, nodes_, 1).build(
            [](std::uint32_t first, std::uint32_t count) { return mesh_bvh::leaf_ref(first, count); });
        update_extent();
    }

    /// Nearest instance hit with t in [t_min, t_max] (see the class comment for ties). Empty for a
    /// miss, an invalid ray or t_min > t_max.
    std::optional<InstanceHit<T>> pick(const Ray<T>& ray, T t_min = T(0), T t_max = infinity<T>()) const {
        std::optional<InstanceHit<T>> out;
        if (nodes_.empty() || !is_valid(ray) || !detail::valid_range(t_min, t_max)) return out;
        mesh_bvh::Best<T> best{t_max};
        const Placed* best_at = nullptr;
        Ray<T> best_ray;
        const auto leaf = [&](std::uint32_t first, std::uint32_t count, T& limit) {
            for (std::uint32_t s = first; s < first + count; ++s) {
                const Placed& p = placed_[s];
                const Ray<T> local = mesh_instances::to_mesh(p, ray);
                mesh_bvh::Best<T> b{best.t};
                if (!p.mesh->nearest(local, t_min, b)) continue;
                if (b.t < best.t || !best_at || p.instance < best_at->instance) {
                    best = b;
                    best_at = &p;
                    best_ray = local;
                }
            }
            limit = best.t;
        };
        walk(ray, t_min, t_max, leaf);
        if (best_at)
            out = InstanceHit<T>{best_at->instance, best_at->mesh->hit(best_ray, best, normal_frame(*best_at))};
        return out;
    }

    /// Picks for a bundle of rays at once (coherent rays such as an 8 x 8 tile of pixels from one
    /// eye): out[i] is exactly pick(rays[i], t_min, t_max), for any rays. The rays walk the
    /// instance tree together and each instance's mesh tree together, mapped into mesh space
    /// (InstanceBundle.inl); bundles larger than kMaxBundle are split.
    void pick_bundle(const Ray<T>* rays, std::size_t count, std::optional<InstanceHit<T>>* out, T t_min = T(0),
                     T t_max = infinity<T>()) const;
    /// The same with a range per ray: out[i] is exactly pick(rays[i], t_min, t_max[i]).
    void pick_bundle(const Ray<T>* rays, std::size_t count, std::optional<InstanceHit<T>>* out, T t_min,
                     const T* t_max) const;
    /// Rays per bundle walk.
    static constexpr std::size_t kMaxBundle = MeshBvh<T>::kMaxBundle;

    /// Every instance triangle the ray hits with t in [t_min, t_max], sorted by t, then instance,
    /// then triangle. Empty for an invalid ray or range.
    std::vector<InstanceHit<T>> hits(const Ray<T>& ray, T t_min = T(0), T t_max = infinity<T>()) const {
        std::vector<InstanceHit<T>> out;
        if (nodes_.empty() || !is_valid(ray) || !detail::valid_range(t_min, t_max)) return out;
        const auto leaf = [&](std::uint32_t first, std::uint32_t count, T&) {
            for (std::uint32_t s = first; s < first + count; ++s) {
                const Placed& p = placed_[s];
                for (const MeshHit<T>& h : p.mesh->hits(mesh_instances::to_mesh(p, ray), t_min, t_max, normal_frame(p)))
                    out.push_back({p.instance, h});
            }
        };
        walk(ray, t_min, t_max, leaf);
        std::sort(out.begin(), out.end(), [](const InstanceHit<T>& a, const InstanceHit<T>& b) {
            if (a.hit.t != b.hit.t) return a.hit.t < b.hit.t;
            if (a.instance != b.instance) return a.instance < b.instance;
            return a.hit.triangle < b.hit.triangle;
        });
        return out;
    }

    /// Calls fn(const mesh_instances::Placed<T>& p) for each instance whose box the ray crosses
    /// within [t_min, t_max], nearer boxes first (p.instance is its index; to_mesh(p, ray) the ray
    /// in its mesh, normal_frame(p) its normals' map), until fn returns true; returns whether it
    /// did. Nothing for an invalid ray or range.
    template <typename Fn> bool visit_instances(const Ray<T>& ray, T t_min, T t_max, const Fn& fn) const {
        if (nodes_.empty() || !is_valid(ray) || !detail::valid_range(t_min, t_max)) return false;
        bool stop = false;
        const auto leaf = [&](std::uint32_t first, std::uint32_t count, T& limit) {
            for (std::uint32_t s = first; s < first + count && !stop; ++s) stop = fn(placed_[s]);
            if (stop) limit = -infinity<T>();  // no child is entered below -inf
        };
        walk(ray, t_min, t_max, leaf);
        return stop;
    }

    /// Whether the ray hits a triangle of some instance with t in [t_min, t_max]: exactly when
    /// pick() would not be empty, found by walks that stop at the first hit.
    bool occluded(const Ray<T>& ray, T t_min = T(0), T t_max = infinity<T>()) const {
        return visit_instances(ray, t_min, t_max, [&](const Placed& p) {
            return p.mesh->occluded(mesh_instances::to_mesh(p, ray), t_min, t_max);
        });
    }

    /// The world frame of instance p's normals (MeshBvh::hit()'s frame argument).
    static mesh_instances::NormalFrame<T> normal_frame(const Placed& p) { return mesh_instances::NormalFrame<T>(p.inverse); }

    /// Instance i alone: its mesh's pick of the ray mapped into it, the hit in world space as
    /// pick() gives it. Empty for a miss, an invalid ray or range, or i out of range.
    std::optional<MeshHit<T>> pick_instance(std::uint32_t i, const Ray<T>& ray, T t_min = T(0),
                                            T t_max = infinity<T>()) const {
        if (i >= instances_.size() || !is_valid(ray) || !detail::valid_range(t_min, t_max)) return std::nullopt;
        const Placed& p = placed_[slot_of_[i]];
        const Ray<T> local = mesh_instances::to_mesh(p, ray);
        mesh_bvh::Best<T> best{t_max};
        if (!p.mesh->nearest(local, t_min, best)) return std::nullopt;
        return p.mesh->hit(local, best, normal_frame(p));
    }

    /// World box of instance i as the hierarchy holds it (padded).
    Aabb<T> bounds(std::uint32_t i) const { return boxes_[slot_of_[i]]; }

    // Closest points (InstanceClosest.inl).

    /// The instance triangle nearest to world point p within max_distance (world units), in world
    /// space: exactly closest_instance(*this, p, max_distance), the brute-force loop (ties in
    /// distance go to the smaller instance, then the smaller triangle). Each triangle is measured
    /// placed (its vertices mapped), as the map may scale, shear or mirror; the normal is the one
    /// pick() gives (mesh_instances::closest_placed()). The instance tree is walked by world box
    /// distance, each instance's mesh tree from p mapped into it, its boxes scaled by a lower bound
    /// of the map's smallest singular value. Moved instances count after refit() or rebuild(), as
    /// for picks. Empty for a non-finite p, a negative or NaN max_distance, or nothing within it.
    /// keep(instance): whether an instance takes part (a filter's; default all).
    template <typename Keep = KeepAll>
    std::optional<InstanceClosest<T>> closest_point(const Vec3<T>& p, T max_distance = infinity<T>(),
                                                    const Keep& keep = {}) const;

private:
    static void grow(Aabb<T>& b, const Aabb<T>& x) {
        b.min = glm::min(b.min, x.min);
        b.max = glm::max(b.max, x.max);
    }

    void check(std::uint32_t i, const Instance<T>& inst) const {
        const std::string at = "raypick::InstanceBvh: instances[" + std::to_string(i) + "]";
        if (inst.mesh >= meshes_.size())
            throw std::invalid_argument(at + ".mesh: mesh " + std::to_string(inst.mesh) + " out of range (" +
                                        std::to_string(meshes_.size()) + " meshes)");
        if (const auto err = validate(inst.transform))
            throw std::invalid_argument(at + ".transform." + err->field + ": " + err->message);
    }

    /// Slot s's leaf record and world box from instance i (default: the one slot s holds).
    void place(std::uint32_t s, std::uint32_t i = mesh_bvh::kNone) {
        if (i == mesh_bvh::kNone) i = placed_[s].instance;
        const Instance<T>& inst = instances_[i];
        const MeshBvh<T>& mesh = *meshes_[inst.mesh];
        Placed& p = placed_[s];
        p = mesh_instances::placed(inst, &mesh, i);
        // The mesh's cover boxes mapped (every triangle lies in one of them, so its image lies in
        // the box of their images), padded by the mapped ray's rounding: a few ulps of the box's
        // and translation's magnitudes, times the map's condition. A box's image, per world axis
        // w: the least and greatest of the products linear[j][w] * (its min or max along j),
        // summed in apply()'s order; rounding is monotonic, so these bound every corner as
        // apply() maps it, at a quarter of the work of mapping the eight corners.
        Aabb<T> b{Vec3<T>(infinity<T>()), Vec3<T>(-infinity<T>())};
        if (!mesh.cover().empty()) {
            const Mat3<T>& m = inst.transform.linear;
            for (const Aabb<T>& mb : mesh.cover()) {
                Vec3<T> lo(T(0)), hi(T(0));
                for (int w = 0; w < 3; ++w) {
                    T sum_lo = T(0), sum_hi = T(0);
                    for (int j = 0; j < 3; ++j) {
                        const T at_min = m[j][w] * mb.min[j], at_max = m[j][w] * mb.max[j];
                        sum_lo = j == 0 ? std::min(at_min, at_max) : sum_lo + std::min(at_min, at_max);
                        sum_hi = j == 0 ? std::max(at_min, at_max) : sum_hi + std::max(at_min, at_max);
                    }
                    lo[w] = sum_lo + inst.transform.translation[w];
                    hi[w] = sum_hi + inst.transform.translation[w];
                }
                b.min = glm::min(b.min, lo);
                b.max = glm::max(b.max, hi);
            }
            // A mesh reaching the largest finite values has an infinite padded box, whose corners map
            // to infinities and NaNs (inf * 0): such an instance is bounded by all of space.
            if (!is_finite(b.min) || !is_finite(b.max)) b = {Vec3<T>(-infinity<T>()), Vec3<T>(infinity<T>())};
            const T cond = mesh_instances::max_entry(inst.transform.linear) * mesh_instances::max_entry(p.inverse);
            const T mag = std::max(detail::max_abs(b.min), detail::max_abs(b.max)) + detail::max_abs(p.translation);
            const Vec3<T> pad(T(64) * std::numeric_limits<T>::epsilon() * (T(1) + cond) * mag +
                              std::numeric_limits<T>::min());
            b = {b.min - pad, b.max + pad};
            cond_ = std::max(cond_, cond);
        }
        boxes_[s] = b;
    }

    /// The scene's magnitude and the root's box (its children's), as the walks see them.
    void update_extent() {
        scene_mag_ = T(0);
        for (const Aabb<T>& b : boxes_)
            if (b.min.x <= b.max.x) scene_mag_ = std::max(scene_mag_, std::max(detail::max_abs(b.min), detail::max_abs(b.max)));
        scene_mag_ = std::min(scene_mag_, std::numeric_limits<T>::max());
        root_ = {Vec3<T>(infinity<T>()), Vec3<T>(-infinity<T>())};
        if (nodes_.empty()) return;
        for (int c = 0; c < mesh_bvh::kWidth; ++c)
            if (nodes_[0].child[c] != mesh_bvh::kNone)
                for (int a = 0; a < 3; ++a) {
                    root_.min[a] = std::min(root_.min[a], nodes_[0].lo[a][c]);
                    root_.max[a] = std::max(root_.max[a], nodes_[0].hi[a][c]);
                }
    }

    /// The scene magnitude walk() gives ray_consts() for a ray with |origin|_inf = origin_mag: the
    /// world ray's rounding and the mapped ray's (scaled by the maps' condition), in space. For a T
    /// or, lane by lane with the same operations, a Lanes4<T> (written to `out`, as in Lanes.h).
    template <typename V> void walk_mag(const V& origin_mag, V& out) const {
        const V mag = (T(1) + cond_) * (scene_mag_ + origin_mag), most = V{} + std::numeric_limits<T>::max();
        out = most < mag ? most : mag;  // std::min(mag, max)
    }

    template <typename Leaf> void walk(const Ray<T>& ray, T t_min, T t_max, const Leaf& leaf) const {
        T mag;
        walk_mag(detail::max_abs(ray.origin), mag);
        const auto rc = mesh_bvh::ray_consts(ray, mag);
        T limit = t_max;
        const char* leaves = reinterpret_cast<const char*>(placed_.data());
        mesh_bvh::with_walk(isa_, [&](auto w) { w.walk_tree(nodes_.data(), leaves, sizeof(Placed), rc, t_min, limit, leaf); });
    }

    std::vector<std::shared_ptr<const MeshBvh<T>>> meshes_;
    std::vector<Instance<T>> instances_;
    LargeVector<Node> nodes_;
    std::vector<Placed> placed_;       ///< by slot (the hierarchy's leaf order)
    std::vector<Aabb<T>> boxes_;       ///< world boxes by slot
    std::vector<std::uint32_t> slot_of_;  ///< instance -> slot
    T scene_mag_ = T(0), cond_ = T(0);
    Aabb<T> root_{Vec3<T>(infinity<T>()), Vec3<T>(-infinity<T>())};  ///< the root node's children's box
    BatchIsa isa_ = BatchIsa::Sse2;  ///< the walk's, an effective_isa()
};

/// Nearest instance hit by testing every instance in index order: the reference InstanceBvh is
/// tested against, with the same contract as InstanceBvh::pick. An instance whose map takes the
/// ray to an invalid one (overflow, underflow) is not hit.
template <typename T>
std::optional<InstanceHit<T>> pick_nearest_instance(const InstanceBvh<T>& bvh, const Ray<T>& ray, T t_min = T(0),
                                                    T t_max = infinity<T>()) {
    std::optional<InstanceHit<T>> best;
    // An invalid world ray misses, whatever its mapping into a mesh would be.
    if (!is_valid(ray) || !detail::valid_range(t_min, t_max)) return best;
    for (std::uint32_t i = 0; i < bvh.instances().size(); ++i) {
        const auto h = bvh.pick_instance(i, ray, t_min, best ? best->hit.t : t_max);
        if (!h || (best && h->t == best->hit.t)) continue;  // a tie keeps the smaller instance
        best = InstanceHit<T>{i, *h};
    }
    return best;
}

}  // namespace raypick

#include <raypick/geometry/InstanceBundle.inl>
#include <raypick/geometry/InstanceClosest.inl>
