// Doubles to narrower floats, rounded to nearest even or toward zero (the
// FPRoundingMode a conversion may carry), for kDouble conversions and
// OpSpecConstantOp FConvert; and doubles (or floats) to integers, for
// kDouble and kWide.
#pragma once

#include <bit>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <limits>

#include "texel/float_formats.h"

namespace duet::spirv_exec {

// Toward zero an overflow gives the largest finite float.
inline float DoubleToFloat(double d, bool toward_zero) {
  float f = float(d);
  if (!toward_zero || std::isnan(d)) return f;
  if (std::isinf(f) && !std::isinf(d)) return std::copysign(FLT_MAX, f);
  if (std::fabs(double(f)) > std::fabs(d)) f = std::nextafter(f, 0.0f);
  return f;
}

// The half as the float of its value. Toward zero: truncating twice is
// truncating once. To nearest: the float is rounded to odd (its last bit
// set when inexact), which keeps the one rounding to half right.
inline float DoubleToHalf(double d, bool toward_zero) {
  float f = DoubleToFloat(d, true);
  if (toward_zero) return texel::RoundToHalf(f, true);
  if (std::isfinite(d) && double(f) != d) f = std::bit_cast<float>(std::bit_cast<uint32_t>(f) | 1u);
  return texel::RoundToHalf(f, false);
}

// NaN gives 0 and out-of-range values saturate: the spec leaves the result
// undefined there, and C++ would make the conversion undefined behaviour.
template <typename Int>
Int SaturatingToInteger(double d) {
  if (std::isnan(d)) return 0;
  if (d <= double(std::numeric_limits<Int>::min())) return std::numeric_limits<Int>::min();
  if (d >= double(std::numeric_limits<Int>::max())) return std::numeric_limits<Int>::max();
  return Int(d);
}

}  // namespace duet::spirv_exec
