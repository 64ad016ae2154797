// raypick scene: Euler angles <-> OBB rotation (R = Rz(z) * Ry(y) * Rx(x), degrees).
#include <raypick/scene/Euler.h>

#include <cmath>

namespace raypick {

namespace {

constexpr double kPi = 3.14159265358979323846;

/// cos and sin of an angle in degrees, exactly 0 and +-1 for multiples of 90 degrees.
void cos_sin_degrees(double deg, double& c, double& s) {
    const double r = std::fmod(deg, 360.0);
    const double q = r / 90.0;
    if (q == std::floor(q)) {
        const int k = ((int(q) % 4) + 4) % 4;
        const double cs[4] = {1, 0, -1, 0}, sn[4] = {0, 1, 0, -1};
        c = cs[k];
        s = sn[k];
        return;
    }
    const double rad = r * (kPi / 180.0);
    c = std::cos(rad);
    s = std::sin(rad);
}

/// atan2(y, x) in degrees, in [-180, 180]; exactly 0, 90, 180 or -90 when y or x is zero (0 when
/// both are).
double atan2_degrees(double y, double x) {
    if (y == 0.0) return x < 0.0 ? 180.0 : 0.0;
    if (x == 0.0) return y > 0.0 ? 90.0 : -90.0;
    return std::atan2(y, x) * (180.0 / kPi);
}

}  // namespace

Mat3<double> rotation_from_euler_degrees(const Vec3<double>& deg) {
    double cx, sx, cy, sy, cz, sz;
    cos_sin_degrees(deg.x, cx, sx);
    cos_sin_degrees(deg.y, cy, sy);
    cos_sin_degrees(deg.z, cz, sz);
    // glm is column-major: m[col][row].
    Mat3<double> rx(1.0), ry(1.0), rz(1.0);
    rx[1][1] = cx; rx[2][1] = -sx; rx[1][2] = sx; rx[2][2] = cx;
    ry[0][0] = cy; ry[2][0] = sy; ry[0][2] = -sy; ry[2][2] = cy;
    rz[0][0] = cz; rz[1][0] = -sz; rz[0][1] = sz; rz[1][1] = cz;
    return rz * ry * rx;
}

Vec3<double> euler_degrees_from_rotation(const Mat3<double>& m) {
    // With c = cos, s = sin, R = Rz Ry Rx is (row, col; glm indexes m[col][row]):
    //   R00 = cz cy   R01 = cz sy sx - sz cx   R02 = cz sy cx + sz sx
    //   R10 = sz cy   R11 = sz sy sx + cz cx   R12 = sz sy cx - cz sx
    //   R20 = -sy     R21 = cy sx              R22 = cy cx
    const double r00 = m[0][0], r10 = m[0][1], r20 = m[0][2];
    const double r01 = m[1][0], r11 = m[1][1];
    const double r02 = m[2][0], r12 = m[2][1];
    // cos y >= 0 (y in [-90, 90]) from the first column; z from R10, R00 unless cos y is 0.
    const double cos_y = std::hypot(r00, r10);
    const double y = atan2_degrees(-r20, cos_y);
    const double z = cos_y == 0.0 ? 0.0 : atan2_degrees(r10, r00);
    // x from Rz(z)^T R = Ry Rx, whose middle row is [0, cx, -sx]. Taking z's own cosine and sine
    // (those rotation_from_euler_degrees() will use) keeps R accurate near gimbal lock, where z
    // alone is ill-determined, and exact where z is a multiple of 90.
    double cz, sz;
    cos_sin_degrees(z, cz, sz);
    const double x = atan2_degrees(sz * r02 - cz * r12, cz * r11 - sz * r01);
    return Vec3<double>(x + 0.0, y + 0.0, z + 0.0);  // + 0.0 turns -0 into 0
}

}  // namespace raypick
