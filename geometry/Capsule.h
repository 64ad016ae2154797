// raypick geometry: the capsule shape type — its value, validation, bounds and descriptor. The ray
// test is RayCapsule.h.
#pragma once

#include <optional>
#include <tuple>

#include <raypick/geometry/Aabb.h>
#include <raypick/geometry/Math.h>
#include <raypick/geometry/ShapeTraits.h>
#include <raypick/geometry/Validate.h>

namespace raypick {

/// Capsule: every point within `radius` of the segment a-b (radius >= 0). a == b is a sphere.
template <typename T> struct Capsule {
    Vec3<T> a{T(0), T(-1), T(0)};
    Vec3<T> b{T(0), T(1), T(0)};
    T radius = T(0.5);
};

template <typename T> inline bool is_valid(const Capsule<T>& c) {
    return every(is_finite(c.a), is_finite(c.b), detail::nonneg_finite(c.radius));
}

/// Empty when `c` is valid, else what is wrong with it.
template <typename T> std::optional<InputError> validate(const Capsule<T>& c) {
    using detail::str;
    if (!is_finite(c.a)) return InputError{"a", "end point a must be finite, got " + str(c.a)};
    if (!is_finite(c.b)) return InputError{"b", "end point b must be finite, got " + str(c.b)};
    if (!detail::nonneg_finite(c.radius))
        return InputError{"radius", "radius must be finite and >= 0, got " + str(c.radius)};
    return std::nullopt;
}

template <typename T> Aabb<T> bounds(const Capsule<T>& c) {
    return {glm::min(c.a, c.b) - Vec3<T>(c.radius), glm::max(c.a, c.b) + Vec3<T>(c.radius)};
}

template <> struct ShapeTraits<Capsule> {
    static constexpr const char* name = "capsule";
    static constexpr const char* label = "Capsule";
    template <typename T> static constexpr auto fields() {
        return std::make_tuple(Field{"a", &Capsule<T>::a, FieldRole::Point},
                               Field{"b", &Capsule<T>::b, FieldRole::Point},
                               Field{"radius", &Capsule<T>::radius, FieldRole::Length});
    }
    template <typename T> static Capsule<T> example(const Vec3<T>& at) {
        return {at + Vec3<T>(T(0), T(-0.8), T(0)), at + Vec3<T>(T(0), T(0.8), T(0)), T(0.5)};
    }
    static constexpr double leaf_cost = 1.25;
    static constexpr bool cached_validity = false;
};

}  // namespace raypick
