// raypick demo: everything drawn with OpenGL — the batched scene wireframe (one vertex buffer,
// rebuilt only when the shapes change), the solid mode, grid and axes, and per-frame overlays
// (highlights, the ray, normal arrows, entry/exit markers, handles).
#pragma once

#include <cstdint>
#include <vector>

#include <glm/glm.hpp>

#include "app/GlResources.h"
#include "app/Wireframe.h"
#include "scene/Scene.h"

namespace raypick::app {

/// Square screen-space markers of one pixel size, drawn in order, always on top.
struct MarkerBatch {
    float size = 10.0f;
    std::vector<LineVertex> points;
};

/// What a frame draws besides the scene itself; rebuilt by the app every frame.
struct Overlay {
    LineList highlight;    ///< hovered / selected wireframes (depth-tested, drawn over the scene)
    LineList annotations;  ///< rays, normal arrows, variant results (always visible)
    std::vector<MarkerBatch> markers;
    void clear() {
        highlight.clear();
        annotations.clear();
        markers.clear();
    }
};

/// A rectangle of the framebuffer in pixels, origin bottom left (glViewport's convention).
struct Viewport {
    int x = 0, y = 0, width = 1, height = 1;
};

struct DrawSettings {
    bool solid = false;
    bool grid = true;
    glm::vec4 background = palette::background;
};

class Renderer {
public:
    /// Loads and compiles the shaders (throws StartupError) and creates the buffers.
    Renderer();

    /// Rebuilds the scene's vertex buffers if the shapes changed since the last call.
    void sync_scene(const Scene& scene);

    /// Clears the current framebuffer (fb_width x fb_height pixels) and draws the 3D view into
    /// the `view` rectangle of it.
    void draw(const glm::dmat4& view_projection, int fb_width, int fb_height, const Viewport& view,
              const Overlay& overlay, const DrawSettings& settings);

    /// The object-id picture of the scene at width x height pixels (offscreen, the whole picture
    /// is the view): each pixel's shape index, raycast::kBackground where no shape is, row 0 at the
    /// top. Surfaces finely tessellated (see id_segments()). Restores the default framebuffer and
    /// the viewport. Empty for a zero size.
    std::vector<std::uint32_t> render_ids(const glm::dmat4& view_projection, int width, int height);
    /// Segments per circle of the id picture's tessellation: 64, fewer for large scenes.
    int id_segments() const { return id_segments_; }

    /// Replaces the ray-cast view's texture with width x height RGBA8 pixels (row 0 at the top).
    void upload_picture(const std::vector<std::uint8_t>& rgba, int width, int height);
    GLuint picture_texture() const { return picture_.id(); }

    /// Segments per circle of the scene's wireframes: fewer for large scenes (> 250 shapes) so a
    /// thousand shapes stay interactive on a software renderer. Highlights use the same count.
    int circle_segments() const { return segments_; }
    std::size_t scene_line_vertices() const { return static_cast<std::size_t>(wire_.count); }
    std::size_t scene_rebuilds() const { return rebuilds_; }

private:
    gl::Program lines_;
    gl::Program markers_;
    gl::Program solid_;
    gl::Program ids_;
    gl::Mesh wire_;        // all shapes, palette::shape
    gl::Mesh solid_mesh_;  // all shapes, triangles with normals
    gl::Mesh grid_;
    gl::Mesh dynamic_lines_;
    gl::Mesh dynamic_points_;
    gl::Mesh id_mesh_;  // all shapes, finely tessellated triangles with their shape index
    gl::Framebuffer id_fbo_;
    gl::Renderbuffer id_color_;
    gl::Renderbuffer id_depth_;
    int id_fbo_width_ = 0, id_fbo_height_ = 0;
    gl::Texture picture_;
    std::vector<Shape<double>> cached_;
    bool have_cache_ = false;
    bool solid_dirty_ = true;
    bool ids_dirty_ = true;
    int id_segments_ = 64;
    std::size_t rebuilds_ = 0;
    int segments_ = kCircleSegments;

    void rebuild_solid(const std::vector<Shape<double>>& shapes);
    void rebuild_ids(const std::vector<Shape<double>>& shapes);
};

}  // namespace raypick::app
