// raypick demo: saving the current framebuffer, or any RGBA picture, as a PNG (stb_image_write).
#pragma once

#include <optional>
#include <cstdint>
#include <string>
#include <vector>

namespace raypick::app {

/// Reads the back buffer (width x height pixels, call before swapping) and writes it to `path`
/// as an RGB PNG, top row first. Written to "<path>.tmp" then renamed. Returns an error message
/// or nullopt.
std::optional<std::string> save_screenshot(const std::string& path, int width, int height);

/// Writes width x height RGBA8 pixels (row 0 at the top) to `path` as a PNG, the same way.
std::optional<std::string> save_png(const std::string& path, int width, int height, const std::vector<std::uint8_t>& rgba);

}  // namespace raypick::app
