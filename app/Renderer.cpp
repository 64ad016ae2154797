#include "app/Renderer.h"

#include <algorithm>
#include <cmath>
#include <cstddef>

#include <glm/gtc/type_ptr.hpp>

#include "app/MeshPicking.h"
#include "app/ShaderFiles.h"
#include "raycast/CpuRaycast.h"

namespace raypick::app {

namespace {

void setup_line_layout(gl::Mesh& m) {
    glBindVertexArray(m.vao.id());
    glBindBuffer(GL_ARRAY_BUFFER, m.vbo.id());
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, sizeof(LineVertex),
                          reinterpret_cast<const void*>(offsetof(LineVertex, position)));
    glEnableVertexAttribArray(1);
    glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, sizeof(LineVertex),
                          reinterpret_cast<const void*>(offsetof(LineVertex, color)));
    glBindVertexArray(0);
}

/// A vertex of the object-id picture: position and the index of its shape.
struct IdVertex {
    glm::vec3 position;
    float shape;
};

void setup_id_layout(gl::Mesh& m) {
    glBindVertexArray(m.vao.id());
    glBindBuffer(GL_ARRAY_BUFFER, m.vbo.id());
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, sizeof(IdVertex),
                          reinterpret_cast<const void*>(offsetof(IdVertex, position)));
    glEnableVertexAttribArray(1);
    glVertexAttribPointer(1, 1, GL_FLOAT, GL_FALSE, sizeof(IdVertex),
                          reinterpret_cast<const void*>(offsetof(IdVertex, shape)));
    glBindVertexArray(0);
}

void attach_buffer_texture(const gl::Texture& texture, const gl::Buffer& buffer, GLenum format) {
    glBindBuffer(GL_TEXTURE_BUFFER, buffer.id());
    glBufferData(GL_TEXTURE_BUFFER, 16, nullptr, GL_DYNAMIC_DRAW);  // never empty
    glBindTexture(GL_TEXTURE_BUFFER, texture.id());
    glTexBuffer(GL_TEXTURE_BUFFER, format, buffer.id());
    glBindTexture(GL_TEXTURE_BUFFER, 0);
    glBindBuffer(GL_TEXTURE_BUFFER, 0);
}

// Texture units of the instanced wireframes' buffer textures (0 is left to ImGui's pictures).
constexpr GLint kInstanceUnit = 1, kMeshUnit = 2;
// The instanced draws go in chunks of about this many indices, each flushed (draw_instanced).
constexpr std::size_t kChunkIndices = 32768;

template <typename V> void upload_buffer(GLenum target, const gl::Buffer& b, const std::vector<V>& v, GLenum usage) {
    glBindBuffer(target, b.id());
    glBufferData(target, static_cast<GLsizeiptr>(v.size() * sizeof(V)), v.empty() ? nullptr : v.data(), usage);
}

template <typename V> void upload(gl::Mesh& m, const std::vector<V>& v, GLenum usage) {
    glBindBuffer(GL_ARRAY_BUFFER, m.vbo.id());
    glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(v.size() * sizeof(V)), v.empty() ? nullptr : v.data(),
                 usage);
    m.count = static_cast<GLsizei>(v.size());
}

void set_matrix(const gl::Program& p, const glm::mat4& m) {
    glUniformMatrix4fv(glGetUniformLocation(p.id(), "u_view_projection"), 1, GL_FALSE, glm::value_ptr(m));
}

}  // namespace

namespace {

/// Fills `set` with every unit mesh at every level of detail: `make(kind, segments)` gives a mesh
/// with `vertices` and `indices`; `texels(vertex, out)` appends a vertex's texels. Meshes without
/// circles (only Rings and Capsule have any) are made once and shared by every level.
template <typename Make, typename Texels, typename Set>
void fill_mesh_set(Set& set, Make make, Texels texels) {
    std::vector<glm::vec4> mesh;
    for (int k = 0; k < kUnitMeshCount; ++k) {
        const auto kind = static_cast<UnitMesh>(k);
        const bool has_circles = kind == UnitMesh::Rings || kind == UnitMesh::Capsule;
        for (std::size_t level = 0; level < kLodSegments.size(); ++level) {
            const std::size_t b = std::size_t(k) * kLodSegments.size() + level;
            if (!has_circles && level > 0) {
                set.ranges[b] = set.ranges[b - level];
                set.indices[b] = set.indices[b - level];
                continue;
            }
            const auto unit = make(kind, kLodSegments[level]);
            set.ranges[b].mesh_first = static_cast<GLint>(mesh.size()) / set.texels;
            set.ranges[b].mesh_count = static_cast<GLint>(unit.vertices.size());
            for (const auto& v : unit.vertices) texels(v, mesh);
            set.indices[b] = unit.indices;
        }
    }
    upload_buffer(GL_TEXTURE_BUFFER, set.tex.buffer, mesh, GL_STATIC_DRAW);
    glBindBuffer(GL_TEXTURE_BUFFER, 0);
}

void bind_units(const gl::Program& p) {
    glUseProgram(p.id());
    glUniform1i(glGetUniformLocation(p.id(), "u_instances"), kInstanceUnit);
    glUniform1i(glGetUniformLocation(p.id(), "u_mesh"), kMeshUnit);
    glUseProgram(0);
}

/// (Re)allocates an off-screen target's RGBA8 colour and depth renderbuffers at width x height and
/// attaches them to `fbo`, which stays bound (the caller checks completeness or draws into it).
/// A depth format with stencil is attached as depth-stencil.
void size_offscreen(GLuint fbo, GLuint color, GLuint depth, GLenum depth_format, int width, int height) {
    glBindRenderbuffer(GL_RENDERBUFFER, color);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, width, height);
    glBindRenderbuffer(GL_RENDERBUFFER, depth);
    glRenderbufferStorage(GL_RENDERBUFFER, depth_format, width, height);
    glBindRenderbuffer(GL_RENDERBUFFER, 0);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, color);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER,
                              depth_format == GL_DEPTH24_STENCIL8 ? GL_DEPTH_STENCIL_ATTACHMENT : GL_DEPTH_ATTACHMENT,
                              GL_RENDERBUFFER, depth);
}

}  // namespace

Renderer::Renderer()
    : lines_(load_program("lines.vert", "lines.frag")),
      instanced_(load_program("instanced.vert", "uniform_color.frag")),
      markers_(load_program("markers.vert", "markers.frag")),
      solid_(load_program("solid_instanced.vert", "solid.frag")),
      ids_(load_program("ids.vert", "ids.frag")) {
    attach_buffer_texture(instance_tex_.texture, instance_tex_.buffer, GL_RGBA32F);
    attach_buffer_texture(wire_meshes_.tex.texture, wire_meshes_.tex.buffer, GL_RGBA32F);
    attach_buffer_texture(solid_meshes_.tex.texture, solid_meshes_.tex.buffer, GL_RGBA32F);
    bind_units(instanced_);
    bind_units(solid_);
    wire_meshes_.texels = 1;
    wire_meshes_.mode = GL_LINES;
    fill_mesh_set(wire_meshes_, [](UnitMesh kind, int n) { return unit_wireframe(kind, n); },
                  [](const UnitVertex& v, std::vector<glm::vec4>& out) { out.emplace_back(v.position, v.far); });
    solid_meshes_.texels = 2;
    solid_meshes_.mode = GL_TRIANGLES;
    fill_mesh_set(solid_meshes_, [](UnitMesh kind, int n) { return unit_solid(kind, n); },
                  [](const UnitSolidVertex& v, std::vector<glm::vec4>& out) {
                      out.emplace_back(v.vertex.position, v.vertex.far);
                      out.emplace_back(v.normal, 0.0f);
                  });
    setup_id_layout(id_mesh_);
    setup_line_layout(grid_);
    setup_line_layout(dynamic_lines_);
    setup_line_layout(dynamic_points_);
    LineList grid;
    append_grid(grid, 20.0, 1.0);
    upload(grid_, grid.vertices, GL_STATIC_DRAW);
}

void Renderer::sync_scene(const SceneEditor& editor) {
    if (mesh_draw_.sync(editor)) {
        ids_dirty_ = true;
        ++scene_version_;
    }
    if (synced_version_ == editor.version()) return;
    const ChangeSet changes = editor.changes_since(synced_version_);
    synced_version_ = editor.version();
    const Scene& scene = editor.scene();
    // A few shapes changed in place (a drag, a field edit): the draw lists are rebuilt (a shape may
    // need another unit mesh or level, e.g. a radius dragged to 0); if their order stays, only
    // these shapes' instances are rewritten (update_lists).
    if (!changes.structure && instances_.size() == scene.shapes.size() && changes.modified.size() <= 64) {
        if (changes.modified.empty()) return;  // a rename: nothing drawn changed
        for (const std::size_t i : changes.modified) {
            const PlacedInstance p = wireframe_instance(scene.shapes[i].shape, palette::shape);
            instances_[i] = p.instance;
            kinds_[i] = p.mesh;
            pending_.push_back(i);
        }
        lists_dirty_ = true;
        ids_dirty_ = true;
        ++instance_updates_;
        ++scene_version_;
        return;
    }
    rebuild_instances(scene);
}

void Renderer::rebuild_instances(const Scene& scene) {
    const std::size_t n = scene.shapes.size();
    instances_.resize(n);
    kinds_.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
        const PlacedInstance p = wireframe_instance(scene.shapes[i].shape, palette::shape);
        instances_[i] = p.instance;
        kinds_[i] = p.mesh;
    }
    lists_dirty_ = true;
    instances_dirty_ = true;
    pending_.clear();
    ids_dirty_ = true;
    ++rebuilds_;
    ++scene_version_;
}

void Renderer::update_lists(const glm::mat4& vp, int view_width, int view_height) {
    if (!lists_dirty_ && vp == lod_view_projection_ && view_width == lod_width_ && view_height == lod_height_) return;
    lod_view_projection_ = vp;
    lod_width_ = view_width;
    lod_height_ = view_height;
    lists_dirty_ = false;
    DrawLists lists = build_draw_lists(kinds_, instances_, vp, view_width, view_height);
    line_vertices_ = 0;
    for (const InstanceDraw& d : lists.draws) line_vertices_ += wire_meshes_.indices[d.bucket].size() * std::size_t(d.count);
    // The shaders read the drawn shapes' instances in draw order (a draw's k-th at first + k). The
    // same order as the last view's (a small turn, a drag that keeps every level): rewrite only the
    // shapes changed in place, if any; else the whole buffer (64 bytes a drawn shape).
    if (!instances_dirty_ && lists.order == lists_.order) {
        if (!pending_.empty()) {
            glBindBuffer(GL_TEXTURE_BUFFER, instance_tex_.buffer.id());
            for (const std::size_t i : pending_) {
                if (slot_[i] < 0) continue;
                const GpuInstance g = gpu_instance(instances_[i]);
                glBufferSubData(GL_TEXTURE_BUFFER, static_cast<GLintptr>(std::size_t(slot_[i]) * sizeof(GpuInstance)),
                                sizeof(GpuInstance), &g);
            }
            glBindBuffer(GL_TEXTURE_BUFFER, 0);
        }
    } else {
        gpu_.resize(lists.order.size());
        slot_.assign(instances_.size(), -1);
        for (std::size_t k = 0; k < lists.order.size(); ++k) {
            const auto i = std::size_t(lists.order[k]);
            gpu_[k] = gpu_instance(instances_[i]);
            slot_[i] = static_cast<std::int32_t>(k);
        }
        if (!gpu_.empty()) upload_buffer(GL_TEXTURE_BUFFER, instance_tex_.buffer, gpu_, GL_STREAM_DRAW);
        glBindBuffer(GL_TEXTURE_BUFFER, 0);
        instances_dirty_ = false;
    }
    pending_.clear();
    lists_ = std::move(lists);
}

void Renderer::draw_instanced(const gl::Program& program, UnitMeshSet& set) {
    // Indexed: index k * U + j is vertex j (of U) of the draw's k-th instance, so the vertices two
    // segments or triangles share are shaded once. Each mesh keeps an element buffer for as many
    // instances as it needed so far (grown, never rewritten for a new camera).
    glUseProgram(program.id());
    const GLint mesh_first = glGetUniformLocation(program.id(), "u_mesh_first");
    const GLint mesh_count = glGetUniformLocation(program.id(), "u_mesh_count");
    const GLint instance_first = glGetUniformLocation(program.id(), "u_instance_first");
    glActiveTexture(GL_TEXTURE0 + kInstanceUnit);
    glBindTexture(GL_TEXTURE_BUFFER, instance_tex_.texture.id());
    glActiveTexture(GL_TEXTURE0 + kMeshUnit);
    glBindTexture(GL_TEXTURE_BUFFER, set.tex.texture.id());
    glActiveTexture(GL_TEXTURE0);
    glBindVertexArray(empty_vao_.id());  // element buffer bindings belong to the vertex array
    for (const InstanceDraw& d : lists_.draws) {
        const MeshRange& range = set.ranges[d.bucket];
        const std::vector<std::uint32_t>& indices = set.indices[d.bucket];
        if (indices.empty()) continue;
        ElementCache& cache = set.elements[d.bucket];
        const std::size_t count = static_cast<std::size_t>(d.count);
        glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, cache.buffer.id());
        if (cache.capacity < count) {
            cache.capacity = std::min(std::max(count, cache.capacity * 2), instances_.size());
            std::vector<std::uint32_t> elements;
            elements.reserve(cache.capacity * indices.size());
            for (std::uint32_t k = 0; k < static_cast<std::uint32_t>(cache.capacity); ++k)
                for (const std::uint32_t j : indices)
                    elements.push_back(k * static_cast<std::uint32_t>(range.mesh_count) + j);
            upload_buffer(GL_ELEMENT_ARRAY_BUFFER, cache.buffer, elements, GL_STATIC_DRAW);
        }
        glUniform1i(mesh_first, range.mesh_first);
        glUniform1i(mesh_count, range.mesh_count);
        // A software renderer (Mesa's llvmpipe) sets primitives up on this thread and fills them on
        // its own threads once flushed: drawn in chunks of about kChunkIndices indices, each flushed,
        // one chunk is filled while the next is set up, instead of all of them after the last.
        // Same picture: the same primitives in the same order, and flushed work is filled in order.
        const std::size_t chunk = std::max<std::size_t>(1, kChunkIndices / indices.size());
        for (std::size_t k = 0; k < count; k += chunk) {
            const std::size_t n = std::min(chunk, count - k);
            glUniform1i(instance_first, d.first + static_cast<GLint>(k));
            glDrawElements(set.mode, static_cast<GLsizei>(indices.size() * n), GL_UNSIGNED_INT, nullptr);
            if (indices.size() * n >= kChunkIndices / 2) glFlush();
        }
    }
    glBindVertexArray(0);
}

void Renderer::rebuild_ids(const Scene& scene) {
    // Fine enough that silhouettes are within a fraction of a pixel of the exact surfaces at the
    // sizes the view shows; coarser for large scenes, whose shapes are small on screen, so the mesh
    // stays small (64 segments are ~12 000 vertices a sphere, 8 are ~200).
    const std::size_t n = scene.shapes.size();
    id_segments_ = n <= 500 ? 64 : n <= 5000 ? 24 : n <= 20000 ? 12 : 8;
    std::vector<IdVertex> vertices;
    std::vector<SolidVertex> tris;
    for (std::size_t i = 0; i < n; ++i) {
        tris.clear();
        append_solid(tris, scene.shapes[i].shape, id_segments_);
        for (const SolidVertex& v : tris) vertices.push_back({v.position, static_cast<float>(i)});
    }
    // Every placement of every mesh instance, its triangles in world space, as its object id.
    for (std::size_t i = 0; i < scene.instances.size(); ++i) {
        const SceneInstance& si = scene.instances[i];
        const Model& model = scene.meshes[si.mesh].model;
        const glm::dmat4 world = instance_matrix(si);
        const auto id = static_cast<float>(instance_object_id(n, i));
        for (const ModelInstance& mi : model.instances) {
            const glm::dmat4 m = world * mi.transform;
            const ModelMesh& mesh = model.meshes[mi.mesh];
            for (const std::uint32_t v : mesh.triangles)
                vertices.push_back({glm::vec3(m * glm::dvec4(glm::dvec3(mesh.positions[v]), 1.0)), id});
        }
    }
    upload(id_mesh_, vertices, GL_DYNAMIC_DRAW);
    ids_dirty_ = false;
}

bool Renderer::bind_offscreen(int width, int height) {
    if (width != id_fbo_width_ || height != id_fbo_height_) {
        size_offscreen(id_fbo_.id(), id_color_.id(), id_depth_.id(), GL_DEPTH_COMPONENT24, width, height);
        id_fbo_width_ = width;
        id_fbo_height_ = height;
    }
    glBindFramebuffer(GL_FRAMEBUFFER, id_fbo_.id());
    if (glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE) return true;
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    id_fbo_width_ = id_fbo_height_ = 0;  // try again next time
    return false;
}

std::vector<std::uint8_t> Renderer::read_rgba_top_down(int width, int height) {
    const std::size_t row = std::size_t(width) * 4;
    std::vector<std::uint8_t> bottom_up(row * std::size_t(height)), out(bottom_up.size());
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, bottom_up.data());
    // OpenGL's rows start at the bottom; the picture's at the top.
    for (int y = 0; y < height; ++y)
        std::copy_n(&bottom_up[std::size_t(height - 1 - y) * row], row, &out[std::size_t(y) * row]);
    return out;
}

std::vector<std::uint32_t> Renderer::render_ids(const Scene& scene, const glm::dmat4& view_projection, int width,
                                                int height) {
    if (width <= 0 || height <= 0) return {};
    if (ids_dirty_) rebuild_ids(scene);
    GLint saved_viewport[4] = {0, 0, 0, 0};
    glGetIntegerv(GL_VIEWPORT, saved_viewport);
    const std::size_t n = std::size_t(width) * std::size_t(height);
    std::vector<std::uint32_t> ids(n, raycast::kBackground);
    if (!bind_offscreen(width, height)) return ids;
    glViewport(0, 0, width, height);
    glClearColor(0.0f, 0.0f, 0.0f, 0.0f);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    glEnable(GL_DEPTH_TEST);
    glDepthFunc(GL_LESS);
    glDisable(GL_CULL_FACE);
    glDisable(GL_BLEND);
    glUseProgram(ids_.id());
    set_matrix(ids_, glm::mat4(view_projection));
    glBindVertexArray(id_mesh_.vao.id());
    glDrawArrays(GL_TRIANGLES, 0, id_mesh_.count);
    glBindVertexArray(0);
    glUseProgram(0);

    const std::vector<std::uint8_t> rgba = read_rgba_top_down(width, height);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glViewport(saved_viewport[0], saved_viewport[1], saved_viewport[2], saved_viewport[3]);
    for (std::size_t i = 0; i < n; ++i) {
        const std::uint8_t* px = &rgba[i * 4];
        const std::uint32_t id = std::uint32_t(px[0]) | std::uint32_t(px[1]) << 8 | std::uint32_t(px[2]) << 16;
        if (id != 0) ids[i] = id - 1;
    }
    return ids;
}

std::vector<std::uint8_t> Renderer::render_normals(const glm::dmat4& view_projection, int width, int height) {
    if (width <= 0 || height <= 0) return {};
    GLint saved_viewport[4] = {0, 0, 0, 0};
    glGetIntegerv(GL_VIEWPORT, saved_viewport);
    if (!bind_offscreen(width, height)) return {};
    const glm::mat4 vp(view_projection);
    glViewport(0, 0, width, height);
    glClearColor(0.0f, 0.0f, 0.0f, 0.0f);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    glEnable(GL_DEPTH_TEST);
    glDepthFunc(GL_LEQUAL);
    glDisable(GL_CULL_FACE);
    glDisable(GL_BLEND);
    // As draw_scene_layer() draws the solids (without the wireframes' polygon offset).
    update_lists(vp, width, height);
    if (!lists_.draws.empty()) {
        glUseProgram(solid_.id());
        set_matrix(solid_, vp);
        if (lists_.solid_cull) glEnable(GL_CULL_FACE);
        draw_instanced(solid_, solid_meshes_);
        glDisable(GL_CULL_FACE);
    }
    mesh_draw_.draw_solid(vp);
    glUseProgram(0);
    glBindVertexArray(0);
    std::vector<std::uint8_t> rgba = read_rgba_top_down(width, height);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glViewport(saved_viewport[0], saved_viewport[1], saved_viewport[2], saved_viewport[3]);
    return rgba;
}

void Renderer::upload_picture(const std::vector<std::uint8_t>& rgba, int width, int height) {
    if (width <= 0 || height <= 0 || rgba.size() != std::size_t(width) * std::size_t(height) * 4) return;
    glBindTexture(GL_TEXTURE_2D, picture_.id());
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, width, height, 0, GL_RGBA, GL_UNSIGNED_BYTE, rgba.data());
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    glBindTexture(GL_TEXTURE_2D, 0);
}

void Renderer::draw_scene_layer(const glm::mat4& vp, int fb_width, int fb_height, const Viewport& view,
                                const DrawSettings& settings) {
    glViewport(0, 0, fb_width, fb_height);
    glClearColor(settings.background.r, settings.background.g, settings.background.b, settings.background.a);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    glViewport(view.x, view.y, view.width, view.height);
    glEnable(GL_DEPTH_TEST);
    glDepthFunc(GL_LEQUAL);
    glDisable(GL_CULL_FACE);
    glDisable(GL_BLEND);

    update_lists(vp, view.width, view.height);
    if (settings.solid && (!lists_.draws.empty() || !mesh_draw_.empty())) {
        // Push the surfaces back a little so their own wireframe stays visible on top.
        glEnable(GL_POLYGON_OFFSET_FILL);
        glPolygonOffset(1.0f, 1.0f);
        if (!lists_.draws.empty()) {
            glUseProgram(solid_.id());
            set_matrix(solid_, vp);
            // Back faces are never the first surface when every drawn solid is closed and in front of
            // the near plane (solid_cullable): skipping them leaves the picture as it is.
            if (lists_.solid_cull) glEnable(GL_CULL_FACE);
            draw_instanced(solid_, solid_meshes_);
            glDisable(GL_CULL_FACE);
        }
        // Meshes need not be closed: both sides are drawn.
        mesh_draw_.draw_solid(vp);
        glDisable(GL_POLYGON_OFFSET_FILL);
    }

    glUseProgram(lines_.id());
    set_matrix(lines_, vp);
    if (settings.grid) {
        glBindVertexArray(grid_.vao.id());
        glDrawArrays(GL_LINES, 0, grid_.count);
    }
    if (!lists_.draws.empty()) {
        glUseProgram(instanced_.id());
        set_matrix(instanced_, vp);
        // Every scene shape's wireframe has the same colour (wireframe_instance(shape, palette::shape)).
        glUniform4fv(glGetUniformLocation(instanced_.id(), "u_color"), 1, glm::value_ptr(palette::shape));
        draw_instanced(instanced_, wire_meshes_);
    }
    mesh_draw_.draw_wire(vp, palette::shape);
    glUseProgram(0);
    glBindVertexArray(0);
}

bool Renderer::prepare_layer(int fb_width, int fb_height) {
    if (layer_depth_format_ == 0) {
        // The depth copy needs the default framebuffer's depth format exactly; with another (or
        // none) the scene is drawn directly every frame. (A refused copy would be a GL error.)
        GLint depth = 0, stencil = 0, type = GL_NONE;
        glBindFramebuffer(GL_FRAMEBUFFER, 0);
        glGetFramebufferAttachmentParameteriv(GL_FRAMEBUFFER, GL_DEPTH, GL_FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE, &type);
        if (type != GL_NONE)
            glGetFramebufferAttachmentParameteriv(GL_FRAMEBUFFER, GL_DEPTH, GL_FRAMEBUFFER_ATTACHMENT_DEPTH_SIZE, &depth);
        glGetFramebufferAttachmentParameteriv(GL_FRAMEBUFFER, GL_STENCIL, GL_FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE, &type);
        if (type != GL_NONE)
            glGetFramebufferAttachmentParameteriv(GL_FRAMEBUFFER, GL_STENCIL, GL_FRAMEBUFFER_ATTACHMENT_STENCIL_SIZE, &stencil);
        if (depth == 24 && stencil == 8) layer_depth_format_ = GL_DEPTH24_STENCIL8;
        else if (depth == 24 && stencil == 0) layer_depth_format_ = GL_DEPTH_COMPONENT24;
        else if (depth == 16 && stencil == 0) layer_depth_format_ = GL_DEPTH_COMPONENT16;
        else {
            layer_cache_enabled_ = false;
            return false;
        }
    }
    if (fb_width == layer_width_ && fb_height == layer_height_) return true;
    size_offscreen(layer_fbo_.id(), layer_color_.id(), layer_depth_.id(), layer_depth_format_, fb_width, fb_height);
    const bool complete = glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE;
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    if (!complete) {
        layer_cache_enabled_ = false;
        return false;
    }
    layer_width_ = fb_width;
    layer_height_ = fb_height;
    return true;
}

void Renderer::draw(const glm::dmat4& view_projection, int fb_width, int fb_height, const Viewport& view,
                    const Overlay& overlay, const DrawSettings& settings) {
    const glm::mat4 vp(view_projection);
    // The scene layer (background, solid surfaces, grid, wireframes) changes only with the camera,
    // the view, the scene or the settings: it is drawn into an offscreen framebuffer then, and
    // otherwise copied (colour and depth, so the overlays are depth-tested as before).
    const LayerKey key{vp, fb_width, fb_height, view.x, view.y, view.width, view.height,
                       settings.solid, settings.grid, settings.background, scene_version_};
    // While the key changes from frame to frame (orbit, zoom, drag) a cached layer would be used
    // once at most: draw straight into the window then, and cache once the picture holds still.
    const bool moving = !(key == last_key_);
    last_key_ = key;
    if (moving) layer_valid_ = false;
    bool copied = false;
    if (!moving && layer_cache_enabled_ && prepare_layer(fb_width, fb_height)) {
        if (!layer_valid_ || !(key == layer_key_)) {
            glBindFramebuffer(GL_FRAMEBUFFER, layer_fbo_.id());
            draw_scene_layer(vp, fb_width, fb_height, view, settings);
            glBindFramebuffer(GL_FRAMEBUFFER, 0);
            layer_key_ = key;
            layer_valid_ = true;
            ++layer_draws_;
        }
        // Outside the view: the background. Inside: the layer's colour, and its depth only when a
        // depth-tested overlay (the highlights) needs it — copies cost a software renderer.
        glViewport(0, 0, fb_width, fb_height);
        glClearColor(settings.background.r, settings.background.g, settings.background.b, settings.background.a);
        glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
        glBindFramebuffer(GL_READ_FRAMEBUFFER, layer_fbo_.id());
        glBindFramebuffer(GL_DRAW_FRAMEBUFFER, 0);
        const bool depth_tested = !overlay.highlight.vertices.empty() || !overlay.instance_highlights.empty();
        const GLbitfield copy = GL_COLOR_BUFFER_BIT | (depth_tested ? GL_DEPTH_BUFFER_BIT : 0u);
        const int x1 = std::min(view.x + view.width, fb_width), y1 = std::min(view.y + view.height, fb_height);
        const int x0 = std::max(view.x, 0), y0 = std::max(view.y, 0);
        if (x1 > x0 && y1 > y0) glBlitFramebuffer(x0, y0, x1, y1, x0, y0, x1, y1, copy, GL_NEAREST);
        glBindFramebuffer(GL_FRAMEBUFFER, 0);
        copied = true;
    }
    if (!copied) {
        draw_scene_layer(vp, fb_width, fb_height, view, settings);
        ++layer_draws_;
    }
    glViewport(view.x, view.y, view.width, view.height);
    glEnable(GL_DEPTH_TEST);
    glDepthFunc(GL_LEQUAL);
    glDisable(GL_CULL_FACE);
    glDisable(GL_BLEND);
    glUseProgram(lines_.id());
    set_matrix(lines_, vp);
    glBindVertexArray(dynamic_lines_.vao.id());
    if (!overlay.highlight.vertices.empty()) {
        upload(dynamic_lines_, overlay.highlight.vertices, GL_STREAM_DRAW);
        glDrawArrays(GL_LINES, 0, dynamic_lines_.count);
    }
    for (const auto& [i, color] : overlay.instance_highlights) mesh_draw_.draw_instance_wire(vp, i, color);
    glUseProgram(lines_.id());
    glBindVertexArray(dynamic_lines_.vao.id());
    glDisable(GL_DEPTH_TEST);
    if (!overlay.annotations.vertices.empty()) {
        upload(dynamic_lines_, overlay.annotations.vertices, GL_STREAM_DRAW);
        // A dark outline first (the lines shifted a pixel each way, drawn dark), so that the
        // annotations stand out over any wireframe or solid colour; then the lines themselves.
        const GLint offset = glGetUniformLocation(lines_.id(), "u_offset");
        const GLint dark = glGetUniformLocation(lines_.id(), "u_dark");
        const float px = 2.0f / float(std::max(1, view.width)), py = 2.0f / float(std::max(1, view.height));
        glUniform1f(dark, 1.0f);
        for (const glm::vec2 d : {glm::vec2(px, 0.0f), glm::vec2(-px, 0.0f), glm::vec2(0.0f, py), glm::vec2(0.0f, -py)}) {
            glUniform2f(offset, d.x, d.y);
            glDrawArrays(GL_LINES, 0, dynamic_lines_.count);
        }
        glUniform1f(dark, 0.0f);
        glUniform2f(offset, 0.0f, 0.0f);
        glDrawArrays(GL_LINES, 0, dynamic_lines_.count);
    }

    glUseProgram(markers_.id());
    set_matrix(markers_, vp);
    glEnable(GL_PROGRAM_POINT_SIZE);
    glBindVertexArray(dynamic_points_.vao.id());
    const GLint size_loc = glGetUniformLocation(markers_.id(), "u_point_size");
    const GLint shape_loc = glGetUniformLocation(markers_.id(), "u_diamond");
    for (const MarkerBatch& batch : overlay.markers) {
        if (batch.points.empty()) continue;
        glUniform1f(size_loc, batch.size);
        glUniform1i(shape_loc, batch.shape == MarkerShape::Diamond ? 1 : 0);
        upload(dynamic_points_, batch.points, GL_STREAM_DRAW);
        glDrawArrays(GL_POINTS, 0, dynamic_points_.count);
    }
    glDisable(GL_PROGRAM_POINT_SIZE);
    glBindVertexArray(0);
    glUseProgram(0);
    glViewport(0, 0, fb_width, fb_height);
    // Scissored clears: a software renderer fills them as flat opaque tiles, where it would
    // sample and blend each pixel of ImGui's translucent window backgrounds.
    if (!settings.panel_fills.empty()) {
        glEnable(GL_SCISSOR_TEST);
        for (const FillRect& r : settings.panel_fills) {
            if (r.width <= 0 || r.height <= 0) continue;
            glScissor(r.x, r.y, r.width, r.height);
            glClearColor(r.color.r, r.color.g, r.color.b, r.color.a);
            glClear(GL_COLOR_BUFFER_BIT);
        }
        glDisable(GL_SCISSOR_TEST);
    }
}

}  // namespace raypick::app
