// Normalized and scaled fixed-point conversions, as the Vulkan spec's
// "Fixed-Point Data Conversions" defines them, for any bit count b:
//   UNORM -> float  f = c / (2^b - 1)
//   SNORM -> float  f = max(c / (2^(b-1) - 1), -1)
//   float -> UNORM  clamp to [0,1], c = round(f * (2^b - 1))
//   float -> SNORM  clamp to [-1,1], c = round(f * (2^(b-1) - 1))
// The spec leaves the rounding of ties open ("should round to nearest"); these
// round to nearest with ties to even, exactly, whatever the FPU's rounding
// mode. NaN converts to 0.
// Everything is constexpr and inline: the texel row functions call these per
// component, with b a compile-time constant.
#pragma once

#include <bit>
#include <cstdint>

namespace duet::texel {

// The b low bits set (b in 1..32).
constexpr uint32_t BitMask(unsigned bits) { return bits >= 32 ? 0xFFFFFFFFu : (1u << bits) - 1; }

// The low `bits` bits of v as a two's-complement number (bits in 1..32).
constexpr int32_t SignExtend(uint32_t v, unsigned bits) {
  const unsigned shift = 32 - bits;
  return static_cast<int32_t>(v << shift) >> shift;
}

// round(|x| * scale) with ties to even, exactly: x is finite and
// |x| * scale < 2^63. |x| = m * 2^e with a 24-bit m, so m * scale is an exact
// 64-bit product (scale < 2^32) and only the final shift rounds.
constexpr uint64_t MultiplyRoundEven(float x, uint32_t scale) {
  const uint32_t bits = std::bit_cast<uint32_t>(x) & 0x7FFFFFFFu;  // -0.0 included
  const uint32_t exponent_field = bits >> 23;
  uint64_t mantissa = bits & 0x7FFFFFu;
  if (exponent_field != 0) mantissa |= 0x800000u;
  const int exponent = static_cast<int>(exponent_field == 0 ? 1 : exponent_field) - 150;
  const uint64_t product = mantissa * scale;  // < 2^56
  if (exponent >= 0) return product << exponent;
  const unsigned shift = static_cast<unsigned>(-exponent);
  if (shift > 57) return 0;  // product < 2^56 is less than half a unit
  const uint64_t quotient = product >> shift;
  const uint64_t remainder = product & ((uint64_t{1} << shift) - 1);
  const uint64_t half = uint64_t{1} << (shift - 1);
  return quotient + ((remainder > half || (remainder == half && (quotient & 1))) ? 1 : 0);
}

// UNORM c (b in 1..32) to float, correctly rounded. For b <= 24 the product
// with the double reciprocal is within 2^-52 of c / (2^b - 1), which is never
// that close to a rounding boundary of float; wider values divide in long
// double, whose 64-bit mantissa keeps the same margin.
constexpr float UnormToFloat(uint32_t c, unsigned bits) {
  const uint32_t max = BitMask(bits);
  if (bits <= 24) return static_cast<float>(static_cast<double>(c) * (1.0 / static_cast<double>(max)));
  return static_cast<float>(static_cast<long double>(c) / static_cast<long double>(max));
}

// SNORM c (sign-extended, b in 2..32) to float; the most negative code maps
// to -1.0 like the code above it.
constexpr float SnormToFloat(int32_t c, unsigned bits) {
  const uint32_t max = BitMask(bits - 1);
  if (c <= -static_cast<int64_t>(max)) return -1.0f;
  if (bits <= 25) return static_cast<float>(static_cast<double>(c) * (1.0 / static_cast<double>(max)));
  return static_cast<float>(static_cast<long double>(c) / static_cast<long double>(max));
}

// round(x) with ties to even for 0 <= x < 2^32 when x + 0.5 is exact in
// double or x is far enough below 0.5 that its rounding cannot reach 1 (see
// FloatToUnorm). Truncating x + 0.5 rounds half up; an exact tie that landed
// on an odd integer steps back to the even one (the subtraction is exact, the
// two being within a factor of two). Independent of the FPU rounding mode.
constexpr uint32_t RoundHalfEven(double x) {
  auto rounded = static_cast<uint32_t>(x + 0.5);
  if (static_cast<double>(rounded) - x == 0.5 && (rounded & 1)) --rounded;
  return rounded;
}

// float to UNORM (b in 1..32): clamp to [0,1] (NaN -> 0), scale, round.
// For b <= 29 the double product x = f * (2^b - 1) is exact (24 + b bits),
// and so is x + 0.5 unless x is tiny (then it rounds to something below 1,
// giving 0 as it should); wider codes take the integer path. Ties need no
// fix-up from b = 2 on: f * (2^b - 1) is a half-integer only for f = 0.5
// (2^b - 1 is odd), and that tie, 2^(b-1) - 1/2, rounds up to the even 2^(b-1).
constexpr uint32_t FloatToUnorm(float f, unsigned bits) {
  const uint32_t max = BitMask(bits);
  if (!(f > 0.0f)) return 0;
  if (f >= 1.0f) return max;
  if (bits > 29) return static_cast<uint32_t>(MultiplyRoundEven(f, max));
  const double x = static_cast<double>(f) * max;
  return bits >= 2 ? static_cast<uint32_t>(x + 0.5) : RoundHalfEven(x);
}

// float to SNORM (b in 2..32): clamp to [-1,1] (NaN -> 0), scale, round
// symmetrically. Returns the sign-extended code; -1.0 gives -(2^(b-1) - 1).
constexpr int32_t FloatToSnorm(float f, unsigned bits) {
  const uint32_t max = BitMask(bits - 1);
  if (f != f) return 0;
  if (f >= 1.0f) return static_cast<int32_t>(max);
  if (f <= -1.0f) return -static_cast<int32_t>(max);
  // As for UNORM, the only tie is |f| = 0.5, which rounds up to an even code
  // from b = 3 on.
  const float magnitude_f = f < 0.0f ? -f : f;
  const double x = static_cast<double>(magnitude_f) * max;
  const auto magnitude = static_cast<int32_t>(bits > 30   ? MultiplyRoundEven(magnitude_f, max)
                                              : bits >= 3 ? static_cast<uint32_t>(x + 0.5)
                                                          : RoundHalfEven(x));
  return f < 0.0f ? -magnitude : magnitude;
}

// float to USCALED (b in 1..32): the integer nearest f, clamped to [0, 2^b - 1].
constexpr uint32_t FloatToUscaled(float f, unsigned bits) {
  const uint32_t max = BitMask(bits);
  if (!(f > 0.0f)) return 0;
  if (f >= static_cast<float>(max)) return max;
  return RoundHalfEven(f);
}

// float to SSCALED (b in 1..32): the integer nearest f, clamped to
// [-2^(b-1), 2^(b-1) - 1]. Returns the sign-extended value.
constexpr int32_t FloatToSscaled(float f, unsigned bits) {
  const int64_t max = BitMask(bits - 1);
  const int64_t min = -max - 1;
  if (f != f) return 0;
  if (f >= static_cast<float>(max)) return static_cast<int32_t>(max);
  if (f <= static_cast<float>(min)) return static_cast<int32_t>(min);
  const auto magnitude = static_cast<int64_t>(RoundHalfEven(f < 0.0f ? -f : f));
  return static_cast<int32_t>(f < 0.0f ? -magnitude : magnitude);
}

// The clamps the spec applies to integer texel values when a blit converts
// between integer formats: into the range of a b-bit component.
constexpr uint32_t ClampToUint(uint32_t v, unsigned bits) { return v > BitMask(bits) ? BitMask(bits) : v; }
constexpr int32_t ClampToSint(int32_t v, unsigned bits) {
  const int32_t max = static_cast<int32_t>(BitMask(bits - 1));
  const int32_t min = -max - 1;
  return v > max ? max : (v < min ? min : v);
}

}  // namespace duet::texel
