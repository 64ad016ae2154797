// raypick ray-cast view: every pixel's ray cast through the core (the BVH and the robust casts) on
// all cores, shaded by normal and depth. It is a second picture of a scene, independent of OpenGL:
// the demo shows it beside or over the rasterised one, and compare_ids() marks where the two
// disagree about which object a pixel shows.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include <raypick/geometry/Bvh.h>
#include <raypick/geometry/MeshInstances.h>

namespace raypick::raycast {

/// Object id of a pixel that shows nothing.
inline constexpr std::uint32_t kBackground = 0xffffffffu;

/// One ray-cast picture. Pixel (x, y) is at index y * width + x, row 0 at the top.
struct Image {
    int width = 0;
    int height = 0;
    std::vector<std::uint32_t> shape;   ///< picked object's id (a shape's index, an instance's id), or kBackground
    std::vector<float> t;               ///< t of the first surface point (0 for background)
    std::vector<Vec3<float>> normal;    ///< outward unit normal there (0 for background)
};

/// The ray through pixel (x, y)'s centre, e.g. from the demo's camera.
using PixelRay = std::function<Ray<float>(int x, int y)>;

/// Casts one ray per pixel through `bvh` (nearest first surface: the exit when the eye is inside a
/// shape). `threads` <= 0 uses every hardware thread. The result does not depend on `threads`.
Image render(const Bvh<float>& bvh, int width, int height, const PixelRay& ray_for_pixel, int threads = 0);
/// The same picture into `into`, reusing its buffers: what a view that casts every frame calls.
/// Every pixel is written; nothing of the previous picture remains.
void render(const Bvh<float>& bvh, int width, int height, const PixelRay& ray_for_pixel, Image& into, int threads = 0);

/// Mesh instances cast beside the shapes: the hierarchy, and the object id each of its instances
/// shows as in the picture (ids[k] for core instance k; several instances may share an id).
struct MeshObjects {
    const InstanceBvh<float>* bvh = nullptr;
    const std::vector<std::uint32_t>* ids = nullptr;
};

/// The same picture of shapes and mesh instances: each pixel shows the nearer of the shapes'
/// first surface and the nearest instance triangle (a shape at equal t). An instance's normal is
/// its interpolated (shading) normal where the mesh has vertex normals, else the face normal.
void render(const Bvh<float>& bvh, const MeshObjects& meshes, int width, int height, const PixelRay& ray_for_pixel,
            Image& into, int threads = 0);

enum class Shading {
    Normal,          ///< rgb = normal * 0.5 + 0.5: a wrong normal shows as a wrong colour
    Depth,           ///< grey, near bright, far dark
    NormalAndDepth,  ///< the normal colour, darkened with depth
};

/// RGBA8 pixels of `image` (row 0 at the top). Depth maps [t_near, t_far] to bright..dark; pass
/// t_near >= t_far to take the image's own range.
std::vector<std::uint8_t> shade(const Image& image, Shading shading, float t_near = 0.f, float t_far = 0.f);

/// Where two pictures disagree about which object each pixel shows.
struct Comparison {
    std::size_t compared = 0;   ///< pixels away from every silhouette, in both pictures
    std::size_t differing = 0;  ///< of those, pixels whose shape indices differ
    std::size_t skipped = 0;    ///< pixels within `margin` of an edge between objects, not compared
    std::vector<std::uint8_t> rgba;  ///< differing: magenta; skipped: dark blue; agreeing: transparent
};

/// Compares `image`'s shape indices with `other` (same size and layout, e.g. the OpenGL picture's
/// object ids read back). Pixels within `margin` pixels of an object edge in either picture are
/// skipped: rasterisation and ray casting may legitimately differ by a pixel on silhouettes.
Comparison compare_ids(const Image& image, const std::vector<std::uint32_t>& other, int margin = 1);

}  // namespace raypick::raycast
