#include "app/MeshPicking.h"

#include <algorithm>

#include <raypick/geometry/MixedPick.h>
#include <raypick/geometry/Shape.h>

namespace raypick::app {

std::optional<InstanceHit<double>> InstancePicker::pick(const SceneEditor& editor, const Ray<double>& ray,
                                                        double t_min, double t_max) {
    instances_.sync(editor);
    return instances_.bvh().pick(ray, t_min, t_max);
}

std::optional<SceneHit> pick_scene(ScenePicker& shapes, InstancePicker& instances, const SceneEditor& editor,
                                   const Ray<double>& ray) {
    std::optional<SceneHit> out;
    const auto s = shapes.pick(editor, ray);
    // The shape's t: its own first surface along the ray (the hierarchy answered which shape).
    const auto surface = s ? raypick::pick(ray, editor.scene().shapes[*s].shape) : std::nullopt;
    const double t_shape = surface ? surface->t : infinity<double>();
    auto m = instances.pick(editor, ray, 0.0, t_shape);
    switch (nearer_side(surface ? &surface->t : nullptr, m ? &m->hit.t : nullptr)) {
        case MixedSide::shape: out = SceneHit{s, std::nullopt, std::nullopt, t_shape}; break;
        case MixedSide::instance: {
            const double t = m->hit.t;
            out = SceneHit{std::nullopt, instances.scene_instance_of(m->instance), std::move(m), t};
            break;
        }
        case MixedSide::none: break;
    }
    return out;
}

std::optional<SceneHit> pick_scene_nearest(const Scene& scene, const Ray<double>& ray) {
    std::optional<SceneHit> out;
    const auto s = pick_nearest(scene, ray);
    const auto surface = s ? raypick::pick(ray, scene.shapes[*s].shape) : std::nullopt;
    PlacedMeshes<double> placed = place_meshes<double>(scene);
    const auto origin = placed.origin;
    const InstanceBvh<double> bvh(std::move(placed.meshes), std::move(placed.instances));
    auto m = pick_nearest_instance(bvh, ray);
    switch (nearer_side(surface ? &surface->t : nullptr, m ? &m->hit.t : nullptr)) {
        case MixedSide::shape: out = SceneHit{s, std::nullopt, std::nullopt, surface->t}; break;
        case MixedSide::instance: out = SceneHit{std::nullopt, origin[m->instance].scene_instance, m, m->hit.t}; break;
        case MixedSide::none: break;
    }
    return out;
}

std::optional<TriangleReadout> triangle_readout(InstancePicker& instances, const SceneEditor& editor,
                                                const Ray<double>& ray, double shape_t) {
    const auto h = instances.pick(editor, ray);
    if (!h) return std::nullopt;
    return TriangleReadout{instances.scene_instance_of(h->instance), *h, hit_triangle(instances.bvh(), *h),
                           shape_t <= h->hit.t};
}

std::optional<PickedName> picked_name(const Scene& scene, const PickResult& result, const TriangleReadout* mesh) {
    if (mesh && !mesh->hidden && mesh->instance < scene.instances.size())
        return PickedName{scene.instances[mesh->instance].name + " (mesh, triangle " +
                              std::to_string(mesh->hit.hit.triangle) + ")",
                          mesh->hit.hit.t};
    if (result.nearest && *result.nearest < scene.shapes.size() && *result.nearest < result.shapes.size() &&
        result.shapes[*result.nearest].surface)
        return PickedName{scene.shapes[*result.nearest].name, result.shapes[*result.nearest].surface->t};
    return std::nullopt;
}

Triangle<double> hit_triangle(const InstanceBvh<double>& bvh, const InstanceHit<double>& hit) {
    const Instance<double>& inst = bvh.instances().at(hit.instance);
    const Triangle<double> local = triangle(bvh.meshes()[inst.mesh]->mesh(), hit.hit.triangle);
    return {apply(inst.transform, local.a), apply(inst.transform, local.b), apply(inst.transform, local.c)};
}

std::optional<Aabb<double>> instance_bounds(const Scene& scene, std::size_t i) {
    if (i >= scene.instances.size()) return std::nullopt;
    const SceneInstance& si = scene.instances[i];
    const Model& model = scene.meshes.at(si.mesh).model;
    const glm::dmat4 world = instance_matrix(si);
    Aabb<double> b{Vec3<double>(infinity<double>()), Vec3<double>(-infinity<double>())};
    for (const ModelInstance& mi : model.instances) {
        const glm::dmat4 m = world * mi.transform;
        for (const glm::vec3& p : model.meshes.at(mi.mesh).positions) {
            const Vec3<double> w(m * glm::dvec4(Vec3<double>(p), 1.0));
            b.min = glm::min(b.min, w);
            b.max = glm::max(b.max, w);
        }
    }
    if (!(b.min.x <= b.max.x)) return std::nullopt;
    return b;
}

}  // namespace raypick::app
