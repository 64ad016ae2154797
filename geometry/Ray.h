// raypick geometry: the ray.
#pragma once

#include <raypick/geometry/Math.h>

namespace raypick {

/// A ray: the points origin + t * direction for t in a range (by default t >= 0).
/// `direction` may have any finite, non-zero length; it is never normalised by the core, and every
/// t the core returns is in units of this direction (t = 1 is one `direction` away from origin).
template <typename T> struct Ray {
    Vec3<T> origin{T(0)};
    Vec3<T> direction{T(0), T(0), T(1)};

    Vec3<T> at(T t) const { return origin + t * direction; }
};

}  // namespace raypick
