// The small floating-point encodings of texel formats:
//   16-bit float (1 sign, 5 exponent, 10 mantissa bits; IEEE 754 binary16)
//   unsigned 11-bit float (5 exponent, 6 mantissa bits) and
//   unsigned 10-bit float (5 exponent, 5 mantissa bits), as in B10G11R11
//   shared-exponent RGB (E5B9G9R9)
// as the Khronos Data Format Specification and the Vulkan spec's "Floating
// Point Format Conversions" and "RGB to Shared Exponent Conversion" define them.
//
// Narrowing rounds to nearest, ties to even (the spec leaves the mode open).
// Finite values too large for the format become infinity, which the spec
// allows as an alternative to the largest finite value, and which is what
// IEEE 754 rounding does. Unsigned formats turn negative values (and -0,
// -Inf) into 0. NaN stays NaN: the top mantissa bits are kept and the quiet
// bit is forced so a payload never collapses to infinity. Denormals are
// kept in both directions.
#pragma once

#include <bit>
#include <cstdint>

namespace duet::texel {
namespace float_detail {

// v >> shift, rounded to nearest with ties to even (shift in 1..31).
constexpr uint32_t ShiftRightRoundEven(uint32_t v, unsigned shift) {
  const uint32_t quotient = v >> shift;
  const uint32_t remainder = v & ((1u << shift) - 1);
  const uint32_t half = 1u << (shift - 1);
  return quotient + ((remainder > half || (remainder == half && (quotient & 1))) ? 1 : 0);
}

// A float magnitude (its bits without the sign) rounded to a float with a
// 5-bit exponent of bias 15 and `mantissa_bits` mantissa bits, returned as
// exponent << mantissa_bits | mantissa. All three small formats share this.
constexpr uint32_t MagnitudeToE5(uint32_t magnitude, unsigned mantissa_bits) {
  const uint32_t infinity = 0x1Fu << mantissa_bits;
  const unsigned dropped = 23 - mantissa_bits;
  if (magnitude >= 0x7F800000u) {
    if (magnitude == 0x7F800000u) return infinity;
    return infinity | (1u << (mantissa_bits - 1)) | ((magnitude & 0x7FFFFFu) >> dropped);
  }
  const int exponent = static_cast<int>(magnitude >> 23) - 127;
  if (exponent < -14) {
    // Below the smallest normal: count units of the smallest denormal,
    // 2^(-14 - mantissa_bits). A carry out of the mantissa lands on the
    // smallest normal, which is the right encoding.
    const unsigned shift = dropped + static_cast<unsigned>(-14 - exponent);
    if (shift >= 25) return 0;  // less than half the smallest denormal
    return ShiftRightRoundEven((magnitude & 0x7FFFFFu) | 0x800000u, shift);
  }
  // Rebias the exponent in place, then round off the low mantissa bits; a
  // carry moves into the exponent, and past the largest exponent is infinity.
  const uint32_t rebiased = magnitude - (static_cast<uint32_t>(127 - 15) << 23);
  const uint32_t rounded = ShiftRightRoundEven(rebiased, dropped);
  return rounded >= infinity ? infinity : rounded;
}

// The inverse of MagnitudeToE5: exact, since float covers every value.
constexpr float E5ToFloat(uint32_t encoded, unsigned mantissa_bits) {
  const uint32_t exponent = encoded >> mantissa_bits;
  const uint32_t mantissa = encoded & ((1u << mantissa_bits) - 1);
  const unsigned widen = 23 - mantissa_bits;
  if (exponent == 0) {
    // Denormal: mantissa * 2^(-14 - mantissa_bits), a power-of-two scale.
    const float unit = std::bit_cast<float>(static_cast<uint32_t>(127 - 14 - static_cast<int>(mantissa_bits)) << 23);
    return static_cast<float>(mantissa) * unit;
  }
  if (exponent == 31) return std::bit_cast<float>(0x7F800000u | (mantissa << widen));  // Inf or NaN
  return std::bit_cast<float>(((exponent + 127 - 15) << 23) | (mantissa << widen));
}

}  // namespace float_detail

constexpr uint16_t FloatToHalf(float f) {
  const uint32_t bits = std::bit_cast<uint32_t>(f);
  const uint32_t sign = (bits >> 16) & 0x8000u;
  return static_cast<uint16_t>(sign | float_detail::MagnitudeToE5(bits & 0x7FFFFFFFu, 10));
}

constexpr float HalfToFloat(uint16_t h) {
  const float magnitude = float_detail::E5ToFloat(h & 0x7FFFu, 10);
  return std::bit_cast<float>(std::bit_cast<uint32_t>(magnitude) | (static_cast<uint32_t>(h & 0x8000u) << 16));
}

// f rounded to the nearest half value (ties to even), or toward zero
// (where an overflow gives the largest finite half, 65504).
constexpr float RoundToHalf(float f, bool toward_zero) {
  uint16_t h = FloatToHalf(f);
  const float rounded = HalfToFloat(h);
  const bool outward = (rounded < 0 ? -rounded : rounded) > (f < 0 ? -f : f);
  if (toward_zero && f == f && outward) --h;
  return HalfToFloat(h);
}

// SPIR-V's OpQuantizeToF16: f rounded to half precision (ties to even);
// too large: an infinity; below the smallest normal half: zero of f's sign.
constexpr float QuantizeToHalf(float f) {
  const float quantized = HalfToFloat(FloatToHalf(f));
  if ((quantized < 0 ? -quantized : quantized) < 6.103515625e-05f)  // 2^-14
    return std::bit_cast<float>(std::bit_cast<uint32_t>(f) & 0x80000000u);
  return quantized;
}

namespace float_detail {
constexpr uint32_t FloatToUnsignedE5(float f, unsigned mantissa_bits) {
  const uint32_t bits = std::bit_cast<uint32_t>(f);
  const uint32_t magnitude = bits & 0x7FFFFFFFu;
  if ((bits & 0x80000000u) && magnitude <= 0x7F800000u) return 0;  // negative, -0 or -Inf; not NaN
  return MagnitudeToE5(magnitude, mantissa_bits);
}
}  // namespace float_detail

// Unsigned 11-bit float: largest finite value 65024, smallest denormal 2^-20.
constexpr uint32_t FloatToUfloat11(float f) { return float_detail::FloatToUnsignedE5(f, 6); }
constexpr float Ufloat11ToFloat(uint32_t bits) { return float_detail::E5ToFloat(bits & 0x7FFu, 6); }

// Unsigned 10-bit float: largest finite value 64512, smallest denormal 2^-19.
constexpr uint32_t FloatToUfloat10(float f) { return float_detail::FloatToUnsignedE5(f, 5); }
constexpr float Ufloat10ToFloat(uint32_t bits) { return float_detail::E5ToFloat(bits & 0x3FFu, 5); }

// E5B9G9R9: exponent in bits 31:27, blue 26:18, green 17:9, red 8:0.
inline constexpr float kRgb9e5Max = 65408.0f;  // (2^9 - 1) / 2^9 * 2^(31 - 15)

// The spec's algorithm step by step: clamp each component to
// [0, sharedexp_max] (NaN -> 0, as its note on minNum/maxNum says), take the
// preliminary exponent from the largest, bump it when the largest rounds up
// to 2^9, then round each component. Powers of two are applied exactly and the
// "+ 1/2" sums are exact in double, so floor() rounds as the spec writes it.
constexpr uint32_t EncodeRgb9e5(float red, float green, float blue) {
  constexpr auto clamp = [](float c) { return c > 0.0f ? (c < kRgb9e5Max ? c : kRgb9e5Max) : 0.0f; };
  const float r = clamp(red), g = clamp(green), b = clamp(blue);
  const float max_clamped = r > g ? (r > b ? r : b) : (g > b ? g : b);
  // exp' = floor(log2(max)) + B + 1 for max > 2^-(B+1), else 0; max is then
  // a normal float, so floor(log2(max)) is its unbiased exponent.
  int exponent = 0;
  if (max_clamped > 1.0f / 65536.0f) exponent = static_cast<int>(std::bit_cast<uint32_t>(max_clamped) >> 23) - 127 + 16;
  // 1 / 2^(exp - B - N) = 2^(24 - exp), built as a double from its bits.
  auto inverse_unit = [](int e) { return std::bit_cast<double>(static_cast<uint64_t>(1023 + 24 - e) << 52); };
  double scale = inverse_unit(exponent);
  const auto max_shared = static_cast<uint32_t>(static_cast<double>(max_clamped) * scale + 0.5);
  if (max_shared == 512) scale = inverse_unit(++exponent);
  const auto round = [scale](float c) { return static_cast<uint32_t>(static_cast<double>(c) * scale + 0.5); };
  return static_cast<uint32_t>(exponent) << 27 | round(b) << 18 | round(g) << 9 | round(r);
}

struct Rgb {
  float r, g, b;
};

// component * 2^(exp - B - N); exact in float.
constexpr Rgb DecodeRgb9e5(uint32_t packed) {
  const uint32_t exponent = packed >> 27;
  const float unit = std::bit_cast<float>((exponent + 127 - 24) << 23);
  return {static_cast<float>(packed & 0x1FFu) * unit, static_cast<float>((packed >> 9) & 0x1FFu) * unit,
          static_cast<float>((packed >> 18) & 0x1FFu) * unit};
}

}  // namespace duet::texel
