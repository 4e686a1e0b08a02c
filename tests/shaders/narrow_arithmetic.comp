#version 450
// 8- and 16-bit integer and 16-bit float arithmetic (shaderInt8,
// shaderInt16, shaderFloat16): each invocation takes two 32-bit words, cuts
// them into narrow values, computes every kind of operation on them and
// writes the results widened to 32 bits, which the test checks against C++.
#extension GL_EXT_shader_explicit_arithmetic_types : require
layout(local_size_x = 16) in;
layout(set = 0, binding = 0) readonly buffer In { uvec2 pairs[]; };
layout(set = 0, binding = 1) writeonly buffer Out { uint r[]; };
const uint kResults = 48u;
uint bits(float16_t h) { return uint(float16BitsToUint16(h)); }
void main() {
  const uint i = gl_GlobalInvocationID.x;
  const uint x = pairs[i].x, y = pairs[i].y;
  const uint16_t a = uint16_t(x), b = uint16_t(y);
  const int16_t sa = int16_t(a), sb = int16_t(b);
  const uint8_t c = uint8_t(x >> 16), d = uint8_t(y >> 16);
  const int8_t sc = int8_t(c), sd = int8_t(d);
  const float16_t fa = uint16BitsToFloat16(a), fb = uint16BitsToFloat16(b);
  const uint16_t nonzero = b == 0us ? 3us : b;
  const int16_t snonzero = sb == 0s || sb == -1s ? 7s : sb;
  const int8_t snonzero8 = sd == int8_t(0) || sd == int8_t(-1) ? int8_t(5) : sd;
  const uint o = i * kResults;
  r[o + 0u] = uint(a + b);
  r[o + 1u] = uint(a * b);
  r[o + 2u] = uint(a - b);
  r[o + 3u] = uint(a / nonzero);
  r[o + 4u] = uint(int(sa / snonzero));
  r[o + 5u] = uint(int(sa >> (b & 15us)));
  r[o + 6u] = uint(a >> (b & 15us));
  r[o + 7u] = uint(a << (b & 15us));
  r[o + 8u] = uint(~a);
  r[o + 9u] = uint(sa < sb) | uint(a < b) << 1 | uint(sa >= sb) << 2 | uint(a == b) << 3 | uint(sa > sb) << 4;
  r[o + 10u] = uint(int(min(sa, sb)));
  r[o + 11u] = uint(max(a, b));
  r[o + 12u] = uint(int(abs(sa)));
  r[o + 13u] = uint(int(clamp(sa, -100s, 100s)));
  r[o + 14u] = uint(a % nonzero);
  r[o + 15u] = uint(int(-sa));
  r[o + 16u] = uint(int(sa * sb));
  r[o + 17u] = uint(c + d);
  r[o + 18u] = uint(c * d);
  r[o + 19u] = uint(int(sc / snonzero8));
  r[o + 20u] = uint(int(sc >> (d & uint8_t(7))));
  r[o + 21u] = uint(sc < sd) | uint(c < d) << 1 | uint(sc <= sd) << 2 | uint(c != d) << 3;
  r[o + 22u] = uint(int(max(sc, sd)));
  r[o + 23u] = uint(int(int8_t(sa)));
  r[o + 24u] = uint(uint16_t(sc));
  r[o + 25u] = uint(int(int16_t(sc)));
  r[o + 26u] = uint(uint16_t(x * 3u));
  r[o + 27u] = floatBitsToUint(float(fa + fb));
  r[o + 28u] = floatBitsToUint(float(fa * fb));
  r[o + 29u] = floatBitsToUint(float(fa / fb));
  r[o + 30u] = bits(fa - fb);
  r[o + 31u] = bits(sqrt(abs(fa)));
  r[o + 32u] = bits(float16_t(float(x) * 0.001));
  r[o + 33u] = uint(fa < fb) | uint(fa == fb) << 1 | uint(isnan(fa)) << 2 | uint(isinf(fa)) << 3 | uint(fa >= fb) << 4;
  r[o + 34u] = uint(int(clamp(fa, -1000.0hf, 1000.0hf)));
  r[o + 35u] = bits(float16_t(sa));
  r[o + 36u] = bits(float16_t(c) * 0.5hf);
  r[o + 37u] = bits(min(fa, fb));
  r[o + 38u] = bits(floor(fa));
  r[o + 39u] = packFloat2x16(f16vec2(fa, fb));
  r[o + 40u] = pack32(u16vec2(b, a));
  r[o + 41u] = pack32(u8vec4(c, d, c ^ d, 7));
  r[o + 42u] = uint(unpack16(x).y);
  r[o + 43u] = uint(int(unpack8(int(y)).w));
  r[o + 44u] = bits(unpackFloat2x16(x).y);
  r[o + 45u] = uint(int((i16vec2(sa, sb) * 3s - i16vec2(1s)).y));
  r[o + 46u] = uint(uint16_t(fa < 0.0hf ? 0.0hf : min(fa, 60000.0hf)));
  f16vec3 v = f16vec3(fa, fb, 1.0hf);
  r[o + 47u] = bits(dot(v, v.zxy));
}
