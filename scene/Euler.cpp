// raypick scene: Euler angles -> OBB rotation (R = Rz(z) * Ry(y) * Rx(x), degrees).
#include "scene/Euler.h"

#include <cmath>

namespace raypick {

namespace {

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
    const double rad = r * (3.14159265358979323846 / 180.0);
    c = std::cos(rad);
    s = std::sin(rad);
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

}  // namespace raypick
