#version 450
// 64-bit integer arithmetic (shaderInt64) on pairs of edge and random
// values: each invocation computes every operation on (a, b) and writes
// the results as 64-bit values, which the test checks against C++. (Vulkan
// limits bit counts, bit fields and findLSB/MSB to 32 bits.)
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
layout(local_size_x = 16) in;
layout(set = 0, binding = 0) readonly buffer In { u64vec2 pairs[]; };
layout(set = 0, binding = 1) writeonly buffer Out { uint64_t r[]; };
const uint kResults = 40u;
void main() {
  const uint i = gl_GlobalInvocationID.x;
  const uint64_t a = pairs[i].x, b = pairs[i].y;
  const int64_t sa = int64_t(a), sb = int64_t(b);
  const uint64_t nonzero = b == 0ul ? 3ul : b;                              // a divisor
  const int64_t snonzero = sb == 0l || sb == -1l ? 7l : sb;                  // ... without INT64_MIN / -1
  const uint o = i * kResults;
  r[o + 0u] = a + b;
  r[o + 1u] = a - b;
  r[o + 2u] = a * b;
  r[o + 3u] = a / nonzero;
  r[o + 4u] = a % nonzero;
  r[o + 5u] = uint64_t(sa / snonzero);
  r[o + 6u] = a << (b & 63ul);
  r[o + 7u] = a >> (b & 63ul);
  r[o + 8u] = uint64_t(sa >> int(b & 63ul));
  r[o + 9u] = a & b;
  r[o + 10u] = a | b;
  r[o + 11u] = a ^ b;
  r[o + 12u] = ~a;
  r[o + 13u] = uint64_t(-sa);
  r[o + 14u] = uint64_t(sa < sb) | uint64_t(a < b) << 1 | uint64_t(a == b) << 2 | uint64_t(sa >= sb) << 3 |
               uint64_t(a <= b) << 4 | uint64_t(sa > sb) << 5 | uint64_t(a > b) << 6 | uint64_t(a != b) << 7 |
               uint64_t(sa <= sb) << 8 | uint64_t(a >= b) << 9;
  r[o + 15u] = uint64_t(min(sa, sb));
  r[o + 16u] = max(a, b);
  r[o + 17u] = uint64_t(max(sa, sb));
  r[o + 18u] = min(a, b);
  r[o + 19u] = uint64_t(abs(sa));
  r[o + 20u] = uint64_t(sign(sa));
  r[o + 21u] = a * 7ul - b;
  r[o + 22u] = a / 10ul;
  r[o + 23u] = uint64_t(sa / 1000l);
  r[o + 24u] = a % 1000000007ul;
  r[o + 25u] = uint64_t(floatBitsToUint(float(a)));
  r[o + 26u] = uint64_t(floatBitsToUint(float(sa)));
  r[o + 27u] = uint64_t(int64_t(float(int(b & 0xFFFFFul)) * -1024.5));
  r[o + 28u] = uint64_t(float(uint(b >> 40)) * 4096.0);
  r[o + 29u] = uint64_t(clamp(sa, -5l, 1000l));
  r[o + 30u] = clamp(a, 7ul, 0x100000000ul);
  r[o + 31u] = uint64_t(int64_t(int(a)));      // truncate, then sign-extend
  r[o + 32u] = uint64_t(uint(a >> 16));         // truncate, zero-extend
  r[o + 33u] = (a >> 32) * (b & 0xFFFFFFFFul);
  r[o + 34u] = uint64_t(sa / -3l);
  r[o + 35u] = a - (b << 3);
  r[o + 36u] = (a << 32) | (b >> 32);
  const u64vec3 v = u64vec3(a, b, a ^ 0x5555ul);
  r[o + 37u] = v[i % 3u] + v.zxy[(i + 1u) % 3u];  // dynamic extraction and a shuffle
  u64vec2 w = u64vec2(a, b);
  w[i & 1u] = 42ul;                               // dynamic insertion
  r[o + 38u] = w.x * 3ul + w.y;
  r[o + 39u] = sa > sb ? a : b;
}
