// raypick geometry: ray against oriented box (the robust default).
#pragma once

#include <optional>

#include <raypick/geometry/Lanes.h>
#include <raypick/geometry/Math.h>
#include <raypick/geometry/Ray.h>
#include <raypick/geometry/RayAabb.h>
#include <raypick/geometry/RayHit.h>
#include <raypick/geometry/Obb.h>
#include <raypick/geometry/Validate.h>

namespace raypick {
namespace detail {

/// Slab passage of the ray taken into the box's frame.
template <typename T> inline bool obb_slabs(const Ray<T>& ray, const Obb<T>& box, SlabPassage<T>& p) {
    const Mat3<T> to_local = glm::transpose(box.rotation);
    const Vec3<T> o = to_local * (ray.origin - box.center);
    const Vec3<T> d = to_local * ray.direction;
    return slab_passage(o, d, -box.half_extents, box.half_extents, p);
}

/// cast() for every input, one step at a time (validation, frame change, slab_passage(),
/// normalize_or()): the reference that obb_cast_fast() reproduces bit for bit where it applies.
/// `out` is empty on entry and stays so on a miss.
template <typename T>
void obb_cast_general(const Ray<T>& ray, const Obb<T>& box, T t_min, T t_max, std::optional<RayHit<T>>& out) {
    SlabPassage<T> p;
    if (!is_valid(ray) || !is_valid(box) || !valid_range(t_min, t_max) || !obb_slabs(ray, box, p) ||
        !accepts(p.t_near, p.t_far, t_min, t_max))
        return;
    const Vec3<T> up(T(0), T(0), T(1));
    const Vec3<T> n_near = normalize_or(p.near_sign * box.rotation[p.near_axis], up);
    const Vec3<T> n_far = normalize_or(p.far_sign * box.rotation[p.far_axis], up);
    // accepts() held above and normalize_or() never returns a non-finite vector.
    emplace_hit(out, p.t_near, p.t_far, n_near, n_far);
}

/// cast()'s common case in 4-lane vector arithmetic (x, y, z side by side): a ray whose direction
/// in the box frame has no zero component and whose local values are finite, with h >= 0.
/// Returns false, `out` untouched, when the case does not apply (cast() then takes
/// obb_cast_general(), which handles it); otherwise true with `out` holding, bit for bit, what the
/// general path gives — empty for a miss or invalid input: the same validity predicate (is_valid's
/// dot products in the same order, tested only once the slabs report a hit), the same frame
/// change (glm's mat3 * vec3: c_j.x v.x + c_j.y v.y + c_j.z v.z), the slab_passage_fast() that
/// equals slab_passage() (in its two steps: the axes are looked up for a hit only), and
/// normalize_or()'s fast path, whose squared lengths are the diagonal of R^T R already computed
/// for validation.
template <typename T>
inline bool obb_cast_fast(const Ray<T>& ray, const Obb<T>& box, T t_min, T t_max, std::optional<RayHit<T>>& out) {
    // `out` is empty on entry and stays so on a miss.
    static_assert(sizeof(Ray<T>) == 6 * sizeof(T) && sizeof(Obb<T>) == 15 * sizeof(T), "x, y, z contiguous");
    const Vec3<T>& c0 = box.rotation[0];
    const Vec3<T>& c1 = box.rotation[1];
    const Vec3<T>& c2 = box.rotation[2];
    // Rows of the rotation (lane j holds column j's component), so that R^T v is three products;
    // transposed from three overlapping column loads. Lane 3 repeats lane 2.
    Lanes4<T> k0, k1, k2;
    load_followed(c0, k0);  // c0.x c0.y c0.z c1.x
    load_followed(c1, k1);  // c1.x c1.y c1.z c2.x
    load_preceded(c2, k2);  // c2.x c2.y c2.z c2.z
    const Lanes4<T> xy = __builtin_shufflevector(k0, k1, 0, 4, 1, 5), zz = __builtin_shufflevector(k0, k1, 2, 6, 2, 6);
    const Lanes4<T> r0 = __builtin_shufflevector(xy, k2, 0, 1, 4, 4), r1 = __builtin_shufflevector(xy, k2, 2, 3, 5, 5);
    const Lanes4<T> r2 = __builtin_shufflevector(zz, k2, 0, 1, 6, 6);
    Lanes4<T> o4, d4, c4, h4;
    load_followed(ray.origin, o4);
    load_preceded(ray.direction, d4);
    load_followed(box.center, c4);
    load_preceded(box.half_extents, h4);
    // Into the box frame.
    const Lanes4<T> f = o4 - c4;
    const Lanes4<T> lo = (r0 * f[0] + r1 * f[1]) + r2 * f[2];
    const Lanes4<T> ld = (r0 * d4[0] + r1 * d4[1]) + r2 * d4[2];
    SlabPassage<T> p;
    bool applies;
    SlabLanes<T> lanes;
    const bool hit = slab_span_fast(lo, ld, -h4, h4, p, applies, lanes);  // lane 3 repeats lane 2
    if (!applies) return false;
    // A miss needs no validation: an invalid ray or box is a miss too (the general path would say
    // the same). So the validity test below runs for hits only: on random rays, half the casts
    // skip its six dot products, a determinant and a dozen comparisons.
    if (!hit || !valid_range(t_min, t_max) || !accepts(p.t_near, p.t_far, t_min, t_max)) return true;  // out stays empty
    // is_valid(box): |c_j . c_j - 1| <= tol (lane j); |c0.c1|, |c1.c2|, |c2.c0| <= tol (each term
    // c_i.k * c_j.k, so the same bits as is_valid's dot(c0, c2)); det > 0.
    const Lanes4<T> diag = (r0 * r0 + r1 * r1) + r2 * r2;
    const Lanes4<T> off = (r0 * __builtin_shufflevector(r0, r0, 1, 2, 0, 3) + r1 * __builtin_shufflevector(r1, r1, 1, 2, 0, 3)) +
                          r2 * __builtin_shufflevector(r2, r2, 1, 2, 0, 3);
    const T tol = orthonormality_tolerance<T>();
    const Lanes4<T> one{T(1), T(1), T(1), T(1)};
    const Lanes4<T> dev = diag - one;
    const Mask4<T> orthonormal = ((dev <= tol) & (-dev <= tol)) & ((off <= tol) & (-off <= tol));
    const T z = T(0), big = std::numeric_limits<T>::max();
    const T dd = glm::dot(ray.direction, ray.direction);
    // Finite origin, direction and centre (x*0 == 0), extents in [0, max], dd in (0, max].
    const bool valid = every(all_xyz<T>(orthonormal & ((o4 * z + d4 * z) + c4 * z == z) & (h4 >= z) & (h4 <= big)),
                             glm::dot(glm::cross(c0, c1), c2) > z, dd > z, dd <= big);
    if (!valid) return true;  // out stays empty: what the general path gives an invalid input
    slab_axes(lanes, true, p);  // the axes of a hit only (slab_span_fast)
    // normalize_or(sign * c_axis): the squared length is diag[axis] (sign^2 = 1 exactly), in
    // (min, max) for a valid rotation, so its fast path: v * (1 / sqrt(len2)), both at once.
    // The three square roots in one vector instruction (lane 3 repeats lane 2: finite too).
    Lanes4<T> len;
    sqrt_lanes(diag, len);
    const Lanes4<T> inv = one / len;
    const Vec3<T> n_near = (p.near_sign * box.rotation[p.near_axis]) * inv[p.near_axis];
    const Vec3<T> n_far = (p.far_sign * box.rotation[p.far_axis]) * inv[p.far_axis];
    emplace_hit(out, p.t_near, p.t_far, n_near, n_far);
    return true;
}

/// The line's passage through the box, t only (no validation): what cast() computes, bit for bit.
template <typename T> inline bool passage(const Ray<T>& ray, const Obb<T>& box, T& t0, T& t1) {
    SlabPassage<T> p;
    if (!obb_slabs(ray, box, p)) return false;
    t0 = p.t_near;
    t1 = p.t_far;
    return true;
}

}  // namespace detail

/// Ray against oriented box, robust default.
///
/// The ray is taken into the box's frame (origin - centre, then rotation^T; the e = a_i . p and
/// f = a_i . d of "Details of Ray/OBB Intersection") and cut by the slabs [-h, h] exactly as in
/// the Aabb test, so every contract of cast(Ray, Aabb) holds here too:
/// - `ray.direction` does not need to be normalised; t is in units of it.
/// - Origin inside: t_near < 0 < t_far; a box entirely behind the origin is a miss.
/// - Zero half extents work (a rectangle, a segment, a point): the slab of a zero extent gives
///   t = e / f on both sides, and the normal is the signed box axis (+-rotation column).
/// - Normals are unit (re-normalised box axes) and outward.
/// - Invalid input (non-orthonormal or reflecting rotation, negative or non-finite extents, ...)
///   or t_min > t_max: no hit; never NaN.
/// Always inlined, as the other shapes' casts are (see cast(Ray, Aabb)).
template <typename T>
[[gnu::always_inline]] inline std::optional<RayHit<T>> cast(const Ray<T>& ray, const Obb<T>& box, T t_min = T(0),
                                                            T t_max = infinity<T>()) {
    std::optional<RayHit<T>> hit;  // the one value returned, built in place (see emplace_hit)
    if (!__builtin_expect(detail::obb_cast_fast(ray, box, t_min, t_max, hit), 1))
        detail::obb_cast_general(ray, box, t_min, t_max, hit);
    return hit;
}

}  // namespace raypick
