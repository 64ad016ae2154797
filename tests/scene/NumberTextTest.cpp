// shortest(): the text the demo, the case checker and the reports show for a number reads back as
// exactly that number, and is no longer than it must be.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>

#include <raypick/scene/NumberText.h>

using namespace raypick;

namespace {

template <typename T, typename Bits> T from_bits(Bits b) {
    T v;
    std::memcpy(&v, &b, sizeof v);
    return v;
}

template <typename T> T parse(const std::string& s) {
    if constexpr (sizeof(T) == 4) return std::strtof(s.c_str(), nullptr);
    else return std::strtod(s.c_str(), nullptr);
}

/// Every finite value of T whose bits `bits()` draws reads back bit for bit (signed zeros,
/// subnormals and the largest values included).
template <typename T, typename Bits> void expect_round_trip(std::uint32_t seed) {
    std::mt19937_64 rng(seed);
    int checked = 0;
    for (int k = 0; k < 200000; ++k) {
        const T v = from_bits<T>(Bits(rng()));
        if (!std::isfinite(v)) continue;
        const std::string s = shortest(v);
        const T back = parse<T>(s);
        ASSERT_EQ(std::memcmp(&v, &back, sizeof v), 0) << "seed " << seed << ": " << s;
        ++checked;
    }
    EXPECT_GT(checked, 150000);
}

}  // namespace

TEST(NumberText, ShortestIsShort) {
    EXPECT_EQ(shortest(0.1), "0.1");
    EXPECT_EQ(shortest(0.15), "0.15");
    EXPECT_EQ(shortest(0.1f), "0.1");
    EXPECT_EQ(shortest(5.0), "5");
    EXPECT_EQ(shortest(-0.0), "-0");
    EXPECT_EQ(shortest(1e300), "1e+300");
    // One more digit than %.9g would give, where the double needs it.
    EXPECT_EQ(shortest(2.2508282274583307), "2.2508282274583307");
}

TEST(NumberText, NonFiniteValuesAreWords) {
    EXPECT_EQ(shortest(std::numeric_limits<double>::quiet_NaN()), "nan");
    EXPECT_EQ(shortest(std::numeric_limits<double>::infinity()), "inf");
    EXPECT_EQ(shortest(-std::numeric_limits<float>::infinity()), "-inf");
}

// The demo's drag fields format with printf: "%.{n}g" with n = significant_digits(v) must read back
// as v (and n must be no more than shortest() has).
TEST(NumberText, SignificantDigitsAreEnoughForPrintf) {
    EXPECT_EQ(significant_digits(1.0), 1);
    EXPECT_EQ(significant_digits(1000.0), 1);  // scientific shortest: 1e+03
    EXPECT_EQ(significant_digits(-0.15), 2);
    EXPECT_EQ(significant_digits(1.2345678901234), 14);
    EXPECT_EQ(significant_digits(-1.5000000000000004), 17);
    EXPECT_EQ(significant_digits(0.0), 1);
    EXPECT_EQ(significant_digits(std::numeric_limits<double>::infinity()), 1);
    std::mt19937_64 rng(20261126u);
    int checked = 0;
    for (int k = 0; k < 200000; ++k) {
        const double v = from_bits<double>(std::uint64_t(rng()));
        if (!std::isfinite(v)) continue;
        const int n = significant_digits(v);
        ASSERT_LE(n, 17);
        char buf[400];  // %g of up to 17 digits: at most 24 characters; the compiler assumes 310
        std::snprintf(buf, sizeof buf, "%.*g", n, v);
        ASSERT_EQ(std::strtod(buf, nullptr), v) << buf << " (" << n << " digits)";
        if (n > 1) {  // and one digit fewer is not enough
            std::snprintf(buf, sizeof buf, "%.*g", n - 1, v);
            ASSERT_NE(std::strtod(buf, nullptr), v) << buf << " (" << n - 1 << " digits)";
        }
        ++checked;
    }
    EXPECT_GT(checked, 150000);
}

TEST(NumberText, RandomDoublesReadBackExactly) { expect_round_trip<double, std::uint64_t>(20261125u); }
TEST(NumberText, RandomFloatsReadBackExactly) { expect_round_trip<float, std::uint32_t>(20261125u); }
TEST(NumberText, ExtremesReadBackExactly) {
    for (double v : {std::numeric_limits<double>::max(), std::numeric_limits<double>::min(),
                     std::numeric_limits<double>::denorm_min(), -std::numeric_limits<double>::max()})
        EXPECT_EQ(parse<double>(shortest(v)), v) << shortest(v);
    for (float v : {std::numeric_limits<float>::max(), std::numeric_limits<float>::min(),
                    std::numeric_limits<float>::denorm_min()})
        EXPECT_EQ(parse<float>(shortest(v)), v) << shortest(v);
}
