// raypick scene: OBB rotations from Euler angles in degrees, the convention of the scene files'
// "euler_degrees".
#pragma once

#include "geometry/Math.h"

namespace raypick {

/// Rotation from Euler angles [x, y, z] in degrees: R = Rz(z) * Ry(y) * Rx(x), i.e. rotate about
/// the world X axis first, then Y, then Z (right-handed, counter-clockwise looking down the axis
/// towards the origin). Exact for multiples of 90 degrees: their cosines and sines are exactly
/// 0 and +-1, so every entry of R is exactly 0 or +-1.
Mat3<double> rotation_from_euler_degrees(const Vec3<double>& degrees);

}  // namespace raypick
