#include "app/MeshDraw.h"

#include <algorithm>
#include <cstddef>

#include <glm/gtc/type_ptr.hpp>

#include "app/ShaderFiles.h"
#include <raypick/scene/SceneMeshes.h>

namespace raypick::app {

namespace {

/// A mesh vertex as the GPU reads it.
struct MeshVertex {
    glm::vec3 position;
    glm::vec3 normal;
};

/// The vertices and indices of `m` for drawing: its own vertices with their normals, or, for a
/// mesh without normals, three vertices a triangle with the face's normal (flat shading).
void gpu_arrays(const ModelMesh& m, std::vector<MeshVertex>& vertices, std::vector<std::uint32_t>& indices) {
    vertices.clear();
    indices.clear();
    if (!m.normals.empty()) {
        for (std::size_t v = 0; v < m.positions.size(); ++v) vertices.push_back({m.positions[v], m.normals[v]});
        indices = m.triangles;
        return;
    }
    for (std::size_t t = 0; t + 2 < m.triangles.size(); t += 3) {
        const glm::vec3 a = m.positions[m.triangles[t]], b = m.positions[m.triangles[t + 1]],
                        c = m.positions[m.triangles[t + 2]];
        const glm::vec3 n = glm::cross(b - a, c - a);
        const float len = glm::length(n);
        const glm::vec3 face = len > 0.0f ? n / len : glm::vec3(0.0f);
        for (const glm::vec3& p : {a, b, c}) {
            indices.push_back(std::uint32_t(vertices.size()));
            vertices.push_back({p, face});
        }
    }
}

void set_uniforms(const gl::Program& p, const glm::mat4& view_projection, int single, const glm::mat4& model) {
    glUseProgram(p.id());
    glUniformMatrix4fv(glGetUniformLocation(p.id(), "u_view_projection"), 1, GL_FALSE, glm::value_ptr(view_projection));
    glUniformMatrix4fv(glGetUniformLocation(p.id(), "u_model"), 1, GL_FALSE, glm::value_ptr(model));
    glUniform1i(glGetUniformLocation(p.id(), "u_single"), single);
}

}  // namespace

MeshDraw::MeshDraw()
    : solid_(load_program("mesh.vert", "solid.frag")), wire_(load_program("mesh.vert", "uniform_color.frag")) {}

bool MeshDraw::sync(const SceneEditor& editor) {
    if (synced_version_ == editor.version()) return false;
    const ChangeSet changes = editor.changes_since(synced_version_);
    synced_version_ = editor.version();
    // The meshes themselves change only with the whole scene (no command edits a mesh): instances
    // added, removed or moved only place them again.
    if (changes.replaced) upload_meshes(editor.scene());
    if (!changes.replaced && !changes.instance_structure && changes.instances_modified.empty()) return false;
    place(editor.scene());
    return true;
}

void MeshDraw::upload_meshes(const Scene& scene) {
    meshes_.clear();
    std::vector<MeshVertex> vertices;
    std::vector<std::uint32_t> indices;
    // In place_meshes()'s order: every ModelMesh of every SceneMesh.
    for (const SceneMesh& sm : scene.meshes)
        for (const ModelMesh& m : sm.model.meshes) {
            GpuMesh& g = meshes_.emplace_back();
            gpu_arrays(m, vertices, indices);
            g.index_count = GLsizei(indices.size());
            glBindVertexArray(g.vao.id());
            glBindBuffer(GL_ARRAY_BUFFER, g.vertices.id());
            glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(vertices.size() * sizeof(MeshVertex)),
                         vertices.empty() ? nullptr : vertices.data(), GL_STATIC_DRAW);
            glEnableVertexAttribArray(0);
            glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, sizeof(MeshVertex),
                                  reinterpret_cast<const void*>(offsetof(MeshVertex, position)));
            glEnableVertexAttribArray(1);
            glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, sizeof(MeshVertex),
                                  reinterpret_cast<const void*>(offsetof(MeshVertex, normal)));
            glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, g.indices.id());
            glBufferData(GL_ELEMENT_ARRAY_BUFFER, GLsizeiptr(indices.size() * sizeof(std::uint32_t)),
                         indices.empty() ? nullptr : indices.data(), GL_STATIC_DRAW);
            // The world matrix: four columns, one instance each.
            glBindBuffer(GL_ARRAY_BUFFER, g.matrices.id());
            glBufferData(GL_ARRAY_BUFFER, sizeof(glm::mat4), nullptr, GL_DYNAMIC_DRAW);
            for (GLuint c = 0; c < 4; ++c) {
                glEnableVertexAttribArray(2 + c);
                glVertexAttribPointer(2 + c, 4, GL_FLOAT, GL_FALSE, sizeof(glm::mat4),
                                      reinterpret_cast<const void*>(sizeof(glm::vec4) * c));
                glVertexAttribDivisor(2 + c, 1);
            }
            glBindVertexArray(0);
            glBindBuffer(GL_ARRAY_BUFFER, 0);
        }
}

void MeshDraw::place(const Scene& scene) {
    std::vector<std::uint32_t> first_mesh;
    std::uint32_t count = 0;
    for (const SceneMesh& sm : scene.meshes) {
        first_mesh.push_back(count);
        count += std::uint32_t(sm.model.meshes.size());
    }
    for (GpuMesh& g : meshes_) g.placed.clear();
    slots_.clear();
    // In place_meshes()'s order: scene instances, then each one's placements.
    for (std::size_t i = 0; i < scene.instances.size(); ++i) {
        const SceneInstance& si = scene.instances[i];
        const glm::dmat4 world = instance_matrix(si);
        const auto& placements = scene.meshes[si.mesh].model.instances;
        for (std::size_t p = 0; p < placements.size(); ++p) {
            const std::uint32_t mesh = first_mesh[si.mesh] + placements[p].mesh;
            slots_.push_back({mesh, std::uint32_t(meshes_[mesh].placed.size()), i});
            meshes_[mesh].placed.emplace_back(world * placements[p].transform);
        }
    }
    for (GpuMesh& g : meshes_) {
        glBindBuffer(GL_ARRAY_BUFFER, g.matrices.id());
        glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(std::max<std::size_t>(1, g.placed.size()) * sizeof(glm::mat4)),
                     g.placed.empty() ? nullptr : g.placed.data(), GL_DYNAMIC_DRAW);
    }
    glBindBuffer(GL_ARRAY_BUFFER, 0);
}

void MeshDraw::draw(const glm::mat4& view_projection, bool wire, const glm::vec4& color) const {
    const gl::Program& p = wire ? wire_ : solid_;
    set_uniforms(p, view_projection, 0, glm::mat4(1.0f));
    if (wire) {
        glUniform4fv(glGetUniformLocation(p.id(), "u_color"), 1, glm::value_ptr(color));
        glPolygonMode(GL_FRONT_AND_BACK, GL_LINE);
    }
    for (const GpuMesh& g : meshes_) {
        if (g.placed.empty() || g.index_count == 0) continue;
        glBindVertexArray(g.vao.id());
        glDrawElementsInstanced(GL_TRIANGLES, g.index_count, GL_UNSIGNED_INT, nullptr, GLsizei(g.placed.size()));
    }
    if (wire) glPolygonMode(GL_FRONT_AND_BACK, GL_FILL);
    glBindVertexArray(0);
    glUseProgram(0);
}

void MeshDraw::draw_solid(const glm::mat4& view_projection) const { draw(view_projection, false, glm::vec4(1.0f)); }

void MeshDraw::draw_wire(const glm::mat4& view_projection, const glm::vec4& color) const {
    draw(view_projection, true, color);
}

void MeshDraw::draw_instance_wire(const glm::mat4& view_projection, std::size_t i, const glm::vec4& color) const {
    glPolygonMode(GL_FRONT_AND_BACK, GL_LINE);
    for (const Slot& s : slots_) {
        if (s.scene_instance != i) continue;
        const GpuMesh& g = meshes_[s.mesh];
        set_uniforms(wire_, view_projection, 1, g.placed[s.at]);
        glUniform4fv(glGetUniformLocation(wire_.id(), "u_color"), 1, glm::value_ptr(color));
        glBindVertexArray(g.vao.id());
        glDrawElements(GL_TRIANGLES, g.index_count, GL_UNSIGNED_INT, nullptr);
    }
    glPolygonMode(GL_FRONT_AND_BACK, GL_FILL);
    glBindVertexArray(0);
    glUseProgram(0);
}

std::size_t MeshDraw::triangles_drawn() const {
    std::size_t n = 0;
    for (const GpuMesh& g : meshes_) n += std::size_t(g.index_count / 3) * g.placed.size();
    return n;
}

}  // namespace raypick::app
