// raypick geometry: a closed set of shape types as a value (std::variant), for scenes and tools.
// The per-type casts stay the hot path; this is dispatch for code that holds mixed shapes.
#pragma once

#include <optional>
#include <variant>

#include "geometry/Bounds.h"
#include "geometry/RayAabb.h"
#include "geometry/RayCapsule.h"
#include "geometry/RayHit.h"
#include "geometry/RayObb.h"
#include "geometry/RaySphere.h"
#include "geometry/Validate.h"

namespace raypick {

enum class ShapeType { Sphere = 0, Aabb = 1, Obb = 2, Capsule = 3 };
inline constexpr int kShapeTypeCount = 4;

/// Lower-case name used in files and messages: "sphere", "aabb", "obb", "capsule".
inline const char* shape_type_name(ShapeType t) {
    switch (t) {
        case ShapeType::Sphere: return "sphere";
        case ShapeType::Aabb: return "aabb";
        case ShapeType::Obb: return "obb";
        case ShapeType::Capsule: return "capsule";
    }
    return "unknown";
}

/// Index order matches ShapeType.
template <typename T> using Shape = std::variant<Sphere<T>, Aabb<T>, Obb<T>, Capsule<T>>;

template <typename T> ShapeType type_of(const Shape<T>& s) { return ShapeType(s.index()); }

template <typename T>
std::optional<RayHit<T>> cast(const Ray<T>& ray, const Shape<T>& shape, T t_min = T(0),
                              T t_max = infinity<T>()) {
    return std::visit([&](const auto& s) { return cast(ray, s, t_min, t_max); }, shape);
}

namespace detail {
/// cast()'s decision and t values for one shape, without its normals: a valid shape whose line
/// passage [t0, t1] overlaps [t_min, t_max]. Out of line on purpose: code compiled for wider
/// instruction sets (the batch kernels' out-of-range lanes, the BVH's lone leaf shapes) calls it,
/// and inlined there, a compiler that contracts by default (clang) would fuse its multiplies and
/// adds into FMA instructions (AVX-512 has them) and round differently from cast() itself.
template <typename T, typename S>
[[gnu::noinline]] bool accepted_passage(const Ray<T>& ray, const S& shape, T t_min, T t_max, T& t0, T& t1) {
    return is_valid(shape) && passage(ray, shape, t0, t1) && accepts(t0, t1, t_min, t_max);
}
}  // namespace detail

/// Picking: the first surface point of `shape` along the ray in [t_min, t_max] — the entry, or the
/// exit when the ray starts inside. Empty on a miss. first_surface() of cast()'s hit; spheres and
/// capsules have their own pick() (RaySphere.h, RayCapsule.h) that gives the same bits without
/// computing the other normal.
template <typename T, typename S>
std::optional<SurfaceHit<T>> pick(const Ray<T>& ray, const S& shape, T t_min = T(0),
                                  T t_max = infinity<T>()) {
    const auto hit = cast(ray, shape, t_min, t_max);
    if (!hit) return std::nullopt;
    return first_surface(ray, *hit, t_min, t_max);
}
/// pick() of whichever shape `shape` holds.
template <typename T>
std::optional<SurfaceHit<T>> pick(const Ray<T>& ray, const Shape<T>& shape, T t_min = T(0), T t_max = infinity<T>()) {
    return std::visit([&](const auto& s) { return pick(ray, s, t_min, t_max); }, shape);
}

template <typename T> bool is_valid(const Shape<T>& s) {
    return std::visit([](const auto& x) { return is_valid(x); }, s);
}
template <typename T> std::optional<InputError> validate(const Shape<T>& s) {
    return std::visit([](const auto& x) { return validate(x); }, s);
}
template <typename T> Aabb<T> bounds(const Shape<T>& s) {
    return std::visit([](const auto& x) { return bounds(x); }, s);
}

// ---- precision conversion -----------------------------------------------------------------------

template <typename U, typename T> Ray<U> convert(const Ray<T>& r) {
    return {Vec3<U>(r.origin), Vec3<U>(r.direction)};
}
template <typename U, typename T> Sphere<U> convert(const Sphere<T>& s) {
    return {Vec3<U>(s.center), U(s.radius)};
}
template <typename U, typename T> Aabb<U> convert(const Aabb<T>& b) {
    return {Vec3<U>(b.min), Vec3<U>(b.max)};
}
template <typename U, typename T> Obb<U> convert(const Obb<T>& b) {
    return {Vec3<U>(b.center), Mat3<U>(b.rotation), Vec3<U>(b.half_extents)};
}
template <typename U, typename T> Capsule<U> convert(const Capsule<T>& c) {
    return {Vec3<U>(c.a), Vec3<U>(c.b), U(c.radius)};
}
template <typename U, typename T> Shape<U> convert(const Shape<T>& s) {
    return std::visit([](const auto& x) -> Shape<U> { return convert<U>(x); }, s);
}
template <typename U, typename T> RayHit<U> convert(const RayHit<T>& h) {
    return {U(h.t_near), U(h.t_far), Vec3<U>(h.n_near), Vec3<U>(h.n_far), h.origin_inside};
}

}  // namespace raypick
