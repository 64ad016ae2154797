// raypick demo: drawing the scene's mesh instances with OpenGL. Each mesh's vertices and triangles
// are uploaded once (when the scene's meshes change); every placement of it is one instance of one
// instanced draw, its world matrix in a per-mesh instance buffer rewritten when instances move.
// Solid (coloured by the normal, like the shapes' solid mode) and wire (the triangles' edges).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include <glm/glm.hpp>

#include "app/Commands.h"
#include "app/GlResources.h"

namespace raypick::app {

class MeshDraw {
public:
    /// Loads the shaders (throws StartupError, see app/ShaderFiles.h).
    MeshDraw();

    /// Brings the GPU buffers up to date with the editor's scene: meshes uploaded again only when
    /// the scene was replaced (no command edits a mesh); the instance matrices rewritten when
    /// instances were added, removed or moved. True if anything drawn changed.
    bool sync(const SceneEditor& editor);

    /// Every instance's triangles filled, coloured by the normal (shaders/solid.frag).
    void draw_solid(const glm::mat4& view_projection) const;
    /// Every instance's triangle edges in `color`.
    void draw_wire(const glm::mat4& view_projection, const glm::vec4& color) const;
    /// Scene instance i's triangle edges in `color` (a hover or selection highlight).
    void draw_instance_wire(const glm::mat4& view_projection, std::size_t i, const glm::vec4& color) const;

    bool empty() const { return meshes_.empty(); }
    std::size_t triangles_drawn() const;  ///< triangles of one frame's instances

private:
    /// One mesh on the GPU and the world matrices of its placements.
    struct GpuMesh {
        gl::VertexArray vao;
        gl::Buffer vertices;   ///< position, normal (a vertex per corner when the mesh has no normals)
        gl::Buffer indices;
        gl::Buffer matrices;   ///< a mat4 per placement
        GLsizei index_count = 0;
        std::vector<glm::mat4> placed;  ///< the placements' world matrices, as uploaded
    };
    /// Where core instance k's matrix lives: its mesh and its slot in that mesh's matrices.
    struct Slot {
        std::uint32_t mesh = 0, at = 0;
        std::size_t scene_instance = 0;
    };
    void upload_meshes(const Scene& scene);
    void place(const Scene& scene);
    void draw(const glm::mat4& view_projection, bool wire, const glm::vec4& color) const;

    gl::Program solid_;
    gl::Program wire_;
    std::vector<GpuMesh> meshes_;
    std::vector<Slot> slots_;  ///< by core instance (place_meshes() order)
    std::optional<std::uint64_t> synced_version_;
};

}  // namespace raypick::app
