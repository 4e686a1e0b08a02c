// The numeric conversions under the texel codecs, against values and
// formulas from the Vulkan spec and the Khronos Data Format Specification,
// recomputed here independently (double arithmetic, brute-force searches,
// the compiler's own _Float16 where it has one).
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>

#include "texel/fixed_point.h"
#include "texel/float_formats.h"
#include "texel/srgb.h"

namespace duet::texel {
namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();
const float kNaN = std::numeric_limits<float>::quiet_NaN();

float FloatFromBits(uint32_t bits) { return std::bit_cast<float>(bits); }

// --- fixed point -------------------------------------------------------------

// The helpers are constexpr, so tables can be built at compile time.
static_assert(FloatToUnorm(0.5f, 8) == 128);
static_assert(FloatToSnorm(-1.0f, 8) == -127);
static_assert(UnormToFloat(255, 8) == 1.0f);
static_assert(FloatToHalf(1.0f) == 0x3C00);
static_assert(HalfToFloat(0x7BFF) == 65504.0f);
static_assert(FloatToUfloat11(65024.0f) == 0x7BF);
static_assert(EncodeRgb9e5(1.0f, 0.0f, 0.0f) == (16u << 27 | 256u));

TEST(TexelFixedPoint, UnormToFloatIsTheSpecQuotient) {
  EXPECT_EQ(UnormToFloat(128, 8), static_cast<float>(128.0 / 255.0));
  EXPECT_EQ(UnormToFloat(255, 8), 1.0f);
  for (unsigned bits = 1; bits <= 32; ++bits) {
    EXPECT_EQ(UnormToFloat(0, bits), 0.0f) << bits;
    EXPECT_EQ(UnormToFloat(BitMask(bits), bits), 1.0f) << bits;
  }
  for (unsigned bits : {8u, 16u}) {
    for (uint32_t c = 0; c <= BitMask(bits); ++c) {
      ASSERT_EQ(UnormToFloat(c, bits), static_cast<float>(static_cast<double>(c) / BitMask(bits))) << bits << " " << c;
    }
  }
  std::mt19937 rng(1);
  for (unsigned bits : {10u, 24u, 32u}) {
    for (int i = 0; i < 10000; ++i) {
      const uint32_t c = rng() & BitMask(bits);
      ASSERT_EQ(UnormToFloat(c, bits), static_cast<float>(static_cast<long double>(c) / BitMask(bits)));
    }
  }
}

TEST(TexelFixedPoint, SnormToFloatClampsTheMostNegativeCode) {
  EXPECT_EQ(SnormToFloat(-128, 8), -1.0f);
  EXPECT_EQ(SnormToFloat(-127, 8), -1.0f);
  EXPECT_EQ(SnormToFloat(127, 8), 1.0f);
  EXPECT_EQ(SnormToFloat(0, 8), 0.0f);
  EXPECT_EQ(SnormToFloat(-512, 10), -1.0f);
  EXPECT_EQ(SnormToFloat(-2, 2), -1.0f);
  EXPECT_EQ(SnormToFloat(1, 2), 1.0f);
  for (unsigned bits : {8u, 16u}) {
    const int32_t max = static_cast<int32_t>(BitMask(bits - 1));
    for (int32_t c = -max - 1; c <= max; ++c) {
      const double expected = std::max(static_cast<double>(c) / max, -1.0);
      ASSERT_EQ(SnormToFloat(c, bits), static_cast<float>(expected)) << bits << " " << c;
    }
  }
}

TEST(TexelFixedPoint, FloatToUnormRoundsToNearest) {
  EXPECT_EQ(FloatToUnorm(0.5f, 8), 128u);  // 127.5 -> 128
  EXPECT_EQ(FloatToUnorm(0.5f, 16), 32768u);  // 32767.5 -> 32768
  EXPECT_EQ(FloatToUnorm(0.5f, 1), 0u);  // 0.5 -> 0, ties to even
  EXPECT_EQ(FloatToUnorm(0.5f, 2), 2u);  // 1.5 -> 2
  EXPECT_EQ(FloatToUnorm(-0.25f, 8), 0u);
  EXPECT_EQ(FloatToUnorm(-0.0f, 8), 0u);
  EXPECT_EQ(FloatToUnorm(1.5f, 8), 255u);
  EXPECT_EQ(FloatToUnorm(kInf, 8), 255u);
  EXPECT_EQ(FloatToUnorm(-kInf, 8), 0u);
  EXPECT_EQ(FloatToUnorm(kNaN, 8), 0u);
  EXPECT_EQ(FloatToUnorm(FloatFromBits(1), 8), 0u);  // the smallest denormal
  for (unsigned bits = 1; bits <= 32; ++bits) {
    EXPECT_EQ(FloatToUnorm(0.0f, bits), 0u);
    EXPECT_EQ(FloatToUnorm(1.0f, bits), BitMask(bits));
  }
  // Every code survives a round trip.
  for (unsigned bits : {1u, 2u, 4u, 5u, 6u, 8u, 10u, 16u}) {
    for (uint32_t c = 0; c <= BitMask(bits); ++c) ASSERT_EQ(FloatToUnorm(UnormToFloat(c, bits), bits), c);
  }
  // Random floats against round-half-even of the exact product (exact in
  // double for these widths).
  std::mt19937 rng(2);
  std::uniform_real_distribution<float> unit(0.0f, 1.0f);
  for (unsigned bits : {8u, 16u, 24u}) {
    for (int i = 0; i < 100000; ++i) {
      const float f = unit(rng);
      const double exact = static_cast<double>(f) * BitMask(bits);
      ASSERT_EQ(FloatToUnorm(f, bits), static_cast<uint32_t>(std::nearbyint(exact))) << f;
    }
  }
  // 0.5 is the only float in (0,1) whose product with an odd 2^b - 1 is a
  // tie: (2^b - 1) / 2 rounds to the even 2^(b-1).
  for (unsigned bits = 2; bits <= 32; ++bits) EXPECT_EQ(FloatToUnorm(0.5f, bits), 1u << (bits - 1)) << bits;
}

TEST(TexelFixedPoint, FloatToSnormIsSymmetric) {
  EXPECT_EQ(FloatToSnorm(-1.0f, 8), -127);
  EXPECT_EQ(FloatToSnorm(-2.0f, 8), -127);
  EXPECT_EQ(FloatToSnorm(1.0f, 8), 127);
  EXPECT_EQ(FloatToSnorm(0.0f, 8), 0);
  EXPECT_EQ(FloatToSnorm(-0.0f, 8), 0);
  EXPECT_EQ(FloatToSnorm(kNaN, 8), 0);
  EXPECT_EQ(FloatToSnorm(0.5f, 8), 64);    // 63.5 -> 64
  EXPECT_EQ(FloatToSnorm(-0.5f, 8), -64);  // -63.5 -> -64
  EXPECT_EQ(FloatToSnorm(-1.0f, 2), -1);
  EXPECT_EQ(FloatToSnorm(0.5f, 2), 0);    // 0.5 -> 0, ties to even
  EXPECT_EQ(FloatToSnorm(-0.5f, 2), 0);
  EXPECT_EQ(FloatToSnorm(0.5f, 3), 2);    // 1.5 -> 2
  EXPECT_EQ(FloatToSnorm(-0.5f, 32), -(1 << 30));
  EXPECT_EQ(FloatToSnorm(-1.0f, 32), -2147483647);
  for (unsigned bits : {2u, 8u, 10u, 16u}) {
    const int32_t max = static_cast<int32_t>(BitMask(bits - 1));
    for (int32_t c = -max; c <= max; ++c) ASSERT_EQ(FloatToSnorm(SnormToFloat(c, bits), bits), c);
    EXPECT_EQ(FloatToSnorm(SnormToFloat(-max - 1, bits), bits), -max);
  }
}

TEST(TexelFixedPoint, ScaledConversionsRoundAndClamp) {
  EXPECT_EQ(FloatToUscaled(2.5f, 8), 2u);
  EXPECT_EQ(FloatToUscaled(3.5f, 8), 4u);
  EXPECT_EQ(FloatToUscaled(300.0f, 8), 255u);
  EXPECT_EQ(FloatToUscaled(-5.0f, 8), 0u);
  EXPECT_EQ(FloatToUscaled(kNaN, 8), 0u);
  EXPECT_EQ(FloatToUscaled(1e12f, 32), 0xFFFFFFFFu);
  EXPECT_EQ(FloatToSscaled(-200.0f, 8), -128);
  EXPECT_EQ(FloatToSscaled(200.0f, 8), 127);
  EXPECT_EQ(FloatToSscaled(-2.5f, 8), -2);
  EXPECT_EQ(FloatToSscaled(-1.0f, 1), -1);
  EXPECT_EQ(FloatToSscaled(1.0f, 1), 0);
  EXPECT_EQ(FloatToSscaled(-1e12f, 32), INT32_MIN);
  EXPECT_EQ(FloatToSscaled(kNaN, 16), 0);
  EXPECT_EQ(FloatToSscaled(-0.0f, 16), 0);
  EXPECT_EQ(FloatToSscaled(-0.5f, 16), 0);  // ties to even
  EXPECT_EQ(FloatToSnorm(-1e-30f, 16), 0);
  EXPECT_EQ(ClampToUint(300, 8), 255u);
  EXPECT_EQ(ClampToSint(-300, 8), -128);
  EXPECT_EQ(ClampToSint(5, 2), 1);
  EXPECT_EQ(SignExtend(0x80, 8), -128);
  EXPECT_EQ(SignExtend(0x3, 2), -1);
  EXPECT_EQ(SignExtend(0x7FFFFFFF, 32), INT32_MAX);
}

// --- 16-bit float ---------------------------------------------------------------

TEST(TexelHalf, KnownEncodings) {
  EXPECT_EQ(FloatToHalf(1.0f), 0x3C00);
  EXPECT_EQ(FloatToHalf(-2.0f), 0xC000);
  EXPECT_EQ(FloatToHalf(0.0f), 0x0000);
  EXPECT_EQ(FloatToHalf(-0.0f), 0x8000);
  EXPECT_EQ(FloatToHalf(65504.0f), 0x7BFF);  // the largest half
  EXPECT_EQ(FloatToHalf(65519.0f), 0x7BFF);
  EXPECT_EQ(FloatToHalf(65520.0f), 0x7C00);  // halfway to 2^16 rounds to even: infinity
  EXPECT_EQ(FloatToHalf(1e6f), 0x7C00);
  EXPECT_EQ(FloatToHalf(-1e6f), 0xFC00);
  EXPECT_EQ(FloatToHalf(kInf), 0x7C00);
  EXPECT_EQ(FloatToHalf(-kInf), 0xFC00);
  EXPECT_EQ(FloatToHalf(std::ldexp(1.0f, -14)), 0x0400);  // smallest normal
  EXPECT_EQ(FloatToHalf(std::ldexp(1.0f, -24)), 0x0001);  // smallest denormal
  EXPECT_EQ(FloatToHalf(std::ldexp(1.0f, -25)), 0x0000);  // half of it: ties to even
  EXPECT_EQ(FloatToHalf(std::ldexp(1.5f, -25)), 0x0001);
  EXPECT_EQ(FloatToHalf(std::ldexp(3.0f, -25)), 0x0002);  // 1.5 units -> 2
  EXPECT_EQ(FloatToHalf(std::ldexp(1023.0f, -24)), 0x03FF);  // largest denormal
  EXPECT_EQ(FloatToHalf(-std::ldexp(1.0f, -24)), 0x8001);
  EXPECT_EQ(FloatToHalf(FloatFromBits(1)), 0x0000);  // float denormals vanish
  EXPECT_EQ(FloatToHalf(1.0f + std::ldexp(1.0f, -11)), 0x3C00);  // tie, even stays
  EXPECT_EQ(FloatToHalf(1.0f + std::ldexp(3.0f, -11)), 0x3C02);  // tie, odd rounds up
  EXPECT_EQ(HalfToFloat(0x7BFF), 65504.0f);
  EXPECT_EQ(HalfToFloat(0x0001), std::ldexp(1.0f, -24));
  EXPECT_EQ(HalfToFloat(0x03FF), std::ldexp(1023.0f, -24));
  EXPECT_EQ(HalfToFloat(0x7C00), kInf);
  EXPECT_EQ(HalfToFloat(0xFC00), -kInf);
  EXPECT_TRUE(std::signbit(HalfToFloat(0x8000)));
  EXPECT_TRUE(std::isnan(HalfToFloat(0x7E00)));
  EXPECT_TRUE(std::isnan(HalfToFloat(0x7C01)));
}

TEST(TexelHalf, NaNStaysNaN) {
  for (uint32_t bits : {0x7FC00000u, 0xFFC00000u, 0x7F800001u, 0x7FFFFFFFu, 0x7F802000u}) {
    const uint16_t h = FloatToHalf(FloatFromBits(bits));
    EXPECT_EQ(h & 0x7C00, 0x7C00) << std::hex << bits;
    EXPECT_NE(h & 0x03FF, 0) << std::hex << bits;
    EXPECT_EQ(h & 0x8000, (bits >> 16) & 0x8000);
  }
}

TEST(TexelHalf, EveryHalfRoundTrips) {
  for (uint32_t h = 0; h <= 0xFFFF; ++h) {
    const float f = HalfToFloat(static_cast<uint16_t>(h));
    if (std::isnan(f)) {
      EXPECT_TRUE(std::isnan(HalfToFloat(FloatToHalf(f))));
    } else {
      ASSERT_EQ(FloatToHalf(f), h) << std::hex << h;
    }
  }
}

#ifdef __FLT16_MAX__
// The compiler's conversion (IEEE round to nearest even) as the reference.
TEST(TexelHalf, MatchesTheCompilersFloat16) {
  auto reference = [](float f) {
    const auto h = static_cast<_Float16>(f);
    return std::bit_cast<uint16_t>(h);
  };
  std::mt19937 rng(3);
  for (int i = 0; i < 1000000; ++i) {
    const float f = FloatFromBits(rng());
    if (std::isnan(f)) continue;
    ASSERT_EQ(FloatToHalf(f), reference(f)) << std::hexfloat << f;
  }
  // Dense around the half range, where rounding matters.
  for (uint32_t bits = 0x33000000u; bits <= 0x47800000u; bits += 97) {
    ASSERT_EQ(FloatToHalf(FloatFromBits(bits)), reference(FloatFromBits(bits))) << std::hex << bits;
  }
}
#endif

// --- unsigned 11- and 10-bit floats ------------------------------------------------

// The nearest encoding by brute force: codes are monotone in value, infinity
// acting as the next step above the largest finite value (as IEEE rounding
// treats overflow); ties go to the even code.
uint32_t NearestUnsignedSmallFloat(float f, unsigned mantissa_bits, float (*decode)(uint32_t)) {
  const uint32_t infinity = 0x1Fu << mantissa_bits;
  auto value = [&](uint32_t code) {
    return code == infinity ? std::ldexp(1.0, 16) : static_cast<double>(decode(code));
  };
  if (std::isinf(f)) return infinity;
  uint32_t best = 0;
  for (uint32_t code = 1; code <= infinity; ++code) {
    const double d_best = std::fabs(value(best) - f);
    const double d_code = std::fabs(value(code) - f);
    if (d_code < d_best || (d_code == d_best && (code & 1) == 0)) best = code;
  }
  return best;
}

TEST(TexelSmallFloat, KnownValues) {
  EXPECT_EQ(Ufloat11ToFloat(0x7BF), 65024.0f);  // the largest 11-bit float
  EXPECT_EQ(Ufloat10ToFloat(0x3DF), 64512.0f);  // the largest 10-bit float
  EXPECT_EQ(FloatToUfloat11(65024.0f), 0x7BFu);
  EXPECT_EQ(FloatToUfloat10(64512.0f), 0x3DFu);
  EXPECT_EQ(FloatToUfloat11(1.0f), 0x3C0u);
  EXPECT_EQ(FloatToUfloat10(1.0f), 0x1E0u);
  EXPECT_EQ(Ufloat11ToFloat(0x001), std::ldexp(1.0f, -20));
  EXPECT_EQ(Ufloat10ToFloat(0x001), std::ldexp(1.0f, -19));
  EXPECT_EQ(FloatToUfloat11(65200.0f), 0x7BFu);  // below the halfway point 65280
  EXPECT_EQ(FloatToUfloat11(65280.0f), 0x7C0u);  // halfway, odd mantissa: up to infinity
  EXPECT_EQ(FloatToUfloat11(1e9f), 0x7C0u);
  EXPECT_EQ(FloatToUfloat11(kInf), 0x7C0u);
  EXPECT_EQ(FloatToUfloat10(kInf), 0x3E0u);
  EXPECT_EQ(Ufloat11ToFloat(0x7C0), kInf);
  EXPECT_EQ(Ufloat10ToFloat(0x3E0), kInf);
  // Negative values, -0 and -Inf become 0.
  EXPECT_EQ(FloatToUfloat11(-1.0f), 0u);
  EXPECT_EQ(FloatToUfloat11(-0.0f), 0u);
  EXPECT_EQ(FloatToUfloat11(-kInf), 0u);
  EXPECT_EQ(FloatToUfloat10(-65536.0f), 0u);
  EXPECT_EQ(FloatToUfloat10(-std::ldexp(1.0f, -19)), 0u);
  // NaN (of either sign) stays NaN.
  for (float nan : {kNaN, -kNaN, FloatFromBits(0x7F800001u)}) {
    EXPECT_TRUE(std::isnan(Ufloat11ToFloat(FloatToUfloat11(nan))));
    EXPECT_TRUE(std::isnan(Ufloat10ToFloat(FloatToUfloat10(nan))));
  }
  EXPECT_TRUE(std::isnan(Ufloat11ToFloat(0x7C1)));
  EXPECT_TRUE(std::isnan(Ufloat10ToFloat(0x3FF)));
}

TEST(TexelSmallFloat, EveryCodeRoundTrips) {
  for (uint32_t code = 0; code < 0x800; ++code) {
    const float f = Ufloat11ToFloat(code);
    if (!std::isnan(f)) {
      ASSERT_EQ(FloatToUfloat11(f), code) << code;
    }
  }
  for (uint32_t code = 0; code < 0x400; ++code) {
    const float f = Ufloat10ToFloat(code);
    if (!std::isnan(f)) {
      ASSERT_EQ(FloatToUfloat10(f), code) << code;
    }
  }
}

TEST(TexelSmallFloat, RoundsToNearestEven) {
  std::mt19937 rng(4);
  for (int i = 0; i < 3000; ++i) {
    // Magnitudes from below the smallest denormal to beyond the largest value.
    const float f = std::ldexp(std::uniform_real_distribution<float>(1.0f, 2.0f)(rng),
                               std::uniform_int_distribution<int>(-24, 17)(rng));
    ASSERT_EQ(FloatToUfloat11(f), NearestUnsignedSmallFloat(f, 6, Ufloat11ToFloat)) << std::hexfloat << f;
    ASSERT_EQ(FloatToUfloat10(f), NearestUnsignedSmallFloat(f, 5, Ufloat10ToFloat)) << std::hexfloat << f;
  }
  // Exact midpoints between neighbouring codes.
  for (uint32_t code = 0; code + 1 < 0x7C0; code += 7) {
    const double mid = (static_cast<double>(Ufloat11ToFloat(code)) + Ufloat11ToFloat(code + 1)) / 2;
    const auto f = static_cast<float>(mid);
    ASSERT_EQ(static_cast<double>(f), mid);
    ASSERT_EQ(FloatToUfloat11(f), (code & 1) ? code + 1 : code) << code;
  }
}

// --- shared exponent ---------------------------------------------------------------

// The spec's algorithm written with the C library's floor/log2/exp2.
uint32_t SpecRgb9e5(float red, float green, float blue) {
  const double max_value = 511.0 / 512.0 * std::exp2(16);
  auto clamp = [&](float c) { return std::isnan(c) ? 0.0 : std::max(0.0, std::min(max_value, static_cast<double>(c))); };
  const double r = clamp(red), g = clamp(green), b = clamp(blue);
  const double max_c = std::max({r, g, b});
  int exp_p = max_c > std::exp2(-16) ? static_cast<int>(std::floor(std::log2(max_c))) + 16 : 0;
  const double max_s = std::floor(max_c / std::exp2(exp_p - 24) + 0.5);
  const int exp_shared = max_s == 512 ? exp_p + 1 : exp_p;
  auto shared = [&](double c) { return static_cast<uint32_t>(std::floor(c / std::exp2(exp_shared - 24) + 0.5)); };
  return static_cast<uint32_t>(exp_shared) << 27 | shared(b) << 18 | shared(g) << 9 | shared(r);
}

TEST(TexelRgb9e5, KnownEncodings) {
  EXPECT_EQ(EncodeRgb9e5(0, 0, 0), 0u);
  EXPECT_EQ(EncodeRgb9e5(1, 1, 1), 16u << 27 | 256u << 18 | 256u << 9 | 256u);
  EXPECT_EQ(EncodeRgb9e5(1, 0, 0), 16u << 27 | 256u);
  EXPECT_EQ(EncodeRgb9e5(0, 0.5f, 0), 15u << 27 | 256u << 9);
  EXPECT_EQ(EncodeRgb9e5(65408, 65408, 65408), 31u << 27 | 511u << 18 | 511u << 9 | 511u);
  EXPECT_EQ(EncodeRgb9e5(1e10f, kInf, 0), 31u << 27 | 511u << 9 | 511u);  // clamped to sharedexp_max
  EXPECT_EQ(EncodeRgb9e5(kNaN, -1.0f, -kInf), 0u);  // NaN and negatives clamp to 0
  // 1.999 * 2^8 rounds up to 2^9: the exponent goes up by one.
  EXPECT_EQ(EncodeRgb9e5(1.999f, 0, 0), 17u << 27 | 256u);
  // Below 2^-16 the exponent stays 0.
  EXPECT_EQ(EncodeRgb9e5(std::ldexp(1.0f, -24), 0, 0), 1u);
  EXPECT_EQ(EncodeRgb9e5(std::ldexp(1.0f, -16), 0, 0), 256u);
  const Rgb one = DecodeRgb9e5(16u << 27 | 256u << 18 | 128u << 9 | 256u);
  EXPECT_EQ(one.r, 1.0f);
  EXPECT_EQ(one.g, 0.5f);
  EXPECT_EQ(one.b, 1.0f);
  const Rgb max = DecodeRgb9e5(0xFFFFFFFFu);
  EXPECT_EQ(max.r, 65408.0f);
  EXPECT_EQ(DecodeRgb9e5(1u).r, std::ldexp(1.0f, -24));
}

TEST(TexelRgb9e5, MatchesTheSpecAlgorithm) {
  std::mt19937 rng(5);
  auto random_component = [&]() {
    switch (rng() % 4) {
      case 0: return 0.0f;
      case 1: return std::uniform_real_distribution<float>(0.0f, 1.0f)(rng);
      case 2: return std::ldexp(std::uniform_real_distribution<float>(1.0f, 2.0f)(rng),
                                std::uniform_int_distribution<int>(-26, 17)(rng));
      default: return std::uniform_real_distribution<float>(-10.0f, 70000.0f)(rng);
    }
  };
  for (int i = 0; i < 200000; ++i) {
    const float r = random_component(), g = random_component(), b = random_component();
    ASSERT_EQ(EncodeRgb9e5(r, g, b), SpecRgb9e5(r, g, b)) << r << " " << g << " " << b;
  }
}

TEST(TexelRgb9e5, DecodedValuesEncodeToTheSameValues) {
  std::mt19937 rng(6);
  for (int i = 0; i < 100000; ++i) {
    const Rgb decoded = DecodeRgb9e5(rng());
    const Rgb again = DecodeRgb9e5(EncodeRgb9e5(decoded.r, decoded.g, decoded.b));
    ASSERT_EQ(again.r, decoded.r);
    ASSERT_EQ(again.g, decoded.g);
    ASSERT_EQ(again.b, decoded.b);
  }
}

// --- sRGB --------------------------------------------------------------------------

double ReferenceEotf(double v) { return v <= 0.04045 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4); }
double ReferenceInverseEotf(double l) {
  return l <= 0.0031308 ? 12.92 * l : 1.055 * std::pow(l, 1.0 / 2.4) - 0.055;
}
// round(inverse_EOTF(L) * 255), L clamped to [0,1].
uint32_t ReferenceEncode8(float linear) {
  const double l = std::isnan(linear) ? 0.0 : std::clamp(static_cast<double>(linear), 0.0, 1.0);
  return static_cast<uint32_t>(std::floor(ReferenceInverseEotf(l) * 255.0 + 0.5));
}

TEST(TexelSrgb, DecodeTableFollowsTheEotf) {
  EXPECT_EQ(SrgbToLinear8(0), 0.0f);
  EXPECT_EQ(SrgbToLinear8(255), 1.0f);
  EXPECT_NEAR(SrgbToLinear8(188), 0.5, 0.003);
  EXPECT_NEAR(SrgbToLinear8(10), 10 / 255.0 / 12.92, 1e-9);  // linear segment
  for (int code = 0; code < 256; ++code) {
    ASSERT_EQ(SrgbToLinear8(static_cast<uint8_t>(code)), static_cast<float>(ReferenceEotf(code / 255.0))) << code;
    ASSERT_EQ(SrgbToLinear(code / 255.0f), static_cast<float>(ReferenceEotf(static_cast<float>(code / 255.0f))));
  }
}

TEST(TexelSrgb, EncodeInvertsDecodeForEveryCode) {
  for (int code = 0; code < 256; ++code) {
    ASSERT_EQ(LinearToSrgb8(SrgbToLinear8(static_cast<uint8_t>(code))), code);
    ASSERT_NEAR(LinearToSrgb(SrgbToLinear8(static_cast<uint8_t>(code))), code / 255.0, 1e-6);
  }
}

TEST(TexelSrgb, EncodeRoundsToNearest) {
  EXPECT_EQ(LinearToSrgb8(0.5f), 188);  // 187.52
  EXPECT_EQ(LinearToSrgb8(0.0f), 0);
  EXPECT_EQ(LinearToSrgb8(1.0f), 255);
  EXPECT_EQ(LinearToSrgb8(-1.0f), 0);
  EXPECT_EQ(LinearToSrgb8(2.0f), 255);
  EXPECT_EQ(LinearToSrgb8(kInf), 255);
  EXPECT_EQ(LinearToSrgb8(kNaN), 0);
  EXPECT_NEAR(LinearToSrgb(0.5f), 0.735357, 1e-6);
  EXPECT_FLOAT_EQ(LinearToSrgb(0.001f), 0.01292f);  // linear segment
  // Around every step the code changes exactly where the formula's rounding does.
  const SrgbTables& tables = GetSrgbTables();
  for (int k = 0; k < 255; ++k) {
    const float step = tables.step[k];
    const float below = std::nextafter(step, 0.0f);
    ASSERT_EQ(EncodeSrgb8(tables, step), k + 1);
    ASSERT_EQ(EncodeSrgb8(tables, below), k);
    ASSERT_EQ(ReferenceEncode8(step), static_cast<uint32_t>(k + 1)) << k;
    ASSERT_EQ(ReferenceEncode8(below), static_cast<uint32_t>(k)) << k;
  }
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> unit(-0.1f, 1.1f);
  for (int i = 0; i < 200000; ++i) {
    const float l = unit(rng);
    ASSERT_EQ(LinearToSrgb8(l), ReferenceEncode8(l)) << l;
  }
  // A sweep over the bit patterns of [0, 1], every bucket of the table many times.
  for (uint32_t bits = 0; bits <= 0x3F800000u; bits += 251) {
    const float l = FloatFromBits(bits);
    ASSERT_EQ(LinearToSrgb8(l), ReferenceEncode8(l)) << std::hexfloat << l;
  }
}

TEST(TexelSrgb, EncodeBucketsHoldAtMostTwoSteps) {
  const SrgbTables& tables = GetSrgbTables();
  EXPECT_GT(tables.step[0], FloatFromBits(SrgbTables::kFirstBucketBits));  // below the buckets is code 0
  for (uint32_t bucket = 0; bucket < SrgbTables::kBucketCount; ++bucket) {
    const float first = FloatFromBits(SrgbTables::kFirstBucketBits + (bucket << 16));
    const float last = FloatFromBits(SrgbTables::kFirstBucketBits + (bucket << 16) + 0xFFFF);
    ASSERT_EQ(tables.bucket_code[bucket], EncodeSrgb8(tables, first));
    ASSERT_LE(EncodeSrgb8(tables, last) - tables.bucket_code[bucket], 2) << bucket;
  }
}

}  // namespace
}  // namespace duet::texel
