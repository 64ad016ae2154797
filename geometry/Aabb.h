// raypick geometry: the axis-aligned box shape type — its value, validation, bounds and
// descriptor; also the bounds of every shape type, merge(). The ray test is RayAabb.h.
#pragma once

#include <optional>
#include <string>
#include <tuple>

#include <raypick/geometry/Math.h>
#include <raypick/geometry/ShapeTraits.h>
#include <raypick/geometry/Validate.h>

namespace raypick {

/// Axis-aligned box [min, max] (min <= max per axis; min == max on an axis is a flat box).
template <typename T> struct Aabb {
    Vec3<T> min{T(-1)};
    Vec3<T> max{T(1)};
};

template <typename T> inline bool is_valid(const Aabb<T>& b) {
    return every(is_finite(b.min), is_finite(b.max), b.min.x <= b.max.x, b.min.y <= b.max.y, b.min.z <= b.max.z);
}

/// Empty when `b` is valid, else what is wrong with it.
template <typename T> std::optional<InputError> validate(const Aabb<T>& b) {
    using detail::str;
    if (!is_finite(b.min)) return InputError{"min", "min must be finite, got " + str(b.min)};
    if (!is_finite(b.max)) return InputError{"max", "max must be finite, got " + str(b.max)};
    for (int i = 0; i < 3; ++i)
        if (!(b.min[i] <= b.max[i]))
            return InputError{"min", std::string("min must be <= max on every axis; on ") +
                                         "xyz"[i] + " min is " + str(b.min[i]) + " and max is " +
                                         str(b.max[i])};
    return std::nullopt;
}

template <typename T> Aabb<T> bounds(const Aabb<T>& b) { return b; }

/// The smallest box holding both.
template <typename T> Aabb<T> merge(const Aabb<T>& x, const Aabb<T>& y) {
    return {glm::min(x.min, y.min), glm::max(x.max, y.max)};
}

template <> struct ShapeTraits<Aabb> {
    static constexpr const char* name = "aabb";
    static constexpr const char* label = "AABB";
    template <typename T> static constexpr auto fields() {
        return std::make_tuple(Field{"min", &Aabb<T>::min, FieldRole::Point},
                               Field{"max", &Aabb<T>::max, FieldRole::Point});
    }
    template <typename T> static Aabb<T> example(const Vec3<T>& at) {
        return {at - Vec3<T>(T(0.75)), at + Vec3<T>(T(0.75))};
    }
    static constexpr double leaf_cost = 1.0;
    static constexpr bool cached_validity = false;
};

}  // namespace raypick
