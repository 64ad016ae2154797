#include "app/Screenshot.h"

#include <algorithm>
#include <cstdio>
#include <vector>

#include <glad/gl.h>

// The one place where stb_image_write's implementation is compiled; static so that it cannot
// clash with the copy inside Debian's libstb (linked for ImGui).
#define STB_IMAGE_WRITE_IMPLEMENTATION
#define STB_IMAGE_WRITE_STATIC
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#endif
#include <stb_image_write.h>
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

namespace raypick::app {

namespace {
/// Writes "<path>.tmp", then renames it, so a reader never sees half a file.
std::optional<std::string> write_png(const std::string& path, int width, int height, int channels,
                                     const unsigned char* pixels) {
    const std::string tmp = path + ".tmp";
    if (!stbi_write_png(tmp.c_str(), width, height, channels, pixels, width * channels)) {
        std::remove(tmp.c_str());
        return "could not write " + path;
    }
    if (std::rename(tmp.c_str(), path.c_str()) != 0) {
        std::remove(tmp.c_str());
        return "could not rename " + tmp + " to " + path;
    }
    return std::nullopt;
}
}  // namespace

std::optional<std::string> save_screenshot(const std::string& path, int width, int height) {
    if (width <= 0 || height <= 0) return std::string("nothing to save: the framebuffer is empty");
    const std::size_t row = static_cast<std::size_t>(width) * 3;
    std::vector<unsigned char> pixels(row * static_cast<std::size_t>(height));
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadBuffer(GL_BACK);
    glReadPixels(0, 0, width, height, GL_RGB, GL_UNSIGNED_BYTE, pixels.data());
    // OpenGL's rows start at the bottom; PNG's at the top.
    std::vector<unsigned char> flipped(pixels.size());
    for (int y = 0; y < height; ++y)
        std::copy_n(&pixels[static_cast<std::size_t>(height - 1 - y) * row], row, &flipped[static_cast<std::size_t>(y) * row]);
    return write_png(path, width, height, 3, flipped.data());
}

std::optional<std::string> save_png(const std::string& path, int width, int height, const std::vector<std::uint8_t>& rgba) {
    if (width <= 0 || height <= 0 || rgba.size() != static_cast<std::size_t>(width) * static_cast<std::size_t>(height) * 4)
        return std::string("nothing to save: the picture is empty");
    return write_png(path, width, height, 4, rgba.data());
}

}  // namespace raypick::app
