// raypick scene: a scene as one SceneBvh<T> for the scene queries (pick, occluded, crossings,
// contains, classify) — every shape a shape object, every placement of every instance an instance
// object, each mesh added once and shared by its placements, every object's mask from the file —
// and the map between the SceneBvh's object ids and the scene's shapes and instances as the file
// names them, both ways. Shared by the case checker and the command-line caster.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <raypick/geometry/SceneBvh.h>
#include <raypick/scene/Scene.h>
#include <raypick/scene/SceneMeshes.h>

namespace raypick {

/// Which part of a scene a SceneBvh object is: a shape, or one placement of an instance's mesh.
struct SceneQueryObject {
    SceneObjectRef object;
    std::size_t placement = 0;  ///< for an instance: the placement of its mesh's model (Model::instances)
};

/// The strongest of two containments of one object's parts: Inside, then OnSurface, then Outside,
/// then NoInside (an instance is the union of its placements: inside one of them is inside it).
inline Containment strongest(Containment a, Containment b) {
    auto rank = [](Containment c) {
        switch (c) {
            case Containment::Inside: return 3;
            case Containment::OnSurface: return 2;
            case Containment::Outside: return 1;
            case Containment::NoInside: break;
        }
        return 0;
    };
    return rank(a) >= rank(b) ? a : b;
}

/// A QueryFilter from a query's mask and back-face culling (an expectation's "mask" and
/// "cull_back_faces"); what is not given lets everything through.
template <typename T>
QueryFilter<T> query_filter(std::optional<std::uint32_t> mask, std::optional<bool> cull_back_faces) {
    QueryFilter<T> f;
    if (mask) f.mask = *mask;
    f.cull_back_faces = cull_back_faces.value_or(false);
    return f;
}

/// A scene in scalar T (double -> float for the float core) as one SceneBvh, with its rays and
/// points in T.
///
/// Object ids: shape j is object j; then, scene instance by scene instance, one object per
/// placement of the instance's mesh (in Model::instances order), with the instance's mask. A shape
/// that is not valid in T (a double value beyond float's range, say) is what the core makes of an
/// invalid shape: never hit, never containing — it stands in the SceneBvh as a point sphere with
/// mask 0, which no query sees, and classify() answers Outside for it.
template <typename T> class SceneQuery {
public:
    /// Builds the scene's hierarchies. Requires a scene that passes validate_scene().
    explicit SceneQuery(const Scene& scene) : SceneQuery(scene, place_meshes<T>(scene)) {}

    /// The same, sharing the meshes already placed for the scene (place_meshes<T>(scene)).
    SceneQuery(const Scene& scene, const PlacedMeshes<T>& placed) {
        for (const auto& m : placed.meshes) bvh_.add_mesh(m);
        valid_shape_.reserve(scene.shapes.size());
        for (std::size_t j = 0; j < scene.shapes.size(); ++j) {
            const Shape<T> shape = convert<T>(scene.shapes[j].shape);
            const bool valid = !validate(shape);
            valid_shape_.push_back(valid);
            bvh_.add_shape(valid ? shape : Shape<T>(Sphere<T>{Vec3<T>(T(0)), T(0)}),
                           valid ? scene.shapes[j].mask : 0u);
            objects_.push_back({SceneObjectRef::shape(j), 0});
        }
        for (std::size_t i = 0; i < placed.instances.size(); ++i) {
            const auto& origin = placed.origin.at(i);
            bvh_.add_instance(placed.instances[i].mesh, placed.instances[i].transform,
                              scene.instances.at(origin.scene_instance).mask);
            objects_.push_back({SceneObjectRef::instance(origin.scene_instance), origin.placement});
        }
        first_object_.assign(scene.instances.size() + 1, ObjectId(objects_.size()));
        // Scene instance k's objects are [first_object_[k], first_object_[k + 1]); placements come
        // in scene order, so the first object of each instance is where its origin first appears.
        for (std::size_t id = objects_.size(); id-- > scene.shapes.size();)
            first_object_[objects_[id].object.index] = ObjectId(id);
        for (std::size_t k = scene.instances.size(); k-- > 0;)  // an instance of an empty model: an empty range
            first_object_[k] = std::min(first_object_[k], first_object_[k + 1]);
        bvh_.commit();
        for (const SceneRay& r : scene.rays) rays_.push_back({convert<T>(r.ray), T(r.t_min), T(r.t_max)});
        for (const ScenePoint& p : scene.points) points_.push_back(Vec3<T>(p.position));
    }

    const SceneBvh<T>& bvh() const { return bvh_; }

    /// Scene ray i in T, with its range.
    struct RangedRay {
        Ray<T> ray;
        T t_min, t_max;
    };
    const RangedRay& ray(std::size_t i) const { return rays_.at(i); }
    /// Scene point i in T.
    const Vec3<T>& point(std::size_t i) const { return points_.at(i); }

    /// What object `id` is in the scene.
    const SceneQueryObject& object(ObjectId id) const { return objects_.at(id); }
    /// The object of shape j.
    ObjectId shape_object(std::size_t j) const {
        if (j >= valid_shape_.size()) throw std::out_of_range("raypick::SceneQuery: no shape " + std::to_string(j));
        return ObjectId(j);
    }
    /// The objects of scene instance k, one per placement of its mesh: [first, second).
    std::pair<ObjectId, ObjectId> instance_objects(std::size_t k) const {
        return {first_object_.at(k), first_object_.at(k + 1)};
    }
    /// Whether object `id` belongs to scene object `r` (the shape, or a placement of the instance).
    bool is_part_of(ObjectId id, const SceneObjectRef& r) const { return objects_.at(id).object == r; }

    /// Where the point stands against scene object `r`'s solid: classify() of the shape, or the
    /// strongest over the instance's placements (Inside, OnSurface, Outside, NoInside; an instance
    /// of an empty model: NoInside). A shape not valid in T: Outside.
    Containment classify(const Vec3<T>& p, const SceneObjectRef& r) const {
        if (!r.is_instance())
            return valid_shape_.at(r.index) ? bvh_.classify(p, shape_object(r.index)) : Containment::Outside;
        const auto [first, last] = instance_objects(r.index);
        Containment out = Containment::NoInside;
        for (ObjectId id = first; id < last; ++id) out = strongest(out, bvh_.classify(p, id));
        return out;
    }

    /// The shapes and instances whose closed solid holds the point (SceneBvh::contains() under the
    /// filter's mask; an instance when any of its placements holds it), each once, shapes first,
    /// then instances, each by index.
    std::vector<SceneObjectRef> contains(const Vec3<T>& p, const QueryFilter<T>& filter = {}) const {
        std::vector<SceneObjectRef> out;
        for (ObjectId id : bvh_.contains(p, filter)) out.push_back(objects_.at(id).object);
        std::sort(out.begin(), out.end());
        out.erase(std::unique(out.begin(), out.end()), out.end());
        return out;
    }

private:
    SceneBvh<T> bvh_;
    std::vector<SceneQueryObject> objects_;  ///< by object id
    std::vector<ObjectId> first_object_;     ///< per scene instance, and one past the last
    std::vector<bool> valid_shape_;
    std::vector<RangedRay> rays_;
    std::vector<Vec3<T>> points_;
};

}  // namespace raypick
