#include "texel/srgb.h"

#include <bit>
#include <cmath>
#include <limits>

namespace duet::texel {
namespace {

double Eotf(double v) { return v <= 0.04045 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4); }

double InverseEotf(double l) { return l <= 0.0031308 ? 12.92 * l : 1.055 * std::pow(l, 1.0 / 2.4) - 0.055; }

// The smallest float that is >= x.
float FloatAtOrAbove(double x) {
  const auto f = static_cast<float>(x);
  return static_cast<double>(f) < x ? std::nextafter(f, std::numeric_limits<float>::infinity()) : f;
}

SrgbTables BuildTables() {
  SrgbTables tables{};
  for (int code = 0; code < 256; ++code) tables.decode[code] = static_cast<float>(Eotf(code / 255.0));
  // The encoded value crosses k + 0.5 where the linear value crosses
  // EOTF((k + 0.5) / 255): the two formulas are each other's inverse on
  // both segments, and the tiny mismatch of their breakpoints (0.0031308 vs
  // 0.04045 / 12.92) lies far from any half code.
  for (int k = 0; k < 255; ++k) tables.step[k] = FloatAtOrAbove(Eotf((k + 0.5) / 255.0));
  tables.step[255] = std::numeric_limits<float>::infinity();
  for (uint32_t bucket = 0; bucket < SrgbTables::kBucketCount; ++bucket) {
    const float first = std::bit_cast<float>(SrgbTables::kFirstBucketBits + (bucket << 16));
    uint8_t code = 0;
    while (first >= tables.step[code]) ++code;
    tables.bucket_code[bucket] = code;
  }
  return tables;
}

}  // namespace

float SrgbToLinear(float encoded) { return static_cast<float>(Eotf(encoded)); }

float LinearToSrgb(float linear) { return static_cast<float>(InverseEotf(linear)); }

const SrgbTables& GetSrgbTables() {
  static const SrgbTables tables = BuildTables();
  return tables;
}

}  // namespace duet::texel
