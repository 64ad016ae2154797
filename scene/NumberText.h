// raypick: numbers as text for people — the shortest decimal that reads back as the same value.
// Header-only (the demo includes it with or without the scene library).
#pragma once

#include <charconv>
#include <cmath>
#include <string>

namespace raypick {

/// The shortest decimal text that parses back (strtod, from_chars) to exactly `v` in T's precision:
/// 0.1 is "0.1", not %.17g's "0.10000000000000001", and no digit that matters is ever dropped.
/// Non-finite values read "nan", "inf", "-inf".
template <typename T> std::string shortest(T v) {
    if (std::isnan(v)) return "nan";
    if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
    char buf[64];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    return std::string(buf, r.ptr);
}

}  // namespace raypick
