#include "app/ShaderFiles.h"

#include "app/DataDirs.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace raypick::app {

namespace fs = std::filesystem;

std::vector<std::string> shader_search_dirs() {
    std::vector<std::string> dirs;
    if (const char* env = std::getenv("RAYPICK_SHADER_DIR"); env && *env) dirs.emplace_back(env);
    for (std::string& dir : data_dirs("shaders")) dirs.push_back(std::move(dir));
    return dirs;
}

namespace {

std::string read_file(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

gl::Shader compile(GLenum stage, const fs::path& file) {
    const std::string source = read_file(file);
    if (source.empty()) throw StartupError("shader " + file.string() + " is empty or unreadable");
    gl::Shader shader(glCreateShader(stage));
    const char* text = source.c_str();
    glShaderSource(shader.id(), 1, &text, nullptr);
    glCompileShader(shader.id());
    GLint ok = GL_FALSE;
    glGetShaderiv(shader.id(), GL_COMPILE_STATUS, &ok);
    if (ok != GL_TRUE) {
        GLint len = 0;
        glGetShaderiv(shader.id(), GL_INFO_LOG_LENGTH, &len);
        std::string log(static_cast<std::size_t>(len > 1 ? len : 1), '\0');
        glGetShaderInfoLog(shader.id(), len, nullptr, log.data());
        throw StartupError("shader " + file.string() + " failed to compile:\n" + log.c_str());
    }
    return shader;
}

}  // namespace

gl::Program load_program(const std::string& vertex_file, const std::string& fragment_file) {
    fs::path dir;
    std::string searched;
    for (const std::string& d : shader_search_dirs()) {
        std::error_code ec;
        if (fs::exists(fs::path(d) / vertex_file, ec) && fs::exists(fs::path(d) / fragment_file, ec)) {
            dir = d;
            break;
        }
        searched += "\n  " + d;
    }
    if (dir.empty())
        throw StartupError("shaders " + vertex_file + " and " + fragment_file + " not found; searched:" + searched);
    const gl::Shader vs = compile(GL_VERTEX_SHADER, dir / vertex_file);
    const gl::Shader fs_ = compile(GL_FRAGMENT_SHADER, dir / fragment_file);
    gl::Program program;
    glAttachShader(program.id(), vs.id());
    glAttachShader(program.id(), fs_.id());
    glLinkProgram(program.id());
    GLint ok = GL_FALSE;
    glGetProgramiv(program.id(), GL_LINK_STATUS, &ok);
    if (ok != GL_TRUE) {
        GLint len = 0;
        glGetProgramiv(program.id(), GL_INFO_LOG_LENGTH, &len);
        std::string log(static_cast<std::size_t>(len > 1 ? len : 1), '\0');
        glGetProgramInfoLog(program.id(), len, nullptr, log.data());
        throw StartupError("shader program " + (dir / vertex_file).string() + " + " + fragment_file +
                           " failed to link:\n" + log.c_str());
    }
    glDetachShader(program.id(), vs.id());
    glDetachShader(program.id(), fs_.id());
    return program;
}

}  // namespace raypick::app
