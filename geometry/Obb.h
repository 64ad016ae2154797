// raypick geometry: the oriented box shape type — its value, validation, bounds and descriptor.
// The ray test is RayObb.h.
#pragma once

#include <cmath>
#include <limits>
#include <optional>
#include <tuple>

#include <raypick/geometry/Aabb.h>
#include <raypick/geometry/Math.h>
#include <raypick/geometry/ShapeTraits.h>
#include <raypick/geometry/Validate.h>

namespace raypick {

/// Oriented box: centre + rotation * (local point), local point in [-half_extents, half_extents].
/// `rotation`'s columns are the box's axes in world space; it must be a proper rotation
/// (orthonormal, determinant +1, see orthonormality_tolerance()). Half extents are >= 0; zero
/// extents give a rectangle, a segment or a point.
template <typename T> struct Obb {
    Vec3<T> center{T(0)};
    Mat3<T> rotation{T(1)};
    Vec3<T> half_extents{T(1)};
};

/// The same predicate as validate() (orthonormality_error() within tolerance, determinant > 0,
/// finite centre, finite non-negative extents), computed without branches or a max chain: each
/// of the six entries of R^T R - I compared with the tolerance, combined with &. A NaN or
/// infinite rotation entry fails these comparisons, so it needs no separate finiteness test.
template <typename T> inline bool is_valid(const Obb<T>& b) {
    const Vec3<T>& c0 = b.rotation[0];
    const Vec3<T>& c1 = b.rotation[1];
    const Vec3<T>& c2 = b.rotation[2];
    const T tol = orthonormality_tolerance<T>();
    const bool orthonormal =
        every(std::abs(glm::dot(c0, c0) - T(1)) <= tol, std::abs(glm::dot(c1, c1) - T(1)) <= tol,
              std::abs(glm::dot(c2, c2) - T(1)) <= tol, std::abs(glm::dot(c0, c1)) <= tol,
              std::abs(glm::dot(c0, c2)) <= tol, std::abs(glm::dot(c1, c2)) <= tol);
    const Vec3<T>& h = b.half_extents;
    const T big = std::numeric_limits<T>::max();
    return every(orthonormal, glm::dot(glm::cross(c0, c1), c2) > T(0), is_finite(b.center), h.x >= T(0),
                 h.y >= T(0), h.z >= T(0), h.x <= big, h.y <= big, h.z <= big);
}

/// Empty when `b` is valid, else what is wrong with it.
template <typename T> std::optional<InputError> validate(const Obb<T>& b) {
    using detail::str;
    if (!is_finite(b.center)) return InputError{"center", "center must be finite, got " + str(b.center)};
    if (!detail::nonneg_finite(b.half_extents))
        return InputError{"half_extents",
                          "half extents must be finite and >= 0, got " + str(b.half_extents)};
    if (!is_finite(b.rotation)) return InputError{"rotation", "rotation must be finite"};
    const T err = orthonormality_error(b.rotation);
    if (!(err <= orthonormality_tolerance<T>()))
        return InputError{"rotation", "rotation axes must be orthonormal (unit length, mutually "
                                      "perpendicular); they are off by " + str(err) +
                                      ", tolerance " + str(orthonormality_tolerance<T>())};
    if (!(glm::dot(glm::cross(b.rotation[0], b.rotation[1]), b.rotation[2]) > T(0)))
        return InputError{"rotation", "rotation must be a proper rotation (determinant +1), got a "
                                      "reflection (determinant -1)"};
    return std::nullopt;
}

/// Contains every point cast(ray, obb) can hit. The cast takes a point into the box frame as
/// R^T (p - c) and tests it against [-h, h], so the box is c + R^-T [-h, h]: for a rotation that
/// is orthonormal only within validate()'s tolerance (a column of length 1 - 1e-10 shrinks the
/// extent along it by 1e-10), that is slightly larger than c + R [-h, h]. With e the largest entry
/// of |R^T R - I|, ||R^-T - R|| <= 3e / (1 - 3e) (spectral norm), so growing every axis by
/// 4 e (h.x + h.y + h.z) covers it; 0 for an exactly orthonormal rotation. (Without it a
/// hierarchy can cull a hit 6e-10 outside c + R [-h, h]: a fuzz regression input.)
template <typename T> Aabb<T> bounds(const Obb<T>& b) {
    // Half-size of the rotated box along world axis i is sum_j |R[j][i]| * h[j].
    Vec3<T> ext(T(0));
    for (int j = 0; j < 3; ++j) ext += glm::abs(b.rotation[j]) * b.half_extents[j];
    const T e = orthonormality_error(b.rotation);
    const Vec3<T>& h = b.half_extents;
    if (e > T(0) && e <= T(0.01)) ext += Vec3<T>(T(4) * e * ((h.x + h.y) + h.z));  // else invalid or exact
    return {b.center - ext, b.center + ext};
}

/// The leaf lanes (ShapeTraits.h) are the fields in this order, then is_valid(): the OBB batch
/// kernel reads that flag instead of checking the rotation (six dot products and a determinant,
/// about a third of its work) on every cast.
template <> struct ShapeTraits<Obb> {
    static constexpr const char* name = "obb";
    static constexpr const char* label = "OBB";
    template <typename T> static constexpr auto fields() {
        return std::make_tuple(Field{"center", &Obb<T>::center, FieldRole::Point},
                               Field{"half_extents", &Obb<T>::half_extents, FieldRole::Extent},
                               Field{"rotation", &Obb<T>::rotation, FieldRole::Rotation});
    }
    /// A box turned 30 degrees about Y, so that it does not look like an AABB.
    template <typename T> static Obb<T> example(const Vec3<T>& at) {
        const T angle = T(30) * (T(3.14159265358979323846) / T(180));
        const T c = std::cos(angle), s = std::sin(angle);
        return {at, Mat3<T>(c, T(0), -s, T(0), T(1), T(0), s, T(0), c), Vec3<T>(T(1), T(0.6), T(0.4))};
    }
    static constexpr double leaf_cost = 1.5;
    static constexpr bool cached_validity = true;
};

}  // namespace raypick
