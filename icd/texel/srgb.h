// The sRGB transfer function of the Khronos Data Format Specification, which
// Vulkan uses for _SRGB formats (R, G and B only; alpha stays linear):
//   EOTF (decode)          L = V / 12.92                     for V <= 0.04045
//                          L = ((V + 0.055) / 1.055)^2.4     otherwise
//   inverse EOTF (encode)  V = 12.92 * L                     for L <= 0.0031308
//                          V = 1.055 * L^(1/2.4) - 0.055     otherwise
// Both are evaluated in double and rounded once to float. Every sRGB format
// in core Vulkan has 8-bit components, so the texel paths use tables: the 256
// decoded values, and for encoding the 255 linear values where the rounded
// 8-bit code steps up, which makes encoding exact (the code of
// round(inverse_EOTF(L) * 255), halves up) without a pow() per texel. Encoding
// is on the rasterizer's path to sRGB attachments, so a bucket table indexed
// by the float's exponent and top mantissa bits finds the code in one or two
// comparisons instead of a binary search.
#pragma once

#include <bit>
#include <cstdint>

namespace duet::texel {

float SrgbToLinear(float encoded);
float LinearToSrgb(float linear);

struct SrgbTables {
  // Floats below 2^-13 all encode as 0 (the first step is 1.5e-4); from there
  // to 1.0 each bucket holds the floats sharing their top 16 bits (exponent
  // and 7 mantissa bits), 128 buckets per octave.
  static constexpr uint32_t kFirstBucketBits = 0x39000000u;  // 2^-13
  static constexpr uint32_t kBucketCount = (0x3F800000u - kFirstBucketBits) >> 16;

  float decode[256];
  // step[k] is the smallest float L with inverse_EOTF(L) * 255 >= k + 0.5,
  // i.e. where the code becomes k + 1; step[255] = +Inf ends every search.
  float step[256];
  uint8_t bucket_code[kBucketCount];  // the code of each bucket's smallest float
};

// Built on first use (thread-safe); row functions fetch it once per row.
const SrgbTables& GetSrgbTables();

inline float DecodeSrgb8(const SrgbTables& tables, uint32_t code) { return tables.decode[code & 0xFF]; }

// The number of steps at or below L: the bucket's first code, then on past
// the steps inside the bucket (at most about one; the tables test checks the
// result against the formula). NaN and negative values encode as 0, values
// from 1.0 up (including +Inf) as 255.
inline uint8_t EncodeSrgb8(const SrgbTables& tables, float linear) {
  const uint32_t bits = std::bit_cast<uint32_t>(linear);
  if (!(bits >= SrgbTables::kFirstBucketBits && bits < 0x3F800000u)) {
    return bits >= 0x3F800000u && bits <= 0x7F800000u ? 255 : 0;  // [1, +Inf] or NaN/negative/tiny
  }
  unsigned code = tables.bucket_code[(bits - SrgbTables::kFirstBucketBits) >> 16];
  while (linear >= tables.step[code]) ++code;
  return static_cast<uint8_t>(code);
}

inline float SrgbToLinear8(uint8_t code) { return DecodeSrgb8(GetSrgbTables(), code); }
inline uint8_t LinearToSrgb8(float linear) { return EncodeSrgb8(GetSrgbTables(), linear); }

}  // namespace duet::texel
