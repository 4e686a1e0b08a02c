// GLSL.std.450 Pack* and Unpack*: normalized 8- and 16-bit fixed point and
// half floats. Rounding to fixed point is round() of the scaled value, as
// the GLSL spec writes it (halfway cases away from zero); NaN packs as 0.
#include <spirv/unified1/GLSL.std.450.h>

#include <algorithm>
#include <cmath>

#include "spirv_exec/glsl_std450.h"
#include "spirv_exec/interpreter_lanes.h"
#include "texel/float_formats.h"

namespace duet::spirv_exec {
namespace {

using lanes::F;
using lanes::U;
using lanes::W;

// round(clamp(x, lo, 1) * scale) as an integer; NaN gives 0.
inline int32_t Quantize(float x, float lo, float scale) {
  if (std::isnan(x)) return 0;
  return static_cast<int32_t>(std::round(std::clamp(x, lo, 1.0f) * scale));
}

// Fields of `bits` bits, field 0 lowest.
template <typename Field>
void Pack(uint32_t components, uint32_t bits, uint32_t* dst, const uint32_t* src, LaneMask active, Field field) {
  const uint32_t mask = bits == 32 ? ~0u : (1u << bits) - 1u;
  lanes::ForActive(active, dst, [&](uint32_t l) {
    uint32_t packed = 0;
    for (uint32_t c = 0; c < components; ++c) packed |= (uint32_t(field(src[c * W + l])) & mask) << (c * bits);
    return packed;
  });
}

template <typename Value>
void Unpack(uint32_t components, uint32_t bits, uint32_t* dst, const uint32_t* src, LaneMask active, Value value) {
  const uint32_t mask = (1u << bits) - 1u;
  for (uint32_t c = 0; c < components; ++c)
    lanes::ForActive(active, dst + c * W, [&](uint32_t l) { return value((src[l] >> (c * bits)) & mask); });
}

// Sign-extends a `bits`-bit field.
inline int32_t Signed(uint32_t field, uint32_t bits) {
  const uint32_t sign = 1u << (bits - 1);
  return static_cast<int32_t>((field ^ sign) - sign);
}

}  // namespace

void ExecuteGlslPack(uint16_t op, uint32_t* dst, const uint32_t* src, LaneMask active) {
  switch (op) {
    case GLSLstd450PackSnorm4x8:
      Pack(4, 8, dst, src, active, [](uint32_t x) { return Quantize(F(x), -1.0f, 127.0f); });
      break;
    case GLSLstd450PackUnorm4x8:
      Pack(4, 8, dst, src, active, [](uint32_t x) { return Quantize(F(x), 0.0f, 255.0f); });
      break;
    case GLSLstd450PackSnorm2x16:
      Pack(2, 16, dst, src, active, [](uint32_t x) { return Quantize(F(x), -1.0f, 32767.0f); });
      break;
    case GLSLstd450PackUnorm2x16:
      Pack(2, 16, dst, src, active, [](uint32_t x) { return Quantize(F(x), 0.0f, 65535.0f); });
      break;
    case GLSLstd450PackHalf2x16:
      Pack(2, 16, dst, src, active, [](uint32_t x) { return texel::FloatToHalf(F(x)); });
      break;
    default: break;
  }
}

void ExecuteGlslUnpack(uint16_t op, uint32_t* dst, const uint32_t* src, LaneMask active) {
  switch (op) {
    case GLSLstd450UnpackSnorm4x8:
      Unpack(4, 8, dst, src, active,
             [](uint32_t f) { return U(std::max(float(Signed(f, 8)) / 127.0f, -1.0f)); });
      break;
    case GLSLstd450UnpackUnorm4x8:
      Unpack(4, 8, dst, src, active, [](uint32_t f) { return U(float(f) / 255.0f); });
      break;
    case GLSLstd450UnpackSnorm2x16:
      Unpack(2, 16, dst, src, active,
             [](uint32_t f) { return U(std::max(float(Signed(f, 16)) / 32767.0f, -1.0f)); });
      break;
    case GLSLstd450UnpackUnorm2x16:
      Unpack(2, 16, dst, src, active, [](uint32_t f) { return U(float(f) / 65535.0f); });
      break;
    case GLSLstd450UnpackHalf2x16:
      Unpack(2, 16, dst, src, active, [](uint32_t f) { return U(texel::HalfToFloat(uint16_t(f))); });
      break;
    default: break;
  }
}

}  // namespace duet::spirv_exec
