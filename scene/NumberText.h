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

/// Significant digits of shortest(v) (1 for zero and for non-finite values): printf's "%.{n}g"
/// with at least this many digits reads back as exactly `v` too. For widgets that format with
/// printf (the demo's drag fields).
template <typename T> int significant_digits(T v) {
    if (!std::isfinite(v) || v == T(0)) return 1;
    char buf[64];
    const auto r = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::scientific);
    int n = 0;  // d.ddde+x: the digits before the exponent
    for (const char* c = buf; c != r.ptr && *c != 'e'; ++c) n += (*c >= '0' && *c <= '9') ? 1 : 0;
    return n;
}

}  // namespace raypick
