// raypick demo: the CPU ray-cast view — every pixel's ray through the core (raypick::raycast, a
// float hierarchy of the scene, all cores), shaded by normal and/or depth, or compared by object
// with the OpenGL picture (difference mode). No GL here: the other picture's ids come in through a
// callback, and the app uploads rgba() to a texture.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "app/Camera.h"
#include "app/Commands.h"
#include "app/MeshPicking.h"
#include "raycast/CpuRaycast.h"
#include <raypick/scene/Scene.h>

namespace raypick::app {

enum class RaycastShading { Normal, Depth, NormalAndDepth, Difference };
enum class RaycastPlacement { Beside, Over };

struct RaycastOptions {
    bool enabled = false;
    RaycastShading shading = RaycastShading::Normal;
    bool half_resolution = false;
    RaycastPlacement placement = RaycastPlacement::Beside;
    float opacity = 0.7f;  ///< "over": how much of the picture covers the 3D view
    int margin = 1;        ///< difference: pixels this close to a silhouette are not compared
};

/// "normal", "depth", "normaldepth", "difference" (the command line's names); false if unknown.
bool parse_raycast_shading(const std::string& name, RaycastShading& out);
/// The command line's name of `shading` (what parse_raycast_shading() reads).
const char* raycast_shading_name(RaycastShading shading);

struct PictureSize {
    int width = 0, height = 0;
    bool empty() const { return width <= 0 || height <= 0; }
    bool operator==(const PictureSize& o) const { return width == o.width && height == o.height; }
    bool operator!=(const PictureSize& o) const { return !(*this == o); }
};

/// The picture's size for a view_width x view_height view: the view's pixels, or half of them
/// (rounded, at least 1) at half resolution; empty for a view smaller than a pixel.
PictureSize raycast_picture_size(double view_width, double view_height, bool half_resolution);

/// Rays through the centres of a picture's pixels that covers the whole view: pixel (x, y) of the
/// picture (row 0 at the top) is the camera's ray_from_pixel((x + 0.5) * vw / w, (y + 0.5) * vh / h,
/// vw, vh) in float. The camera's frame is computed once, not per pixel.
class ViewRays {
public:
    ViewRays(const Camera& camera, PictureSize picture, double view_width, double view_height);
    Ray<float> operator()(int x, int y) const;

private:
    Vec3d eye_, forward_, right_, up_;  ///< right_ and up_ scaled by the half extents at distance 1
    double step_x_ = 0.0, step_y_ = 0.0;  ///< view pixels per picture pixel, over the view's size
    double view_w_ = 1.0, view_h_ = 1.0;
};

/// The ids of a w x h picture moved right by `shift` pixels (negative: left), kBackground coming in.
/// A test aid: a deliberately wrong OpenGL picture that the check must reject.
std::vector<std::uint32_t> shift_ids(const std::vector<std::uint32_t>& ids, int width, int height, int shift);

/// Shape ids of another picture of the same view (the OpenGL one), at the given size, row 0 on top.
using IdPicture = std::function<std::vector<std::uint32_t>(PictureSize)>;

class RaycastView {
public:
    /// Brings the picture up to date. The shapes' hierarchy and the instances' follow the editor's
    /// change sets (refit when only parameters or placements changed, rebuilt on a structural
    /// change); instances show as instance_object_id(); the rays are cast again only when the camera, the view size, the scene or
    /// the resolution changed, and the picture is reshaded when the shading or margin changed too.
    /// `other_ids` is called in difference mode. Returns true when rgba() changed.
    bool update(const SceneEditor& editor, const Camera& camera, double view_width, double view_height,
                const RaycastOptions& options, const IdPicture& other_ids);

    PictureSize size() const { return {image_.width, image_.height}; }
    const raycast::Image& image() const { return image_; }
    /// The shaded picture, RGBA8, row 0 at the top (difference: the dimmed normal picture with
    /// differing pixels magenta and skipped silhouette pixels dark blue).
    const std::vector<std::uint8_t>& rgba() const { return rgba_; }
    const raycast::Comparison& comparison() const { return comparison_; }  ///< difference mode only
    double cast_ms() const { return cast_ms_; }
    double rays_per_second() const;
    std::size_t casts() const { return casts_; }
    std::size_t rebuilds() const { return rebuilds_; }

private:
    void sync(const SceneEditor& editor);

    Bvh<float> bvh_;
    SceneInstances<float> instances_;
    std::vector<std::uint32_t> instance_ids_;  ///< per core instance, its object id
    std::optional<std::uint64_t> synced_version_;  ///< the editor's version bvh_ holds
    bool scene_changed_ = true;
    std::size_t rebuilds_ = 0;

    // What the current picture was made from.
    bool have_picture_ = false;
    Camera camera_;
    double view_w_ = 0.0, view_h_ = 0.0;
    PictureSize picture_;
    RaycastShading shading_ = RaycastShading::Normal;
    int margin_ = 1;

    raycast::Image image_;
    std::vector<std::uint8_t> rgba_;
    raycast::Comparison comparison_;
    double cast_ms_ = 0.0;
    std::size_t casts_ = 0;
};

}  // namespace raypick::app
