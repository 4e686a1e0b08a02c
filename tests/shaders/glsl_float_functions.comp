#version 450
// GLSL.std.450 float functions, one output slot each, for every input
// (x, y, z); the test compares with a C++ reference within the Vulkan
// spec's precision. Slot numbers must match glsl_float_test.cpp.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { vec4 v[]; };
layout(set = 0, binding = 1) writeonly buffer Out { float r[]; };
layout(push_constant) uniform Params { uint n; };
const uint kSlots = 48;

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= n) return;
  float x = v[i].x, y = v[i].y, z = v[i].z;
  uint o = i * kSlots;
  r[o + 0] = sin(x);
  r[o + 1] = cos(x);
  r[o + 2] = tan(x);
  r[o + 3] = asin(x);
  r[o + 4] = acos(x);
  r[o + 5] = atan(x);
  r[o + 6] = atan(y, x);
  r[o + 7] = sinh(x);
  r[o + 8] = cosh(x);
  r[o + 9] = tanh(x);
  r[o + 10] = asinh(x);
  r[o + 11] = acosh(x);
  r[o + 12] = atanh(x);
  r[o + 13] = exp(x);
  r[o + 14] = log(x);
  r[o + 15] = exp2(x);
  r[o + 16] = log2(x);
  r[o + 17] = sqrt(x);
  r[o + 18] = inversesqrt(x);
  r[o + 19] = pow(x, y);
  r[o + 20] = floor(x);
  r[o + 21] = ceil(x);
  r[o + 22] = fract(x);
  r[o + 23] = round(x);
  r[o + 24] = roundEven(x);
  r[o + 25] = trunc(x);
  r[o + 26] = abs(x);
  r[o + 27] = sign(x);
  r[o + 28] = min(x, y);
  r[o + 29] = max(x, y);
  r[o + 30] = clamp(x, min(y, z), max(y, z));
  r[o + 31] = mix(x, y, z);
  r[o + 32] = step(y, x);
  r[o + 33] = smoothstep(min(y, z), max(y, z), x);
  r[o + 34] = fma(x, y, z);
  r[o + 35] = ldexp(x, int(y));
  int e;
  r[o + 36] = frexp(x, e);
  r[o + 37] = float(e);
  float whole;
  r[o + 38] = modf(x, whole);
  r[o + 39] = whole;
  r[o + 40] = radians(x);
  r[o + 41] = degrees(x);
  r[o + 42] = x / y;
  r[o + 43] = mod(x, y);
  r[o + 44] = isnan(x) ? 1.0 : 0.0;
  r[o + 45] = isinf(x) ? 1.0 : 0.0;
  r[o + 46] = float(floatBitsToInt(x) >> 3);   // bit casts both ways
  r[o + 47] = intBitsToFloat(floatBitsToInt(y) ^ int(0x80000000));
}
