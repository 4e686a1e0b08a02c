// The body of the float_controls_*.comp shaders, which differ only in
// their execution modes: the same operations on 16-, 32- and 64-bit floats,
// some on denormals (flushed or kept) and some inexact (rounded to nearest
// even or toward zero). Each width's inputs: a denormal, 1, three quarters
// of 1's ulp, 3 and 10.
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_EXT_shader_16bit_storage : require
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) readonly buffer In {
  float f_denormal, f_one, f_quarter_ulps, f_three, f_ten;
  double d_denormal, d_one, d_quarter_ulps, d_three, d_ten;
  float16_t h_denormal, h_one, h_quarter_ulps, h_three, h_ten;
} i;
// Per width: denormal * 1, abs, min(denormal, 1), denormal == 0, the
// denormal copied, 1 + 3/4 ulp, a quotient that is not exact, -1 - 3/4 ulp.
layout(set = 0, binding = 1) writeonly buffer Out {
  uint f[8];
  uint64_t d[8];
  uint h[8];
} o;
uint Bits32(float x) { return floatBitsToUint(x); }
uint64_t Bits64(double x) { return doubleBitsToUint64(x); }
uint Bits16(float16_t x) { return packFloat2x16(f16vec2(x, float16_t(0.0))); }
// One width's eight results; `w` names its inputs (f, d, h).
#define OPERATIONS(results, Bits, Float, w, numerator) \
  results[0] = Bits(i.w##_denormal * i.w##_one); \
  results[1] = Bits(abs(i.w##_denormal)); \
  results[2] = Bits(min(i.w##_denormal, i.w##_one)); \
  results[3] = uint(i.w##_denormal == Float(0.0)); \
  results[4] = Bits(i.w##_denormal); \
  results[5] = Bits(i.w##_one + i.w##_quarter_ulps); \
  results[6] = Bits(i.w##_##numerator / i.w##_three); \
  results[7] = Bits(-i.w##_one - i.w##_quarter_ulps)
void main() {
  OPERATIONS(o.f, Bits32, float, f, one);  // 1/3
  OPERATIONS(o.d, Bits64, double, d, ten);  // 10/3
  OPERATIONS(o.h, Bits16, float16_t, h, ten);
}
