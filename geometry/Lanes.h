// raypick geometry: a 4-lane vector of T (GCC/clang vector extensions) for the scalar casts' own
// arithmetic: x, y and z in lanes 0..2 so that three per-axis divisions cost one vector
// instruction instead of three. IEEE division and square root are correctly
// rounded lane by lane, so a lane holds exactly what the scalar operation would give.
// On x86-64 a float vector is one SSE register (a double vector two); other targets get whatever
// the compiler lowers the extensions to, scalar code at worst.
#pragma once

#include <cstdint>
#if defined(__AVX__)
#include <immintrin.h>  // lane_bits() uses an AVX movemask where the includer builds for AVX
#elif defined(__SSE2__)
#include <emmintrin.h>
#endif

#include <raypick/geometry/Math.h>

namespace raypick::detail {

template <typename T> struct Lanes4Of;
template <> struct Lanes4Of<float> {
    typedef float V __attribute__((vector_size(16)));
    typedef std::int32_t M __attribute__((vector_size(16)));
};
template <> struct Lanes4Of<double> {
    typedef double V __attribute__((vector_size(32)));
    typedef std::int64_t M __attribute__((vector_size(32)));
};
/// Four T values; comparisons give an M of all-ones (true) or zero lanes.
template <typename T> using Lanes4 = typename Lanes4Of<T>::V;
template <typename T> using Mask4 = typename Lanes4Of<T>::M;
// A double Lanes4 is 32 bytes: passed or returned by value it would travel in an AVX register with
// AVX enabled and in memory without, so translation units built with different flags would
// disagree on the calling convention (g++ -Wpsabi). The helpers below therefore take and give
// vectors by reference only.

/// v in lanes 0..2, w in lane 3.
template <typename T> inline void load(const Vec3<T>& v, T w, Lanes4<T>& out) { out = Lanes4<T>{v.x, v.y, v.z, w}; }

/// a in lanes 0..2 by one load of the four Ts from &a.x: for a Vec3 that another T follows in
/// the same object (Ray::origin, Aabb::min), which the caller asserts. Lane 3 is that T.
template <typename T> inline void load_followed(const Vec3<T>& a, Lanes4<T>& out) {
    __builtin_memcpy(&out, &a.x, sizeof out);
}
/// b in lanes 0..2 by one load of the four Ts ending at &b.z and one shuffle: for a Vec3 that
/// another T precedes in the same object (Ray::direction, Aabb::max), which the caller asserts.
/// Lane 3 is a copy of b.z.
template <typename T> inline void load_preceded(const Vec3<T>& b, Lanes4<T>& out) {
    Lanes4<T> v;
    __builtin_memcpy(&v, &b.x - 1, sizeof v);
    out = __builtin_shufflevector(v, v, 1, 2, 3, 3);
}

/// Bit i set iff lane i of m is true (movmskps / movmskpd on x86-64).
inline unsigned lane_bits(const Mask4<float>& m) {
#if defined(__SSE2__)
    return unsigned(_mm_movemask_ps(__m128(m)));
#else
    return (m[0] ? 1u : 0u) | (m[1] ? 2u : 0u) | (m[2] ? 4u : 0u) | (m[3] ? 8u : 0u);
#endif
}
inline unsigned lane_bits(const Mask4<double>& m) {
#if defined(__AVX__)
    return unsigned(_mm256_movemask_pd(__m256d(m)));
#elif defined(__SSE2__)
    __m128d lo, hi;
    static_assert(sizeof m == 2 * sizeof lo);
    __builtin_memcpy(&lo, &m, sizeof lo);
    __builtin_memcpy(&hi, reinterpret_cast<const char*>(&m) + sizeof lo, sizeof hi);
    return unsigned(_mm_movemask_pd(lo)) | unsigned(_mm_movemask_pd(hi)) << 2;
#else
    return (m[0] ? 1u : 0u) | (m[1] ? 2u : 0u) | (m[2] ? 4u : 0u) | (m[3] ? 8u : 0u);
#endif
}

/// The largest (smallest) of lanes 0..2 of v (no NaN lanes), with the bits of the lowest lane
/// among equal values (-0 and +0 compare equal): the result of the loop m = v[0]; m = v[i] > m ?
/// v[i] : m for i = 1, 2, in vector registers (maxps and minps have exactly these semantics).
template <typename T> inline T first_max_xyz(const Lanes4<T>& v) {
    const Lanes4<T> y = __builtin_shufflevector(v, v, 1, 1, 1, 1), z = __builtin_shufflevector(v, v, 2, 2, 2, 2);
    const Lanes4<T> xy = y > v ? y : v;
    return (z > xy ? z : xy)[0];
}
template <typename T> inline T first_min_xyz(const Lanes4<T>& v) {
    const Lanes4<T> y = __builtin_shufflevector(v, v, 1, 1, 1, 1), z = __builtin_shufflevector(v, v, 2, 2, 2, 2);
    const Lanes4<T> xy = y < v ? y : v;
    return (z < xy ? z : xy)[0];
}

/// One 16-byte vector of T (4 floats or 2 doubles), V, and of integers as wide as T, I (what
/// comparisons of V give).
template <typename T> struct Vec16Of;
template <> struct Vec16Of<float> {  // Lanes4<float> is one already
    using V = Lanes4Of<float>::V;
    using I = Lanes4Of<float>::M;
};
template <> struct Vec16Of<double> {
    typedef double V __attribute__((vector_size(16)));
    typedef std::int64_t I __attribute__((vector_size(16)));
};

/// Two T values in one 16-byte vector (float: lanes 0 and 1 of four; double: both lanes), for the
/// scalar casts' pairs of independent divisions and square roots (entry and exit): one vector
/// instruction occupies the divider once instead of twice, and each lane holds exactly the
/// correctly rounded scalar result.
template <typename T> struct PairOf;
template <> struct PairOf<float> {
    using V = Lanes4<float>;  // one SSE register
    static V make(float a, float b) { return V{a, b, a, b}; }
    static V sqrt(const V& v) {
#if defined(__SSE2__)
        return V(_mm_sqrt_ps(__m128(v)));
#else
        return V{std::sqrt(v[0]), std::sqrt(v[1]), std::sqrt(v[2]), std::sqrt(v[3])};
#endif
    }
};
template <> struct PairOf<double> {
    using V = Vec16Of<double>::V;
    static V make(double a, double b) { return V{a, b}; }
    static V sqrt(const V& v) {
#if defined(__SSE2__)
        return V(_mm_sqrt_pd(__m128d(v)));
#else
        return V{std::sqrt(v[0]), std::sqrt(v[1])};
#endif
    }
};

/// q0 = x0 / y0 and q1 = x1 / y1, in one vector division.
template <typename T> inline void divide_pair(T x0, T y0, T x1, T y1, T& q0, T& q1) {
    using P = PairOf<T>;
    const typename P::V q = P::make(x0, x1) / P::make(y0, y1);
    q0 = q[0];
    q1 = q[1];
}

/// a / b component by component, in one vector division: each component is the correctly
/// rounded scalar quotient (1 / 0 is +-inf). The divisions of a pick's set-up are on the path to
/// its first node test, and one vector division leaves the divider three times sooner.
template <typename T> inline Vec3<T> quotient(const Vec3<T>& a, const Vec3<T>& b) {
    Lanes4<T> x, y;
    load(a, T(1), x);
    load(b, T(1), y);
    const Lanes4<T> q = x / y;
    return {q[0], q[1], q[2]};
}

/// sqrt of every lane of v, in vector instructions (one for floats, two for doubles without AVX).
inline void sqrt_lanes(const Lanes4<float>& v, Lanes4<float>& out) { out = PairOf<float>::sqrt(v); }
inline void sqrt_lanes(const Lanes4<double>& v, Lanes4<double>& out) {
    using P = PairOf<double>::V;
    const P lo{v[0], v[1]}, hi{v[2], v[3]};
    const P a = PairOf<double>::sqrt(lo), b = PairOf<double>::sqrt(hi);
    out = Lanes4<double>{a[0], a[1], b[0], b[1]};
}

/// Whether lanes 0..2 of m are all true.
template <typename T> inline bool all_xyz(const Mask4<T>& m) { return (lane_bits(m) & 7u) == 7u; }

/// The sign bit of every lane of v, the other bits zero.
template <typename T> inline void sign_bits(const Lanes4<T>& v, Mask4<T>& out) {
    out = Mask4<T>(v) & Mask4<T>(-Lanes4<T>{});
}

/// The four lanes of v to out[0..3], and back.
template <typename T> inline void store(const Lanes4<T>& v, T (&out)[4]) { __builtin_memcpy(out, &v, sizeof v); }
template <typename T> inline void load(const T (&a)[4], Lanes4<T>& out) { __builtin_memcpy(&out, a, sizeof out); }

}  // namespace raypick::detail
