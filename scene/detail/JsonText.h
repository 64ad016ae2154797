// raypick scene files, internal: values as JSON text, for the writer and for error messages.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace raypick::scene_detail {

using json = nlohmann::json;

/// `s` as a quoted JSON string. Invalid UTF-8 (a truncated message, a name typed in the demo) is
/// replaced, never thrown on.
inline std::string jstr(const std::string& s) {
    return json(s).dump(-1, ' ', false, json::error_handler_t::replace);
}

/// `x` as nlohmann prints it: the shortest text that reads back as `x` ("null" for NaN, infinity).
inline std::string json_number(double x) { return json(x).dump(); }

}  // namespace raypick::scene_detail
