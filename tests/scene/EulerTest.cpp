// Euler angles <-> OBB rotation: one conversion for the loader's "euler_degrees" and the demo's
// Inspector (the same bits), exact on quarter turns in both directions, an inverse that round-trips
// generic angles and handles gimbal lock, and no -0 angles.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <sstream>
#include <string>
#include <variant>
#include <vector>

#include <raypick/scene/Euler.h>
#include <raypick/scene/SceneFile.h>
#include "SceneTestUtil.h"

using namespace raypick;

namespace {

using Vec3d = Vec3<double>;

/// The nine entries' bit patterns, so that -0 and +0 differ.
std::vector<std::uint64_t> bits(const Mat3<double>& m) {
    std::vector<std::uint64_t> out;
    for (int c = 0; c < 3; ++c)
        for (int r = 0; r < 3; ++r) {
            std::uint64_t u;
            std::memcpy(&u, &m[c][r], sizeof u);
            out.push_back(u);
        }
    return out;
}

double max_difference(const Mat3<double>& a, const Mat3<double>& b) {
    double d = 0.0;
    for (int c = 0; c < 3; ++c)
        for (int r = 0; r < 3; ++r) d = std::max(d, std::fabs(a[c][r] - b[c][r]));
    return d;
}

/// The rotation the loader makes from "euler_degrees": [x, y, z].
Mat3<double> loaded_rotation(const Vec3d& e) {
    std::ostringstream text;
    text.precision(17);
    text << R"({"shapes": [{"type": "obb", "center": [0, 0, 0], "half_extents": [1, 1, 1], "euler_degrees": [)"
         << e.x << ", " << e.y << ", " << e.z << "]}]}";
    const Scene s = test::parse_ok(text.str());
    if (s.shapes.empty()) return Mat3<double>(1.0);
    return std::get<Obb<double>>(s.shapes[0].shape).rotation;
}

/// Every [x, y, z] whose angles are multiples of 90 from -360 to 450.
std::vector<Vec3d> quarter_turn_angles() {
    std::vector<Vec3d> out;
    for (int i = -4; i <= 5; ++i)
        for (int j = -4; j <= 5; ++j)
            for (int k = -4; k <= 5; ++k) out.emplace_back(90.0 * i, 90.0 * j, 90.0 * k);
    return out;
}

bool is_quarter_turn_angle(double a) { return a == 0.0 || a == 90.0 || a == -90.0 || a == 180.0; }

std::string text_of(const Vec3d& v) {
    std::ostringstream s;
    s << "(" << v.x << ", " << v.y << ", " << v.z << ")";
    return s.str();
}

}  // namespace

TEST(SceneEdit, EulerAnglesRoundTripAndMatchTheFileConvention) {
    for (const Vec3d& e : {Vec3d(0, 0, 0), Vec3d(10, 20, 30), Vec3d(-45, 60, 170), Vec3d(90, 0, 0), Vec3d(0, 0, 90)}) {
        const auto r = rotation_from_euler_degrees(e);
        EXPECT_LT(orthonormality_error(r), 1e-14);
        EXPECT_NEAR(glm::determinant(r), 1.0, 1e-14);
        const Vec3d back = euler_degrees_from_rotation(r);
        const auto r2 = rotation_from_euler_degrees(back);
        for (int i = 0; i < 3; ++i) EXPECT_LT(glm::length(r[i] - r2[i]), 1e-12);
        EXPECT_LT(glm::length(back - e), 1e-9);
    }
    // R = Rz * Ry * Rx: 90 degrees about Z maps x to y.
    const auto rz = rotation_from_euler_degrees(Vec3d(0, 0, 90));
    EXPECT_LT(glm::length(rz * Vec3d(1, 0, 0) - Vec3d(0, 1, 0)), 1e-15);
    // Rotate about X first, then Z: y -> z (by X) -> z (Z leaves it).
    const auto rxz = rotation_from_euler_degrees(Vec3d(90, 0, 90));
    EXPECT_LT(glm::length(rxz * Vec3d(0, 1, 0) - Vec3d(0, 0, 1)), 1e-15);
    // Gimbal lock still gives back an equivalent rotation.
    const auto g = rotation_from_euler_degrees(Vec3d(30, 90, 40));
    const auto g2 = rotation_from_euler_degrees(euler_degrees_from_rotation(g));
    for (int i = 0; i < 3; ++i) EXPECT_LT(glm::length(g[i] - g2[i]), 1e-6);
    // No negative zeros: the Inspector shows the angles, and "-0" would read as a turn.
    const double a = glm::radians(30.0);
    const Vec3d about_z =
        euler_degrees_from_rotation(Mat3<double>(Vec3d(std::cos(a), std::sin(a), 0), Vec3d(-std::sin(a), std::cos(a), 0), Vec3d(0, 0, 1)));
    for (int i = 0; i < 3; ++i) EXPECT_FALSE(std::signbit(about_z[i])) << "angle " << i << " is " << about_z[i];
}

// The loader builds an OBB's rotation from "euler_degrees" with the function the Inspector calls:
// the same angles give the same bits, on quarter turns and off them.
TEST(Euler, LoaderAndInspectorGiveTheSameBits) {
    const std::vector<Vec3d> angles = {
        {0, 0, 0},     {90, 0, 0},     {0, -90, 0},   {0, 0, 180},   {90, 90, 90},  {-270, 450, 360},
        {0, 30, 0},    {10, 20, 30},   {12.5, -33, 271}, {-45, 60, 170}, {30, 90, 40}, {1e-7, -1e-9, 359.99999},
        {0.1, 0.2, 0.3}, {-179.9, 89.9, 179.9}, {720.5, -1080.25, 45}};
    for (const Vec3d& e : angles) {
        const Mat3<double> loaded = loaded_rotation(e);
        EXPECT_EQ(bits(loaded), bits(rotation_from_euler_degrees(e))) << text_of(e);
        // The Inspector shows the loaded rotation's angles and rebuilds it from them.
        EXPECT_LT(max_difference(rotation_from_euler_degrees(euler_degrees_from_rotation(loaded)), loaded), 1e-15)
            << text_of(e);
    }
}

TEST(Euler, QuarterTurnsGiveExactEntries) {
    for (const Vec3d& e : quarter_turn_angles()) {
        const Mat3<double> r = rotation_from_euler_degrees(e);
        for (int c = 0; c < 3; ++c)
            for (int row = 0; row < 3; ++row)
                ASSERT_TRUE(r[c][row] == 0.0 || r[c][row] == 1.0 || r[c][row] == -1.0)
                    << text_of(e) << " entry [" << c << "][" << row << "] = " << r[c][row];
        EXPECT_EQ(glm::transpose(r) * r, Mat3<double>(1.0)) << text_of(e);
        EXPECT_EQ(glm::determinant(r), 1.0) << text_of(e);
    }
    // A quarter turn about Z maps x to y exactly; about X first, then Z: y -> z.
    EXPECT_EQ(rotation_from_euler_degrees(Vec3d(0, 0, 90)) * Vec3d(1, 0, 0), Vec3d(0, 1, 0));
    EXPECT_EQ(rotation_from_euler_degrees(Vec3d(90, 0, 90)) * Vec3d(0, 1, 0), Vec3d(0, 0, 1));
}

// Every quarter-turn rotation comes back as exact multiples of 90 (0, 90, -90 or 180, never -0)
// that rebuild exactly the same rotation; angles already in the inverse's ranges come back as they
// were, unless at gimbal lock.
TEST(Euler, QuarterTurnsComeBackAsExactAngles) {
    for (const Vec3d& e : quarter_turn_angles()) {
        const Mat3<double> r = rotation_from_euler_degrees(e);
        const Vec3d back = euler_degrees_from_rotation(r);
        for (int a = 0; a < 3; ++a) {
            EXPECT_TRUE(is_quarter_turn_angle(back[a])) << text_of(e) << " -> " << text_of(back);
            EXPECT_FALSE(back[a] == 0.0 && std::signbit(back[a])) << text_of(e) << " -> -0";
        }
        EXPECT_EQ(rotation_from_euler_degrees(back), r) << text_of(e) << " -> " << text_of(back);
    }
    for (double x : {-90.0, 0.0, 90.0, 180.0})
        for (double z : {-90.0, 0.0, 90.0, 180.0}) {
            const Vec3d e(x, 0.0, z);
            EXPECT_EQ(euler_degrees_from_rotation(rotation_from_euler_degrees(e)), e) << text_of(e);
        }
    EXPECT_EQ(euler_degrees_from_rotation(rotation_from_euler_degrees(Vec3d(0, 180, 0))), Vec3d(180, 0, 180));
    EXPECT_EQ(euler_degrees_from_rotation(rotation_from_euler_degrees(Vec3d(-270, 0, 270))), Vec3d(90, 0, -90));
}

TEST(Euler, GenericAnglesComeBackWithinANanodegree) {
    std::mt19937_64 rng(29);
    std::uniform_real_distribution<double> xz(-179.999, 179.999), y(-89.9, 89.9);
    for (int n = 0; n < 20000; ++n) {
        const Vec3d e(xz(rng), y(rng), xz(rng));
        const Mat3<double> r = rotation_from_euler_degrees(e);
        const Vec3d back = euler_degrees_from_rotation(r);
        for (int a = 0; a < 3; ++a) ASSERT_NEAR(back[a], e[a], 1e-9) << text_of(e) << " -> " << text_of(back);
        ASSERT_LT(max_difference(rotation_from_euler_degrees(back), r), 1e-15) << text_of(e);
    }
}

// At gimbal lock (y = +-90) only x - z (y = 90) or x + z (y = -90) is determined: z comes back 0
// and x carries the turn. Near it, where z alone is ill-determined, the rotation still comes back.
TEST(Euler, GimbalLockPutsTheTurnInX) {
    const Vec3d up = euler_degrees_from_rotation(rotation_from_euler_degrees(Vec3d(30, 90, 40)));
    EXPECT_NEAR(up.x, -10.0, 1e-12);
    EXPECT_EQ(up.y, 90.0);
    EXPECT_EQ(up.z, 0.0);
    EXPECT_FALSE(std::signbit(up.z));
    const Vec3d down = euler_degrees_from_rotation(rotation_from_euler_degrees(Vec3d(30, -90, 40)));
    EXPECT_NEAR(down.x, 70.0, 1e-12);
    EXPECT_EQ(down.y, -90.0);
    EXPECT_EQ(down.z, 0.0);
    for (const Vec3d& e : {Vec3d(30, 90, 40), Vec3d(30, -90, 40), Vec3d(-170, 90, 170), Vec3d(12, 89.9999999, -33),
                           Vec3d(12, -89.99999999999, 100), Vec3d(0, 90 - 1e-13, 45)}) {
        const Mat3<double> r = rotation_from_euler_degrees(e);
        EXPECT_LT(max_difference(rotation_from_euler_degrees(euler_degrees_from_rotation(r)), r), 1e-15)
            << text_of(e);
    }
    // A rotation built with plain cos and sin is a hair off gimbal lock (cos(pi/2) is 6e-17, not 0):
    // its angles come back as they were.
    const double rx = glm::radians(30.0), rz = glm::radians(40.0);
    const Mat3<double> plain = Mat3<double>(std::cos(rz), std::sin(rz), 0, -std::sin(rz), std::cos(rz), 0, 0, 0, 1) *
                               Mat3<double>(std::cos(glm::radians(90.0)), 0, -1, 0, 1, 0, 1, 0, std::cos(glm::radians(90.0))) *
                               Mat3<double>(1, 0, 0, 0, std::cos(rx), std::sin(rx), 0, -std::sin(rx), std::cos(rx));
    const Vec3d back = euler_degrees_from_rotation(plain);
    EXPECT_LT(glm::length(back - Vec3d(30, 90, 40)), 1e-9) << text_of(back);
    EXPECT_LT(max_difference(rotation_from_euler_degrees(back), plain), 1e-15);
}

TEST(Euler, NoNegativeZeroAngles) {
    // Signed zeros in the matrix (a turn of -0 degrees, entries negated to -0) read as 0.
    Mat3<double> m(1.0);
    for (int c = 0; c < 3; ++c)
        for (int r = 0; r < 3; ++r)
            if (m[c][r] == 0.0) m[c][r] = -0.0;
    for (const Mat3<double>& r : {m, rotation_from_euler_degrees(Vec3d(-0.0, -0.0, -0.0)),
                                  rotation_from_euler_degrees(Vec3d(-360, 0, -720))}) {
        const Vec3d e = euler_degrees_from_rotation(r);
        EXPECT_EQ(e, Vec3d(0.0));
        for (int a = 0; a < 3; ++a) EXPECT_FALSE(std::signbit(e[a])) << "angle " << a;
    }
    // Tiny angles of either sign stay tiny and keep their sign; only a zero is made positive.
    const Vec3d tiny = euler_degrees_from_rotation(rotation_from_euler_degrees(Vec3d(-1e-9, 1e-9, -1e-9)));
    EXPECT_LT(tiny.x, 0.0);
    EXPECT_GT(tiny.y, 0.0);
    EXPECT_LT(tiny.z, 0.0);
}
