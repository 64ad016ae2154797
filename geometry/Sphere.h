// raypick geometry: the sphere shape type — its value, validation, bounds and descriptor. The ray
// test is RaySphere.h.
#pragma once

#include <optional>
#include <tuple>

#include <raypick/geometry/Aabb.h>
#include <raypick/geometry/Math.h>
#include <raypick/geometry/ShapeTraits.h>
#include <raypick/geometry/Validate.h>

namespace raypick {

/// Ball of `radius` around `center` (radius >= 0; radius 0 is a point).
template <typename T> struct Sphere {
    Vec3<T> center{T(0)};
    T radius = T(1);
};

template <typename T> inline bool is_valid(const Sphere<T>& s) {
    return every(is_finite(s.center), detail::nonneg_finite(s.radius));
}

/// Empty when `s` is valid, else what is wrong with it.
template <typename T> std::optional<InputError> validate(const Sphere<T>& s) {
    using detail::str;
    if (!is_finite(s.center)) return InputError{"center", "center must be finite, got " + str(s.center)};
    if (!detail::nonneg_finite(s.radius))
        return InputError{"radius", "radius must be finite and >= 0, got " + str(s.radius)};
    return std::nullopt;
}

template <typename T> Aabb<T> bounds(const Sphere<T>& s) {
    return {s.center - Vec3<T>(s.radius), s.center + Vec3<T>(s.radius)};
}

template <> struct ShapeTraits<Sphere> {
    static constexpr const char* name = "sphere";
    static constexpr const char* label = "Sphere";
    template <typename T> static constexpr auto fields() {
        return std::make_tuple(Field{"center", &Sphere<T>::center, FieldRole::Point},
                               Field{"radius", &Sphere<T>::radius, FieldRole::Length});
    }
    template <typename T> static Sphere<T> example(const Vec3<T>& at) { return {at, T(1)}; }
    static constexpr double leaf_cost = 1.0;
    static constexpr bool cached_validity = false;
};

}  // namespace raypick
