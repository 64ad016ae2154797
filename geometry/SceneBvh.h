// raypick geometry: one scene to query — shapes, triangle meshes and their instances together,
// each object with a stable id and a mask — and every question asked of it: the nearest hit, any
// hit (occlusion), every crossing along a ray, which objects contain a point. The scene is made of
// the hierarchies it holds (a shape Bvh, an InstanceBvh over shared MeshBvhs); each query walks
// them with the policy passed in, as the per-hierarchy queries do.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <raypick/geometry/Bvh.h>
#include <raypick/geometry/ClosestPoint.h>
#include <raypick/geometry/MeshClosure.h>
#include <raypick/geometry/MeshInstances.h>
#include <raypick/geometry/MixedPick.h>
#include <raypick/geometry/PointInside.h>
#include <raypick/geometry/TriangleCrossing.h>

namespace raypick {

/// An object's id in a SceneBvh: given by add_shape() or add_instance(), stable until the object
/// is removed, never given again.
using ObjectId = std::uint32_t;
inline constexpr ObjectId kNoObject = std::numeric_limits<ObjectId>::max();
/// The triangle of a hit on a shape (shapes have none).
inline constexpr std::uint32_t kNoTriangle = std::numeric_limits<std::uint32_t>::max();

/// A hit a filter is asked about, before it is taken.
template <typename T> struct HitCandidate {
    ObjectId object = kNoObject;
    std::uint32_t triangle = kNoTriangle;  ///< a mesh instance's triangle; kNoTriangle for a shape
    T t = T(0);
    /// The ray arrives at the surface's outer side: a triangle's front face (triangle shapes
    /// included), a shape's entry.
    bool front = false;
};

/// Which objects and hits a query sees.
/// - mask: an object takes part when (its mask & mask) != 0 (objects have mask ~0 unless set).
/// - cull_back_faces: triangles met from behind (front == false) are skipped, mesh triangles and
///   triangle shapes alike; other shapes are never culled.
/// - accept: asked about each remaining candidate hit; rejected ones are skipped, and the query
///   answers as if they were not there (the nearest accepted hit is still exact).
template <typename T> struct QueryFilter {
    std::uint32_t mask = ~std::uint32_t(0);
    bool cull_back_faces = false;
    std::function<bool(const HitCandidate<T>&)> accept;

    /// Whether the filter lets every hit through (the queries' unfiltered paths then serve).
    bool passes_all() const { return mask == ~std::uint32_t(0) && !cull_back_faces && !accept; }
};

/// The nearest hit of a scene query.
template <typename T> struct SceneHit {
    ObjectId object = kNoObject;
    std::uint32_t triangle = kNoTriangle;  ///< for a mesh instance
    T t = T(0);                            ///< in units of the ray's direction
    Vec3<T> point{T(0)};                   ///< ray.at(t)
    /// Unit normal: a shape's outward normal, a triangle's winding normal (world space for an
    /// instance, mapped by the inverse transpose).
    Vec3<T> normal{T(0)};
    Vec3<T> barycentric{T(0)};  ///< a mesh triangle's weights of its vertices a, b, c
    bool front = false;         ///< as HitCandidate::front
};

/// What a crossing does.
enum class CrossingKind : std::uint8_t {
    Enter,  ///< into the object's solid (a front face, a shape's entry)
    Leave,  ///< out of it (a back face, a shape's exit)
    Touch,  ///< meets the surface and stays on its side (tangent, or a contour edge or vertex)
};

/// One crossing of a ray with an object's surface.
template <typename T> struct Crossing {
    T t = T(0);
    ObjectId object = kNoObject;
    std::uint32_t triangle = kNoTriangle;  ///< for a mesh instance: the triangle taking the crossing
    CrossingKind kind = CrossingKind::Enter;
};

/// The surface point nearest to a query point.
template <typename T> struct SceneClosest {
    ObjectId object = kNoObject;
    std::uint32_t triangle = kNoTriangle;  ///< for a mesh instance
    /// Distance, point, unit normal, feature (face, edge, vertex) and its index, as
    /// closest_point() of the shape or of the instance's placed triangle gives them; `inside` is
    /// the object's exact classify() (Inside).
    SurfacePoint<T> surface;
    Vec3<T> barycentric{T(0)};  ///< a mesh triangle's weights of its vertices a, b, c at the point
};

/// A scene of shapes and mesh instances with stable object ids, for every query.
///
/// - add_shape() and add_instance() give ids; add_mesh() adds a mesh for instances to share;
///   set_shape(), set_transform(), set_mask() and remove() change objects. Changes take effect
///   at commit(): moves refit the hierarchies (Bvh::update(), InstanceBvh::refit()), additions and
///   removals rebuild the hierarchy they touch. A query on a scene with changes not committed
///   throws std::logic_error.
/// - Bad input throws std::invalid_argument naming what is wrong: an invalid shape (its field, as
///   validate() says), an invalid transform, an unknown id or mesh.
/// - Const member functions may run concurrently once committed.
template <typename T> class SceneBvh {
public:
    using MeshId = std::uint32_t;

    SceneBvh() = default;

    /// Adds a shape; its id.
    ObjectId add_shape(const Shape<T>& shape, std::uint32_t mask = ~std::uint32_t(0)) {
        check_shape("add_shape", shape);
        objects_.push_back({Kind::Shape, 0, mask, true});
        zero_masks_ += mask == 0;
        shapes_dirty_ = true;
        shape_values_.push_back({ObjectId(objects_.size() - 1), shape});
        return ObjectId(objects_.size() - 1);
    }

    /// Adds a mesh for instances (built into its hierarchy here); its id. Throws for an invalid
    /// mesh (MeshBvh's message).
    MeshId add_mesh(TriangleMesh<T> mesh) { return add_mesh(std::make_shared<const MeshBvh<T>>(std::move(mesh))); }
    MeshId add_mesh(std::shared_ptr<const MeshBvh<T>> mesh) {
        if (!mesh) throw std::invalid_argument("raypick::SceneBvh::add_mesh: the mesh is null");
        closure_.push_back(mesh_closure(mesh->mesh()));
        meshes_.push_back(std::move(mesh));
        return MeshId(meshes_.size() - 1);
    }

    /// Places mesh `mesh` by `transform`; its id.
    ObjectId add_instance(MeshId mesh, const Affine<T>& transform, std::uint32_t mask = ~std::uint32_t(0)) {
        if (mesh >= meshes_.size())
            throw std::invalid_argument("raypick::SceneBvh::add_instance: mesh " + std::to_string(mesh) +
                                        " out of range (" + std::to_string(meshes_.size()) + " meshes)");
        check_transform("add_instance", transform);
        objects_.push_back({Kind::Instance, 0, mask, true});
        zero_masks_ += mask == 0;
        instance_values_.push_back({ObjectId(objects_.size() - 1), Instance<T>{mesh, transform}});
        instances_dirty_ = true;
        return ObjectId(objects_.size() - 1);
    }

    /// Replaces shape `id` (a shape object).
    void set_shape(ObjectId id, const Shape<T>& shape) {
        Object& o = object(id, "set_shape", Kind::Shape);
        check_shape("set_shape", shape);
        shape_values_[o.slot].shape = shape;
        if (!shapes_dirty_) moved_shapes_.push_back(o.slot);
    }

    /// Moves instance `id`.
    void set_transform(ObjectId id, const Affine<T>& transform) {
        Object& o = object(id, "set_transform", Kind::Instance);
        check_transform("set_transform", transform);
        instance_values_[o.slot].instance.transform = transform;
        if (!instances_dirty_) moved_instances_.push_back(o.slot);
    }

    /// Sets object `id`'s mask (takes effect at once).
    void set_mask(ObjectId id, std::uint32_t mask) {
        Object& o = object(id, "set_mask");
        zero_masks_ = zero_masks_ - (o.mask == 0) + (mask == 0);
        o.mask = mask;
    }
    std::uint32_t mask(ObjectId id) const { return object(id, "mask").mask; }

    /// Removes object `id`; its id is not given again.
    void remove(ObjectId id) {
        Object& o = object(id, "remove");
        o.live = false;
        zero_masks_ -= o.mask == 0;
        (o.kind == Kind::Shape ? shapes_dirty_ : instances_dirty_) = true;
    }

    /// Brings the hierarchies up to date with the changes since the last commit.
    void commit() {
        if (shapes_dirty_) {
            std::vector<ShapeSlot> kept;
            for (auto& s : shape_values_)
                if (objects_[s.id].live) kept.push_back(std::move(s));
            shape_values_ = std::move(kept);
            std::vector<Shape<T>> shapes;
            for (std::uint32_t k = 0; k < shape_values_.size(); ++k) {
                objects_[shape_values_[k].id].slot = k;
                shapes.push_back(shape_values_[k].shape);
            }
            shapes_.build(shapes);
        } else {
            for (std::uint32_t k : moved_shapes_) shapes_.update(k, shape_values_[k].shape);
        }
        if (instances_dirty_) {
            std::vector<InstanceSlot> kept;
            for (auto& s : instance_values_)
                if (objects_[s.id].live) kept.push_back(std::move(s));
            instance_values_ = std::move(kept);
            std::vector<Instance<T>> instances;
            for (std::uint32_t k = 0; k < instance_values_.size(); ++k) {
                objects_[instance_values_[k].id].slot = k;
                instances.push_back(instance_values_[k].instance);
            }
            instances_ = InstanceBvh<T>(meshes_, std::move(instances));
        } else if (!moved_instances_.empty()) {
            for (std::uint32_t k : moved_instances_) instances_.set_transform(k, instance_values_[k].instance.transform);
            instances_.refit();
        }
        shapes_dirty_ = instances_dirty_ = false;
        moved_shapes_.clear();
        moved_instances_.clear();
    }

    /// Whether changes wait for commit().
    bool dirty() const { return shapes_dirty_ || instances_dirty_ || !moved_shapes_.empty() || !moved_instances_.empty(); }

    /// The hierarchies the scene is made of (shape and instance indices are slots: object_of()).
    const Bvh<T>& shapes() const { return shapes_; }
    const InstanceBvh<T>& instances() const { return instances_; }
    const std::vector<std::shared_ptr<const MeshBvh<T>>>& meshes() const { return meshes_; }
    /// The object in shape slot k (shapes()) or instance slot k (instances()).
    ObjectId shape_object(std::uint32_t k) const { return shape_values_[k].id; }
    ObjectId instance_object(std::uint32_t k) const { return instance_values_[k].id; }
    /// Whether mesh m bounds a solid, and what keeps it from doing so.
    const MeshClosure& closure(MeshId m) const { return closure_.at(m); }
    /// Whether `id` names a live object.
    bool contains_object(ObjectId id) const { return id < objects_.size() && objects_[id].live; }

    /// The nearest hit with t in [t_min, t_max] that the filter lets through: the smaller t, at
    /// equal t a shape before an instance (nearer_side()), then the smaller shape or instance
    /// slot, then the smaller triangle. A shape's hit is its first surface point in the range (the
    /// exit when the ray starts inside), as Bvh::pick(). Empty for a miss, an invalid ray or range.
    std::optional<SceneHit<T>> pick(const Ray<T>& ray, T t_min = T(0), T t_max = infinity<T>(),
                                    const QueryFilter<T>& filter = {}) const {
        require_committed("pick");
        std::optional<SceneHit<T>> out;
        if (!is_valid(ray) || !detail::valid_range(t_min, t_max)) return out;
        if (filter.passes_all() && zero_masks() == 0) {
            if (const auto m = pick_mixed(shapes_, instances_, ray, t_min, t_max)) {
                if (m->shape) out = shape_hit(ray, *m->shape);
                else out = instance_hit(ray, *m->instance);
            }
            return out;
        }
        // Shapes: every hit's surface points in order, the first accepted one.
        std::optional<std::pair<T, std::uint32_t>> best_shape;  // t, slot
        SurfaceHit<T> best_surface;
        shapes_.for_each_hit(
            ray,
            [&](std::uint32_t k, const RayHit<T>& h) {
                if (!takes_part(shape_values_[k].id, filter)) return;
                for (const auto& s : surface_points(ray, shape_values_[k].shape, h, t_min, t_max)) {
                    if (best_shape && (s.t > best_shape->first || (s.t == best_shape->first && k > best_shape->second)))
                        break;
                    const bool front = front_of(shape_values_[k].shape, s);
                    if (culled(filter, shape_values_[k].shape, front) ||
                        !accepts(filter, {shape_values_[k].id, kNoTriangle, s.t, front}))
                        continue;
                    best_shape = {s.t, k};
                    best_surface = s;
                    break;
                }
            },
            t_min, t_max);
        // Instances: each triangle hit nearer than the best so far, the accepted ones.
        const T limit = best_shape ? best_shape->first : t_max;
        std::optional<InstanceHit<T>> best_instance;
        instances_.visit_instances(ray, t_min, limit, [&](const mesh_instances::Placed<T>& p) {
            if (!takes_part(instance_values_[p.instance].id, filter)) return false;
            const Ray<T> local = mesh_instances::to_mesh(p, ray);
            p.mesh->visit_hits(local, t_min, limit, [&](const mesh_bvh::Best<T>& b) {
                if (best_instance && !nearer(b.t, p.instance, b.id, *best_instance)) return false;
                if (best_shape && !(b.t < best_shape->first)) return false;  // a shape wins ties
                const MeshHit<T> h = p.mesh->hit(local, b, InstanceBvh<T>::normal_frame(p));
                if (filter.cull_back_faces && !h.front) return false;
                if (!accepts(filter, {instance_values_[p.instance].id, h.triangle, h.t, h.front})) return false;
                best_instance = InstanceHit<T>{p.instance, h};
                return false;
            });
            return false;
        });
        if (best_instance) out = instance_hit(ray, *best_instance);
        else if (best_shape) out = shape_hit(ray, NearestHit<T>{best_shape->second, best_surface, {}});
        return out;
    }

    /// Whether any hit the filter lets through lies in [t_min, t_max] (a shadow ray, a line of
    /// sight): exactly when pick() with the same arguments is not empty, found by walks that stop
    /// at the first such hit. A range wholly inside a shape crosses no surface: not occluded.
    bool occluded(const Ray<T>& ray, T t_min = T(0), T t_max = infinity<T>(), const QueryFilter<T>& filter = {}) const {
        require_committed("occluded");
        if (!is_valid(ray) || !detail::valid_range(t_min, t_max)) return false;
        if (filter.passes_all() && zero_masks() == 0)
            return instances_.occluded(ray, t_min, t_max) || shapes_.pick(ray, t_min, t_max).has_value();
        const bool by_instance = instances_.visit_instances(ray, t_min, t_max, [&](const mesh_instances::Placed<T>& p) {
            const ObjectId id = instance_values_[p.instance].id;
            if (!takes_part(id, filter)) return false;
            const Ray<T> local = mesh_instances::to_mesh(p, ray);
            if (!filter.cull_back_faces && !filter.accept) return p.mesh->occluded(local, t_min, t_max);
            return p.mesh->visit_hits(local, t_min, t_max, [&](const mesh_bvh::Best<T>& b) {
                const bool front = p.mesh->hit(local, b).front;
                return !(filter.cull_back_faces && !front) && accepts(filter, {id, b.id, b.t, front});
            });
        });
        if (by_instance) return true;
        bool found = false;
        shapes_.for_each_hit(
            ray,
            [&](std::uint32_t k, const RayHit<T>& h) {
                if (found || !takes_part(shape_values_[k].id, filter)) return;
                for (const auto& s : surface_points(ray, shape_values_[k].shape, h, t_min, t_max))
                    if (const bool front = front_of(shape_values_[k].shape, s);
                        !culled(filter, shape_values_[k].shape, front) &&
                        accepts(filter, {shape_values_[k].id, kNoTriangle, s.t, front})) {
                        found = true;
                        break;
                    }
            },
            t_min, t_max);
        return found;
    }

    /// Every crossing of the ray with an object's surface at t in [t_min, t_max], sorted by t,
    /// then object, then triangle (where one object's crossings share a t, they are ordered to
    /// alternate: alternate_ties()).
    /// - A shape gives its entry (Enter) and exit (Leave) where they lie in the range, or one
    ///   Touch where they coincide (tangent, or a flat shape); a triangle shape, Enter through its
    ///   front and Leave through its back.
    /// - A mesh instance gives the crossings of the crossing rule (TriangleCrossing.h, cross()),
    ///   in mesh space: where the ray passes exactly through an edge or vertex, the triangles
    ///   whose closed projection holds it there (grouped by the edge's or vertex's position)
    ///   count as one crossing, Enter or Leave
    ///   by the sum of their directions, taken by the triangle the rule picks; where they cancel
    ///   (the ray touches a contour edge or vertex, or grazes a boundary edge), one Touch, at the
    ///   smallest t and triangle of the group. So along a ray, a closed mesh's Enter and Leave
    ///   crossings alternate and come out even when the range holds the mesh: never two for one
    ///   passage through an edge, never a lost one at a vertex.
    /// - The filter applies to each hit before grouping. Empty for an invalid ray or range.
    std::vector<Crossing<T>> crossings(const Ray<T>& ray, T t_min = T(0), T t_max = infinity<T>(),
                                       const QueryFilter<T>& filter = {}) const {
        require_committed("crossings");
        std::vector<Crossing<T>> out;
        if (!is_valid(ray) || !detail::valid_range(t_min, t_max)) return out;
        shapes_.for_each_hit(
            ray,
            [&](std::uint32_t k, const RayHit<T>& h) {
                const ObjectId id = shape_values_[k].id;
                if (!takes_part(id, filter)) return;
                const Shape<T>& shape = shape_values_[k].shape;
                if (const auto* tri = std::get_if<Triangle<T>>(&shape)) {
                    const auto th = intersect(ray, *tri, t_min, t_max);
                    if (!th || (filter.cull_back_faces && !th->front) || !accepts(filter, {id, kNoTriangle, th->t, th->front}))
                        return;
                    out.push_back({th->t, id, kNoTriangle, th->front ? CrossingKind::Enter : CrossingKind::Leave});
                    return;
                }
                const bool in_near = h.t_near >= t_min && h.t_near <= t_max, in_far = h.t_far >= t_min && h.t_far <= t_max;
                if (h.t_near == h.t_far) {
                    if (in_near && accepts(filter, {id, kNoTriangle, h.t_near, true}))
                        out.push_back({h.t_near, id, kNoTriangle, CrossingKind::Touch});
                    return;
                }
                if (in_near && accepts(filter, {id, kNoTriangle, h.t_near, true}))
                    out.push_back({h.t_near, id, kNoTriangle, CrossingKind::Enter});
                if (in_far && accepts(filter, {id, kNoTriangle, h.t_far, false}))
                    out.push_back({h.t_far, id, kNoTriangle, CrossingKind::Leave});
            },
            t_min, t_max);
        instances_.visit_instances(ray, t_min, t_max, [&](const mesh_instances::Placed<T>& p) {
            const ObjectId id = instance_values_[p.instance].id;
            if (takes_part(id, filter)) mesh_crossings(*p.mesh, mesh_instances::to_mesh(p, ray), t_min, t_max, id, filter, out);
            return false;
        });
        std::sort(out.begin(), out.end(), [](const Crossing<T>& a, const Crossing<T>& b) {
            if (a.t != b.t) return a.t < b.t;
            if (a.object != b.object) return a.object < b.object;
            return a.triangle < b.triangle;
        });
        alternate_ties(out);
        return out;
    }

    /// Where the point stands against object `id`'s solid, exactly (PointInside.h for shapes; for
    /// a mesh instance, the point mapped into the mesh — one rounding of the inverse map — against
    /// the mesh: on a triangle (exact predicates), else inside when the mesh's winding number about
    /// it is non-zero, counted along +x with the crossing rule, whose every sign is exact). NoInside
    /// for a triangle shape and for a mesh that is not closed (closure() says why). Outside for a
    /// non-finite point. Throws std::invalid_argument for an unknown id.
    Containment classify(const Vec3<T>& point, ObjectId id) const {
        require_committed("classify");
        const Object& o = object(id, "classify");
        if (!is_finite(point)) return Containment::Outside;
        if (o.kind == Kind::Shape) return containment(point, shape_values_[o.slot].shape);
        const Instance<T>& inst = instance_values_[o.slot].instance;
        if (!closure_[inst.mesh].closed()) return Containment::NoInside;
        return mesh_containment(*meshes_[inst.mesh], glm::inverse(inst.transform.linear) * (point - inst.transform.translation));
    }

    /// The objects whose closed solid holds the point (classify() is Inside or OnSurface), in id
    /// order, among those the filter's mask lets through (its other parts do not apply). Objects
    /// without an inside (NoInside) never appear. Deterministic: no direction is chosen at random,
    /// and nothing depends on threads.
    std::vector<ObjectId> contains(const Vec3<T>& point, const QueryFilter<T>& filter = {}) const {
        require_committed("contains");
        std::vector<ObjectId> out;
        if (!is_finite(point)) return out;
        // The objects whose boxes hold the point: a ray along +x over [0, 0] meets exactly those.
        const Ray<T> probe{point, Vec3<T>(T(1), T(0), T(0))};
        shapes_.for_each_candidate(
            probe,
            [&](std::uint32_t k, const Shape<T>& s) {
                const ObjectId id = shape_values_[k].id;
                if (((objects_[id].mask & filter.mask) != 0) && holds(containment(point, s))) out.push_back(id);
            },
            T(0), T(0));
        instances_.visit_instances(probe, T(0), T(0), [&](const mesh_instances::Placed<T>& p) {
            const ObjectId id = instance_values_[p.instance].id;
            const std::uint32_t mesh = instance_values_[p.instance].instance.mesh;
            if ((objects_[id].mask & filter.mask) == 0 || !closure_[mesh].closed()) return false;
            const Vec3<T> local = p.inverse * (point - p.translation);
            if (holds(mesh_containment(*p.mesh, local))) out.push_back(id);
            return false;
        });
        std::sort(out.begin(), out.end());
        return out;
    }

    /// The surface point nearest to `point` within max_distance (distance <= max_distance) among
    /// the objects the filter's mask lets through (its other parts do not apply): the smaller
    /// distance, at equal distance a shape before an instance, then the smaller slot, then the
    /// smaller triangle. Shapes' surfaces are measured also from inside them (a point inside a
    /// sphere of radius R is R - |p - centre| from it); an instance's triangles are measured
    /// placed (Bvh::closest_point(), InstanceBvh::closest_point(): hierarchy walks pruned by
    /// distance, exactly their brute-force answers). Empty for a non-finite point, a negative or
    /// NaN max_distance, or nothing within it.
    std::optional<SceneClosest<T>> closest_point(const Vec3<T>& point, T max_distance = infinity<T>(),
                                                 const QueryFilter<T>& filter = {}) const {
        Containment where;
        return closest_point(point, max_distance, filter, where);
    }

    /// The distance to the nearest surface (closest_point()), negative when the point lies inside
    /// the object that surface belongs to, exactly (classify(): the sign never depends on
    /// rounding), and 0 when it lies on its surface. An object without an inside (a triangle shape,
    /// an open mesh: NoInside) gives the distance unsigned. Where solids overlap this is the signed
    /// distance to the nearest object's surface, not to their union's. Empty as closest_point().
    std::optional<T> signed_distance(const Vec3<T>& point, T max_distance = infinity<T>(),
                                     const QueryFilter<T>& filter = {}) const {
        Containment where;
        const auto c = closest_point(point, max_distance, filter, where);
        if (!c) return std::nullopt;
        if (where == Containment::OnSurface) return T(0);
        return where == Containment::Inside ? -c->surface.distance : c->surface.distance;
    }

    /// closest_point(), with the nearest object's classify() of the point in `where`.
    std::optional<SceneClosest<T>> closest_point(const Vec3<T>& point, T max_distance, const QueryFilter<T>& filter,
                                                 Containment& where) const {
        require_committed("closest_point");
        std::optional<SceneClosest<T>> out;
        const auto keep_shape = [&](std::uint32_t k) { return takes_part(shape_values_[k].id, filter); };
        const auto keep_instance = [&](std::uint32_t k) { return takes_part(instance_values_[k].id, filter); };
        const auto s = shapes_.closest_point(point, max_distance, keep_shape);
        // An instance must be strictly nearer than the shape (a shape wins ties).
        const auto i = instances_.closest_point(point, s ? s->surface.distance : max_distance, keep_instance);
        if (i && (!s || i->closest.surface.distance < s->surface.distance)) {
            out = SceneClosest<T>{instance_values_[i->instance].id, i->closest.triangle, i->closest.surface,
                                  i->closest.barycentric};
        } else if (s) {
            out = SceneClosest<T>{shape_values_[s->shape].id, kNoTriangle, s->surface, Vec3<T>(T(0))};
        }
        where = Containment::Outside;
        if (out) {
            where = classify(point, out->object);
            out->surface.inside = where == Containment::Inside;
        }
        return out;
    }

    /// The mesh's own containment of a point in its coordinates (classify()'s rule, for a closed
    /// mesh; the caller checks closure).
    static Containment mesh_containment(const MeshBvh<T>& mesh, const Vec3<T>& point) {
        if (!is_finite(point)) return Containment::Outside;
        bool on = false;
        int winding = 0;
        mesh.for_each_candidate(Ray<T>{point, Vec3<T>(T(1), T(0), T(0))}, T(0), infinity<T>(),
                                [&](const Triangle<T>& tri, std::uint32_t) {
                                    if (on) return;
                                    const PointTriangle pt = point_triangle(point, tri);
                                    on = pt.on_triangle;
                                    winding += pt.winding;
                                });
        if (on) return Containment::OnSurface;
        return winding != 0 ? Containment::Inside : Containment::Outside;
    }

private:
    enum class Kind : std::uint8_t { Shape, Instance };
    struct Object {
        Kind kind;
        std::uint32_t slot;  ///< in shape_values_ or instance_values_
        std::uint32_t mask;
        bool live;
    };

    Object& object(ObjectId id, const char* what) {
        return const_cast<Object&>(std::as_const(*this).object(id, what));
    }
    const Object& object(ObjectId id, const char* what) const {
        if (id >= objects_.size() || !objects_[id].live)
            throw std::invalid_argument(std::string("raypick::SceneBvh::") + what + ": no object " + std::to_string(id));
        return objects_[id];
    }
    Object& object(ObjectId id, const char* what, Kind kind) {
        Object& o = object(id, what);
        if (o.kind != kind)
            throw std::invalid_argument(std::string("raypick::SceneBvh::") + what + ": object " + std::to_string(id) +
                                        (kind == Kind::Shape ? " is not a shape" : " is not a mesh instance"));
        return o;
    }
    static void check_shape(const char* what, const Shape<T>& shape) {
        if (const auto err = validate(shape))
            throw std::invalid_argument(std::string("raypick::SceneBvh::") + what + ": " + shape_type_name(type_of(shape)) +
                                        "." + err->field + ": " + err->message);
    }
    static void check_transform(const char* what, const Affine<T>& a) {
        if (const auto err = validate(a))
            throw std::invalid_argument(std::string("raypick::SceneBvh::") + what + ": transform." + err->field + ": " +
                                        err->message);
    }
    void require_committed(const char* what) const {
        if (dirty())
            throw std::logic_error(std::string("raypick::SceneBvh::") + what + ": the scene has changes; commit() first");
    }

    bool takes_part(ObjectId id, const QueryFilter<T>& f) const { return (objects_[id].mask & f.mask) != 0; }
    static bool accepts(const QueryFilter<T>& f, const HitCandidate<T>& c) { return !f.accept || f.accept(c); }
    /// Back-face culling: triangle shapes met from behind (other shapes are never culled).
    static bool culled(const QueryFilter<T>& f, const Shape<T>& shape, bool front) {
        return f.cull_back_faces && !front && std::holds_alternative<Triangle<T>>(shape);
    }
    /// Live objects whose mask is 0 (no query mask lets them through).
    std::size_t zero_masks() const { return zero_masks_; }

    /// A shape's surface points in [t_min, t_max], in order (a triangle shape's, culled by its face
    /// later).
    static std::vector<SurfaceHit<T>> surface_points(const Ray<T>& ray, const Shape<T>& shape, const RayHit<T>& h,
                                                     T t_min, T t_max) {
        std::vector<SurfaceHit<T>> out;
        if (const auto s = first_surface(ray, h, t_min, t_max)) {
            out.push_back(*s);
            if (!s->is_exit && h.t_far > s->t && h.t_far <= t_max && !std::holds_alternative<Triangle<T>>(shape))
                out.push_back({h.t_far, ray.at(h.t_far), h.n_far, true});
        }
        return out;
    }
    static bool front_of(const Shape<T>& shape, const SurfaceHit<T>& s) {
        if (const auto* tri = std::get_if<Triangle<T>>(&shape)) {
            const Vec3<T> n = glm::cross(tri->b - tri->a, tri->c - tri->a);
            return glm::dot(n, s.normal) > T(0);  // n_near faces the ray: along the winding normal on a front hit
        }
        return !s.is_exit;
    }
    static bool nearer(T t, std::uint32_t instance, std::uint32_t triangle, const InstanceHit<T>& best) {
        if (t != best.hit.t) return t < best.hit.t;
        if (instance != best.instance) return instance < best.instance;
        return triangle < best.hit.triangle;
    }

    SceneHit<T> shape_hit(const Ray<T>&, const NearestHit<T>& h) const {
        const Shape<T>& shape = shape_values_[h.shape].shape;
        SceneHit<T> out;
        out.object = shape_values_[h.shape].id;
        out.t = h.surface.t;
        out.point = h.surface.point;
        out.normal = h.surface.normal;
        out.front = front_of(shape, h.surface);
        if (const auto* tri = std::get_if<Triangle<T>>(&shape))
            out.normal = glm::normalize(glm::cross(tri->b - tri->a, tri->c - tri->a));
        return out;
    }
    SceneHit<T> instance_hit(const Ray<T>& ray, const InstanceHit<T>& h) const {
        SceneHit<T> out;
        out.object = instance_values_[h.instance].id;
        out.triangle = h.hit.triangle;
        out.t = h.hit.t;
        out.point = ray.at(h.hit.t);
        out.normal = h.hit.normal;
        out.barycentric = h.hit.barycentric;
        out.front = h.hit.front;
        return out;
    }

    /// Where one object's Enter and Leave crossings have the same t (rounding merged them: a thin
    /// part seen from far away), orders them to alternate with the object's crossings before
    /// them (after an Enter a Leave comes first; with none before, the kind there are more of,
    /// Enter on a tie), keeping each kind's triangles in order; Touches go last. `out` is sorted
    /// by t, then object.
    static void alternate_ties(std::vector<Crossing<T>>& out) {
        std::vector<std::pair<ObjectId, CrossingKind>> last;  // each object's last Enter or Leave
        const auto last_of = [&](ObjectId id) -> CrossingKind* {
            for (auto& [o, k] : last)
                if (o == id) return &k;
            return nullptr;
        };
        std::vector<Crossing<T>> enter, leave, touch;
        for (std::size_t first = 0; first < out.size();) {
            std::size_t end = first + 1;
            while (end < out.size() && out[end].t == out[first].t && out[end].object == out[first].object) ++end;
            if (end - first > 1) {
                enter.clear(), leave.clear(), touch.clear();
                for (std::size_t k = first; k < end; ++k)
                    (out[k].kind == CrossingKind::Enter ? enter : out[k].kind == CrossingKind::Leave ? leave : touch)
                        .push_back(out[k]);
                const CrossingKind* before = last_of(out[first].object);
                bool next_enter = before ? *before == CrossingKind::Leave : enter.size() >= leave.size();
                std::size_t e = 0, l = 0, at = first;
                while (e < enter.size() || l < leave.size()) {
                    if ((next_enter && e < enter.size()) || l == leave.size()) out[at++] = enter[e++];
                    else out[at++] = leave[l++];
                    next_enter = out[at - 1].kind == CrossingKind::Leave;
                }
                for (const auto& c : touch) out[at++] = c;
            }
            for (std::size_t k = first; k < end; ++k)
                if (out[k].kind != CrossingKind::Touch) {
                    if (CrossingKind* k_last = last_of(out[k].object)) *k_last = out[k].kind;
                    else last.push_back({out[k].object, out[k].kind});
                }
            first = end;
        }
    }

    /// One mesh's crossings (see crossings()), appended to out.
    static void mesh_crossings(const MeshBvh<T>& mesh, const Ray<T>& local, T t_min, T t_max, ObjectId id,
                               const QueryFilter<T>& filter, std::vector<Crossing<T>>& out);

    std::vector<Object> objects_;
    std::vector<std::shared_ptr<const MeshBvh<T>>> meshes_;
    std::vector<MeshClosure> closure_;
    struct ShapeSlot {
        ObjectId id;
        Shape<T> shape;
    };
    struct InstanceSlot {
        ObjectId id;
        Instance<T> instance;
    };
    std::vector<ShapeSlot> shape_values_;
    std::vector<InstanceSlot> instance_values_;
    Bvh<T> shapes_;
    InstanceBvh<T> instances_;
    bool shapes_dirty_ = false, instances_dirty_ = false;
    std::size_t zero_masks_ = 0;
    std::vector<std::uint32_t> moved_shapes_, moved_instances_;
};

}  // namespace raypick

#include <raypick/geometry/SceneCrossings.inl>
