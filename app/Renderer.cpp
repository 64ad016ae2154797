#include "app/Renderer.h"

#include <cstddef>

#include <glm/gtc/type_ptr.hpp>

#include "app/History.h"
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

void setup_solid_layout(gl::Mesh& m) {
    glBindVertexArray(m.vao.id());
    glBindBuffer(GL_ARRAY_BUFFER, m.vbo.id());
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, sizeof(SolidVertex),
                          reinterpret_cast<const void*>(offsetof(SolidVertex, position)));
    glEnableVertexAttribArray(1);
    glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, sizeof(SolidVertex),
                          reinterpret_cast<const void*>(offsetof(SolidVertex, normal)));
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

Renderer::Renderer()
    : lines_(load_program("lines.vert", "lines.frag")),
      markers_(load_program("markers.vert", "markers.frag")),
      solid_(load_program("solid.vert", "solid.frag")),
      ids_(load_program("ids.vert", "ids.frag")) {
    setup_line_layout(wire_);
    setup_solid_layout(solid_mesh_);
    setup_id_layout(id_mesh_);
    setup_line_layout(grid_);
    setup_line_layout(dynamic_lines_);
    setup_line_layout(dynamic_points_);
    LineList grid;
    append_grid(grid, 20.0, 1.0);
    upload(grid_, grid.vertices, GL_STATIC_DRAW);
}

void Renderer::sync_scene(const Scene& scene) {
    bool same = have_cache_ && cached_.size() == scene.shapes.size();
    for (std::size_t i = 0; same && i < cached_.size(); ++i) same = same_shape(cached_[i], scene.shapes[i].shape);
    if (same) return;
    cached_.clear();
    cached_.reserve(scene.shapes.size());
    segments_ = scene.shapes.size() > 250 ? kCircleSegments / 2 : kCircleSegments;
    LineList lines;
    lines.vertices.reserve(scene.shapes.size() * 200);
    for (const SceneShape& s : scene.shapes) {
        cached_.push_back(s.shape);
        append_wireframe(lines, s.shape, palette::shape, segments_);
    }
    upload(wire_, lines.vertices, GL_DYNAMIC_DRAW);
    have_cache_ = true;
    solid_dirty_ = true;
    ids_dirty_ = true;
    ++rebuilds_;
}

void Renderer::rebuild_solid(const std::vector<Shape<double>>& shapes) {
    std::vector<SolidVertex> tris;
    for (const auto& s : shapes) append_solid(tris, s, segments_ < kCircleSegments ? 12 : 24);
    upload(solid_mesh_, tris, GL_DYNAMIC_DRAW);
    solid_dirty_ = false;
}

void Renderer::rebuild_ids(const std::vector<Shape<double>>& shapes) {
    // Fine enough that silhouettes are within a fraction of a pixel of the exact surfaces at the
    // sizes the view shows; coarser for large scenes, whose shapes are small on screen, so the mesh
    // stays small (64 segments are ~12 000 vertices a sphere, 8 are ~200).
    const std::size_t n = shapes.size();
    id_segments_ = n <= 500 ? 64 : n <= 5000 ? 24 : n <= 20000 ? 12 : 8;
    std::vector<IdVertex> vertices;
    std::vector<SolidVertex> tris;
    for (std::size_t i = 0; i < shapes.size(); ++i) {
        tris.clear();
        append_solid(tris, shapes[i], id_segments_);
        for (const SolidVertex& v : tris) vertices.push_back({v.position, static_cast<float>(i)});
    }
    upload(id_mesh_, vertices, GL_DYNAMIC_DRAW);
    ids_dirty_ = false;
}

std::vector<std::uint32_t> Renderer::render_ids(const glm::dmat4& view_projection, int width, int height) {
    if (width <= 0 || height <= 0) return {};
    if (ids_dirty_) rebuild_ids(cached_);
    if (width != id_fbo_width_ || height != id_fbo_height_) {
        glBindRenderbuffer(GL_RENDERBUFFER, id_color_.id());
        glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, width, height);
        glBindRenderbuffer(GL_RENDERBUFFER, id_depth_.id());
        glRenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH_COMPONENT24, width, height);
        glBindRenderbuffer(GL_RENDERBUFFER, 0);
        glBindFramebuffer(GL_FRAMEBUFFER, id_fbo_.id());
        glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, id_color_.id());
        glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, id_depth_.id());
        id_fbo_width_ = width;
        id_fbo_height_ = height;
    }
    GLint saved_viewport[4] = {0, 0, 0, 0};
    glGetIntegerv(GL_VIEWPORT, saved_viewport);
    auto restore = [&] {
        glBindFramebuffer(GL_FRAMEBUFFER, 0);
        glViewport(saved_viewport[0], saved_viewport[1], saved_viewport[2], saved_viewport[3]);
    };
    glBindFramebuffer(GL_FRAMEBUFFER, id_fbo_.id());
    const std::size_t n = std::size_t(width) * std::size_t(height);
    std::vector<std::uint32_t> ids(n, raycast::kBackground);
    if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
        restore();
        id_fbo_width_ = id_fbo_height_ = 0;  // try again next time
        return ids;
    }
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

    std::vector<std::uint8_t> rgba(n * 4);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, rgba.data());
    restore();
    // OpenGL's rows start at the bottom; the picture's at the top.
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x) {
            const std::uint8_t* px = &rgba[(std::size_t(height - 1 - y) * std::size_t(width) + std::size_t(x)) * 4];
            const std::uint32_t id = std::uint32_t(px[0]) | std::uint32_t(px[1]) << 8 | std::uint32_t(px[2]) << 16;
            if (id != 0) ids[std::size_t(y) * std::size_t(width) + std::size_t(x)] = id - 1;
        }
    return ids;
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

void Renderer::draw(const glm::dmat4& view_projection, int fb_width, int fb_height, const Viewport& view,
                    const Overlay& overlay, const DrawSettings& settings) {
    const glm::mat4 vp(view_projection);
    glViewport(0, 0, fb_width, fb_height);
    glClearColor(settings.background.r, settings.background.g, settings.background.b, settings.background.a);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    glViewport(view.x, view.y, view.width, view.height);
    glEnable(GL_DEPTH_TEST);
    glDepthFunc(GL_LEQUAL);
    glDisable(GL_CULL_FACE);
    glDisable(GL_BLEND);

    if (settings.solid) {
        if (solid_dirty_) rebuild_solid(cached_);
        glUseProgram(solid_.id());
        set_matrix(solid_, vp);
        // Push the surfaces back a little so their own wireframe stays visible on top.
        glEnable(GL_POLYGON_OFFSET_FILL);
        glPolygonOffset(1.0f, 1.0f);
        glBindVertexArray(solid_mesh_.vao.id());
        glDrawArrays(GL_TRIANGLES, 0, solid_mesh_.count);
        glDisable(GL_POLYGON_OFFSET_FILL);
    }

    glUseProgram(lines_.id());
    set_matrix(lines_, vp);
    if (settings.grid) {
        glBindVertexArray(grid_.vao.id());
        glDrawArrays(GL_LINES, 0, grid_.count);
    }
    glBindVertexArray(wire_.vao.id());
    glDrawArrays(GL_LINES, 0, wire_.count);

    glBindVertexArray(dynamic_lines_.vao.id());
    if (!overlay.highlight.vertices.empty()) {
        upload(dynamic_lines_, overlay.highlight.vertices, GL_STREAM_DRAW);
        glDrawArrays(GL_LINES, 0, dynamic_lines_.count);
    }
    glDisable(GL_DEPTH_TEST);
    if (!overlay.annotations.vertices.empty()) {
        upload(dynamic_lines_, overlay.annotations.vertices, GL_STREAM_DRAW);
        glDrawArrays(GL_LINES, 0, dynamic_lines_.count);
    }

    glUseProgram(markers_.id());
    set_matrix(markers_, vp);
    glEnable(GL_PROGRAM_POINT_SIZE);
    glBindVertexArray(dynamic_points_.vao.id());
    const GLint size_loc = glGetUniformLocation(markers_.id(), "u_point_size");
    for (const MarkerBatch& batch : overlay.markers) {
        if (batch.points.empty()) continue;
        glUniform1f(size_loc, batch.size);
        upload(dynamic_points_, batch.points, GL_STREAM_DRAW);
        glDrawArrays(GL_POINTS, 0, dynamic_points_.count);
    }
    glDisable(GL_PROGRAM_POINT_SIZE);
    glBindVertexArray(0);
    glUseProgram(0);
    glViewport(0, 0, fb_width, fb_height);
}

}  // namespace raypick::app
