// Comparing shader float results with C++ references under the Vulkan
// spec's precision rules ("Precision and Operation of SPIR-V Instructions").
#pragma once

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstring>

namespace duet_test {

// The gap between adjacent floats at magnitude |v| (the spec's ULP).
inline double FloatUlp(double v) {
  v = std::fabs(v);
  if (v < FLT_MIN) return std::ldexp(1.0, -149);
  int exponent = 0;
  std::frexp(v, &exponent);  // v = m * 2^exponent, m in [0.5, 1)
  return std::ldexp(1.0, std::min(exponent, 128) - 24);
}

// Denormals may be flushed to zero on input and output (no DenormPreserve).
inline float FlushDenormal(float f) { return std::fabs(f) < FLT_MIN ? std::copysign(0.0f, f) : f; }

inline uint32_t Bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

inline float FromBits(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

// `got` is within `tolerance` of `reference`; NaN and infinite references
// must be matched exactly (NaN by any NaN); a denormal reference may come
// back as zero.
inline bool WithinTolerance(float got, double reference, double tolerance) {
  if (std::isnan(reference)) return std::isnan(got);
  if (std::isinf(reference)) return double(got) == reference;
  if (std::isnan(got)) return false;
  if (std::fabs(double(got) - reference) <= tolerance) return true;
  return std::fabs(reference) < FLT_MIN && got == 0.0f;
}

}  // namespace duet_test
