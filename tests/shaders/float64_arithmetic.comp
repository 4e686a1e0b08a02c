#version 450
// 64-bit floats (shaderFloat64): arithmetic, GLSL.std.450, conversions to
// and from every width, vector and matrix forms and subgroup reductions,
// on pairs (x, y) read from a buffer (so nothing folds at compile time).
// r[kResults * i + k] as shader_float64_test.cpp expects.
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) readonly buffer In { dvec2 v[]; } src;
layout(std430, set = 0, binding = 1) writeonly buffer Out { double r[]; } dst;
const uint kResults = 40u;
void main() {
  const uint i = gl_GlobalInvocationID.x;
  const double x = src.v[i].x, y = src.v[i].y;
  double o[kResults];
  o[0] = x + y;
  o[1] = x - y;
  o[2] = x * y;
  o[3] = x / y;
  o[4] = fma(x, y, x);
  o[5] = sqrt(abs(x));
  o[6] = floor(x);
  o[7] = ceil(x);
  o[8] = trunc(x);
  o[9] = roundEven(x);
  o[10] = fract(x);
  o[11] = mod(x, y);
  o[12] = min(x, y);
  o[13] = max(x, y);
  o[14] = clamp(x, -1.0lf, 1.0lf);
  o[15] = mix(x, y, 0.25lf);
  o[16] = step(x, y);
  o[17] = sign(x);
  o[18] = double(float(x));
  o[19] = double(int(clamp(x, -1e9lf, 1e9lf)));
  o[20] = ldexp(x, 3);
  int e;
  o[21] = frexp(x, e);
  o[22] = double(e);
  double whole;
  o[23] = modf(x, whole);
  o[24] = whole;
  o[25] = inversesqrt(abs(x) + 1.0lf);
  o[26] = (x < y) ? 1.0lf : 0.0lf;
  o[27] = (x != y) ? 1.0lf : 0.0lf;
  o[28] = isnan(x * y) ? 1.0lf : 0.0lf;
  o[29] = double(int64_t(clamp(x, -1e18lf, 1e18lf)));
  o[30] = double(float16_t(x));
  o[31] = dot(dvec3(x, y, 1.0lf), dvec3(y, x, 2.0lf));
  o[32] = length(dvec2(x, y));
  o[33] = cross(dvec3(x, y, 1.0lf), dvec3(1.0lf, x, y)).x;
  const dmat2 m = dmat2(x, y, 1.0lf, 2.0lf);
  o[34] = determinant(m);
  o[35] = inverse(m)[0][0];
  o[36] = (m * dvec2(x, y)).x;
  const uvec2 words = unpackDouble2x32(x);
  o[37] = packDouble2x32(uvec2(words.x, words.y ^ 0x80000000u));
  o[38] = subgroupAdd(double(i & 63u) * 0.5lf);
  o[39] = double(uint(clamp(abs(x), 0.0lf, 4e9lf))) + double(uint64_t(clamp(abs(y), 0.0lf, 1e19lf)));
  for (uint k = 0u; k < kResults; ++k) dst.r[i * kResults + k] = o[k];
}
