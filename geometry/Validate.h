// raypick geometry: input validation. Every cast also checks is_valid() itself and returns a miss
// on invalid input; validate() is for callers (loaders, editors) that need to say what is wrong.
// The ray's checks and the helpers every shape type's validate() uses; each shape type's own are
// in its header (Sphere.h, ...).
#pragma once

#include <cmath>
#include <limits>
#include <optional>
#include <sstream>
#include <string>

#include <raypick/geometry/Math.h>
#include <raypick/geometry/Ray.h>

namespace raypick {

/// What is wrong with an input: the offending field ("radius", "direction", "rotation", ...) and
/// a sentence saying why, e.g. {"radius", "radius must be >= 0, got -1"}.
struct InputError {
    std::string field;
    std::string message;
};

namespace detail {
template <typename T> std::string str(const Vec3<T>& v) {
    std::ostringstream os;
    os.precision(9);
    os << "(" << v.x << ", " << v.y << ", " << v.z << ")";
    return os.str();
}
template <typename T> std::string str(T v) {
    std::ostringstream os;
    os.precision(9);
    os << v;
    return os.str();
}
template <typename T> bool nonneg_finite(T v) { return (v >= T(0)) & (v <= std::numeric_limits<T>::max()); }
template <typename T> bool nonneg_finite(const Vec3<T>& v) {
    return nonneg_finite(v.x) && nonneg_finite(v.y) && nonneg_finite(v.z);
}
}  // namespace detail

// ---- fast checks (no allocation), used by every cast -------------------------------------------
// Conditions are combined by every() (no short circuit) rather than &&: valid input is the common
// case, and one branch on the whole predicate is cheaper than a chain of short-circuit branches.

/// Finite origin; finite direction whose squared length neither underflows to 0 nor overflows.
template <typename T> inline bool is_valid(const Ray<T>& r) {
    const T dd = glm::dot(r.direction, r.direction);
    return every(is_finite(r.origin), is_finite(r.direction), dd > T(0), dd <= std::numeric_limits<T>::max());
}

// ---- explanations -------------------------------------------------------------------------------

/// Empty when `r` is valid, else what is wrong with it.
template <typename T> std::optional<InputError> validate(const Ray<T>& r) {
    using detail::str;
    if (!is_finite(r.origin)) return InputError{"origin", "origin must be finite, got " + str(r.origin)};
    if (!is_finite(r.direction))
        return InputError{"direction", "direction must be finite, got " + str(r.direction)};
    if (!(glm::dot(r.direction, r.direction) > T(0)))
        return InputError{"direction", "direction must be non-zero (its squared length must not "
                                        "underflow), got " + str(r.direction)};
    if (!(glm::dot(r.direction, r.direction) <= std::numeric_limits<T>::max()))
        return InputError{"direction", "direction is too long (its squared length overflows; scale "
                                        "it down, t scales with it), got " + str(r.direction)};
    return std::nullopt;
}

}  // namespace raypick
