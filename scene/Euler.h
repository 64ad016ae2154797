// raypick scene: OBB rotations as Euler angles in degrees, the convention of the scene files'
// "euler_degrees" and of the demo's Inspector. Both directions, exact on quarter turns.
#pragma once

#include <raypick/geometry/Math.h>

namespace raypick {

/// Rotation from Euler angles [x, y, z] in degrees: R = Rz(z) * Ry(y) * Rx(x), i.e. rotate about
/// the world X axis first, then Y, then Z (right-handed, counter-clockwise looking down the axis
/// towards the origin). Exact for multiples of 90 degrees: their cosines and sines are exactly
/// 0 and +-1, so every entry of R is exactly 0 or +-1.
Mat3<double> rotation_from_euler_degrees(const Vec3<double>& degrees);

/// Euler angles [x, y, z] in degrees of a rotation, the inverse of rotation_from_euler_degrees():
/// x and z in [-180, 180], y in [-90, 90]. rotation_from_euler_degrees() of the result gives back
/// `rotation` (to rounding; exactly when its entries are exactly 0 and +-1, whose angles come out
/// as exact multiples of 90). At gimbal lock (cos y exactly 0, y = +-90: only x - z or x + z is
/// determined) z is 0 and x carries the whole turn. Never returns -0.
Vec3<double> euler_degrees_from_rotation(const Mat3<double>& rotation);

}  // namespace raypick
