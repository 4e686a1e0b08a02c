#version 450
// 8/16-bit specialization constants and the OpSpecConstantOp glslang makes
// of expressions on them (SConvert, SDiv, SLessThan, ShiftRightArithmetic
// on signed narrow values, FConvert to and from a 16-bit float), and
// degrees/radians of 16-bit floats (a multiplication by a 16-bit constant);
// a double specialization constant converted to float and half.
#extension GL_EXT_shader_explicit_arithmetic_types : require
layout(local_size_x = 1) in;
layout(constant_id = 0) const int16_t kShort = -3s;
layout(constant_id = 1) const float kFloat = 1.0;
layout(constant_id = 2) const int8_t kByte = int8_t(-100);
layout(constant_id = 3) const double kDouble = 1.0lf;
const float kFloatFromDouble = float(kDouble);
const float16_t kHalfFromDouble = float16_t(kDouble);
const int kWidened = int(kShort);
const int16_t kHalved = kShort / 2s;
const bool kLess = kShort < 1s;
const int16_t kShifted = kShort >> 1;
const float16_t kHalf = float16_t(kFloat);
const uint kByteWidened = uint(int(kByte));
layout(std430, set = 0, binding = 0) buffer In { uint x; } src;
layout(std430, set = 0, binding = 1) buffer Out { uint r[]; };
void main() {
  r[0] = uint(kWidened);
  r[1] = uint(int(kHalved));
  r[2] = kLess ? 1u : 0u;
  r[3] = uint(int(kShifted));
  r[4] = floatBitsToUint(float(kHalf));
  r[5] = kByteWidened;
  const float16_t h = uint16BitsToHalf(uint16_t(src.x));
  r[6] = uint(halfBitsToUint16(degrees(h)));
  r[7] = uint(halfBitsToUint16(radians(h)));
  r[8] = floatBitsToUint(kFloatFromDouble);
  r[9] = uint(halfBitsToUint16(kHalfFromDouble));
}
