// raypick demo: the CPU ray-cast view — every pixel's ray through the core (raypick::raycast, a
// float hierarchy of the scene, all cores), shaded by normal and/or depth, or compared by object
// with the OpenGL picture (difference mode). No GL here: the other picture's ids come in through a
// callback, and the app uploads rgba() to a texture.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <utility>
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

/// Another picture of the same view (the OpenGL one), row 0 on top: each pixel's object id and,
/// when given, the normal solid mode colours it by (RGBA8, rgb = normal * 0.5 + 0.5, alpha 0
/// where no surface is drawn).
struct OtherPicture {
    OtherPicture(std::vector<std::uint32_t> object_ids = {}, std::vector<std::uint8_t> normals = {})
        : ids(std::move(object_ids)), normal_rgba(std::move(normals)) {}
    std::vector<std::uint32_t> ids;
    std::vector<std::uint8_t> normal_rgba;
};
/// The other picture at the given size.
using IdPicture = std::function<OtherPicture(PictureSize)>;

/// An id comparison (raycast::compare_ids) with the normals compared too.
struct PictureComparison : raycast::Comparison {
    std::size_t normals_compared = 0;   ///< compared pixels showing the same object, with a normal in both pictures
    std::size_t normals_differing = 0;  ///< of those, normals more than kNormalTolerance apart (also in `differing`)
};

/// How far apart (degrees) the two pictures' normals of a pixel may be: the OpenGL surfaces are
/// tessellated, their normals interpolated and stored in 8 bits; a reversed or wrong normal is
/// far beyond it.
inline constexpr double kNormalToleranceDegrees = 20.0;

/// Compares the normals of the pixels `c` compared and found showing the same object: the CPU
/// picture's against `other_rgba` (OtherPicture::normal_rgba; empty: nothing is compared).
/// Pixels within `margin` of a crease (neighbours' normals more than the tolerance apart, in
/// either picture) are skipped like silhouettes. A differing normal counts as differing and is
/// marked in c.rgba like a differing object.
void compare_normals(const raycast::Image& image, const std::vector<std::uint8_t>& other_rgba, int margin,
                     PictureComparison& c);

class RaycastView {
public:
    /// Brings the picture up to date. The shapes' hierarchy and the instances' follow the editor's
    /// change sets (refit when only parameters or placements changed, rebuilt on a structural
    /// change); instances show as instance_object_id(); the rays are cast again only when the camera, the view size, the scene or
    /// the resolution changed, and the picture is reshaded when the shading or margin changed too.
    /// `other_ids` is called in difference mode: objects and, where it gives them, normals compared. Returns true when rgba() changed.
    bool update(const SceneEditor& editor, const Camera& camera, double view_width, double view_height,
                const RaycastOptions& options, const IdPicture& other_ids);

    PictureSize size() const { return {image_.width, image_.height}; }
    const raycast::Image& image() const { return image_; }
    /// The shaded picture, RGBA8, row 0 at the top (difference: the dimmed normal picture with
    /// differing pixels magenta and skipped silhouette pixels dark blue).
    const std::vector<std::uint8_t>& rgba() const { return rgba_; }
    const PictureComparison& comparison() const { return comparison_; }  ///< difference mode only
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
    PictureComparison comparison_;
    double cast_ms_ = 0.0;
    std::size_t casts_ = 0;
};

}  // namespace raypick::app
