// raypick geometry: ray against capsule (the robust default), built from the sphere test.
#pragma once

#include <optional>
#include <type_traits>

#include <raypick/geometry/Lanes.h>
#include <raypick/geometry/Math.h>
#include <raypick/geometry/Ray.h>
#include <raypick/geometry/RayHit.h>
#include <raypick/geometry/RaySphere.h>
#include <raypick/geometry/Capsule.h>
#include <raypick/geometry/Validate.h>

namespace raypick {
namespace detail {

/// The capsule's axis: u = (b - a) / L with L a power of two (1 unless b - a is tiny or huge), so
/// that u.u neither underflows into subnormals nor overflows. The perpendicular projection is the
/// same with u as with b - a; the axial position (0 at a, 1 at b) is s = (fa.u + t d.u)/(u.u) / L,
/// so "on the segment" is 0 <= (fa.u + t d.u)/(u.u) <= L, exactly.
/// Largest (b - a).(b - a) that CapsuleAxis leaves unscaled: 2^2k (k = safe_exponent()).
template <typename T> constexpr T safe_axis_sq_max() { return safe_max<T>() * safe_max<T>(); }

template <typename T> struct CapsuleAxis {
    Vec3<T> u;
    T length = T(1);  ///< L
    /// L == 1 when (b - a).(b - a) is within [2^-2k, 2^2k] (k = safe_exponent(); one dot product the
    /// passage needs anyway and two comparisons: the batch kernels test the same sum).
    explicit CapsuleAxis(const Capsule<T>& c) : u(c.b - c.a) {
        const T uu = glm::dot(u, u);
        if (__builtin_expect(every(uu >= safe_sq_min<T>(), uu <= safe_axis_sq_max<T>()), 1)) return;
        rescale();
    }

  private:
    /// Scales u by the power of two that brings its largest component into [1, 2) (a zero or
    /// non-finite axis is left alone: a == b is the sphere, and invalid input is rejected later).
    [[gnu::noinline, gnu::cold]] void rescale() {
        const T m = max_abs(u);
        if (!(m > T(0)) || !(m <= std::numeric_limits<T>::max())) return;
        const int e = std::ilogb(m);
        u = Vec3<T>(std::ldexp(u.x, -e), std::ldexp(u.y, -e), std::ldexp(u.z, -e));
        length = std::ldexp(T(1), e);
    }
};

template <typename T> bool capsule_passage_wide(const Ray<T>& ray, const Capsule<T>& capsule, T& t_near, T& t_far);

/// What capsule_passage() found: no passage, a passage, or a passage found with the lateral
/// problem inside the roots' fast range (Fast), which shows most of the input valid (see
/// capsule_accepted()).
enum class CapsuleFound { Miss, Passage, Fast };

/// Relative margin of capsule_clear_miss(): 256 eps (float 2^-15), far above the ~110 u its
/// rounding and that of capsule_passage()'s lateral discriminant can reach together.
template <typename T> constexpr T capsule_miss_margin() { return T(256) * std::numeric_limits<T>::epsilon(); }

/// Whether the line misses the capsule's infinite cylinder by more than any rounding of
/// capsule_passage() can blur: a miss it would find too, decided for two thirds of its arithmetic
/// (most lines in a scene miss most capsules). With n = d x ab (ab = b - a as computed; E below is
/// homogeneous in ab, so CapsuleAxis's power-of-two rescaling changes nothing), the line's distance
/// from the axis line is |fa.n| / |n|, so it misses where E = (fa.n)^2 - r^2 n.n > 0. Computed in
/// T, E is within 14 u (a s) of its exact value (a = d.d ab.ab, s = fa.fa + r^2, u = eps / 2: n's
/// rounding is at most 3 u |d| |ab|, fa.n's 6 u |fa| |d| |ab|), and capsule_passage()'s lateral
/// discriminant, which is -(ab.ab)^3 E exactly, within about 90 u (ab.ab)^3 a s of its own (F and D
/// each carry 12 u of their cancellation). So E > capsule_miss_margin() a s means the exact E is
/// positive by more than capsule_passage()'s error: its discriminant is negative too, or it leaves
/// the fast range and the wide type's exact geometry (fa and ab unrounded; the margin is at least
/// 2^-16 |fa| in distance, against their rounding of u |fa|) misses as well; a line taken as
/// parallel misses both balls, which lie inside the cylinder. Only in the range a, s >= 2^-2k and
/// a s <= 2^4k (k = safe_exponent()), where no square underflows by more than 2^-30 of the margin
/// and nothing overflows; NaN anywhere fails it. A parallel line (n = 0) or a == b (ab = 0) never
/// passes it. The batch kernels do not use it: it changes no answer, only how soon a miss is known.
template <typename T>
[[gnu::always_inline]] inline bool capsule_clear_miss(const Ray<T>& ray, const Capsule<T>& capsule) {
    const Vec3<T> fa = ray.origin - capsule.a, ab = capsule.b - capsule.a;
    const Vec3<T>& d = ray.direction;
    const T r = capsule.radius;
    const Vec3<T> n = glm::cross(d, ab);
    const T g = glm::dot(fa, n), rr = r * r;
    const T a = glm::dot(d, d) * glm::dot(ab, ab), s = glm::dot(fa, fa) + rr;
    const T as = a * s;
    return every(g * g - rr * glm::dot(n, n) > capsule_miss_margin<T>() * as, a >= safe_sq_min<T>(),
                 s >= safe_sq_min<T>(), as <= safe_sq_max<T>());
}

/// The line's passage through the capsule, t only (no validation): what cast() computes, bit for
/// bit, with or without capsule_clear_miss() first (passage() takes it first). With x the axial
/// coordinate scaled by ab.ab (x = 0 at a, x = L ab.ab at b), the capsule is ball a where x < 0,
/// the finite cylinder where 0 <= x <= L ab.ab, and ball b beyond: ball b's part below x = 0 lies
/// inside ball a (a point there is nearer a than b) and vice versa, and each ball's part within the
/// segment's stretch lies inside the cylinder. So the line enters where it crosses the lateral
/// surface on that stretch, or else where it enters the ball of the end it crossed beyond, and
/// leaves likewise; a line that misses the infinite cylinder misses the capsule, and only a line
/// parallel to the axis needs both balls.
/// Returns Miss, Passage, or Fast: a passage found with the lateral problem inside the roots' fast
/// range, which certifies most of the input's validity (see capsule_accepted()).
template <typename T>
inline CapsuleFound capsule_passage(const Ray<T>& ray, const Capsule<T>& capsule, T& t_near, T& t_far) {
    constexpr CapsuleFound kMiss = CapsuleFound::Miss, kPassage = CapsuleFound::Passage;
    if (capsule.a == capsule.b)
        return passage(ray, Sphere<T>{capsule.a, capsule.radius}, t_near, t_far) ? kPassage : kMiss;
    const CapsuleAxis<T> axis(capsule);
    const Vec3<T>& ab = axis.u;
    const T abab = glm::dot(ab, ab);
    const Vec3<T>& d = ray.direction;
    const T r = capsule.radius;
    const Vec3<T> fa = ray.origin - capsule.a;
    // The lateral surface first: the problem projected on the plane perpendicular to the axis,
    // scaled by ab.ab so that no division is needed: F = (ab.ab) fa - (fa.ab) ab and
    // D = (ab.ab) d - (d.ab) ab are ab.ab times the perpendicular parts of fa and d, so
    // |F + t D| = (ab.ab) r has the same roots t. (Dividing by ab.ab first would put two divisions
    // on the path to the hit/miss branch.) The roots' fast range bounds the product of the two
    // sides' squared sizes, which the common factor scales by (ab.ab)^4: well within it for any
    // ordinary scene (float: ab.ab^2 |D| |F| up to 2^60).
    const T fa_ab = glm::dot(fa, ab);
    const T d_ab = glm::dot(d, ab);
    const Vec3<T> f_perp = abab * fa - fa_ab * ab;
    const Vec3<T> d_perp = abab * d - d_ab * ab;
    if (glm::dot(d_perp, d_perp) > T(0)) {
        // Outside the roots' fast range (huge or tiny inputs: F, D or the terms above may have
        // overflowed T), the whole passage again in the wide type.
        const FastRoots lateral = sphere_roots_fast(f_perp, d_perp, abab * r, t_near, t_far);
        if (lateral == FastRoots::Miss) return kMiss;
        const bool fast = lateral == FastRoots::Found;
        if (!__builtin_expect(fast, 1)) {
            if constexpr (!std::is_same_v<WideT<T>, T>)
                return capsule_passage_wide(ray, capsule, t_near, t_far) ? kPassage : kMiss;
            else if (!sphere_roots_unscaled(f_perp, d_perp, abab * r, t_near, t_far)) return kMiss;  // the widest type
        }
        const CapsuleFound found = fast ? CapsuleFound::Fast : kPassage;
        // x(t) = fa.ab + t d.ab. L ab.ab is exact (L a power of two) and finite when L == 1; a
        // scaled axis (L != 1) compares x / ab.ab with L instead, so nothing overflows.
        const T x0 = fa_ab + t_near * d_ab, x1 = fa_ab + t_far * d_ab;
        const bool unit = axis.length == T(1);
        const bool in0 = (x0 >= T(0)) & (unit ? x0 <= abab : x0 / abab <= axis.length);
        const bool in1 = (x1 >= T(0)) & (unit ? x1 <= abab : x1 / abab <= axis.length);
        if (in0 & in1) return found;  // both crossings on the segment's stretch
        T u0, u1;
        if (!in0) {  // entry through the ball of the end beyond which x0 lies
            if (!sphere_roots_at(ray.origin, x0 < T(0) ? capsule.a : capsule.b, d, r, u0, u1)) return kMiss;
            t_near = u0;
            if (!in1 && (x0 < T(0)) == (x1 < T(0))) {  // in and out through the same ball
                t_far = u1;
                return found;
            }
        }
        if (!in1) {
            if (!sphere_roots_at(ray.origin, x1 < T(0) ? capsule.a : capsule.b, d, r, u0, u1)) return kMiss;
            t_far = u1;
        }
        return t_near <= t_far ? found : kMiss;
    }
    // Parallel to the axis: in through one ball, out through the other (or a miss). Or D, whose
    // square is about (ab.ab)^2 d.d sin^2, underflowed to 0 for a short direction or a short axis
    // that is not parallel: where (ab.ab)^2 d.d is that small, the wide type decides.
    if constexpr (!std::is_same_v<WideT<T>, T>)
        if (!__builtin_expect((abab * glm::dot(d, d)) * abab >= safe_sq_min<T>(), 1))
            return capsule_passage_wide(ray, capsule, t_near, t_far) ? kPassage : kMiss;
    t_near = infinity<T>();
    t_far = -infinity<T>();
    T t0, t1;
    if (sphere_roots_at(ray.origin, capsule.a, d, r, t0, t1)) {
        t_near = t0;
        t_far = t1;
    }
    if (sphere_roots_at(ray.origin, capsule.b, d, r, t0, t1)) {
        if (t0 < t_near) t_near = t0;
        if (t1 > t_far) t_far = t1;
    }
    return t_near <= t_far ? kPassage : kMiss;
}

/// The line's passage through the capsule (see capsule_passage()): the common miss in line, the
/// rest out of line.
template <typename T>
[[gnu::always_inline]] inline bool passage(const Ray<T>& ray, const Capsule<T>& capsule, T& t_near, T& t_far) {
    return !capsule_clear_miss(ray, capsule) && capsule_passage(ray, capsule, t_near, t_far) != CapsuleFound::Miss;
}

/// A ray and a capsule in WideT<T>, exactly (every T is a WideT<T>).
template <typename T> Ray<WideT<T>> widen(const Ray<T>& r) {
    return {Vec3<WideT<T>>(r.origin), Vec3<WideT<T>>(r.direction)};
}
template <typename T> Capsule<WideT<T>> widen(const Capsule<T>& c) {
    return {Vec3<WideT<T>>(c.a), Vec3<WideT<T>>(c.b), WideT<T>(c.radius)};
}

/// passage() for a capsule whose lateral problem leaves the roots' fast range: the same passage
/// computed in WideT<T> (where the differences, the axis terms and their products neither overflow
/// nor underflow) and rounded back to T. In T, F = (ab.ab) fa - (fa.ab) ab overflows for an
/// origin far enough away (a capsule 1e60 long seen from 1e250), and a line through the middle of
/// the capsule would miss. (In the widest type itself, long double, passage() solves the lateral
/// problem as it is.)
template <typename T>
[[gnu::noinline, gnu::cold]] bool capsule_passage_wide(const Ray<T>& ray, const Capsule<T>& capsule, T& t_near,
                                                      T& t_far) {
    WideT<T> n, f;
    if (!passage(widen(ray), widen(capsule), n, f)) return false;
    t_near = T(n);
    t_far = T(f);
    return true;
}

/// Outward normal at t, from the point itself whichever part gave t: unit(p - closest point of
/// the segment). (Taking the winning part's own normal is wrong near a cap seam, where a ball's
/// root can beat the cylinder's by rounding although the point lies on the cylinder.) A segment
/// (radius 0) has no normal: -/+unit(direction).
template <typename T> struct CapsuleNormals {
    /// The terms both normals share, computed once per cast.
    CapsuleNormals(const Ray<T>& ray, const Capsule<T>& capsule, const CapsuleAxis<T>& axis)
        : d(ray.direction), ab(axis.u), fa(ray.origin - capsule.a), abab(glm::dot(ab, ab)),
          fa_ab(glm::dot(fa, ab)), d_ab(glm::dot(d, ab)), r(capsule.radius), inv_r(T(1) / capsule.radius),
          length(axis.length) {}
    /// The point at t less its nearest point on the axis: length r on the capsule's surface (the
    /// cylinder's, or a cap's, where the axis parameter is clamped to an end).
    Vec3<T> radial(T t, T s) const { return fa + t * d - glm::clamp(s, T(0), length) * ab; }
    /// The outward normal at t: radial() made unit by normalize_known_length() (its length is r up
    /// to rounding, so no square root or division), or the direction's fallback for a segment.
    Vec3<T> at(T t, bool exit) const {
        if (r == T(0)) return normalize_or(exit ? d : -d, Vec3<T>(T(0), T(0), T(1)));
        const T s = abab > T(0) ? (fa_ab + t * d_ab) / abab : T(0);
        return normalize_known_length(radial(t, s), inv_r, exit ? d : -d);
    }
    /// at(t0, false) and at(t1, true), bit for bit, the two axis parameters in one vector division
    /// (see divide_pair).
    void pair(T t0, T t1, Vec3<T>& n0, Vec3<T>& n1) const {
        if (r == T(0) || !(abab > T(0))) {
            n0 = at(t0, false);
            n1 = at(t1, true);
            return;
        }
        T s0, s1;
        divide_pair(fa_ab + t0 * d_ab, abab, fa_ab + t1 * d_ab, abab, s0, s1);
        n0 = normalize_known_length(radial(t0, s0), inv_r, -d);
        n1 = normalize_known_length(radial(t1, s1), inv_r, d);
    }
    /// Whether at() is accurate in T for a point on the capsule: fa, the axis and the radius below
    /// max / 8 (then t d, which is the point minus the origin, and fa + t d - s ab do not overflow),
    /// fa.ab finite, and the radius (the size of the vector at() normalises) not so small that the
    /// vector is formed from subnormals. Otherwise (coordinates near T's largest value, or origin -
    /// a overflowed, where at() gave a wrong or the fallback normal; a capsule of subnormal size,
    /// off by 1e-3) cast() and pick() use capsule_normal_wide().
    bool in_range() const {
        const T big = std::numeric_limits<T>::max() / T(8);
        return every(max_abs(fa) <= big, max_abs(ab) * length <= big, r <= big,
                     std::abs(fa_ab) <= std::numeric_limits<T>::max(), r >= safe_min<T>() || r == T(0));
    }
    Vec3<T> d, ab, fa;
    T abab, fa_ab, d_ab, r, inv_r, length;
};

/// CapsuleNormals::at() computed in WideT<T> and rounded back (still unit to T's precision), for
/// inputs outside CapsuleNormals::in_range().
template <typename T>
[[gnu::noinline, gnu::cold]] Vec3<T> capsule_normal_wide(const Ray<T>& ray, const Capsule<T>& capsule, T t, bool exit) {
    const Ray<WideT<T>> rw = widen(ray);
    const Capsule<WideT<T>> cw = widen(capsule);
    return Vec3<T>(CapsuleNormals<WideT<T>>(rw, cw, CapsuleAxis<WideT<T>>(cw)).at(WideT<T>(t), exit));
}

/// cast()'s decision and passage for a capsule with a != b, shared with pick(). Validation only for
/// a passage that would be a hit: a miss is the answer for invalid input too, and passage()
/// computes without fault on any input (non-finite values only make it miss or return garbage
/// that the validation then rejects).
/// A Fast passage needs four comparisons in place of the full validation (some 75 instructions, a
/// tenth of a hit's cost): the radius' sign, 0 < d.d <= max and t_min <= t_max. The rest is
/// implied by the lateral problem's fast range: D.D and F.F + (ab.ab r)^2 finite and D.D >= lo, with
/// D = (ab.ab) d - (d.ab) ab, F = (ab.ab) fa - (fa.ab) ab, ab = CapsuleAxis::u non-zero (a != b,
/// and x - y is 0 only for x == y). A non-finite component of fa (origin or a not finite) makes
/// fa.ab non-finite, hence F (at a component where ab is non-zero); one of ab (a or b not
/// finite) makes ab.ab infinite or NaN, hence D (d is non-zero or D is NaN); one of d makes d.ab
/// and D non-finite; a non-finite radius makes the sum non-finite; and D.D >= lo means d != 0. (A
/// finite origin - a or b - a that overflowed is a valid input outside the fast range: Passage.)
/// But d != 0 is not d.d > 0: a long axis (ab.ab up to 2^2k) scales a direction whose square
/// underflows to 0, which the contract calls a zero direction, into D's range (d of 2.8e-173
/// per axis, b - a of 6.7e65: a fuzz regression input), so both ends of d.d are tested.
/// The caller has already tested capsule_clear_miss().
template <typename T>
[[gnu::always_inline]] inline bool capsule_accepted(const Ray<T>& ray, const Capsule<T>& capsule, T t_min, T t_max,
                                                    T& t_near, T& t_far) {
    const CapsuleFound found = capsule_passage(ray, capsule, t_near, t_far);
    if (found == CapsuleFound::Miss || !accepts(t_near, t_far, t_min, t_max)) return false;
    if (__builtin_expect(found == CapsuleFound::Fast, 1)) {
        const T dd = glm::dot(ray.direction, ray.direction);
        return every(capsule.radius >= T(0), dd > T(0), dd <= std::numeric_limits<T>::max(), valid_range(t_min, t_max));
    }
    return every(is_valid(ray), is_valid(capsule), valid_range(t_min, t_max));
}

}  // namespace detail

/// Ray against capsule, robust default.
///
/// The capsule is the union of the two end balls and the finite cylinder between them; it is
/// convex, so the line enters it at the earliest entry of the three parts and leaves at the
/// latest exit. The cylinder contributes only crossings of its lateral surface whose axial
/// position lies within the segment (its flat cap discs are inside the end balls); a ball is tested
/// only where the line crosses the cylinder beyond its end (see detail::passage). Each part uses
/// the stable quadratic of the sphere test (the cylinder's in the plane perpendicular to the axis).
///
/// - `ray.direction` does not need to be normalised; t is in units of it.
/// - Entry and exit with outward normals on the cylinder or on either cap (see RayHit).
/// - Ray parallel to the axis: never crosses the lateral surface; enters and leaves through the
///   caps (or misses) — no division by zero, no special "infinite solutions" case.
/// - a == b: exactly cast(ray, Sphere{a, radius}).
/// - A capsule entirely behind the origin is a miss ("Useless Snippet #5: Ray/Capsule intersection
///   test" reports it as a hit; its comment thread points that out).
/// - Origin inside: t_near < 0 < t_far, origin_inside = true; first_surface() gives the exit.
/// - Radius 0 (a segment): hit only if the line meets the segment exactly; normals -/+unit(dir).
/// - Invalid input or t_min > t_max: no hit; never NaN.
template <typename T>
[[gnu::always_inline]] inline std::optional<RayHit<T>> cast(const Ray<T>& ray, const Capsule<T>& capsule, T t_min = T(0),
                              T t_max = infinity<T>()) {
    // The common miss first: it never holds for a == b (ab = 0), so the sphere's test comes after.
    if (detail::capsule_clear_miss(ray, capsule)) return std::nullopt;
    if (capsule.a == capsule.b) return cast(ray, Sphere<T>{capsule.a, capsule.radius}, t_min, t_max);
    std::optional<RayHit<T>> hit;  // built in place (see emplace_hit)
    T t_near, t_far;
    if (!detail::capsule_accepted(ray, capsule, t_min, t_max, t_near, t_far)) return hit;
    const detail::CapsuleNormals<T> normals(ray, capsule, detail::CapsuleAxis<T>(capsule));
    // accepts() held above and at() never returns a non-finite vector.
    Vec3<T> n_near, n_far;
    if (__builtin_expect(normals.in_range(), 1)) {
        normals.pair(t_near, t_far, n_near, n_far);
    } else {
        n_near = detail::capsule_normal_wide(ray, capsule, t_near, false);
        n_far = detail::capsule_normal_wide(ray, capsule, t_far, true);
    }
    detail::emplace_hit(hit, t_near, t_far, n_near, n_far);
    return hit;
}

/// Picking a capsule: first_surface() of cast()'s hit, bit for bit (the entry, or the exit when the
/// origin is inside or t_min is past the entry; empty on a miss or when the whole range lies
/// inside), but only that surface point's normal is computed (CapsuleNormals::at, which pair()
/// equals bit for bit).
template <typename T>
[[gnu::always_inline]] inline std::optional<SurfaceHit<T>> pick(const Ray<T>& ray, const Capsule<T>& capsule,
                                                                 T t_min = T(0), T t_max = infinity<T>()) {
    if (detail::capsule_clear_miss(ray, capsule)) return std::nullopt;  // never for a == b, see cast()
    if (capsule.a == capsule.b) return pick(ray, Sphere<T>{capsule.a, capsule.radius}, t_min, t_max);
    std::optional<SurfaceHit<T>> out;  // built in place (see emplace_surface)
    T t_near, t_far;
    if (!detail::capsule_accepted(ray, capsule, t_min, t_max, t_near, t_far)) return out;
    const detail::CapsuleNormals<T> normals(ray, capsule, detail::CapsuleAxis<T>(capsule));
    detail::emplace_surface(out, ray, t_near, t_far, t_min, t_max, [&](T t, bool exit) {
        return __builtin_expect(normals.in_range(), 1) ? normals.at(t, exit) : detail::capsule_normal_wide(ray, capsule, t, exit);
    });
    return out;
}

}  // namespace raypick
