// raypick demo: picking the scene's mesh instances — an InstanceBvh over every placement of every
// scene instance, kept in step with the editor's change sets (moved instances refit, added or
// removed ones rebuild) — and the pick over shapes and instances together. No GL.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "app/Commands.h"
#include "app/Picking.h"
#include <raypick/geometry/MeshInstances.h>
#include <raypick/geometry/Triangle.h>
#include <raypick/scene/SceneMeshes.h>

namespace raypick::app {

/// The nearest surface of the scene along a ray: a shape, or a mesh instance. Exactly one of
/// `shape` and `instance` is set.
struct SceneHit {
    std::optional<std::size_t> shape;     ///< index into Scene::shapes
    std::optional<std::size_t> instance;  ///< index into Scene::instances
    /// For an instance: the core instance (a placement of the scene instance's model) and the
    /// triangle's hit in world space.
    std::optional<InstanceHit<double>> mesh;
    double t = 0.0;
};

/// The object id scene instance i shows as in the object-id pictures (the OpenGL one and the CPU
/// ray-cast view's): after the shapes' ids, which are their indices.
inline std::uint32_t instance_object_id(std::size_t shape_count, std::size_t i) {
    return static_cast<std::uint32_t>(shape_count + i);
}

/// The nearest mesh instance triangle along a ray, as the Ray panel and the 3D view show it.
struct TriangleReadout {
    std::size_t instance = 0;  ///< index into Scene::instances
    InstanceHit<double> hit;   ///< the core instance and the hit in world space
    Triangle<double> corners;  ///< the triangle in world space
    bool hidden = false;       ///< a shape is nearer along the ray
};

/// A scene's mesh instances as the core's InstanceBvh in scalar T, kept in step with an editor's
/// change sets: moved instances have their placements set and the hierarchy refitted; added or
/// removed instances, or a new scene, rebuild it. Core instance k is placement
/// origin(k).placement of scene instance origin(k).scene_instance (place_meshes()). The picking
/// (double) and the CPU ray-cast view (float) each keep one.
template <typename T> class SceneInstances {
public:
    /// Brings the hierarchy up to date with the editor's scene; true if it changed.
    bool sync(const SceneEditor& editor) {
        if (synced_version_ == editor.version()) return false;
        const ChangeSet changes = editor.changes_since(synced_version_);
        const Scene& scene = editor.scene();
        synced_version_ = editor.version();
        if (changes.instance_structure || first_core_.size() != scene.instances.size() + 1) {
            build(scene);
            return true;
        }
        if (changes.instances_modified.empty()) return false;
        // Moved instances: each placement's world map set again, then one refit for all of them.
        for (const std::size_t i : changes.instances_modified) {
            const SceneInstance& si = scene.instances[i];
            const glm::dmat4 world = instance_matrix(si);
            const auto& placements = scene.meshes[si.mesh].model.instances;
            for (std::uint32_t k = first_core_[i]; k < first_core_[i + 1]; ++k)
                bvh_.set_transform(k, affine_of<T>(world * placements[origin_[k].placement].transform));
        }
        bvh_.refit();
        ++refits_;
        return true;
    }
    /// The scene instance core instance k belongs to.
    std::size_t scene_instance_of(std::uint32_t k) const { return origin_.at(k).scene_instance; }
    /// Per core instance, its scene instance's instance_object_id() in a scene of `shape_count` shapes.
    std::vector<std::uint32_t> object_ids(std::size_t shape_count) const {
        std::vector<std::uint32_t> ids;
        ids.reserve(origin_.size());
        for (const auto& o : origin_) ids.push_back(instance_object_id(shape_count, o.scene_instance));
        return ids;
    }
    const InstanceBvh<T>& bvh() const { return bvh_; }
    std::size_t rebuilds() const { return rebuilds_; }
    std::size_t refits() const { return refits_; }

private:
    void build(const Scene& scene) {
        PlacedMeshes<T> placed = place_meshes<T>(scene);
        origin_ = std::move(placed.origin);
        // Core instances come in scene order: instance i's are [first_core_[i], first_core_[i + 1]).
        first_core_.assign(scene.instances.size() + 1, 0);
        for (const auto& o : origin_) ++first_core_[o.scene_instance + 1];
        for (std::size_t i = 0; i < scene.instances.size(); ++i) first_core_[i + 1] += first_core_[i];
        bvh_ = InstanceBvh<T>(std::move(placed.meshes), std::move(placed.instances));
        ++rebuilds_;
    }

    InstanceBvh<T> bvh_;
    std::vector<typename PlacedMeshes<T>::Origin> origin_;
    std::vector<std::uint32_t> first_core_;  ///< prefix counts: scene instance i's first core instance
    std::optional<std::uint64_t> synced_version_;
    std::size_t rebuilds_ = 0;
    std::size_t refits_ = 0;
};

/// Nearest-instance picking (hover and click) through the editor's scene's instances.
class InstancePicker {
public:
    /// The nearest instance hit with t in [t_min, t_max], after bringing the hierarchy up to date.
    std::optional<InstanceHit<double>> pick(const SceneEditor& editor, const Ray<double>& ray, double t_min = 0.0,
                                            double t_max = infinity<double>());
    void sync(const SceneEditor& editor) { instances_.sync(editor); }
    std::size_t scene_instance_of(std::uint32_t k) const { return instances_.scene_instance_of(k); }
    const InstanceBvh<double>& bvh() const { return instances_.bvh(); }
    std::size_t rebuilds() const { return instances_.rebuilds(); }
    std::size_t refits() const { return instances_.refits(); }

private:
    SceneInstances<double> instances_;
};

/// The nearest instance triangle along `ray` (t >= 0) and whether the shapes' nearest hit, at
/// `shape_t`, is nearer; empty when no instance is hit.
std::optional<TriangleReadout> triangle_readout(InstancePicker& instances, const SceneEditor& editor,
                                                const Ray<double>& ray, double shape_t);

/// What a ray picks, as the readouts name it: the shape pick or the mesh readout, whichever is
/// nearer (the shape at equal t, as TriangleReadout::hidden says), and its t.
struct PickedName {
    std::string name;  ///< the shape's name, or the instance's with "(mesh, triangle N)"
    double t = 0.0;
};
/// Empty when neither a shape nor a mesh instance is hit.
std::optional<PickedName> picked_name(const Scene& scene, const PickResult& result, const TriangleReadout* mesh);

/// The nearest surface among shapes (through `shapes`) and instances (through `instances`), by
/// nearer_side(): the smaller t, a shape at equal t. Empty for a miss.
std::optional<SceneHit> pick_scene(ScenePicker& shapes, InstancePicker& instances, const SceneEditor& editor,
                                   const Ray<double>& ray);

/// The same by brute force over every shape and every placement (no hierarchy, nothing kept): the
/// reference pick_scene() is tested against.
std::optional<SceneHit> pick_scene_nearest(const Scene& scene, const Ray<double>& ray);

/// The world-space corners of triangle `hit.hit.triangle` of the core instance `hit.instance`.
Triangle<double> hit_triangle(const InstanceBvh<double>& bvh, const InstanceHit<double>& hit);

/// World bounds of scene instance i (every placement of its mesh), or nullopt for a mesh with no
/// triangles or no instance i.
std::optional<Aabb<double>> instance_bounds(const Scene& scene, std::size_t i);

}  // namespace raypick::app
