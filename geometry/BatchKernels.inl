// raypick geometry: the batch kernels, written once with GCC vector extensions and compiled several
// times — in namespace batch_sse2 (BatchSse2.h: 4 floats / 2 doubles per vector, any x86-64), by
// Batch.cpp in namespace batch_avx2 under `#pragma GCC target("avx2")` (8 floats / 4 doubles)
// and in batch_avx512 under the AVX-512 target (16 floats / 8 doubles), and by BvhWalk.inl in each
// of the BVH walk's builds (bvh_walk_*::leaf_kernels, 4 floats / 2 doubles, for the leaves).
// Before including, the includer defines kFloatLanes and kDoubleLanes in the enclosing namespace.
//
// Every kernel performs the scalar cast()'s arithmetic in the same order, lane by lane, with every
// branch turned into a select: IEEE add/sub/mul/div/sqrt are correctly rounded in SIMD as in
// scalar code, so results are bit-for-bit equal. Do not reassociate anything here.

template <typename T> struct Simd;
template <> struct Simd<float> {
    static constexpr int W = kFloatLanes;
    typedef float V __attribute__((vector_size(kFloatLanes * 4)));
    typedef std::int32_t M __attribute__((vector_size(kFloatLanes * 4)));
    static constexpr std::int32_t kSign = std::numeric_limits<std::int32_t>::min();
};
template <> struct Simd<double> {
    static constexpr int W = kDoubleLanes;
    typedef double V __attribute__((vector_size(kDoubleLanes * 8)));
    typedef std::int64_t M __attribute__((vector_size(kDoubleLanes * 8)));
    static constexpr std::int64_t kSign = std::numeric_limits<std::int64_t>::min();
};

template <typename T> using VecT = typename Simd<T>::V;
template <typename T> using MaskT = typename Simd<T>::M;

/// x in every lane, bit for bit: not VecT<T>{} + x, which turns -0 into +0 (0 + -0 = +0) and so
/// broke bit-identity with the scalar code for a -0 ray component (found by fuzz_bvh). The integer
/// sum 0 + bits(x) is exact and compiles to one broadcast (a lane-by-lane loop did not).
template <typename T> inline VecT<T> splat(T x) {
    using I = std::conditional_t<sizeof(T) == 4, std::int32_t, std::int64_t>;
    I bits;
    std::memcpy(&bits, &x, sizeof bits);
    return (VecT<T>)(MaskT<T>{} + bits);
}

/// Lanes p[i .. i+W), or for a partial tail, p[i .. i+count) then copies of p[i].
template <typename T> inline VecT<T> load(const T* p, std::size_t i, std::size_t count) {
    VecT<T> v;
    if (count >= std::size_t(Simd<T>::W)) {
        std::memcpy(&v, p + i, sizeof v);
    } else {
        for (int l = 0; l < Simd<T>::W; ++l) v[l] = p[i + (std::size_t(l) < count ? std::size_t(l) : 0)];
    }
    return v;
}

template <typename T> inline VecT<T> vsqrt(VecT<T> x) {
    constexpr int bytes = Simd<T>::W * int(sizeof(T));
    constexpr bool f = std::is_same_v<T, float>;
    if constexpr (bytes == 16) {
        if constexpr (f) return (VecT<T>)_mm_sqrt_ps((__m128)x);
        else return (VecT<T>)_mm_sqrt_pd((__m128d)x);
    } else if constexpr (bytes == 32) {
        if constexpr (f) return (VecT<T>)_mm256_sqrt_ps((__m256)x);
        else return (VecT<T>)_mm256_sqrt_pd((__m256d)x);
    } else {
        if constexpr (f) return (VecT<T>)_mm512_maskz_sqrt_ps(__mmask16(0xffff), (__m512)x);  // maskz: GCC 12's unmasked form warns
        else return (VecT<T>)_mm512_maskz_sqrt_pd(__mmask8(0xff), (__m512d)x);
    }
}
template <typename T> inline VecT<T> vabs(VecT<T> x) { return (VecT<T>)((MaskT<T>)x & ~Simd<T>::kSign); }
template <typename T> inline VecT<T> vcopysign(VecT<T> mag, VecT<T> sgn) {
    return (VecT<T>)(((MaskT<T>)mag & ~Simd<T>::kSign) | ((MaskT<T>)sgn & Simd<T>::kSign));
}
/// vcopysign(mag, sgn) for a mag whose sign bit is clear (a square root of +0 or more): one or.
template <typename T> inline VecT<T> vcopysign_nonneg(VecT<T> mag, VecT<T> sgn) {
    return (VecT<T>)((MaskT<T>)mag | ((MaskT<T>)sgn & Simd<T>::kSign));
}
template <typename T> inline VecT<T> sel(MaskT<T> m, VecT<T> a, VecT<T> b) { return m ? a : b; }
template <typename T> inline MaskT<T> finite3(VecT<T> x, VecT<T> y, VecT<T> z) {
    return x * T(0) + y * T(0) + z * T(0) == T(0);
}
template <typename T> inline MaskT<T> nonneg_finite(VecT<T> v) {
    return (v >= T(0)) & (v <= std::numeric_limits<T>::max());
}
template <typename T> inline MaskT<T> finite1(VecT<T> v) { return v - v == T(0); }
/// Whether any lane of m is set (lanes are all ones or all zeros).
template <typename T> inline bool any(MaskT<T> m) {
    constexpr int bytes = Simd<T>::W * int(sizeof(T));
    if constexpr (bytes == 16) return _mm_movemask_epi8((__m128i)m) != 0;
    else if constexpr (bytes == 32) return !_mm256_testz_si256((__m256i)m, (__m256i)m);
    else return _mm512_test_epi32_mask((__m512i)m, (__m512i)m) != 0;
}

/// detail::sphere_discriminant, lane-wise: a (r^2) - |f x d|^2 with a = d.d.
template <typename T>
inline VecT<T> discriminant(VecT<T> fx, VecT<T> fy, VecT<T> fz, VecT<T> dx, VecT<T> dy, VecT<T> dz, VecT<T> r) {
    const VecT<T> a = (dx * dx + dy * dy) + dz * dz;
    const VecT<T> cx = fy * dz - dy * fz, cy = fz * dx - dz * fx, cz = fx * dy - dx * fy;
    return a * (r * r) - ((cx * cx + cy * cy) + cz * cz);
}

/// detail::sphere_roots, lane-wise: ok, and t0 <= t1 where ok.
template <typename T>
inline void roots(VecT<T> fx, VecT<T> fy, VecT<T> fz, VecT<T> dx, VecT<T> dy, VecT<T> dz, VecT<T> r,
                  MaskT<T>& ok, VecT<T>& t0, VecT<T>& t1) {
    const VecT<T> a = (dx * dx + dy * dy) + dz * dz;
    const VecT<T> disc = discriminant<T>(fx, fy, fz, dx, dy, dz, r);
    ok = disc >= T(0);
    const VecT<T> bp = -((fx * dx + fy * dy) + fz * dz);
    // disc is never -0 (a (r^2) >= +0, and x - x = +0), so sq's sign bit is clear.
    const VecT<T> sq = vsqrt<T>(sel<T>(ok, disc, splat(T(0))));
    const VecT<T> sgn_sq = vcopysign_nonneg<T>(sq, bp);
    const VecT<T> q = bp + sgn_sq;
    const VecT<T> ff = (fx * fx + fy * fy) + fz * fz, rr = r * r;
    const VecT<T> c = ff - rr;
    // The better-conditioned form of the second root, as the scalar code chooses it.
    // Choose numerator and denominator first: one division, the same quotient as the scalar code.
    // q == 0 needs no case of its own, as in the scalar code: q^2 = 0 is not > a s, and both roots
    // are then (b' -/+ sqrt(disc)) / a = +0.
    const MaskT<T> by_c = q * q > a * (ff + rr);
    const VecT<T> ta = sel<T>(by_c, c, bp - sgn_sq) / sel<T>(by_c, q, a), tb = q / a;
    t0 = sel<T>(tb < ta, tb, ta);
    t1 = sel<T>(ta < tb, tb, ta);
}

/// detail::finish's acceptance test (the scalar normals are always finite).
template <typename T> inline MaskT<T> accept(VecT<T> tn, VecT<T> tf, T t_min, T t_max) {
    return (tn <= tf) & ~(tf < t_min) & ~(tn > t_max) & finite1<T>(tn) & finite1<T>(tf);
}

/// Where a batch cast writes its results: BatchHits' arrays, from the kernel's first entry.
template <typename T> struct HitsOut {
    T* t_near;
    T* t_far;
    std::uint8_t* hit;
};

template <typename T>
inline void store(const HitsOut<T>& out, std::size_t k, std::size_t count, VecT<T> tn, VecT<T> tf, MaskT<T> hit) {
    if (count >= std::size_t(Simd<T>::W)) {  // a whole group: vector stores
        std::memcpy(out.t_near + k, &tn, sizeof tn);
        std::memcpy(out.t_far + k, &tf, sizeof tf);
        constexpr int bytes = Simd<T>::W * int(sizeof(T));
        if constexpr (bytes == 32 && sizeof(T) == 4) {
            // AVX2, eight 32-bit lanes to eight bytes with two packs (g++ 12 lowers the generic
            // conversion below to some forty scalar extractions, shifts and ors here).
            const __m128i w = _mm_packs_epi32(_mm256_castsi256_si128((__m256i)hit), _mm256_extracti128_si256((__m256i)hit, 1));
            const __m128i b = _mm_and_si128(_mm_packs_epi16(w, w), _mm_set1_epi8(1));
            _mm_storel_epi64(reinterpret_cast<__m128i*>(out.hit + k), b);
        } else {
            // Lanes to bytes in one conversion (a pack or vpmovdb/vpmovqb), not W extractions.
            typedef std::uint8_t Bytes __attribute__((vector_size(Simd<T>::W)));
            const Bytes b = __builtin_convertvector(hit & 1, Bytes);
            std::memcpy(out.hit + k, &b, sizeof b);
        }
        return;
    }
    for (std::size_t l = 0; l < count; ++l) {
        out.t_near[k + l] = tn[l];
        out.t_far[k + l] = tf[l];
        out.hit[k + l] = hit[l] != 0;
    }
}

/// Lanes where detail::sphere_roots_at() leaves its safe range for (f, d, r), i.e. where
/// detail::in_safe_range_sq(d.d, f.f + r^2) fails, the sums formed as the scalar code forms them:
/// the scalar code computes them in a wider type, so they are recomputed by the scalar passage.
template <typename T>
inline MaskT<T> unsafe_roots(VecT<T> fx, VecT<T> fy, VecT<T> fz, VecT<T> r, VecT<T> dx, VecT<T> dy, VecT<T> dz) {
    const VecT<T> a = (dx * dx + dy * dy) + dz * dz, s = ((fx * fx + fy * fy) + fz * fz) + r * r;
    const T lo = detail::safe_sq_min<T>(), hi = detail::safe_sq_max<T>();
    return ~((a >= lo) & (s >= lo) & (a * s <= hi));
}

/// Lanes whose axis the scalar CapsuleAxis rescales: ab.ab outside [2^-2k, 2^2k] (or NaN).
template <typename T> inline MaskT<T> unsafe_axis(VecT<T> abab) {
    const T lo = detail::safe_sq_min<T>(), hi = detail::safe_axis_sq_max<T>();
    return ~((abab >= lo) & (abab <= hi));
}

/// Lane l of (t0, t1, hit) from the scalar code for shape `shape`: exactly cast()'s acceptance and
/// t values. Used for lanes whose magnitudes leave the vector code's safe range.
template <typename T, typename S>
inline void scalar_lane(const Ray<T>& ray, const S& shape, T t_min, T t_max, int l, VecT<T>& t0, VecT<T>& t1,
                        MaskT<T>& hit) {
    T a = T(0), b = T(0);
    const bool h = detail::accepted_passage(ray, shape, t_min, t_max, a, b);
    t0[l] = a;
    t1[l] = b;
    hit[l] = h ? -1 : 0;
}

/// The rays of a group's lanes, for the kernels below: one ray in every lane (a ray against many
/// shapes), or lanes i .. i+W of rays stored structure-of-arrays (many rays against one shape).
/// Each hands out its components as vectors where they are used, and lane l's ray bit for bit.
template <typename T> struct OneRay {
    static constexpr bool kUniform = true;
    const Ray<T>& r;
    VecT<T> ox() const { return splat(r.origin.x); }
    VecT<T> oy() const { return splat(r.origin.y); }
    VecT<T> oz() const { return splat(r.origin.z); }
    VecT<T> dx() const { return splat(r.direction.x); }
    VecT<T> dy() const { return splat(r.direction.y); }
    VecT<T> dz() const { return splat(r.direction.z); }
    const Ray<T>& ray(int) const { return r; }
};
template <typename T> struct RaySoA {
    static constexpr bool kUniform = false;
    const T* const* o;  ///< o[axis][ray]: origins
    const T* const* d;  ///< d[axis][ray]: directions
    std::size_t i;      ///< lane 0's ray; rays i .. i+W must exist
    VecT<T> ox() const { return load(o[0], i, std::size_t(Simd<T>::W)); }
    VecT<T> oy() const { return load(o[1], i, std::size_t(Simd<T>::W)); }
    VecT<T> oz() const { return load(o[2], i, std::size_t(Simd<T>::W)); }
    VecT<T> dx() const { return load(d[0], i, std::size_t(Simd<T>::W)); }
    VecT<T> dy() const { return load(d[1], i, std::size_t(Simd<T>::W)); }
    VecT<T> dz() const { return load(d[2], i, std::size_t(Simd<T>::W)); }
    Ray<T> ray(int l) const {
        const std::size_t k = i + std::size_t(l);
        return {{o[0][k], o[1][k], o[2][k]}, {d[0][k], d[1][k], d[2][k]}};
    }
};

/// Lanes whose shape or ray leaves the vector code's safe range, each recomputed by the scalar code:
/// shape `shape_of(l)` against lane l's ray, for the first n lanes.
template <typename T, typename R, typename ShapeOf>
inline void fix_unsafe(const R& rays, int n, const ShapeOf& shape_of, MaskT<T> bad, T t_min, T t_max,
                       VecT<T>& t0, VecT<T>& t1, MaskT<T>& hit) {
    for (int l = 0; l < n; ++l)
        if (bad[l]) scalar_lane(rays.ray(l), shape_of(l), t_min, t_max, l, t0, t1, hit);
}

/// A fix-up left for later: the kernel only reports its lanes in `bad` (which the caller sets to
/// no lanes first, as a kernel that returns early reports nothing).
template <typename T> struct DeferredFix {
    MaskT<T>& bad;
};
/// fix(bad, ...) where some lane needs it; a DeferredFix records the lanes, without a branch.
template <typename T, typename Fix>
inline void apply_fix(const Fix& fix, MaskT<T> bad, VecT<T>& t0, VecT<T>& t1, MaskT<T>& hit) {
    if constexpr (std::is_same_v<Fix, DeferredFix<T>>) fix.bad = bad;
    else if (any<T>(bad)) fix(bad, t0, t1, hit);
}

// The kernels, one per shape type: W lanes of (ray, shape) pairs, the rays as OneRay or RaySoA, the
// shapes' fields in vectors. Returns the hit mask and t_near, t_far per lane, bit for bit those of
// cast(); lanes the vector code cannot take (magnitudes outside its safe range) are handed to
// fix(bad, t0, t1, hit), which recomputes them with the scalar code. Two callers each: one ray
// against W shapes of a structure-of-arrays view (*_group, below), and W rays against one shape
// (cast_rays: the ray bundles of the BVH's leaves).

template <typename T, typename R, typename Fix>
inline MaskT<T> sphere_lanes(const R& ray, VecT<T> cx, VecT<T> cy, VecT<T> cz, VecT<T> r, T t_min, T t_max,
                             VecT<T>& t0, VecT<T>& t1, const Fix& fix) {
    const VecT<T> dx = ray.dx(), dy = ray.dy(), dz = ray.dz();
    MaskT<T> ok;
    const VecT<T> fx = ray.ox() - cx, fy = ray.oy() - cy, fz = ray.oz() - cz;
    // The lanes the scalar cast's fast path sends to its general path (detail::sphere_fast_line's
    // gate: a >= lo, r >= safe_min, a s <= hi) go to the scalar code, which decides them. The gate
    // implies is_valid(Sphere) for the lanes the vector code keeps: a centre or radius that is not
    // finite makes a s infinite or NaN, and r >= safe_min rules out a negative or NaN radius; it
    // also implies s >= lo (s >= r^2 >= safe_min^2), the range's lower bound. A point or a tinier
    // radius is left to the scalar code too, as in cast().
    const VecT<T> a = (dx * dx + dy * dy) + dz * dz, s = ((fx * fx + fy * fy) + fz * fz) + r * r;
    const MaskT<T> bad = ~((a >= detail::safe_sq_min<T>()) & (r >= detail::safe_min<T>()) & (a * s <= detail::safe_sq_max<T>()));
    // The common miss, as in the scalar cast(): no lane's line meets its sphere (and none is
    // left to the scalar code). Then nothing more is computed (a miss's t values mean nothing).
    // Only at four lanes or fewer (the BVH's leaves, SSE2): with 16 some lane nearly always
    // meets its sphere where shapes lie near the ray, and the test costs more than it saves.
    if constexpr (Simd<T>::W <= 4) {
        if (!any<T>((discriminant<T>(fx, fy, fz, dx, dy, dz, r) >= T(0)) | bad)) {
            t0 = t1 = splat(T(0));
            return MaskT<T>{};
        }
    }
    roots<T>(fx, fy, fz, dx, dy, dz, r, ok, t0, t1);
    // detail::accepts_finite(), as the scalar fast path: a lane inside the safe range has finite,
    // ordered roots; any other is `bad`, and the scalar code decides it.
    MaskT<T> hit = ok & ~(t1 < t_min) & ~(t0 > t_max) & (splat(t_min) <= t_max);
    apply_fix<T>(fix, bad, t0, t1, hit);
    return hit;
}

template <typename T>
inline void slab(VecT<T> o, VecT<T> d, VecT<T> lo, VecT<T> hi, MaskT<T>& ok, VecT<T>& tn, VecT<T>& tf) {
    const MaskT<T> zero = d == T(0);
    ok = ok & (~zero | ((o >= lo) & (o <= hi)));
    const VecT<T> t_lo = (lo - o) / d, t_hi = (hi - o) / d;
    const MaskT<T> pos = d > T(0);
    const VecT<T> enter = sel<T>(zero, splat(-std::numeric_limits<T>::infinity()), sel<T>(pos, t_lo, t_hi));
    const VecT<T> leave = sel<T>(zero, splat(std::numeric_limits<T>::infinity()), sel<T>(pos, t_hi, t_lo));
    tn = sel<T>(enter > tn, enter, tn);
    tf = sel<T>(leave < tf, leave, tf);
}

/// slab() for a direction component d shared by every lane (a ray against many boxes): the same
/// arithmetic, with the zero and sign tests made once instead of as per-lane selects.
template <typename T>
inline void slab_uniform(VecT<T> o, T d, VecT<T> lo, VecT<T> hi, MaskT<T>& ok, VecT<T>& tn, VecT<T>& tf) {
    if (d == T(0)) {  // entry -inf and exit +inf change nothing; outside the slab is a miss
        ok = ok & ((o >= lo) & (o <= hi));
        return;
    }
    const VecT<T> dv = splat(d);
    const VecT<T> t_lo = (lo - o) / dv, t_hi = (hi - o) / dv;
    const VecT<T> enter = d > T(0) ? t_lo : t_hi, leave = d > T(0) ? t_hi : t_lo;
    tn = sel<T>(enter > tn, enter, tn);
    tf = sel<T>(leave < tf, leave, tf);
}

template <typename T> inline MaskT<T> slab_accept(MaskT<T> ok, VecT<T> tn, VecT<T> tf, T t_min, T t_max) {
    const T inf = std::numeric_limits<T>::infinity();
    return ok & (tn > -inf) & (tf < inf) & accept<T>(tn, tf, t_min, t_max);
}

/// The AABB kernel needs no scalar fallback (slabs have no unsafe range).
template <typename T, typename R>
inline MaskT<T> aabb_lanes(const R& ray, VecT<T> lx, VecT<T> ly, VecT<T> lz, VecT<T> hx, VecT<T> hy,
                           VecT<T> hz, T t_min, T t_max, VecT<T>& tn, VecT<T>& tf) {
    const T inf = std::numeric_limits<T>::infinity();
    MaskT<T> ok = finite3<T>(lx, ly, lz) & finite3<T>(hx, hy, hz) & (lx <= hx) & (ly <= hy) & (lz <= hz);
    tn = splat(-inf);
    tf = splat(inf);
    if constexpr (R::kUniform) {
        const Vec3<T>& d = ray.ray(0).direction;
        slab_uniform<T>(ray.ox(), d.x, lx, hx, ok, tn, tf);
        slab_uniform<T>(ray.oy(), d.y, ly, hy, ok, tn, tf);
        slab_uniform<T>(ray.oz(), d.z, lz, hz, ok, tn, tf);
    } else {
        slab<T>(ray.ox(), ray.dx(), lx, hx, ok, tn, tf);
        slab<T>(ray.oy(), ray.dy(), ly, hy, ok, tn, tf);
        slab<T>(ray.oz(), ray.dz(), lz, hz, ok, tn, tf);
    }
    return slab_accept<T>(ok, tn, tf, t_min, t_max);
}

/// Rotation columns (box axes u, v, w), centre and half extents of an OBB in vectors, and which
/// lanes hold a valid box (is_valid(Obb), computed once when the box was stored: ObbView::valid).
template <typename T> struct ObbLanes {
    VecT<T> ux, uy, uz, vx, vy, vz, wx, wy, wz, hx, hy, hz, cx, cy, cz;
    MaskT<T> valid;
};

template <typename T, typename R>
__attribute__((always_inline)) inline MaskT<T> obb_lanes(const R& ray, const ObbLanes<T>& b, T t_min, T t_max, VecT<T>& tn, VecT<T>& tf) {
    const VecT<T> dx = ray.dx(), dy = ray.dy(), dz = ray.dz();
    const T inf = std::numeric_limits<T>::infinity();
    const VecT<T> ux = b.ux, uy = b.uy, uz = b.uz, vx = b.vx, vy = b.vy, vz = b.vz, wx = b.wx, wy = b.wy, wz = b.wz;
    const VecT<T> hx = b.hx, hy = b.hy, hz = b.hz, cx = b.cx, cy = b.cy, cz = b.cz;
    // An invalid box's lane may compute anything (NaN, infinities); `ok` drops it at the end.
    MaskT<T> ok = b.valid;
    // Into the box frame: rotation^T * (origin - centre), rotation^T * direction.
    const VecT<T> px = ray.ox() - cx, py = ray.oy() - cy, pz = ray.oz() - cz;
    const VecT<T> lox = (ux * px + uy * py) + uz * pz, loy = (vx * px + vy * py) + vz * pz, loz = (wx * px + wy * py) + wz * pz;
    const VecT<T> ldx = (ux * dx + uy * dy) + uz * dz, ldy = (vx * dx + vy * dy) + vz * dz, ldz = (wx * dx + wy * dy) + wz * dz;
    tn = splat(-inf);
    tf = splat(inf);
    slab<T>(lox, ldx, -hx, hx, ok, tn, tf);
    slab<T>(loy, ldy, -hy, hy, ok, tn, tf);
    slab<T>(loz, ldz, -hz, hz, ok, tn, tf);
    return slab_accept<T>(ok, tn, tf, t_min, t_max);
}

template <typename T, typename R, typename Fix>
inline MaskT<T> capsule_lanes(const R& ray, VecT<T> ax, VecT<T> ay, VecT<T> az, VecT<T> bx, VecT<T> by,
                              VecT<T> bz, VecT<T> r, T t_min, T t_max, VecT<T>& tn, VecT<T>& tf, const Fix& fix) {
    const VecT<T> dx = ray.dx(), dy = ray.dy(), dz = ray.dz();
    const T inf = std::numeric_limits<T>::infinity();
    const VecT<T> abx = bx - ax, aby = by - ay, abz = bz - az;
    const VecT<T> abab = (abx * abx + aby * aby) + abz * abz;
    const MaskT<T> segment = (ax != bx) | (ay != by) | (az != bz);  // a == b: exactly the sphere (a, r)
    const VecT<T> fax = ray.ox() - ax, fay = ray.oy() - ay, faz = ray.oz() - az;
    VecT<T> t0, t1;
    tn = splat(inf);
    tf = splat(-inf);
    MaskT<T> ok;
    // Lateral surface first (see detail::passage(Ray, Capsule)).
    const VecT<T> fa_ab = (fax * abx + fay * aby) + faz * abz;
    const VecT<T> d_ab = (dx * abx + dy * aby) + dz * abz;
    // ab.ab times the perpendicular parts, and the radius likewise scaled (no division).
    const VecT<T> fpx = abab * fax - fa_ab * abx, fpy = abab * fay - fa_ab * aby, fpz = abab * faz - fa_ab * abz;
    const VecT<T> dpx = abab * dx - d_ab * abx, dpy = abab * dy - d_ab * aby, dpz = abab * dz - d_ab * abz;
    const VecT<T> rp = abab * r;
    const MaskT<T> crosswise = segment & (((dpx * dpx + dpy * dpy) + dpz * dpz) > T(0));
    MaskT<T> bad = segment & (unsafe_roots<T>(fpx, fpy, fpz, rp, dpx, dpy, dpz) |
                              unsafe_axis<T>(abab));  // the scalar code rescales such an axis
    // The common miss, as in the scalar code: no lane's line meets its infinite cylinder, and no
    // lateral problem is left to the scalar code (the balls matter only to lines that meet it).
    // a == b lanes are never skipped (F = D = 0 and the discriminant 0, but 0 * inf is NaN when
    // origin - a overflows, and the scalar code then finds the sphere in its wide type: found by
    // fuzz_cast_float); a line parallel to the axis is always `bad`. Validation and the balls'
    // ranges come after it, for a hit's sake only.
    if (!any<T>((discriminant<T>(fpx, fpy, fpz, dpx, dpy, dpz, rp) >= T(0)) | bad | ~segment)) {
        tn = tf = splat(T(0));
        return MaskT<T>{};
    }
    bad |= unsafe_roots<T>(fax, fay, faz, r, dx, dy, dz) |
           unsafe_roots<T>(ray.ox() - bx, ray.oy() - by, ray.oz() - bz, r, dx, dy, dz);
    // is_valid(Capsule) for the lanes the vector code keeps: an end or radius that is not finite
    // makes |o - a|^2 + r^2 or |o - b|^2 + r^2 infinite or NaN, so the lane is `bad` and the
    // scalar code, which validates, decides it. (The early miss above can only report such a lane
    // as a miss, which is right.) Left: the radius' sign.
    const MaskT<T> valid = r >= T(0);
    roots<T>(fpx, fpy, fpz, dpx, dpy, dpz, rp, ok, t0, t1);
    const MaskT<T> lateral = crosswise & ok;
    // Axial positions times ab.ab; on the segment's stretch where 0 <= x <= ab.ab (L == 1 here: a
    // scaled axis is unsafe above).
    const VecT<T> x0 = fa_ab + t0 * d_ab, x1 = fa_ab + t1 * d_ab;
    const MaskT<T> in0 = (x0 >= T(0)) & (x0 <= abab), in1 = (x1 >= T(0)) & (x1 <= abab);
    const MaskT<T> below0 = x0 < T(0), below1 = x1 < T(0);
    VecT<T> a0, a1, b0, b1;
    MaskT<T> ok_a, ok_b;
    roots<T>(fax, fay, faz, dx, dy, dz, r, ok_a, a0, a1);
    roots<T>(ray.ox() - bx, ray.oy() - by, ray.oz() - bz, dx, dy, dz, r, ok_b, b0, b1);
    ok_b &= segment;  // a == b: only ball a, the sphere
    // Crosswise: each crossing off the stretch replaced by the entry or exit of the ball at that
    // end (a missed ball: no hit). Parallel to the axis (or a == b): the union of the balls.
    // Each ball's entry and exit, +inf and -inf where it is missed.
    const VecT<T> an = sel<T>(ok_a, a0, tn), af = sel<T>(ok_a, a1, tf);
    const VecT<T> bn = sel<T>(ok_b, b0, tn), bf = sel<T>(ok_b, b1, tf);
    const VecT<T> end_n = sel<T>(below0, an, bn), end_f = sel<T>(below1, af, bf);
    const VecT<T> union_n = sel<T>(bn < an, bn, an), union_f = sel<T>(bf > af, bf, af);
    tn = sel<T>(crosswise, sel<T>(lateral, sel<T>(in0, t0, end_n), tn), union_n);
    tf = sel<T>(crosswise, sel<T>(lateral, sel<T>(in1, t1, end_f), tf), union_f);
    MaskT<T> hit = valid & accept<T>(tn, tf, t_min, t_max);
    apply_fix<T>(fix, bad, tn, tf, hit);
    return hit;
}

// One ray against one group of W lanes: shapes [i, i + min(count, W)) of a view (Batch.h:
// pointers to the structure-of-arrays fields). With count >= W all W lanes are loaded from memory
// (the caller guarantees they exist); lanes at or beyond count are unspecified.

/// fix() for one ray against shapes i.. of view v.
template <typename T, typename View>
inline auto fix_group(const OneRay<T>& rays, const View& v, std::size_t i, std::size_t cnt, T t_min, T t_max) {
    return [&rays, &v, i, cnt, t_min, t_max](MaskT<T> bad, VecT<T>& t0, VecT<T>& t1, MaskT<T>& hit) {
        const int n = cnt < std::size_t(Simd<T>::W) ? int(cnt) : Simd<T>::W;
        fix_unsafe(rays, n, [&](int l) { return v.get(i + std::size_t(l)); }, bad, t_min, t_max, t0, t1, hit);
    };
}

/// The kernel of a view's shape type on shapes i.. of the view, with `fix` for unsafe lanes.
template <typename T, typename Fix>
inline MaskT<T> group_lanes(const OneRay<T>& rays, const SphereView<T>& s, std::size_t i, std::size_t cnt, T t_min,
                            T t_max, VecT<T>& t0, VecT<T>& t1, const Fix& fix) {
    return sphere_lanes<T>(rays, load(s.cx, i, cnt), load(s.cy, i, cnt), load(s.cz, i, cnt), load(s.r, i, cnt), t_min,
                           t_max, t0, t1, fix);
}
template <typename T, typename Fix>
inline MaskT<T> group_lanes(const OneRay<T>& rays, const AabbView<T>& b, std::size_t i, std::size_t cnt, T t_min,
                            T t_max, VecT<T>& tn, VecT<T>& tf, const Fix&) {
    return aabb_lanes<T>(rays, load(b.lx, i, cnt), load(b.ly, i, cnt), load(b.lz, i, cnt), load(b.hx, i, cnt),
                         load(b.hy, i, cnt), load(b.hz, i, cnt), t_min, t_max, tn, tf);
}
template <typename T, typename Fix>
__attribute__((always_inline)) inline MaskT<T> group_lanes(const OneRay<T>& rays, const ObbView<T>& b, std::size_t i, std::size_t cnt, T t_min,
                            T t_max, VecT<T>& tn, VecT<T>& tf, const Fix&) {
    // Columns (box axes): u = m[0..2], v = m[3..5], w = m[6..8].
    const ObbLanes<T> lanes{load(b.m[0], i, cnt), load(b.m[1], i, cnt), load(b.m[2], i, cnt),
                            load(b.m[3], i, cnt), load(b.m[4], i, cnt), load(b.m[5], i, cnt),
                            load(b.m[6], i, cnt), load(b.m[7], i, cnt), load(b.m[8], i, cnt),
                            load(b.hx, i, cnt),   load(b.hy, i, cnt),   load(b.hz, i, cnt),
                            load(b.cx, i, cnt),   load(b.cy, i, cnt),   load(b.cz, i, cnt),
                            load(b.valid, i, cnt) != T(0)};
    return obb_lanes<T>(rays, lanes, t_min, t_max, tn, tf);
}
template <typename T, typename Fix>
inline MaskT<T> group_lanes(const OneRay<T>& rays, const CapsuleView<T>& c, std::size_t i, std::size_t cnt, T t_min,
                            T t_max, VecT<T>& tn, VecT<T>& tf, const Fix& fix) {
    return capsule_lanes<T>(rays, load(c.ax, i, cnt), load(c.ay, i, cnt), load(c.az, i, cnt), load(c.bx, i, cnt),
                            load(c.by, i, cnt), load(c.bz, i, cnt), load(c.r, i, cnt), t_min, t_max, tn, tf, fix);
}

/// One ray against shapes i.. of a view, unsafe lanes fixed at once (the BVH's leaves).
template <typename T, typename View>
inline MaskT<T> group(const Ray<T>& ray, const View& v, std::size_t i, std::size_t cnt, T t_min, T t_max, VecT<T>& tn,
                      VecT<T>& tf) {
    const OneRay<T> rays{ray};
    return group_lanes<T>(rays, v, i, cnt, t_min, t_max, tn, tf, fix_group(rays, v, i, cnt, t_min, t_max));
}
template <typename T>
inline MaskT<T> sphere_group(const Ray<T>& ray, const SphereView<T>& s, std::size_t i, std::size_t cnt, T t_min,
                             T t_max, VecT<T>& t0, VecT<T>& t1) {
    return group<T>(ray, s, i, cnt, t_min, t_max, t0, t1);
}
template <typename T>
inline MaskT<T> aabb_group(const Ray<T>& ray, const AabbView<T>& b, std::size_t i, std::size_t cnt, T t_min,
                           T t_max, VecT<T>& tn, VecT<T>& tf) {
    return group<T>(ray, b, i, cnt, t_min, t_max, tn, tf);
}
template <typename T>
inline MaskT<T> obb_group(const Ray<T>& ray, const ObbView<T>& b, std::size_t i, std::size_t cnt, T t_min,
                          T t_max, VecT<T>& tn, VecT<T>& tf) {
    return group<T>(ray, b, i, cnt, t_min, t_max, tn, tf);
}
template <typename T>
inline MaskT<T> capsule_group(const Ray<T>& ray, const CapsuleView<T>& c, std::size_t i, std::size_t cnt, T t_min,
                              T t_max, VecT<T>& tn, VecT<T>& tf) {
    return group<T>(ray, c, i, cnt, t_min, t_max, tn, tf);
}

// W rays (RaySoA) against one shape: the shape's fields in every lane. Lanes
// of `lanes` (bit l: lane l) are the ones wanted: only those are handed to the scalar code when
// they leave the safe range; the others' results are unspecified.

template <typename T, typename S>
inline auto fix_rays(const RaySoA<T>& rays, unsigned lanes, const S& shape, T t_min, T t_max) {
    return [&rays, lanes, &shape, t_min, t_max](MaskT<T> bad, VecT<T>& t0, VecT<T>& t1, MaskT<T>& hit) {
        for (unsigned m = lanes; m; m &= m - 1) {
            const int l = __builtin_ctz(m);
            if (bad[l]) scalar_lane(rays.ray(l), shape, t_min, t_max, l, t0, t1, hit);
        }
    };
}

template <typename T>
inline MaskT<T> cast_rays(const RaySoA<T>& rays, unsigned lanes, const Sphere<T>& s, T t_min, T t_max, VecT<T>& t0,
                          VecT<T>& t1) {
    return sphere_lanes<T>(rays, splat(s.center.x), splat(s.center.y), splat(s.center.z), splat(s.radius), t_min,
                           t_max, t0, t1, fix_rays(rays, lanes, s, t_min, t_max));
}

template <typename T>
inline MaskT<T> cast_rays(const RaySoA<T>& rays, unsigned, const Aabb<T>& b, T t_min, T t_max, VecT<T>& tn,
                          VecT<T>& tf) {
    return aabb_lanes<T>(rays, splat(b.min.x), splat(b.min.y), splat(b.min.z), splat(b.max.x), splat(b.max.y),
                         splat(b.max.z), t_min, t_max, tn, tf);
}

/// An OBB with its validity known (is_valid(), or the flag stored with it in a BVH leaf), so that
/// the ray-bundle kernel does not check the rotation again for every group of rays.
template <typename T> struct CheckedObb {
    Obb<T> box;
    bool valid;
};

template <typename T>
inline MaskT<T> cast_rays(const RaySoA<T>& rays, unsigned, const CheckedObb<T>& checked, T t_min, T t_max,
                          VecT<T>& tn, VecT<T>& tf) {
    const Obb<T>& b = checked.box;
    const Mat3<T>& m = b.rotation;
    const ObbLanes<T> lanes{splat(m[0][0]),        splat(m[0][1]),        splat(m[0][2]),
                            splat(m[1][0]),        splat(m[1][1]),        splat(m[1][2]),
                            splat(m[2][0]),        splat(m[2][1]),        splat(m[2][2]),
                            splat(b.half_extents.x), splat(b.half_extents.y), splat(b.half_extents.z),
                            splat(b.center.x),     splat(b.center.y),     splat(b.center.z),
                            splat(checked.valid ? T(1) : T(0)) != T(0)};
    return obb_lanes<T>(rays, lanes, t_min, t_max, tn, tf);
}
template <typename T>
inline MaskT<T> cast_rays(const RaySoA<T>& rays, unsigned lanes, const Obb<T>& b, T t_min, T t_max, VecT<T>& tn,
                          VecT<T>& tf) {
    return cast_rays(rays, lanes, CheckedObb<T>{b, is_valid(b)}, t_min, t_max, tn, tf);
}

template <typename T>
inline MaskT<T> cast_rays(const RaySoA<T>& rays, unsigned lanes, const Capsule<T>& c, T t_min, T t_max,
                          VecT<T>& tn, VecT<T>& tf) {
    return capsule_lanes<T>(rays, splat(c.a.x), splat(c.a.y), splat(c.a.z), splat(c.b.x), splat(c.b.y), splat(c.b.z),
                            splat(c.radius), t_min, t_max, tn, tf, fix_rays(rays, lanes, c, t_min, t_max));
}

/// cast_batch()'s loop: one ray against shapes [begin, end) of `shapes`, results from out's entry 0,
/// `Step` groups of W shapes a step (1 or 2, see below).
template <int Step, typename T, typename SoA>
inline void kernel_loop(const Ray<T>& ray, const SoA& shapes, std::size_t begin, std::size_t end, T t_min, T t_max,
                        BatchHits<T>& out) {
    constexpr std::size_t W = std::size_t(Simd<T>::W);
    const auto view = shapes.view();
    // Local copies: the stores below cannot alias them, so the ray's broadcasts and the output
    // pointers stay in registers across groups instead of being reloaded.
    const Ray<T> r = ray;
    const OneRay<T> rays{r};
    const HitsOut<T> dst{out.t_near.data(), out.t_far.data(), out.hit.data()};
    std::size_t i = begin;
    // Two groups a step, their rare scalar fix-ups after both: the two kernels' independent work
    // is one stretch of code without a branch, so one group's arithmetic is at hand while the
    // other waits for its square roots and divisions. The sphere and OBB kernels gain from it; the
    // AABB kernel does not, so it takes one group a step, and the capsule kernel (its early miss
    // test, and twice its many live values) compacts instead: compacting_loop(). Figures:
    // docs/performance.md.
    if constexpr (Step == 2) {
        for (; end - i >= 2 * W; i += 2 * W) {
            VecT<T> a0, a1, b0, b1;
            MaskT<T> bad_a{}, bad_b{};
            MaskT<T> hit_a = group_lanes<T>(rays, view, i, W, t_min, t_max, a0, a1, DeferredFix<T>{bad_a});
            MaskT<T> hit_b = group_lanes<T>(rays, view, i + W, W, t_min, t_max, b0, b1, DeferredFix<T>{bad_b});
            if (any<T>(bad_a | bad_b)) {
                apply_fix<T>(fix_group(rays, view, i, W, t_min, t_max), bad_a, a0, a1, hit_a);
                apply_fix<T>(fix_group(rays, view, i + W, W, t_min, t_max), bad_b, b0, b1, hit_b);
            }
            store(dst, i - begin, W, a0, a1, hit_a);
            store(dst, i + W - begin, W, b0, b1, hit_b);
        }
    }
    for (; i < end; i += W) {
        const std::size_t cnt = end - i;
        VecT<T> tn, tf;
        const MaskT<T> hit =
            group_lanes<T>(rays, view, i, cnt, t_min, t_max, tn, tf, fix_group(rays, view, i, cnt, t_min, t_max));
        store(dst, i - begin, cnt, tn, tf, hit);
    }
}
template <typename T>
void aabb_kernel(const Ray<T>& ray, const AabbSoA<T>& s, std::size_t begin, std::size_t end, T t_min, T t_max,
                 BatchHits<T>& out) {
    kernel_loop<1>(ray, s, begin, end, t_min, t_max, out);
}
template <typename T>
void obb_kernel(const Ray<T>& ray, const ObbSoA<T>& s, std::size_t begin, std::size_t end, T t_min, T t_max,
                BatchHits<T>& out) {
    kernel_loop<2>(ray, s, begin, end, t_min, t_max, out);
}

/// Bit l set where lane l of m is set.
template <typename T> inline unsigned lane_bits(MaskT<T> m) {
    constexpr int bytes = Simd<T>::W * int(sizeof(T));
    if constexpr (bytes == 16) {
        if constexpr (sizeof(T) == 4) return unsigned(_mm_movemask_ps((__m128)m));
        else return unsigned(_mm_movemask_pd((__m128d)m));
    } else if constexpr (bytes == 32) {
        if constexpr (sizeof(T) == 4) return unsigned(_mm256_movemask_ps((__m256)m));
        else return unsigned(_mm256_movemask_pd((__m256d)m));
    } else {
        if constexpr (sizeof(T) == 4) return unsigned(_mm512_movepi32_mask((__m512i)m));
        else return unsigned(_mm512_movepi64_mask((__m512i)m));
    }
}

/// Lanes p[base + id[0]], ..., p[base + id[count - 1]], then copies of the first.
template <typename T> inline VecT<T> gather(const T* p, std::size_t base, const std::uint32_t* id, std::size_t count) {
    VecT<T> v;
    for (int l = 0; l < Simd<T>::W; ++l) v[l] = p[base + id[std::size_t(l) < count ? std::size_t(l) : 0]];
    return v;
}

// The common miss of a shape type lane by lane, for the compacting loop below: lanes it takes are
// misses of the scalar cast too, so the whole kernel need not run on them.

/// detail::sphere_clear_miss_early(), lane-wise: the same decisions (the kernel's discriminant is the
/// scalar one, bit for bit).
template <typename T>
inline MaskT<T> clear_miss_lanes(const OneRay<T>& ray, const SphereView<T>& v, std::size_t i, std::size_t cnt) {
    const VecT<T> r = load(v.r, i, cnt), dx = ray.dx(), dy = ray.dy(), dz = ray.dz();
    const VecT<T> disc = discriminant<T>(ray.ox() - load(v.cx, i, cnt), ray.oy() - load(v.cy, i, cnt),
                                         ray.oz() - load(v.cz, i, cnt), dx, dy, dz, r);
    const VecT<T> a = (dx * dx + dy * dy) + dz * dz, rr = r * r;
    const T lo = detail::safe_sq_min<T>();
    return (disc < T(0)) & (disc > -std::numeric_limits<T>::infinity()) & (a >= lo) & (rr >= lo);
}

/// detail::capsule_clear_miss(), lane-wise and in the same order (the same decisions, though only
/// their soundness matters: a lane it takes is a miss for the scalar cast too).
template <typename T>
inline MaskT<T> clear_miss_lanes(const OneRay<T>& ray, const CapsuleView<T>& v, std::size_t i, std::size_t cnt) {
    const VecT<T> ax = load(v.ax, i, cnt), ay = load(v.ay, i, cnt), az = load(v.az, i, cnt), r = load(v.r, i, cnt);
    const VecT<T> dx = ray.dx(), dy = ray.dy(), dz = ray.dz();
    const VecT<T> fax = ray.ox() - ax, fay = ray.oy() - ay, faz = ray.oz() - az;
    const VecT<T> abx = load(v.bx, i, cnt) - ax, aby = load(v.by, i, cnt) - ay, abz = load(v.bz, i, cnt) - az;
    const VecT<T> nx = dy * abz - aby * dz, ny = dz * abx - abz * dx, nz = dx * aby - abx * dy;  // glm::cross(d, ab)
    const VecT<T> g = (fax * nx + fay * ny) + faz * nz, rr = r * r;
    const VecT<T> a = ((dx * dx + dy * dy) + dz * dz) * ((abx * abx + aby * aby) + abz * abz);
    const VecT<T> s = ((fax * fax + fay * fay) + faz * faz) + rr;
    const VecT<T> as = a * s;
    return (g * g - rr * ((nx * nx + ny * ny) + nz * nz) > detail::capsule_miss_margin<T>() * as) &
           (a >= detail::safe_sq_min<T>()) & (s >= detail::safe_sq_min<T>()) & (as <= detail::safe_sq_max<T>());
}

/// The whole kernel of a view's shape type on shapes base + id[0 .. count) of the view.
template <typename T, typename Fix>
inline MaskT<T> gathered_lanes(const OneRay<T>& rays, const SphereView<T>& v, std::size_t base, const std::uint32_t* id,
                               std::size_t cnt, T t_min, T t_max, VecT<T>& tn, VecT<T>& tf, const Fix& fix) {
    return sphere_lanes<T>(rays, gather(v.cx, base, id, cnt), gather(v.cy, base, id, cnt), gather(v.cz, base, id, cnt),
                           gather(v.r, base, id, cnt), t_min, t_max, tn, tf, fix);
}
template <typename T, typename Fix>
inline MaskT<T> gathered_lanes(const OneRay<T>& rays, const CapsuleView<T>& v, std::size_t base,
                               const std::uint32_t* id, std::size_t cnt, T t_min, T t_max, VecT<T>& tn, VecT<T>& tf,
                               const Fix& fix) {
    return capsule_lanes<T>(rays, gather(v.ax, base, id, cnt), gather(v.ay, base, id, cnt),
                            gather(v.az, base, id, cnt), gather(v.bx, base, id, cnt), gather(v.by, base, id, cnt),
                            gather(v.bz, base, id, cnt), gather(v.r, base, id, cnt), t_min, t_max, tn, tf, fix);
}

/// For a W-bit mask of kept lanes (W <= 8): the kept lanes' numbers in order, then zeros, and how
/// many there are.
template <std::size_t W> struct KeptLanes {
    std::uint32_t lane[1u << W][W];
    std::uint8_t count[1u << W];
    constexpr KeptLanes() : lane{}, count{} {
        for (unsigned m = 0; m < (1u << W); ++m) {
            unsigned c = 0;
            for (unsigned l = 0; l < W; ++l)
                if (m >> l & 1u) lane[m][c++] = l;
            count[m] = std::uint8_t(c);
        }
    }
};

/// Writes first + l for each lane l set in `keep`, in order, to out[0 ..] and returns how many;
/// out must have room for W entries (those past the count are scratch). Without a branch per kept
/// lane, whose number is unpredictable: up to eight lanes, one table row offset as a vector (one
/// store); beyond that (AVX-512's sixteen), every lane's number is written and the
/// count advances past the kept ones only, about five instructions a lane.
template <std::size_t W> inline std::size_t append_kept(std::uint32_t* out, std::uint32_t first, unsigned keep) {
    if constexpr (W <= 8) {
        static constexpr KeptLanes<W> table{};
        typedef std::uint32_t Words __attribute__((vector_size(4 * W)));
        Words w;
        std::memcpy(&w, table.lane[keep], sizeof w);
        w += first;
        std::memcpy(out, &w, sizeof w);
        return table.count[keep];
    } else {
        std::size_t n = 0;
        for (std::size_t l = 0; l < W; ++l) {
            out[n] = first + std::uint32_t(l);
            n += (keep >> l) & 1u;
        }
        return n;
    }
}

/// cast_batch()'s loop for the shape types whose common miss is cheap to tell (clear_miss_lanes()):
/// one ray against shapes [begin, end) in two passes over blocks of kBlock shapes. The first takes
/// the clear misses and keeps the others' offsets; the second runs the whole kernel on those, W at
/// a time, their fields gathered from the block. Testing whole groups instead, a group goes the
/// whole way whenever one of its W lanes needs it: with 8 lanes, nearly four capsule groups in
/// five on the benchmark's rays, where most capsules and spheres are missed by most rays.
template <typename T, typename SoA>
void compacting_loop(const Ray<T>& ray, const SoA& shapes, std::size_t begin, std::size_t end, T t_min, T t_max,
                     BatchHits<T>& out) {
    constexpr std::size_t W = std::size_t(Simd<T>::W), kBlock = 256;
    const auto v = shapes.view();
    const Ray<T> r = ray;  // local copies, as in kernel_loop()
    const OneRay<T> rays{r};
    const HitsOut<T> dst{out.t_near.data(), out.t_far.data(), out.hit.data()};
    std::uint32_t id[kBlock + W];  // the block's shapes left for the second pass, as offsets from b0
    for (std::size_t b0 = begin; b0 < end; b0 += kBlock) {
        const std::size_t b1 = end - b0 < kBlock ? end : b0 + kBlock;
        std::memset(dst.hit + (b0 - begin), 0, b1 - b0);
        std::size_t n = 0;
        for (std::size_t i = b0; i < b1; i += W) {
            const std::size_t cnt = b1 - i;
            const unsigned keep = ~lane_bits<T>(clear_miss_lanes<T>(rays, v, i, cnt)) &
                                  (cnt >= W ? (1u << W) - 1 : (1u << cnt) - 1);
            n += append_kept<W>(id + n, std::uint32_t(i - b0), keep);
        }
        for (std::size_t k = 0; k < n; k += W) {
            const std::uint32_t* ids = id + k;
            const std::size_t cnt = n - k < W ? n - k : W;
            VecT<T> tn, tf;
            const MaskT<T> hit = gathered_lanes<T>(
                rays, v, b0, ids, cnt, t_min, t_max, tn, tf, [&](MaskT<T> bad, VecT<T>& t0, VecT<T>& t1, MaskT<T>& h) {
                    for (std::size_t l = 0; l < cnt; ++l)
                        if (bad[l]) scalar_lane(r, v.get(b0 + ids[l]), t_min, t_max, int(l), t0, t1, h);
                });
            for (std::size_t l = 0; l < cnt; ++l) {
                const std::size_t j = b0 - begin + ids[l];
                dst.t_near[j] = tn[l];
                dst.t_far[j] = tf[l];
                dst.hit[j] = hit[l] != 0;
            }
        }
    }
}

template <typename T>
void capsule_kernel(const Ray<T>& ray, const CapsuleSoA<T>& s, std::size_t begin, std::size_t end, T t_min, T t_max,
                    BatchHits<T>& out) {
    compacting_loop(ray, s, begin, end, t_min, t_max, out);
}
/// Spheres: compacting at four lanes or fewer, two groups a step at eight (there the sphere's
/// whole kernel is short next to the first pass's index bookkeeping and the second's gathers;
/// figures: docs/performance.md).
template <typename T>
void sphere_kernel(const Ray<T>& ray, const SphereSoA<T>& s, std::size_t begin, std::size_t end, T t_min, T t_max,
                   BatchHits<T>& out) {
    if constexpr (Simd<T>::W <= 4) compacting_loop(ray, s, begin, end, t_min, t_max, out);
    else kernel_loop<2>(ray, s, begin, end, t_min, t_max, out);
}
