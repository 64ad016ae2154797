// raypick demo: values for editing the scene — new shapes, unique names, degeneracy notes,
// moving shapes and their handles, OBB rotations as Euler angles. The edits themselves are the
// commands of app/Commands.h. No GL.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "app/Camera.h"
#include <raypick/scene/Scene.h>

namespace raypick::app {

/// A new shape of `type` centred at `at`, with the core's default parameters.
Shape<double> make_shape(ShapeType type, const Vec3d& at);
/// "sphere 3": `base` followed by the first number that no shape or mesh instance of the scene uses yet.
std::string unique_name(const Scene& scene, const std::string& base);

/// Removes shape i and the expectations about it; the other expectations follow their shapes'
/// new indices. False if there is no shape i. (A value operation: the app deletes through
/// SceneEditor::remove, app/Commands.h, which uses it.)
bool delete_shape(Scene& scene, std::size_t i);

/// Valid but degenerate features of a shape, as readable notes ("radius 0: a point", ...).
std::vector<std::string> degeneracies(const Shape<double>& shape);

Vec3d shape_center(const Shape<double>& shape);
Shape<double> translated(const Shape<double>& shape, const Vec3d& delta);

/// Drag handles: capsule end points (a, b), box corners (8), the sphere's radius point (+x), a
/// triangle's vertices (a, b, c); any other type's Point fields.
struct Handle {
    int id = 0;
    Vec3d position{0.0};
    const char* label = "";
};
std::vector<Handle> handles(const Shape<double>& shape);
/// The shape with handle `id` moved to `position` (the opposite corner of a box stays fixed; a
/// box can be squeezed to zero size, a capsule's end points can meet). Always valid for valid input.
Shape<double> move_handle(const Shape<double>& shape, int id, const Vec3d& position);

}  // namespace raypick::app
