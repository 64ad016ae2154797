// raypick demo: RAII owners for OpenGL objects (buffers, vertex arrays, framebuffers,
// renderbuffers, textures, programs, shaders). Each owns one GL name, is movable and not
// copyable, and deletes its object in the destructor. Requires a current GL context throughout.
#pragma once

#include <string>
#include <utility>

#include <glad/gl.h>

namespace raypick::app::gl {

/// Owns a GL name created by `Create` and deleted by `Delete` (both called with one name).
template <typename Traits> class Handle {
public:
    Handle() : id_(Traits::create()) {}
    explicit Handle(GLuint adopted) : id_(adopted) {}
    ~Handle() { reset(); }
    Handle(const Handle&) = delete;
    Handle& operator=(const Handle&) = delete;
    Handle(Handle&& o) noexcept : id_(std::exchange(o.id_, 0)) {}
    Handle& operator=(Handle&& o) noexcept {
        if (this != &o) {
            reset();
            id_ = std::exchange(o.id_, 0);
        }
        return *this;
    }
    GLuint id() const { return id_; }
    explicit operator bool() const { return id_ != 0; }
    void reset() {
        if (id_) Traits::destroy(id_);
        id_ = 0;
    }

private:
    GLuint id_ = 0;
};

struct BufferTraits {
    static GLuint create() { GLuint id = 0; glGenBuffers(1, &id); return id; }
    static void destroy(GLuint id) { glDeleteBuffers(1, &id); }
};
struct VertexArrayTraits {
    static GLuint create() { GLuint id = 0; glGenVertexArrays(1, &id); return id; }
    static void destroy(GLuint id) { glDeleteVertexArrays(1, &id); }
};
struct FramebufferTraits {
    static GLuint create() { GLuint id = 0; glGenFramebuffers(1, &id); return id; }
    static void destroy(GLuint id) { glDeleteFramebuffers(1, &id); }
};
struct RenderbufferTraits {
    static GLuint create() { GLuint id = 0; glGenRenderbuffers(1, &id); return id; }
    static void destroy(GLuint id) { glDeleteRenderbuffers(1, &id); }
};
struct TextureTraits {
    static GLuint create() { GLuint id = 0; glGenTextures(1, &id); return id; }
    static void destroy(GLuint id) { glDeleteTextures(1, &id); }
};
struct ProgramTraits {
    static GLuint create() { return glCreateProgram(); }
    static void destroy(GLuint id) { glDeleteProgram(id); }
};
struct ShaderTraits {
    static GLuint create() { return 0; }  // shaders are created with a stage: see compile_shader()
    static void destroy(GLuint id) { glDeleteShader(id); }
};

using Buffer = Handle<BufferTraits>;
using VertexArray = Handle<VertexArrayTraits>;
using Framebuffer = Handle<FramebufferTraits>;
using Renderbuffer = Handle<RenderbufferTraits>;
using Texture = Handle<TextureTraits>;
using Program = Handle<ProgramTraits>;
using Shader = Handle<ShaderTraits>;

/// A vertex array with one vertex buffer whose contents are replaced as a whole
/// (glBufferData); the attribute layout is set once by the owner.
struct Mesh {
    VertexArray vao;
    Buffer vbo;
    GLsizei count = 0;  ///< vertices currently stored
};

}  // namespace raypick::app::gl
