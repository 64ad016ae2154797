// raypick geometry: exact signs of the orientation determinants, for the queries whose answer is a
// sign (is a point inside, on which side of a plane, which way round). Each is first computed in
// double with a bound on its rounding error (Shewchuk, "Adaptive Precision Floating-Point
// Arithmetic and Fast Robust Geometric Predicates", 1997, the A bounds); only when the bound does
// not settle the sign is it recomputed exactly, in expansion arithmetic (sums of non-overlapping
// doubles: two_sum, two_product by fma), which is rare and slower.
//
// Range: the exact recomputation first scales its inputs by the power of two that brings the
// largest to [1/2, 1) (exact, no overflow and no underflow of the products that matter), so the
// signs are exact for every finite input whose non-zero coordinate differences are at least
// 2^-240 times the largest magnitude involved — always for float input converted to double.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <vector>

namespace raypick::exact {

namespace detail {

/// a + b = s + e exactly (Knuth's two-sum).
inline void two_sum(double a, double b, double& s, double& e) {
    s = a + b;
    const double bv = s - a, av = s - bv;
    e = (a - av) + (b - bv);
}
/// a * b = p + e exactly (while the product neither overflows nor underflows).
inline void two_product(double a, double b, double& p, double& e) {
    p = a * b;
    e = std::fma(a, b, -p);
}

/// A sum of non-overlapping doubles in increasing magnitude, zeros left out: the exact value of
/// the expression built with it.
struct Expansion {
    std::vector<double> c;

    Expansion() = default;
    explicit Expansion(double v) {
        if (v != 0.0) c.push_back(v);
    }
    /// this + b (Shewchuk's GROW-EXPANSION with zero elimination).
    void add(double b) {
        std::size_t m = 0;
        double q = b;
        for (std::size_t i = 0; i < c.size(); ++i) {
            double s, e;
            two_sum(q, c[i], s, e);
            q = s;
            if (e != 0.0) c[m++] = e;
        }
        c.resize(m);
        if (q != 0.0) c.push_back(q);
    }
    void add(const Expansion& e) {
        for (double v : e.c) add(v);
    }
    /// The sign of the exact value: its largest component's.
    int sign() const { return c.empty() ? 0 : (c.back() > 0.0 ? 1 : -1); }
};

/// a - b exactly, as an expansion of at most two terms.
inline Expansion difference(double a, double b) {
    double s, e;
    two_sum(a, -b, s, e);
    Expansion out(e);
    out.add(s);
    return out;
}

/// x * y exactly.
inline Expansion product(const Expansion& x, const Expansion& y) {
    Expansion out;
    for (double xi : x.c)
        for (double yj : y.c) {
            double p, e;
            two_product(xi, yj, p, e);
            out.add(e);
            out.add(p);
        }
    return out;
}

inline Expansion negated(Expansion x) {
    for (double& v : x.c) v = -v;
    return x;
}

constexpr double kEps = std::numeric_limits<double>::epsilon() / 2;  // 2^-53, the unit round-off
constexpr double kOrient2dBound = (3.0 + 16.0 * kEps) * kEps;
constexpr double kOrient3dBound = (7.0 + 56.0 * kEps) * kEps;

inline int sign_of(double v) { return (v > 0.0) - (v < 0.0); }

/// The exponent k for which 2^k times the largest |v| lies in [1/2, 1) (0 for all zeros).
template <std::size_t N> inline int unit_exponent(const double (&v)[N]) {
    double m = 0.0;
    for (double x : v) m = std::max(m, std::abs(x));
    int e = 0;
    if (m > 0.0) std::frexp(m, &e);
    return -e;
}
/// Each value times 2^k (exact while no result falls below the normal range).
template <std::size_t N> inline void scale_by(double (&v)[N], int k) {
    for (double& x : v) x = std::ldexp(x, k);
}

/// x + y, x - y.
inline Expansion sum(Expansion x, const Expansion& y) {
    x.add(y);
    return x;
}
inline Expansion minus(Expansion x, const Expansion& y) {
    x.add(negated(y));
    return x;
}

}  // namespace detail

/// The sign of (a - c) x (b - c) in the plane: +1 when a, b, c run counter-clockwise, -1 clockwise,
/// 0 when they are collinear, exactly (see the file comment for the range).
inline int orient2d(double ax, double ay, double bx, double by, double cx, double cy) {
    using namespace detail;
    const double left = (ax - cx) * (by - cy), right = (ay - cy) * (bx - cx);
    const double det = left - right;
    // The relative bound, and the least normal number for products rounded below it; overflow
    // (infinite or NaN det) fails both comparisons.
    const double bound = kOrient2dBound * (std::abs(left) + std::abs(right)) + std::numeric_limits<double>::min();
    if (det > bound || -det > bound) return sign_of(det);
    double v[6] = {ax, ay, bx, by, cx, cy};
    scale_by(v, unit_exponent(v));
    Expansion l = product(difference(v[0], v[4]), difference(v[3], v[5]));
    l.add(negated(product(difference(v[1], v[5]), difference(v[2], v[4]))));
    return l.sign();
}

/// The sign of (a - d) . ((b - d) x (c - d)): positive when d lies on the side of the plane of a,
/// b, c from which they run clockwise (below a counter-clockwise triangle seen from its normal
/// cross(b - a, c - a), which is what makes the product positive), 0 when the four points are
/// coplanar, exactly (see the file comment for the range).
template <typename V> inline int orient3d(const V& a, const V& b, const V& c, const V& d) {
    using namespace detail;
    const double adx = double(a[0]) - double(d[0]), ady = double(a[1]) - double(d[1]), adz = double(a[2]) - double(d[2]);
    const double bdx = double(b[0]) - double(d[0]), bdy = double(b[1]) - double(d[1]), bdz = double(b[2]) - double(d[2]);
    const double cdx = double(c[0]) - double(d[0]), cdy = double(c[1]) - double(d[1]), cdz = double(c[2]) - double(d[2]);
    const double bc = bdy * cdz - bdz * cdy, ca = cdy * adz - cdz * ady, ab = ady * bdz - adz * bdy;
    const double det = adx * bc + bdx * ca + cdx * ab;
    const double permanent = (std::abs(bdy * cdz) + std::abs(bdz * cdy)) * std::abs(adx) +
                             (std::abs(cdy * adz) + std::abs(cdz * ady)) * std::abs(bdx) +
                             (std::abs(ady * bdz) + std::abs(adz * bdy)) * std::abs(cdx);
    const double bound = kOrient3dBound * permanent + std::numeric_limits<double>::min();
    if (det > bound || -det > bound) return sign_of(det);
    // Exactly: the same expansion of the determinant by its first column, the points scaled.
    double v[12] = {double(a[0]), double(a[1]), double(a[2]), double(b[0]), double(b[1]), double(b[2]),
                    double(c[0]), double(c[1]), double(c[2]), double(d[0]), double(d[1]), double(d[2])};
    scale_by(v, unit_exponent(v));
    Expansion d0[3] = {difference(v[0], v[9]), difference(v[1], v[10]), difference(v[2], v[11])};
    Expansion d1[3] = {difference(v[3], v[9]), difference(v[4], v[10]), difference(v[5], v[11])};
    Expansion d2[3] = {difference(v[6], v[9]), difference(v[7], v[10]), difference(v[8], v[11])};
    const auto minor = [](const Expansion& p, const Expansion& q, const Expansion& r, const Expansion& s) {
        Expansion m = product(p, q);  // p q - r s
        m.add(negated(product(r, s)));
        return m;
    };
    Expansion sum = product(d0[0], minor(d1[1], d2[2], d1[2], d2[1]));
    sum.add(product(d1[0], minor(d2[1], d0[2], d2[2], d0[1])));
    sum.add(product(d2[0], minor(d0[1], d1[2], d0[2], d1[1])));
    return sum.sign();
}

}  // namespace raypick::exact
