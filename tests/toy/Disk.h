// A shape type defined outside raypick, in the test tree only: a two-sided disk. It is added to
// raypick's shape types the way ShapeTypes' comment says (RAYPICK_EXTRA_SHAPES_HEADER names this
// header, RAYPICK_EXTRA_SHAPE_TYPES is ", Disk"), and tests/toy/ToyShapeTest.cpp shows that the
// scene files, the BVH, picking and the command-line caster then take disks with no other change.
// Everything a shape type provides is here and nowhere else.
#pragma once

#include <cmath>
#include <limits>
#include <optional>
#include <tuple>

#include <raypick/geometry/Aabb.h>
#include <raypick/geometry/Math.h>
#include <raypick/geometry/Ray.h>
#include <raypick/geometry/RayHit.h>
#include <raypick/geometry/ShapeTraits.h>
#include <raypick/geometry/Validate.h>

namespace raypick {

/// The points of the plane through `center` with normal `normal` within `radius` of the centre.
template <typename T> struct Disk {
    Vec3<T> center{T(0)};
    Vec3<T> normal{T(0), T(1), T(0)};
    T radius = T(1);
};

template <typename T> inline bool is_valid(const Disk<T>& d) {
    const T nn = glm::dot(d.normal, d.normal);
    return every(is_finite(d.center), is_finite(d.normal), nn > T(0), nn <= std::numeric_limits<T>::max(),
                 detail::nonneg_finite(d.radius));
}

template <typename T> std::optional<InputError> validate(const Disk<T>& d) {
    using detail::str;
    if (!is_finite(d.center)) return InputError{"center", "center must be finite, got " + str(d.center)};
    if (!is_finite(d.normal) || !(glm::dot(d.normal, d.normal) > T(0)))
        return InputError{"normal", "normal must be finite and non-zero, got " + str(d.normal)};
    if (!is_valid(d)) return InputError{"radius", "radius must be finite and >= 0, got " + str(d.radius)};
    return std::nullopt;
}

/// The disk's box: along each axis, radius * sqrt(1 - n_axis^2) around the centre (n unit),
/// padded by a relative 1e-6 for the rounding of that formula.
template <typename T> Aabb<T> bounds(const Disk<T>& d) {
    const Vec3<T> n = glm::normalize(d.normal);
    Vec3<T> e;
    for (int a = 0; a < 3; ++a) e[a] = d.radius * std::sqrt(std::max(T(0), T(1) - n[a] * n[a]));
    e = e * T(1.000001) + Vec3<T>(d.radius * T(1e-6));
    return {d.center - e, d.center + e};
}

/// Ray against disk: the plane's crossing when it lies within the radius, [t, t] with the normal
/// facing the ray at entry and away from it at exit (as a flat box's). A ray in the disk's plane
/// misses.
template <typename T>
std::optional<RayHit<T>> cast(const Ray<T>& ray, const Disk<T>& d, T t_min = T(0), T t_max = infinity<T>()) {
    if (!is_valid(ray) || !is_valid(d) || !(t_min <= t_max)) return std::nullopt;
    const Vec3<T> n = glm::normalize(d.normal);
    const T dn = glm::dot(ray.direction, n);
    if (dn == T(0)) return std::nullopt;
    const T t = glm::dot(d.center - ray.origin, n) / dn;
    if (!(t >= t_min && t <= t_max)) return std::nullopt;
    const Vec3<T> q = ray.origin + ray.direction * t - d.center;
    if (!(glm::dot(q, q) <= d.radius * d.radius)) return std::nullopt;
    const Vec3<T> facing = dn < T(0) ? n : -n;
    return RayHit<T>{t, t, facing, -facing, false};
}

template <> struct ShapeTraits<Disk> {
    static constexpr const char* name = "disk";
    static constexpr const char* label = "Disk";
    template <typename T> static constexpr auto fields() {
        return std::make_tuple(Field{"center", &Disk<T>::center, FieldRole::Point},
                               Field{"normal", &Disk<T>::normal, FieldRole::Direction},
                               Field{"radius", &Disk<T>::radius, FieldRole::Length});
    }
    template <typename T> static Disk<T> example(const Vec3<T>& at) { return {at, {T(0), T(1), T(0)}, T(1)}; }
    static constexpr double leaf_cost = 1.0;
    static constexpr bool cached_validity = false;
};

}  // namespace raypick
