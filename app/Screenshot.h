// raypick demo: saving the current framebuffer as a PNG (stb_image_write).
#pragma once

#include <optional>
#include <string>

namespace raypick::app {

/// Reads the back buffer (width x height pixels, call before swapping) and writes it to `path`
/// as an RGB PNG, top row first. Written to "<path>.tmp" then renamed. Returns an error message
/// or nullopt.
std::optional<std::string> save_screenshot(const std::string& path, int width, int height);

}  // namespace raypick::app
