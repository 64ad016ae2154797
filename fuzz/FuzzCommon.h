// raypick fuzzing: decoding rays and shapes from fuzzer bytes, and the invariants every cast result
// must satisfy. Shared by the libFuzzer targets in this folder (see fuzz/README.md).
//
// Inputs are read front to back, one tagged scalar at a time, so that seed files can be written by
// hand (fuzz/make_seeds.py) and a crashing input can be read. Past the end every read gives 0.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <optional>
#include <type_traits>
#include <string>
#include <vector>

#include <raypick/geometry/Shape.h>

namespace raypick::fuzz {

// ---- reading bytes -------------------------------------------------------------------------------

class Reader {
public:
    Reader(const std::uint8_t* data, std::size_t size) : p_(data), end_(data + size) {}

    bool empty() const { return p_ == end_; }
    std::uint8_t u8() { return p_ < end_ ? *p_++ : 0; }
    std::int8_t i8() { return static_cast<std::int8_t>(u8()); }
    std::int16_t i16() {
        const unsigned lo = u8(), hi = u8();
        return static_cast<std::int16_t>(static_cast<std::uint16_t>(lo | (hi << 8)));
    }
    template <typename U> U raw() {  // little-endian bytes of U (memcpy: no aliasing games)
        unsigned char b[sizeof(U)];
        for (auto& c : b) c = u8();
        U u;
        std::memcpy(&u, b, sizeof(U));
        return u;
    }

    /// A FINITE scalar. The tag byte picks the kind of number (the fuzzer needs small exact values
    /// for tangent and edge cases as much as extreme magnitudes):
    ///   0, 6, 7: small integer (int8)           1: small fraction n / (1..16)
    ///   2: fixed point int16 / 256               3: int16 * 2^int8 (any magnitude, incl. subnormal)
    ///   4: raw bits of T (non-finite -> 0)       5: a special constant (0, -0, min, max, eps, ...)
    template <typename T> T scalar() {
        switch (u8() % 8) {
            case 1: {
                const T num = T(i8());
                return num / T(u8() % 16 + 1);
            }
            case 2: return T(i16()) / T(256);
            case 3: {
                const T m = T(i16());
                const T v = std::ldexp(m, i8() * 2);  // exponents -256..254: spans float and double
                if (std::isfinite(v)) return v;
                return std::copysign(std::numeric_limits<T>::max(), m);
            }
            case 4: {
                using Bits = std::conditional_t<sizeof(T) == 8, std::uint64_t, std::uint32_t>;
                const Bits b = raw<Bits>();
                T v;
                std::memcpy(&v, &b, sizeof(T));
                return std::isfinite(v) ? v : T(0);
            }
            case 5: {
                using L = std::numeric_limits<T>;
                const T table[] = {T(0),          -T(0),        L::min(),          -L::min(),
                                   L::denorm_min(), L::max(),   L::lowest(),       L::epsilon(),
                                   T(1) - L::epsilon(), T(1) + L::epsilon(), T(0.5), T(1e-3),
                                   T(1e3),        T(1e6),       std::sqrt(L::max()), std::sqrt(L::min())};
                return table[u8() % 16];
            }
            default: return T(i8());
        }
    }
    template <typename T> Vec3<T> vec3() {
        const T x = scalar<T>();
        const T y = scalar<T>();
        const T z = scalar<T>();
        return {x, y, z};
    }

private:
    const std::uint8_t* p_;
    const std::uint8_t* end_;
};

// ---- decoding shapes -----------------------------------------------------------------------------

/// Rotation R = Rz(c) * Ry(b) * Rx(a), computed in double (so a float rotation is the rounded
/// double one and stays well within orthonormality_tolerance<float>()).
template <typename T> Mat3<T> rotation_from_angles(double a, double b, double c) {
    const double ca = std::cos(a), sa = std::sin(a), cb = std::cos(b), sb = std::sin(b);
    const double cc = std::cos(c), sc = std::sin(c);
    const glm::dmat3 rx(1, 0, 0, 0, ca, sa, 0, -sa, ca);  // column-major: columns are the axes
    const glm::dmat3 ry(cb, 0, -sb, 0, 1, 0, sb, 0, cb);
    const glm::dmat3 rz(cc, sc, 0, -sc, cc, 0, 0, 0, 1);
    return Mat3<T>(rz * ry * rx);
}

template <typename T> Sphere<T> decode_sphere(Reader& in) {
    Sphere<T> s;
    s.center = in.vec3<T>();
    s.radius = in.scalar<T>();  // negative: invalid, must miss
    return s;
}

template <typename T> Aabb<T> decode_aabb(Reader& in) {
    Aabb<T> b;
    const bool raw = in.u8() & 1;
    b.min = in.vec3<T>();
    const Vec3<T> v = in.vec3<T>();
    b.max = raw ? v : b.min + glm::abs(v);  // raw corners are often min > max (invalid)
    return b;
}

template <typename T> Obb<T> decode_obb(Reader& in) {
    Obb<T> b;
    b.center = in.vec3<T>();
    b.half_extents = in.vec3<T>();
    const std::uint8_t mode = in.u8() % 6;
    if (mode == 0 || mode == 1) {
        // Angles in quarter turns (exact axis permutations) or arbitrary radians.
        const double unit = mode == 0 ? 1.5707963267948966 : 1.0;
        const double a = double(in.scalar<T>()) * unit, c1 = double(in.scalar<T>()) * unit,
                     c2 = double(in.scalar<T>()) * unit;
        b.rotation = rotation_from_angles<T>(std::fmod(a, 64.0), std::fmod(c1, 64.0), std::fmod(c2, 64.0));
    } else if (mode == 2) {
        // Signed permutation matrix: every proper and improper axis-aligned orientation.
        static const int perms[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
        const std::uint8_t k = in.u8();
        const int* p = perms[k % 6];
        b.rotation = Mat3<T>(T(0));
        for (int col = 0; col < 3; ++col) b.rotation[col][p[col]] = (k >> (3 + col)) & 1 ? T(-1) : T(1);
    } else if (mode == 3) {
        // A rotation with one entry nudged: straddles orthonormality_tolerance().
        b.rotation = rotation_from_angles<T>(double(in.i16()) / 1024, double(in.i16()) / 1024,
                                             double(in.i16()) / 1024);
        const std::uint8_t k = in.u8();
        b.rotation[k % 3][(k / 3) % 3] += in.scalar<T>() * std::numeric_limits<T>::epsilon() * T(1 << 12);
    } else if (mode == 4) {
        // A reflection (determinant -1): invalid, must miss.
        b.rotation = rotation_from_angles<T>(double(in.i16()) / 1024, double(in.i16()) / 1024,
                                             double(in.i16()) / 1024);
        b.rotation[in.u8() % 3] *= T(-1);
    } else {
        // Nine raw scalars: almost never a rotation, so this mostly checks "invalid -> miss".
        for (int col = 0; col < 3; ++col) b.rotation[col] = in.vec3<T>();
    }
    return b;
}

template <typename T> Capsule<T> decode_capsule(Reader& in) {
    Capsule<T> c;
    c.a = in.vec3<T>();
    const std::uint8_t mode = in.u8() % 4;
    if (mode == 0) c.b = c.a;  // degenerate: must equal the sphere
    else if (mode == 1) c.b = c.a + in.vec3<T>();
    else c.b = in.vec3<T>();
    c.radius = in.scalar<T>();
    return c;
}

template <typename T> Triangle<T> decode_triangle(Reader& in) {
    Triangle<T> t;
    t.a = in.vec3<T>();
    const std::uint8_t mode = in.u8() % 4;
    if (mode == 0) {  // three arbitrary points
        t.b = in.vec3<T>();
        t.c = in.vec3<T>();
        return t;
    }
    t.b = t.a + in.vec3<T>();
    if (mode == 1) t.c = t.a + in.vec3<T>();                  // around a
    else if (mode == 2) t.c = t.a + (t.b - t.a) * in.scalar<T>();  // collinear: zero area
    else t.c = t.b;                                             // two coincident vertices
    return t;
}

/// The shape type byte: 4 is a triangle; any other value v is type v % 4 (sphere, aabb, obb,
/// capsule), the decoding the saved inputs were written with (none has a 4 there).
template <typename T> Shape<T> decode_shape(Reader& in) {
    const std::uint8_t type = in.u8();
    if (type == 4) return decode_triangle<T>(in);
    switch (type % 4) {
        case 0: return decode_sphere<T>(in);
        case 1: return decode_aabb<T>(in);
        case 2: return decode_obb<T>(in);
        default: return decode_capsule<T>(in);
    }
}

template <typename T> Ray<T> decode_ray(Reader& in) {
    Ray<T> r;
    r.origin = in.vec3<T>();
    r.direction = in.vec3<T>();  // zero: invalid, must miss
    return r;
}

/// The ray's range [t_min, t_max]: the default, arbitrary finite values (t_min > t_max must miss),
/// or infinite ends (allowed).
template <typename T> void decode_range(Reader& in, T& t_min, T& t_max) {
    switch (in.u8() % 4) {
        case 0: t_min = T(0); t_max = infinity<T>(); break;
        case 1: t_min = in.scalar<T>(); t_max = in.scalar<T>(); break;
        case 2: t_min = -infinity<T>(); t_max = infinity<T>(); break;
        default: t_min = in.scalar<T>(); t_max = infinity<T>(); break;
    }
}

// ---- non-finite inputs ---------------------------------------------------------------------------

template <typename T> void scalars_of(Vec3<T>& v, std::vector<T*>& out) {
    for (int i = 0; i < 3; ++i) out.push_back(&v[i]);
}
template <typename T> void scalars_of(Ray<T>& r, std::vector<T*>& out) {
    scalars_of(r.origin, out);
    scalars_of(r.direction, out);
}
/// Every scalar of every field of the shape, whatever its type (ShapeTraits::fields()).
template <typename T> void scalars_of(Shape<T>& s, std::vector<T*>& out) {
    std::visit([&](auto& x) {
        for_each_field(x, [&](const auto&, auto& v) {
            for (int k = 0; k < ScalarsOf<std::decay_t<decltype(v)>>::value; ++k) out.push_back(&scalar_at(v, k));
        });
    }, s);
}

/// One byte decides whether one input scalar (chosen by the next byte) becomes NaN, +inf or -inf.
/// Most inputs stay finite; those that do not must give a miss (the shape or ray is invalid).
template <typename T> void maybe_poison(Reader& in, Ray<T>& ray, Shape<T>& shape) {
    const std::uint8_t p = in.u8();
    if ((p & 0xF0) != 0xF0) return;
    std::vector<T*> s;
    scalars_of(ray, s);
    scalars_of(shape, s);
    const T bad[3] = {std::numeric_limits<T>::quiet_NaN(), infinity<T>(), -infinity<T>()};
    *s[in.u8() % s.size()] = bad[p % 3];
}

// ---- reporting -----------------------------------------------------------------------------------

template <typename T> const char* scalar_name() { return sizeof(T) == 8 ? "double" : "float"; }

/// %a is exact, %.9g readable.
inline void print_scalar(double v) { std::fprintf(stderr, "%a (%.9g)", v, v); }
template <typename T> void print_vec(const char* name, const Vec3<T>& v) {
    std::fprintf(stderr, "  %s = [", name);
    for (int i = 0; i < 3; ++i) {
        print_scalar(double(v[i]));
        std::fprintf(stderr, i < 2 ? ", " : "]\n");
    }
}
template <typename T> void print_one(const char* name, T v) {
    std::fprintf(stderr, "  %s = ", name);
    print_scalar(double(v));
    std::fprintf(stderr, "\n");
}
template <typename T> void print_value(const char* name, T v) { print_one(name, v); }
template <typename T> void print_value(const char* name, const Vec3<T>& v) { print_vec(name, v); }
template <typename T> void print_value(const char* name, const Mat3<T>& m) {
    for (int c = 0; c < 3; ++c) {
        const std::string column = std::string(name) + "[" + std::to_string(c) + "]";
        print_vec(column.c_str(), m[c]);
    }
}
/// The shape's type and every field, whatever its type (ShapeTraits::fields()).
template <typename T> void print_shape(const Shape<T>& s) {
    std::fprintf(stderr, " %s<%s>\n", shape_type_name(type_of(s)), scalar_name<T>());
    std::visit([](const auto& x) { for_each_field(x, [](const auto& f, const auto& v) { print_value(f.name, v); }); }, s);
}
template <template <typename> class S, typename T, std::enable_if_t<IsShapeType<S>::value, int> = 0>
void print_shape(const S<T>& s) {
    print_shape(Shape<T>(s));
}
template <typename T> void print_ray(const Ray<T>& r, T t_min, T t_max) {
    std::fprintf(stderr, " ray<%s>\n", scalar_name<T>());
    print_vec("origin", r.origin);
    print_vec("direction", r.direction);
    print_one("t_min", t_min);
    print_one("t_max", t_max);
}
template <typename T> void print_hit(const char* label, const RayHit<T>& h) {
    std::fprintf(stderr, " %s\n", label);
    print_one("t_near", h.t_near);
    print_one("t_far", h.t_far);
    print_vec("n_near", h.n_near);
    print_vec("n_far", h.n_far);
    std::fprintf(stderr, "  origin_inside = %d\n", int(h.origin_inside));
}

/// Prints the failed invariant and aborts; libFuzzer then saves the input as crash-<sha1>.
[[noreturn]] inline void fail(const char* what) {
    std::fprintf(stderr, "raypick fuzz: INVARIANT VIOLATED: %s\n", what);
    std::fflush(stderr);
    std::abort();
}

// ---- the invariants of one cast ------------------------------------------------------------------

template <typename T> bool same_bits(T a, T b) { return std::memcmp(&a, &b, sizeof(T)) == 0; }
template <typename T> bool same_bits(const Vec3<T>& a, const Vec3<T>& b) {
    return same_bits(a.x, b.x) && same_bits(a.y, b.y) && same_bits(a.z, b.z);
}
template <typename T> bool same_surface(const std::optional<SurfaceHit<T>>& a, const std::optional<SurfaceHit<T>>& b) {
    if (a.has_value() != b.has_value()) return false;
    return !a || (same_bits(a->t, b->t) && same_bits(a->point, b->point) && same_bits(a->normal, b->normal) &&
                  a->is_exit == b->is_exit);
}
template <typename T> bool same_hit(const std::optional<RayHit<T>>& a, const std::optional<RayHit<T>>& b) {
    if (a.has_value() != b.has_value()) return false;
    if (!a) return true;
    return same_bits(a->t_near, b->t_near) && same_bits(a->t_far, b->t_far) &&
           same_bits(a->n_near, b->n_near) && same_bits(a->n_far, b->n_far) &&
           a->origin_inside == b->origin_inside;
}

/// |length - 1| allowed for a unit normal: a few roundings of a normalisation.
template <typename T> constexpr T unit_tolerance() { return T(16) * std::numeric_limits<T>::epsilon(); }
template <typename T> bool is_unit(const Vec3<T>& n) {
    // Length computed in long double so that the check itself adds no rounding.
    const long double x = n.x, y = n.y, z = n.z;
    return std::fabs(std::sqrt(x * x + y * y + z * z) - 1.0L) <= (long double)unit_tolerance<T>();
}

/// Extra slack of bounds(shape) for an Obb: its rotation is only orthonormal up to
/// orthonormality_tolerance(), and the cast works in the frame R^T (not R^-1), so its box differs
/// from the one bounds() describes by about that error times the magnitudes involved.
template <typename T, typename S> T frame_slack(const S&) { return T(0); }
template <typename T> T frame_slack(const Obb<T>& b) { return T(4) * orthonormality_error(b.rotation); }

/// True when ray.at(t) lies outside bounds(shape) by more than the rounding of the point and of the
/// bounds: 64 eps (plus an Obb's frame slack) times the problem's magnitude, plus the subnormal step
/// of t times |direction| (a true t below denorm_min rounds to 0).
template <typename T, typename S> bool outside_bounds(const Ray<T>& ray, const S& shape, T t) {
    const Aabb<T> box = bounds(shape);
    const Vec3<T> p = ray.at(t);
    if (!is_finite(p) || !is_finite(box.min) || !is_finite(box.max)) return false;
    using L = std::numeric_limits<T>;
    const Vec3<T> m = glm::abs(ray.origin) + glm::abs(t * ray.direction) + glm::abs(box.min) + glm::abs(box.max);
    const Vec3<T> d = glm::abs(ray.direction);
    const T tol = (T(64) * L::epsilon() + frame_slack<T>(shape)) * glm::max(m.x, glm::max(m.y, m.z)) + L::min() +
                  T(4) * L::denorm_min() * glm::max(d.x, glm::max(d.y, d.z));
    return glm::any(glm::lessThan(p, box.min - tol)) || glm::any(glm::greaterThan(p, box.max + tol));
}

/// Checks one result of cast(ray, shape, t_min, t_max) against RayHit's contract; aborts with the
/// inputs printed when it is broken. Returns the result for further checks.
template <typename T, typename S>
std::optional<RayHit<T>> check_cast(const Ray<T>& ray, const S& shape, T t_min, T t_max) {
    const std::optional<RayHit<T>> h = cast(ray, shape, t_min, t_max);
    auto broken = [&](const char* what) {
        print_ray(ray, t_min, t_max);
        print_shape(shape);
        if (h) print_hit("result", *h);
        else std::fprintf(stderr, " result: miss\n");
        fail(what);
    };
    // The variant dispatch must give the very same answer as the direct call.
    if (!same_hit(h, cast(ray, Shape<T>(shape), t_min, t_max)))
        broken("cast(ray, Shape<T>) differs from the direct cast");
    // pick() is first_surface() of that hit, bit for bit, however it computes it (the sphere's and
    // the capsule's compute only the one normal), directly and through the variant.
    const std::optional<SurfaceHit<T>> first = h ? first_surface(ray, *h, t_min, t_max) : std::nullopt;
    if (!same_surface(pick(ray, shape, t_min, t_max), first)) broken("pick() differs from first_surface(cast())");
    if (!same_surface(pick(ray, Shape<T>(shape), t_min, t_max), first))
        broken("pick(ray, Shape<T>) differs from first_surface(cast())");
    if (!h) return h;
    const bool valid = is_valid(ray) && is_valid(shape) && t_min <= t_max;
    if (!valid) broken("hit on invalid input (ray, shape or t_min > t_max)");
    if (!is_finite(h->t_near) || !is_finite(h->t_far) || !is_finite(h->n_near) || !is_finite(h->n_far))
        broken("non-finite (NaN or inf) field in a hit");
    if (!(h->t_near <= h->t_far)) broken("t_near > t_far");
    if (!is_unit(h->n_near)) broken("n_near is not unit length");
    if (!is_unit(h->n_far)) broken("n_far is not unit length");
    if (!(h->t_far >= t_min && h->t_near <= t_max)) broken("passage [t_near, t_far] does not overlap [t_min, t_max]");
    if (h->origin_inside != (h->t_near < T(0) && T(0) < h->t_far))
        broken("origin_inside disagrees with t_near < 0 < t_far");
    // The entry and exit points lie in the shape's bounds (what a hierarchy relies on).
    for (const T t : {h->t_near, h->t_far})
        if (outside_bounds(ray, shape, t))
            broken(t == h->t_near ? "entry point origin + t_near * direction lies outside bounds(shape)"
                                  : "exit point origin + t_far * direction lies outside bounds(shape)");
    // Picking on top of it: the first surface point, when there is one, lies in the range.
    if (const auto s = first_surface(ray, *h, t_min, t_max)) {
        if (!(s->t >= t_min && s->t <= t_max)) broken("first_surface t outside [t_min, t_max]");
        if (!same_bits(s->t, h->t_near) && !same_bits(s->t, h->t_far))
            broken("first_surface t is neither t_near nor t_far");
        if (!is_unit(s->normal)) broken("first_surface normal is not unit length");
    }
    return h;
}

}  // namespace raypick::fuzz
