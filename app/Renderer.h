// raypick demo: everything drawn with OpenGL — the scene's wireframes (instanced: one unit mesh per
// kind, one instance per shape, updated only for the shapes that change), the solid mode, grid and
// axes, and per-frame overlays (highlights, the ray, normal arrows, entry/exit markers, handles).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include <glm/glm.hpp>

#include "app/Commands.h"
#include "app/GlResources.h"
#include "app/MeshDraw.h"
#include "app/ShapeMeshes.h"
#include <raypick/scene/Scene.h>

namespace raypick::app {

/// A marker's outline: squares (points, handles), diamonds (textbook-variant results).
enum class MarkerShape { Square, Diamond };

/// Screen-space markers of one pixel size and shape with a dark border, drawn in order, always on top.
struct MarkerBatch {
    float size = 10.0f;
    std::vector<LineVertex> points;
    MarkerShape shape = MarkerShape::Square;
};

/// What a frame draws besides the scene itself; rebuilt by the app every frame.
struct Overlay {
    LineList highlight;    ///< hovered / selected wireframes (depth-tested, drawn over the scene)
    LineList annotations;  ///< rays, normal arrows, variant results (always visible, outlined dark)
    std::vector<MarkerBatch> markers;
    /// Mesh instances (indices into Scene::instances) whose edges are drawn in a colour, like `highlight`.
    std::vector<std::pair<std::size_t, glm::vec4>> instance_highlights;
    void clear() {
        highlight.clear();
        instance_highlights.clear();
        annotations.clear();
        markers.clear();
    }
};

/// A rectangle of the framebuffer in pixels, origin bottom left (glViewport's convention).
struct Viewport {
    int x = 0, y = 0, width = 1, height = 1;
};

/// A rectangle of the window filled with one colour after the 3D view (framebuffer pixels, y up).
struct FillRect {
    int x = 0, y = 0, width = 0, height = 0;
    glm::vec4 color{0.0f};
};

struct DrawSettings {
    bool solid = false;
    bool grid = true;
    glm::vec4 background = palette::background;
    /// The docked panels' opaque backgrounds, cleared instead of blended by ImGui (see app/ui/Widgets.h).
    std::vector<FillRect> panel_fills;
};

class Renderer {
public:
    /// Loads and compiles the shaders (throws StartupError) and creates the buffers.
    Renderer();

    /// Brings the scene's instance buffers and its meshes' buffers (MeshDraw) up to date from the
    /// editor's change sets: nothing if no shape changed, only the changed instances if a few shapes changed in place (a drag), else a
    /// rebuild (counted by scene_rebuilds).
    void sync_scene(const SceneEditor& editor);

    /// Clears the current framebuffer (fb_width x fb_height pixels) and draws the 3D view into
    /// the `view` rectangle of it.
    void draw(const glm::dmat4& view_projection, int fb_width, int fb_height, const Viewport& view,
              const Overlay& overlay, const DrawSettings& settings);

    /// The object-id picture of `scene` (the one last synced) at width x height pixels (offscreen, the whole picture
    /// is the view): each pixel's shape index or mesh instance's instance_object_id(),
    /// raycast::kBackground where nothing is, row 0 at the top. Surfaces finely tessellated (see id_segments()). Restores the default framebuffer and
    /// the viewport. Empty for a zero size.
    std::vector<std::uint32_t> render_ids(const Scene& scene, const glm::dmat4& view_projection, int width, int height);
    /// The solid mode's surfaces (the same unit solids, levels of detail, mesh draws and shaders)
    /// at width x height pixels offscreen: RGBA8, rgb the normal's colour, alpha 0 where no
    /// surface is, row 0 at the top. Restores the default framebuffer and the viewport.
    std::vector<std::uint8_t> render_normals(const glm::dmat4& view_projection, int width, int height);
    /// Segments per circle of the id picture's tessellation: 64, fewer for large scenes.
    int id_segments() const { return id_segments_; }

    /// Replaces the ray-cast view's texture with width x height RGBA8 pixels (row 0 at the top).
    void upload_picture(const std::vector<std::uint8_t>& rgba, int width, int height);
    GLuint picture_texture() const { return picture_.id(); }

    /// Segments per circle of the highlights (hovered, selected): the finest level of detail, so a
    /// highlight covers its shape's wireframe at whatever level that is drawn (lod_segments).
    int circle_segments() const { return kLodSegments.back(); }
    /// Line vertices the scene's wireframes drew in the last frame (instances x their unit mesh's
    /// vertices at the level of detail each needed).
    std::size_t scene_line_vertices() const { return line_vertices_; }
    std::size_t scene_rebuilds() const { return rebuilds_; }
    /// How often the scene layer (background, surfaces, grid, wireframes) was drawn; once it holds
    /// still (same camera, view, scene and settings as the frame before) it is drawn offscreen
    /// once and copied from there until it changes.
    std::size_t scene_layer_draws() const { return layer_draws_; }
    /// In-place updates of single instances (drags) since start.
    std::size_t instance_updates() const { return instance_updates_; }

private:
    /// Where a unit mesh lies in its set's buffer texture: vertices [mesh_first, mesh_first + mesh_count).
    struct MeshRange {
        GLint mesh_first = 0, mesh_count = 0;
    };
    /// A unit mesh's indices repeated for `capacity` instances (instance k's shifted by k * U).
    struct ElementCache {
        gl::Buffer buffer;
        std::size_t capacity = 0;
    };
    /// A buffer texture: a buffer object seen by shaders as a samplerBuffer.
    struct BufferTexture {
        gl::Buffer buffer;
        gl::Texture texture;
    };
    static constexpr std::size_t kLevels = kLodSegments.size();
    static constexpr std::size_t kBuckets = kLodBuckets;  // unit mesh x level
    /// Every unit mesh of one kind of drawing (the wireframes' lines or the solids' triangles) at
    /// every level of detail, in one buffer texture (`texels` RGBA32F a vertex), indices on the CPU.
    struct UnitMeshSet {
        BufferTexture tex;
        int texels = 1;
        GLenum mode = GL_LINES;
        std::array<MeshRange, kBuckets> ranges{};
        std::array<std::vector<std::uint32_t>, kBuckets> indices;
        std::array<ElementCache, kBuckets> elements;
    };

    gl::Program lines_;
    gl::Program instanced_;  // instanced wireframes (instanced.vert, uniform_color.frag)
    gl::Program markers_;
    gl::Program solid_;     // instanced solids (solid_instanced.vert)
    gl::Program ids_;
    MeshDraw mesh_draw_;            // the scene's mesh instances
    gl::VertexArray empty_vao_;     // no attributes: the instanced draws fetch from buffer textures
    BufferTexture instance_tex_;    // GpuInstance per drawn shape, in draw order (RGBA32F)
    UnitMeshSet wire_meshes_;       // unit_wireframe: xyz + far flag a vertex
    UnitMeshSet solid_meshes_;      // unit_solid: xyz + far flag, normal
    std::vector<ShapeInstance> instances_;  // per shape
    std::vector<UnitMesh> kinds_;           // per shape
    DrawLists lists_;                       // this view's draws; lists_.order is instance_tex_'s order
    std::vector<std::int32_t> slot_;        // per shape: its place in instance_tex_, -1 if not drawn
    std::vector<GpuInstance> gpu_;          // staging for instance_tex_
    std::vector<std::size_t> pending_;      // shapes changed in place since instance_tex_ was written
    bool lists_dirty_ = true;
    bool instances_dirty_ = true;           // instance_tex_ must be rewritten whole
    glm::mat4 lod_view_projection_{0.0f};
    int lod_width_ = 0, lod_height_ = 0;
    std::size_t line_vertices_ = 0;
    /// What the cached scene layer was drawn for.
    struct LayerKey {
        glm::mat4 view_projection{0.0f};
        int fb_width = 0, fb_height = 0, x = 0, y = 0, width = 0, height = 0;
        bool solid = false, grid = false;
        glm::vec4 background{0.0f};
        std::size_t scene_version = 0;
        bool operator==(const LayerKey& o) const {
            return view_projection == o.view_projection && fb_width == o.fb_width && fb_height == o.fb_height &&
                   x == o.x && y == o.y && width == o.width && height == o.height && solid == o.solid &&
                   grid == o.grid && background == o.background && scene_version == o.scene_version;
        }
    };
    gl::Framebuffer layer_fbo_;
    gl::Renderbuffer layer_color_;
    gl::Renderbuffer layer_depth_;
    GLenum layer_depth_format_ = 0;  // the default framebuffer's, found on first use
    int layer_width_ = 0, layer_height_ = 0;
    bool layer_cache_enabled_ = true;
    bool layer_valid_ = false;
    LayerKey layer_key_;
    LayerKey last_key_;  // the previous frame's
    std::size_t layer_draws_ = 0;
    std::size_t scene_version_ = 0;  // counts changes of the scene's shapes
    std::optional<std::uint64_t> synced_version_;  // the editor's version the instances hold
    std::size_t instance_updates_ = 0;
    gl::Mesh grid_;
    gl::Mesh dynamic_lines_;
    gl::Mesh dynamic_points_;
    gl::Mesh id_mesh_;  // all shapes, finely tessellated triangles with their shape index
    gl::Framebuffer id_fbo_;
    gl::Renderbuffer id_color_;
    gl::Renderbuffer id_depth_;
    int id_fbo_width_ = 0, id_fbo_height_ = 0;
    gl::Texture picture_;
    bool ids_dirty_ = true;
    int id_segments_ = 64;
    std::size_t rebuilds_ = 0;

    void rebuild_instances(const Scene& scene);
    /// Clears the bound framebuffer and draws background, solid surfaces, grid and wireframes.
    void draw_scene_layer(const glm::mat4& view_projection, int fb_width, int fb_height, const Viewport& view,
                          const DrawSettings& settings);
    /// Sizes the scene layer's framebuffer; false (and the cache off) if it cannot be copied.
    bool prepare_layer(int fb_width, int fb_height);
    /// The draws for this view: every shape with a circle at the level of detail its size on
    /// screen needs (see lod_segments), the rest with their one mesh; shapes outside the view out.
    void update_lists(const glm::mat4& view_projection, int view_width, int view_height);
    /// One indexed draw per bucket of this view with `set`'s unit meshes (buckets whose mesh is
    /// empty, as the solids of points and segments, are skipped); `program` in use.
    void draw_instanced(const gl::Program& program, UnitMeshSet& set);
    void rebuild_ids(const Scene& scene);
    /// Sizes the offscreen framebuffer of render_ids() and render_normals() and binds it; false
    /// (default framebuffer bound) when it is incomplete.
    bool bind_offscreen(int width, int height);
    /// Reads the bound framebuffer's width x height RGBA8 pixels, row 0 at the top.
    static std::vector<std::uint8_t> read_rgba_top_down(int width, int height);
};

}  // namespace raypick::app
