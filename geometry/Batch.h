// raypick geometry: batch casts — one ray against many shapes of one type stored
// structure-of-arrays. The kernels are written with GCC vector extensions, compiled for AVX-512,
// AVX2 and baseline x86-64 (SSE2), and picked at run time, so the default build runs on any x86-64. Results are bit-for-bit those of the scalar cast() (same operations in the same order,
// no FMA contraction); tests/geometry/BatchTest.cpp checks it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include <limits>

#include <raypick/geometry/Ray.h>
#include <raypick/geometry/Aabb.h>
#include <raypick/geometry/Capsule.h>
#include <raypick/geometry/Obb.h>
#include <raypick/geometry/Sphere.h>
#include <raypick/geometry/TargetIsa.h>
#include <raypick/geometry/Validate.h>

namespace raypick {

/// Read-only views of structure-of-arrays fields (pointers, one per field): what the kernels read.
/// The SoA containers below hand them out with view(); the BVH's leaves point them into its own
/// storage.
template <typename T> struct SphereView {
    const T *cx, *cy, *cz, *r;
    Sphere<T> get(std::size_t i) const { return {{cx[i], cy[i], cz[i]}, r[i]}; }
};
template <typename T> struct AabbView {
    const T *lx, *ly, *lz, *hx, *hy, *hz;
    Aabb<T> get(std::size_t i) const { return {{lx[i], ly[i], lz[i]}, {hx[i], hy[i], hz[i]}}; }
};
template <typename T> struct ObbView {
    const T *cx, *cy, *cz, *hx, *hy, *hz;
    const T* m[9];  ///< rotation, column-major: m[3*col + row]
    /// is_valid() of each box, computed when it was stored: 1 valid, 0 not. The kernels read it
    /// instead of checking each rotation on every cast (see ObbSoA).
    const T* valid;
    Obb<T> get(std::size_t i) const {
        Obb<T> b{{cx[i], cy[i], cz[i]}, Mat3<T>(T(1)), {hx[i], hy[i], hz[i]}};
        for (int c = 0; c < 3; ++c)
            for (int r = 0; r < 3; ++r) b.rotation[c][r] = m[3 * c + r][i];
        return b;
    }
};
template <typename T> struct CapsuleView {
    const T *ax, *ay, *az, *bx, *by, *bz, *r;
    Capsule<T> get(std::size_t i) const { return {{ax[i], ay[i], az[i]}, {bx[i], by[i], bz[i]}, r[i]}; }
};

/// Structure-of-arrays storage. push_back() a shape, get(i) it back.
template <typename T> struct SphereSoA {
    std::vector<T> cx, cy, cz, r;
    void push_back(const Sphere<T>& s) { cx.push_back(s.center.x); cy.push_back(s.center.y); cz.push_back(s.center.z); r.push_back(s.radius); }
    Sphere<T> get(std::size_t i) const { return {{cx[i], cy[i], cz[i]}, r[i]}; }
    std::size_t size() const { return r.size(); }
    SphereView<T> view() const { return {cx.data(), cy.data(), cz.data(), r.data()}; }
};
template <typename T> struct AabbSoA {
    std::vector<T> lx, ly, lz, hx, hy, hz;
    void push_back(const Aabb<T>& b) {
        lx.push_back(b.min.x); ly.push_back(b.min.y); lz.push_back(b.min.z);
        hx.push_back(b.max.x); hy.push_back(b.max.y); hz.push_back(b.max.z);
    }
    Aabb<T> get(std::size_t i) const { return {{lx[i], ly[i], lz[i]}, {hx[i], hy[i], hz[i]}}; }
    std::size_t size() const { return lx.size(); }
    AabbView<T> view() const { return {lx.data(), ly.data(), lz.data(), hx.data(), hy.data(), hz.data()}; }
};
/// Unlike the other three, ObbSoA keeps its fields private: it stores is_valid() of each box
/// beside it (checking a rotation, six dot products and a determinant, is about a third of the
/// OBB kernel's work on every cast), and that flag must follow every change. Change a box with
/// set().
template <typename T> class ObbSoA {
public:
    void push_back(const Obb<T>& b) {
        cx_.push_back(b.center.x); cy_.push_back(b.center.y); cz_.push_back(b.center.z);
        hx_.push_back(b.half_extents.x); hy_.push_back(b.half_extents.y); hz_.push_back(b.half_extents.z);
        for (int c = 0; c < 3; ++c)
            for (int r = 0; r < 3; ++r) m_[3 * c + r].push_back(b.rotation[c][r]);
        valid_.push_back(is_valid(b) ? T(1) : T(0));
    }
    /// Replaces box i (i < size()).
    void set(std::size_t i, const Obb<T>& b) {
        cx_[i] = b.center.x; cy_[i] = b.center.y; cz_[i] = b.center.z;
        hx_[i] = b.half_extents.x; hy_[i] = b.half_extents.y; hz_[i] = b.half_extents.z;
        for (int c = 0; c < 3; ++c)
            for (int r = 0; r < 3; ++r) m_[3 * c + r][i] = b.rotation[c][r];
        valid_[i] = is_valid(b) ? T(1) : T(0);
    }
    Obb<T> get(std::size_t i) const { return view().get(i); }
    std::size_t size() const { return cx_.size(); }
    ObbView<T> view() const {
        ObbView<T> v{cx_.data(), cy_.data(), cz_.data(), hx_.data(), hy_.data(), hz_.data(), {}, valid_.data()};
        for (int k = 0; k < 9; ++k) v.m[k] = m_[k].data();
        return v;
    }

private:
    std::vector<T> cx_, cy_, cz_, hx_, hy_, hz_;
    std::vector<T> m_[9];  // rotation, column-major: m_[3*col + row]
    std::vector<T> valid_;
};
template <typename T> struct CapsuleSoA {
    std::vector<T> ax, ay, az, bx, by, bz, r;
    void push_back(const Capsule<T>& c) {
        ax.push_back(c.a.x); ay.push_back(c.a.y); az.push_back(c.a.z);
        bx.push_back(c.b.x); by.push_back(c.b.y); bz.push_back(c.b.z); r.push_back(c.radius);
    }
    Capsule<T> get(std::size_t i) const { return {{ax[i], ay[i], az[i]}, {bx[i], by[i], bz[i]}, r[i]}; }
    std::size_t size() const { return r.size(); }
    CapsuleView<T> view() const { return {ax.data(), ay.data(), az.data(), bx.data(), by.data(), bz.data(), r.data()}; }
};

/// Output of a batch cast, one entry per shape: hit[i] != 0 exactly when cast(ray, shape_i, t_min,
/// t_max) returns a hit, and then t_near[i], t_far[i] are bit-for-bit its t_near, t_far (entries of
/// misses are unspecified). Normals are not computed: call the scalar cast() for the shapes you
/// keep (typically one: the nearest).
template <typename T> struct BatchHits {
    std::vector<T> t_near, t_far;
    std::vector<std::uint8_t> hit;
    void resize(std::size_t n) { t_near.resize(n); t_far.resize(n); hit.resize(n); }
};

// BatchIsa, the instruction set the kernels run with (Auto: the widest the CPU has): TargetIsa.h.

/// Casts `ray` against shapes [begin, end) of `shapes`; writes entries [0, end - begin) of `out`,
/// which must already hold at least end - begin entries. Same contracts as the scalar cast().
void cast_batch(const Ray<float>& ray, const SphereSoA<float>& shapes, std::size_t begin, std::size_t end, float t_min, float t_max, BatchHits<float>& out, BatchIsa isa = BatchIsa::Auto);
void cast_batch(const Ray<double>& ray, const SphereSoA<double>& shapes, std::size_t begin, std::size_t end, double t_min, double t_max, BatchHits<double>& out, BatchIsa isa = BatchIsa::Auto);
void cast_batch(const Ray<float>& ray, const AabbSoA<float>& shapes, std::size_t begin, std::size_t end, float t_min, float t_max, BatchHits<float>& out, BatchIsa isa = BatchIsa::Auto);
void cast_batch(const Ray<double>& ray, const AabbSoA<double>& shapes, std::size_t begin, std::size_t end, double t_min, double t_max, BatchHits<double>& out, BatchIsa isa = BatchIsa::Auto);
void cast_batch(const Ray<float>& ray, const ObbSoA<float>& shapes, std::size_t begin, std::size_t end, float t_min, float t_max, BatchHits<float>& out, BatchIsa isa = BatchIsa::Auto);
void cast_batch(const Ray<double>& ray, const ObbSoA<double>& shapes, std::size_t begin, std::size_t end, double t_min, double t_max, BatchHits<double>& out, BatchIsa isa = BatchIsa::Auto);
void cast_batch(const Ray<float>& ray, const CapsuleSoA<float>& shapes, std::size_t begin, std::size_t end, float t_min, float t_max, BatchHits<float>& out, BatchIsa isa = BatchIsa::Auto);
void cast_batch(const Ray<double>& ray, const CapsuleSoA<double>& shapes, std::size_t begin, std::size_t end, double t_min, double t_max, BatchHits<double>& out, BatchIsa isa = BatchIsa::Auto);

/// Whole-array convenience: resizes `out` to shapes.size() and casts against all of them.
template <typename T, typename SoA>
void cast_batch(const Ray<T>& ray, const SoA& shapes, BatchHits<T>& out, T t_min = T(0),
                T t_max = std::numeric_limits<T>::infinity(), BatchIsa isa = BatchIsa::Auto) {
    out.resize(shapes.size());
    cast_batch(ray, shapes, 0, shapes.size(), t_min, t_max, out, isa);
}

/// Which instruction set BatchIsa::Auto uses on this machine: "avx512", "avx2" or "sse2".
const char* batch_isa();
/// "avx512", "avx2", "sse2" or "auto".
const char* batch_isa_name(BatchIsa isa);
/// Whether this CPU runs `isa` itself (rather than a narrower fallback). Always true for Auto and Sse2.
bool batch_isa_supported(BatchIsa isa);

}  // namespace raypick
