// raypick geometry: the shape value types. Plain aggregates, cheap to copy, no virtual functions.
#pragma once

#include "geometry/Math.h"

namespace raypick {

/// Ball of `radius` around `center` (radius >= 0; radius 0 is a point).
template <typename T> struct Sphere {
    Vec3<T> center{T(0)};
    T radius = T(1);
};

/// Axis-aligned box [min, max] (min <= max per axis; min == max on an axis is a flat box).
template <typename T> struct Aabb {
    Vec3<T> min{T(-1)};
    Vec3<T> max{T(1)};
};

/// Oriented box: centre + rotation * (local point), local point in [-half_extents, half_extents].
/// `rotation`'s columns are the box's axes in world space; it must be a proper rotation
/// (orthonormal, determinant +1, see orthonormality_tolerance()). Half extents are >= 0; zero
/// extents give a rectangle, a segment or a point.
template <typename T> struct Obb {
    Vec3<T> center{T(0)};
    Mat3<T> rotation{T(1)};
    Vec3<T> half_extents{T(1)};
};

/// Capsule: every point within `radius` of the segment a-b (radius >= 0). a == b is a sphere.
template <typename T> struct Capsule {
    Vec3<T> a{T(0), T(-1), T(0)};
    Vec3<T> b{T(0), T(1), T(0)};
    T radius = T(0.5);
};

}  // namespace raypick
