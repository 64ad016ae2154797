// raypick scene files, internal: the rules a scene must follow, shared by the reader (which checks
// each part as it reads it, so an error is placed at the first bad value in the file) and
// validate_scene() (a scene built in code). Each check throws Fail naming the offending value.
#pragma once

#include <string>
#include <vector>

#include <raypick/scene/Scene.h>
#include <raypick/scene/detail/ErrorLocation.h>

namespace raypick::scene_detail {

/// A valid shape (the core's validate()). `rotation_key` is the file's key for an OBB's rotation
/// ("axes" or "euler_degrees"), named in the error.
void check_shape(const Shape<double>& shape, const Path& path, const std::string& rotation_key);
void check_ray(const SceneRay& ray, const Path& path);
void check_camera(const SceneCamera& camera, const Path& path);
void check_tolerance(double tolerance, const Path& path);
/// Non-empty names are unique; `path` is the array's, `what` is "shape" or "ray".
void check_unique_names(const std::vector<SceneShape>& shapes, const Path& path, const char* what);
void check_unique_names(const std::vector<SceneRay>& rays, const Path& path, const char* what);
void check_unique_names(const std::vector<SceneMesh>& meshes, const Path& path, const char* what);
void check_unique_names(const std::vector<ScenePoint>& points, const Path& path, const char* what);
/// A finite position.
void check_point(const ScenePoint& point, const Path& path);
/// A model file's name as a mesh's "file" gives it: non-empty, ending in .obj, .gltf or .glb.
void check_mesh_file_name(const std::string& file, const Path& path);
/// A mesh's model: inline (no file), one mesh named as the scene mesh placed once at identity, its
/// triangles' indices in range (placed at "triangles/K"), one normal per vertex or none, finite
/// values; from a file, a model that passes validate_model() within scene_model_limits().
void check_mesh(const SceneMesh& mesh, const Path& path);
/// Refers to an existing mesh; finite translation, angles and scale; no zero scale component; every
/// placement's world transform invertible in single and double precision.
void check_instance(const Scene& scene, const SceneInstance& instance, const Path& path);
/// Non-empty instance names are unique among instances and differ from every shape's name;
/// `path` is the instances array's.
void check_instance_names(const Scene& scene, const Path& path);
/// Refers to existing rays, points, shapes and instances, checks something, and only what its kind
/// (SceneExpectation::kind()) can; no contradictions (a count against a list's length, "inside"
/// against "containment", an object listed twice).
void check_expectation(const Scene& scene, const SceneExpectation& e, const Path& path);
/// Every rule above, in the order the reader applies them.
void check_scene(const Scene& scene);

}  // namespace raypick::scene_detail
