// raypick geometry: ray against sphere (the robust default).
#pragma once

#include <cmath>
#include <limits>
#include <optional>
#include <type_traits>

#include <raypick/geometry/Math.h>
#include <raypick/geometry/Ray.h>
#include <raypick/geometry/RayHit.h>
#include <raypick/geometry/Sphere.h>
#include <raypick/geometry/Validate.h>

namespace raypick {
namespace detail {

/// The discriminant of |f + t*d|^2 = r^2 over 4: a*r^2 - |f x d|^2 (see sphere_roots_at()).
template <typename T> inline T sphere_discriminant(const Vec3<T>& f, const Vec3<T>& d, T r) {
    const Vec3<T> fxd = glm::cross(f, d);
    return glm::dot(d, d) * (r * r) - glm::dot(fxd, fxd);
}

/// sphere_roots_unscaled() once the discriminant is known to be >= 0.
template <typename T>
inline void sphere_roots_of(const Vec3<T>& f, const Vec3<T>& d, T r, T disc, T& t0, T& t1) {
    const T a = glm::dot(d, d);
    const T bp = -glm::dot(f, d);       // b' = -b/2
    const T q = bp + std::copysign(std::sqrt(disc), bp);
    // The root nearer the foot's far side is q/a (no cancellation). The other one is c/q, whose
    // error is that of c (about eps * (|f|^2 + r^2)) over |q|: accurate unless q is small, i.e.
    // a near-tangent line whose foot lies near the origin, where c/q blew a rounding-level c up
    // to a root ~1e15 away. There (b' - sign(b') sqrt(disc))/a, error about eps * |q| / a, is the
    // better one; pick by comparing the two error bounds: c/q iff q^2 > a (|f|^2 + r^2). No
    // overflow or underflow in the safe range (every product is at most 4 a s <= 2^122 in float).
    // q == 0 (b' == 0 and disc == 0: tangent at the foot of the perpendicular) needs no case of
    // its own: q^2 = 0 is not > a s, so both roots are (b' -/+ sqrt(disc)) / a = 0 (+0, whatever
    // the zeros' signs; also for f = 0, r = 0, where c/q would be 0/0).
    const T ff = glm::dot(f, f), rr = r * r;
    const T c = ff - rr;
    const bool by_c = q * q > a * (ff + rr);
    const T ta = (by_c ? c : bp - std::copysign(std::sqrt(disc), bp)) / (by_c ? q : a);
    const T tb = q / a;
    t0 = glm::min(ta, tb);
    t1 = glm::max(ta, tb);
}

/// sphere_roots_at() for inputs in the safe range (see sphere_roots_in_safe_range()).
template <typename T>
inline bool sphere_roots_unscaled(const Vec3<T>& f, const Vec3<T>& d, T r, T& t0, T& t1) {
    const T disc = sphere_discriminant(f, d, r);
    if (!(disc >= T(0))) return false;  // miss (or NaN from overflowing inputs)
    sphere_roots_of(f, d, r, disc, t0, t1);
    return true;
}

template <typename T> inline T max_abs(const Vec3<T>& v) {
    return glm::max(std::abs(v.x), glm::max(std::abs(v.y), std::abs(v.z)));
}

/// Magnitudes for which every product in sphere_roots_unscaled() stays a normal number, in terms
/// of the two squared sizes the roots compute anyway: a = d.d and s = f.f + r^2. The fast range
/// is a, s >= 2^-2k (neither side so small that its squares underflow) and a s <= 2^4k,
/// k = safe_exponent() (30 for float, 240 for double); so a and s are finite.
/// Every product the roots form is bounded by a s: a r^2, |f x d|^2, b'^2 <= a s, q^2 <= 4 a s,
/// so none overflows, and the roots are at most 2 sqrt(s / a) <= 2^(4k+1), so they are finite.
/// Bounding the product, not each side by 2^2k, leaves room for an unbalanced pair: the
/// capsule's lateral quadratic scales both sides by (ab.ab)^2.
template <typename T> constexpr int safe_exponent() { return sizeof(T) >= 8 ? 240 : 30; }
template <typename T> constexpr T safe_min() { return sizeof(T) >= 8 ? T(0x1p-240) : T(0x1p-30); }
template <typename T> constexpr T safe_max() { return sizeof(T) >= 8 ? T(0x1p+240) : T(0x1p+30); }
template <typename T> constexpr T safe_sq_min() { return safe_min<T>() * safe_min<T>(); }
template <typename T> constexpr T safe_sq_max() { return safe_max<T>() * safe_max<T>() * safe_max<T>() * safe_max<T>(); }
/// The fast range test: three comparisons on values the roots need anyway (a s is the by_c
/// product). Testing the largest absolute component of each side instead would take a third of the
/// sphere cast's instructions (six absolute values, five maxima). A NaN fails it (the validating
/// path then rejects the input). The batch kernels test the same values, computed the same way,
/// so a lane takes the unscaled arithmetic exactly when the scalar code does.
template <typename T> inline bool in_safe_range_sq(T a, T s) {
    const T lo = safe_sq_min<T>(), hi = safe_sq_max<T>();
    return every(a >= lo, s >= lo, a * s <= hi);
}
template <typename T> inline bool sphere_roots_in_safe_range(const Vec3<T>& f, const Vec3<T>& d, T r) {
    return in_safe_range_sq(glm::dot(d, d), glm::dot(f, f) + r * r);
}
/// A miss the unscaled discriminant decides, for a = d.d and s = f.f + r^2: disc < 0 where no
/// square underflows (a, s >= the safe range's lower bound; there rounding could flip the sign of
/// a near-tangent discriminant), and disc > -inf. The upper bound is not needed otherwise: an
/// overflow makes disc +inf or NaN (not < 0), or -inf, which is left to the wide roots. (-inf
/// means |f x d|^2 overflowed and a r^2 did not: a miss when f is exact, but an f = origin - centre
/// that overflowed T makes some component of f x d infinite too, and that line may pass through
/// the sphere.) Without an overflow or an underflowing square, this is the discriminant
/// sphere_roots_wide() would compute, rounded the same way.
template <typename T> inline bool sphere_clear_miss(T disc, T a, T s) {
    const T lo = safe_sq_min<T>();
    return every(disc < T(0), disc > -infinity<T>(), a >= lo, s >= lo);
}

/// sphere_clear_miss(disc, a, s) decided, where it can be, before f.f is computed: with r^2 in
/// place of s (s = f.f + r^2 >= r^2, so r^2 >= lo implies s >= lo, NaN aside, and f.f is NaN only
/// where disc is NaN or -inf too). What a miss computes is then the discriminant and d.d only:
/// f.f, its sum and the range test are left to lines that may hit. Where r^2 < lo (a point, or a
/// sphere of tiny radius) the caller tests sphere_clear_miss() itself once s is known; together
/// the two decide every input exactly as sphere_clear_miss(disc, a, s) alone.
template <typename T> inline bool sphere_clear_miss_early(T disc, T a, T rr) { return sphere_clear_miss(disc, a, rr); }

/// The type sphere_roots_wide() computes in: one whose exponent range holds every product the
/// roots form (degree 4 in the inputs) of any finite T, subnormals included, as a normal number.
/// float: double (2^-149 ^ 4 = 2^-596 and 2^128 ^ 4 = 2^512 are normal doubles); double: the
/// x87 80-bit long double (15-bit exponent, 64-bit significand: 2^-4296 .. 2^4096).
template <typename T> using WideT = std::conditional_t<sizeof(T) == 4, double, long double>;
static_assert(std::numeric_limits<WideT<float>>::min_exponent < 4 * (std::numeric_limits<float>::min_exponent - 24) &&
                  std::numeric_limits<WideT<float>>::max_exponent > 4 * std::numeric_limits<float>::max_exponent + 4,
              "double must hold degree-4 products of floats");
static_assert(std::numeric_limits<WideT<double>>::min_exponent < 4 * (std::numeric_limits<double>::min_exponent - 53) &&
                  std::numeric_limits<WideT<double>>::max_exponent > 4 * std::numeric_limits<double>::max_exponent + 4,
              "long double must hold degree-4 products of doubles (x86-64's 80-bit long double does)");

/// sphere_roots_at() outside the safe range (tiny or huge shapes or directions): the same
/// arithmetic in WideT<T>, where no product underflows or overflows and origin - centre is formed
/// without overflow, and the roots rounded back to T (a root beyond T's range becomes +-inf, which
/// no cast accepts). Rare, so kept out of line and off the hot path. Scaling f, r and d by powers
/// of two instead would keep the squares of the largest components in range but not those of
/// the smallest: a line 1.1e145 from the centre of a sphere of radius 1e145, seen from 1.7e308
/// away with a direction of length 1e10 (a d^2 r^2 that overflows), would have both sides of its
/// discriminant underflow to 0 and be called a tangent.
template <typename T>
[[gnu::noinline, gnu::cold]] bool sphere_roots_wide(const Vec3<T>& origin, const Vec3<T>& center, const Vec3<T>& d,
                                                   T r, T& t0, T& t1) {
    using W = WideT<T>;
    W w0, w1;
    if (!sphere_roots_unscaled(Vec3<W>(origin) - Vec3<W>(center), Vec3<W>(d), W(r), w0, w1)) return false;
    t0 = T(w0);
    t1 = T(w1);
    return true;
}

/// What sphere_roots_fast() found: no roots (a clear miss), the roots, or an input outside the fast
/// range, for the caller to compute another way (sphere_roots_wide(), or for the capsule's lateral
/// problem, the whole capsule in the wide type).
enum class FastRoots { Miss, Found, Unsafe };

/// sphere_roots_at()'s fast part, for any f: the common miss, then the range test, then the roots
/// in T. The common miss in one branch: the line misses, and the discriminant's sign is right. One
/// unpredictable branch and nothing before it but arithmetic: what a miss costs decides a cast's
/// speed on random rays. So it tests only what a miss needs (sphere_clear_miss_early()): not f.f,
/// not the safe range's upper bound, and not the radius' sign (an invalid sphere is missed too).
/// The full test follows for a point or a tiny radius.
template <typename T>
[[gnu::always_inline]] inline FastRoots sphere_roots_fast(const Vec3<T>& f, const Vec3<T>& d, T r, T& t0, T& t1) {
    const T disc = sphere_discriminant(f, d, r);
    const T a = glm::dot(d, d), rr = r * r;
    if (sphere_clear_miss_early(disc, a, rr)) return FastRoots::Miss;
    const T s = glm::dot(f, f) + rr;
    if (sphere_clear_miss(disc, a, s)) return FastRoots::Miss;
    if (!__builtin_expect(in_safe_range_sq(a, s), 1)) return FastRoots::Unsafe;
    sphere_roots_of(f, d, r, disc, t0, t1);
    return FastRoots::Found;
}

/// Real roots t0 <= t1 of |f + t*d|^2 = r^2 with f = origin - centre, or false when there are none.
///
/// Numerics (Ray Tracing Gems ch. 7): the discriminant is a*r^2 - |f x d|^2, which equals
/// a*(r^2 - distance(line, centre)^2) without first forming |f|^2*a and (f.d)^2, so nothing large
/// cancels when the sphere is far away; the roots come from q = b' + sign(b')*sqrt(disc) as
/// c/q and q/a, so neither root suffers from -b' + sqrt(...) cancellation — except that for a
/// near-tangent line whose foot is near the origin (q tiny) the second root is taken directly,
/// (b' - sign(b') sqrt(disc))/a, whichever has the smaller error bound. Exact for small integer
/// inputs, e.g. a tangent ray gives a discriminant of exactly zero.
/// Scale: outside the safe range (tiny or huge shapes or directions, or an origin - centre that
/// overflows T) the same arithmetic runs in a wider type (sphere_roots_wide()), so squares neither
/// underflow (which made a near miss a tangent) nor overflow, and t is rounded back: any finite
/// input is decided and solved as accurately as inputs inside the range. Requires dot(d, d) > 0.
template <typename T>
inline bool sphere_roots_at(const Vec3<T>& origin, const Vec3<T>& center, const Vec3<T>& d, T r, T& t0, T& t1) {
    const FastRoots found = sphere_roots_fast(origin - center, d, r, t0, t1);
    if (found == FastRoots::Miss) return false;
    if (!__builtin_expect(found == FastRoots::Found, 1)) return sphere_roots_wide(origin, center, d, r, t0, t1);
    return true;
}

/// Outward normal at t on a sphere seen from f = origin - centre: unit(f + t d), or the direction's
/// fallback (-unit(d) at entry, +unit(d) at exit) when the radius is 0 and no normal exists or the
/// point rounds to the centre. The general path's normal; the fast path uses sphere_fast_normal().
template <typename T>
[[gnu::always_inline]] inline Vec3<T> sphere_normal(const Vec3<T>& f, const Vec3<T>& d, T r, T t, bool exit) {
    if (r == T(0)) return normalize_or(exit ? d : -d, Vec3<T>(T(0), T(0), T(1)));
    return normalize_or_dir(f + t * d, exit ? d : -d);
}

/// sphere_normal() for the fast path, given inv_r = 1 / r: p = f + t d lies on the sphere, so its
/// length is r up to rounding, and normalize_known_length() makes it unit without a square root or
/// a division (normalising p where its rounding is large: a sphere some 10^3 radii or more from the
/// origin in float). A cast() computes its two normals from one 1 / r. Requires r > 0 with 1 / r
/// finite (the fast path's r >= safe_min() gives both).
template <typename T>
[[gnu::always_inline]] inline Vec3<T> sphere_fast_normal(const Vec3<T>& f, const Vec3<T>& d, T inv_r, T t, bool exit) {
    return normalize_known_length(f + t * d, inv_r, exit ? d : -d);
}

/// cast() outside its fast path (input outside the safe range, invalid input, a negative radius):
/// validation, then the roots (wide outside the safe range) and the normals, in WideT<T> too: a
/// valid input gets here only outside the safe range, where origin - centre or f + t d may
/// overflow T (inf - inf: only the fallback normal) or be subnormal (a normal off by 1e-3).
/// Out of line, so that the cast inlined at every call site is only its fast path; it returns its
/// result by value, so that the caller's optional never has its address taken (a reference to it
/// would keep it in memory on the fast path too, a store and a reload per cast).
template <typename T>
[[gnu::noinline, gnu::cold]] std::optional<RayHit<T>> sphere_cast_general(const Ray<T>& ray, const Sphere<T>& sphere,
                                                                         T t_min, T t_max) {
    std::optional<RayHit<T>> out;
    T t0, t1;
    if (!is_valid(ray) || !is_valid(sphere) || !valid_range(t_min, t_max) ||
        !sphere_roots_at(ray.origin, sphere.center, ray.direction, sphere.radius, t0, t1) ||
        !accepts(t0, t1, t_min, t_max))
        return out;
    using W = WideT<T>;
    const Vec3<W> f = Vec3<W>(ray.origin) - Vec3<W>(sphere.center), d(ray.direction);
    const W r = sphere.radius;
    emplace_hit(out, t0, t1, Vec3<T>(sphere_normal(f, d, r, W(t0), false)), Vec3<T>(sphere_normal(f, d, r, W(t1), true)));
    return out;
}

/// The line's passage through the sphere, t only (no normals, no validation): what cast() computes
/// before its normals, bit for bit. For callers that validated once and want normals only for the
/// hit they keep (the hierarchy).
template <typename T> inline bool passage(const Ray<T>& ray, const Sphere<T>& sphere, T& t0, T& t1) {
    return sphere_roots_at(ray.origin, sphere.center, ray.direction, sphere.radius, t0, t1);
}

/// cast()'s and pick()'s fast path up to the acceptance: Miss (the line misses), General (the
/// input is outside the fast path's range, or invalid: sphere_cast_general() decides), or Hit: the
/// line's passage [t0, t1], ordered and finite, not yet tested against [t_min, t_max].
///
/// The same decisions as sphere_roots_fast(), branched differently, for what a sphere cast sees:
/// - The discriminant's sign alone decides the one unpredictable branch, hit or miss. Its
///   mispredictions resolve as early as they can, and a hit skips the miss test's range terms.
/// - A miss then confirms that the sign is right (sphere_clear_miss_early(), then the full test
///   for a tiny radius), in a branch that is always taken in an ordinary scene.
/// - A hit takes the fast path in one more predictable branch: the safe range (a >= lo,
///   a s <= hi) with a radius of at least safe_min() (2^-30 in float, 2^-240 in double). That
///   bound gives r^2 >= lo, hence s >= lo, and r > 0: the normals need no point fallback.
///   The discriminant needs no test of its own: not < 0, it is >= 0 or NaN, and a s <= hi rules
///   NaN out (no input is infinite, and |f x d|^2 <= f.f d.d <= a s).
/// - A smaller radius (a point, or 1e-10 in float) or a negative one goes to the general path,
///   which gives the same answers out of line.
///
/// The capsule's lateral problem keeps sphere_roots_fast(): its misses are mostly decided before,
/// by the triple product, and the nested branch costs it more than it saves (docs/performance.md).
/// In the fast path's range the roots are ordered and finite (at most 2 sqrt(s / a) <= 2^121 in
/// float, see safe_exponent()), so their acceptance needs no finiteness test. The safe range
/// implies a valid ray and sphere: it fails for NaN; |f|^2 + r^2 finite means origin, centre and
/// radius are finite; d.d >= 2^-60 (2^-480) means a non-zero direction.
template <typename T>
[[gnu::always_inline]] inline FastPassage sphere_fast_line(const Vec3<T>& f, const Vec3<T>& d, T r, T& t0, T& t1) {
    const T disc = sphere_discriminant(f, d, r);
    const T a = glm::dot(d, d), rr = r * r;
    if (__builtin_expect(disc < T(0), 1)) {
        if (__builtin_expect(sphere_clear_miss_early(disc, a, rr), 1)) return FastPassage::Miss;
        return sphere_clear_miss(disc, a, glm::dot(f, f) + rr) ? FastPassage::Miss : FastPassage::General;
    }
    const T s = glm::dot(f, f) + rr;
    if (!__builtin_expect(every(a >= safe_sq_min<T>(), r >= safe_min<T>(), a * s <= safe_sq_max<T>()), 1))
        return FastPassage::General;
    sphere_roots_of(f, d, r, disc, t0, t1);
    return FastPassage::Hit;
}

}  // namespace detail

/// Ray against sphere, robust default.
///
/// - `ray.direction` does not need to be normalised; t is in units of it.
/// - Returns the line's passage [t_near, t_far] with outward normals (see RayHit) when it overlaps
///   [t_min, t_max]; nothing when the line misses or the sphere lies wholly outside the range
///   (for the default range: entirely behind the origin).
/// - Origin inside: t_near < 0 < t_far, origin_inside = true; first_surface() gives the exit.
/// - Origin on the surface: one of t_near, t_far is 0 (up to rounding).
/// - Tangent ray: t_near == t_far, both normals the tangent point's normal.
/// - Radius 0 (a point): hit only if the line passes through it, up to rounding (a squared
///   distance times d.d that underflows to 0 counts as through); normals are -/+unit(dir).
///   A point, or a radius below 2^-30 (float) or 2^-240 (double), is decided out of line: the
///   same answers, more slowly.
/// - Accurate far from the origin: a unit sphere 10^4 units away keeps ~1e-7 relative error in t
///   in float (the textbook quadratic loses the discriminant entirely there).
/// - Invalid input (see is_valid) or t_min > t_max: no hit. Never returns NaN.
template <typename T>
[[gnu::always_inline]] inline std::optional<RayHit<T>> cast(const Ray<T>& ray, const Sphere<T>& sphere, T t_min = T(0),
                                                            T t_max = infinity<T>()) {
    const Vec3<T> f = ray.origin - sphere.center;
    const Vec3<T>& d = ray.direction;
    const T r = sphere.radius;
    std::optional<RayHit<T>> hit;  // the one value returned, built in place (see emplace_hit)
    T t0, t1;
    const detail::FastPassage path = detail::sphere_fast_line(f, d, r, t0, t1);
    if (path == detail::FastPassage::Miss) return hit;
    if (!__builtin_expect(path == detail::FastPassage::Hit, 1)) {
        hit = detail::sphere_cast_general(ray, sphere, t_min, t_max);
        return hit;
    }
    if (!detail::accepts_finite(t0, t1, t_min, t_max)) return hit;
    // Normals are unit by construction (sphere_fast_normal() never returns a non-finite vector).
    const T inv_r = T(1) / r;
    detail::emplace_hit(hit, t0, t1, detail::sphere_fast_normal(f, d, inv_r, t0, false),
                        detail::sphere_fast_normal(f, d, inv_r, t1, true));
    return hit;
}

/// Picking a sphere: first_surface() of cast()'s hit, bit for bit (the entry, or the exit when the
/// origin is inside or t_min is past the entry; empty on a miss or when the whole range lies
/// inside), but only that surface point's normal is computed.
template <typename T>
[[gnu::always_inline]] inline std::optional<SurfaceHit<T>> pick(const Ray<T>& ray, const Sphere<T>& sphere,
                                                                 T t_min = T(0), T t_max = infinity<T>()) {
    const Vec3<T> f = ray.origin - sphere.center;
    const Vec3<T>& d = ray.direction;
    const T r = sphere.radius;
    std::optional<SurfaceHit<T>> out;  // built in place (see emplace_surface)
    T t0, t1;
    const detail::FastPassage path = detail::sphere_fast_line(f, d, r, t0, t1);
    if (path == detail::FastPassage::Miss) return out;
    if (!__builtin_expect(path == detail::FastPassage::Hit, 1)) {  // rare: both normals, then one
        const std::optional<RayHit<T>> hit = detail::sphere_cast_general(ray, sphere, t_min, t_max);
        if (hit) out = first_surface(ray, *hit, t_min, t_max);
        return out;
    }
    // The passage is ordered and finite: emplace_surface() accepts it too.
    detail::emplace_surface(out, ray, t0, t1, t_min, t_max,
                            [&](T t, bool exit) { return detail::sphere_fast_normal(f, d, T(1) / r, t, exit); });
    return out;
}

}  // namespace raypick
