// raypick geometry: the triangle shape type — its value, validation, bounds and descriptor. The ray
// test is RayTriangle.h.
#pragma once

#include <optional>
#include <tuple>
#include <type_traits>

#include <raypick/geometry/Aabb.h>
#include <raypick/geometry/Math.h>
#include <raypick/geometry/ShapeTraits.h>
#include <raypick/geometry/Validate.h>

namespace raypick {

/// The triangle a, b, c: closed (its edges and vertices belong to it) and two-sided. Its front face
/// is the one from which a, b, c run counter-clockwise; the geometric normal
/// cross(b - a, c - a) points out of it (right-handed). Any three finite points are valid; three
/// coincident or collinear ones make a zero-area triangle, which no ray hits (is_degenerate() says
/// which count as such).
template <typename T> struct Triangle {
    Vec3<T> a{T(-0.5), T(-0.5), T(0)};
    Vec3<T> b{T(0.5), T(-0.5), T(0)};
    Vec3<T> c{T(0), T(0.5), T(0)};
};

template <typename T> inline bool is_valid(const Triangle<T>& t) {
    return every(is_finite(t.a), is_finite(t.b), is_finite(t.c));
}

/// Empty when `t` is valid, else which vertex is not finite.
template <typename T> std::optional<InputError> validate(const Triangle<T>& t) {
    using detail::str;
    if (!is_finite(t.a)) return InputError{"a", "vertex a must be finite, got " + str(t.a)};
    if (!is_finite(t.b)) return InputError{"b", "vertex b must be finite, got " + str(t.b)};
    if (!is_finite(t.c)) return InputError{"c", "vertex c must be finite, got " + str(t.c)};
    return std::nullopt;
}

namespace detail {
/// The scalar a triangle's area and edge functions are computed in: double for float (products of
/// floats are exact there, and nothing overflows or underflows), T itself otherwise.
template <typename T> using TriangleWide = std::conditional_t<std::is_same_v<T, float>, double, T>;

/// cross(b - a, c - a) in TriangleWide<T>: twice the area, along the front face's normal.
template <typename T> Vec3<TriangleWide<T>> area_vector(const Triangle<T>& t) {
    using W = TriangleWide<T>;
    const Vec3<W> a(t.a);
    return glm::cross(Vec3<W>(t.b) - a, Vec3<W>(t.c) - a);
}
}  // namespace detail

/// Whether the triangle has zero area as computed: cross(b - a, c - a), in double for float
/// triangles, is the zero vector. True for coincident vertices and for collinear ones whose cross
/// product cancels exactly (e.g. c = a + 2 (b - a)); for double vertices also when the edges are
/// so short (below about 1e-162) that the products underflow. No ray hits a triangle for which
/// this is true (RayTriangle.h); a sliver that is collinear in real arithmetic but not as computed
/// is not degenerate, and rays within rounding of its line may hit it.
template <typename T> bool is_degenerate(const Triangle<T>& t) {
    using W = detail::TriangleWide<T>;
    return detail::area_vector(t) == Vec3<W>(W(0));
}

/// The smallest box holding the three vertices (exact: no rounding).
template <typename T> Aabb<T> bounds(const Triangle<T>& t) {
    return {glm::min(t.a, glm::min(t.b, t.c)), glm::max(t.a, glm::max(t.b, t.c))};
}

template <> struct ShapeTraits<Triangle> {
    static constexpr const char* name = "triangle";
    static constexpr const char* label = "Triangle";
    template <typename T> static constexpr auto fields() {
        return std::make_tuple(Field{"a", &Triangle<T>::a, FieldRole::Point},
                               Field{"b", &Triangle<T>::b, FieldRole::Point},
                               Field{"c", &Triangle<T>::c, FieldRole::Point});
    }
    template <typename T> static Triangle<T> example(const Vec3<T>& at) {
        return {at + Vec3<T>(T(-0.8), T(-0.6), T(0)), at + Vec3<T>(T(0.8), T(-0.6), T(0)),
                at + Vec3<T>(T(0), T(0.8), T(0))};
    }
    static constexpr double leaf_cost = 1.0;
    static constexpr bool cached_validity = false;
};

}  // namespace raypick
