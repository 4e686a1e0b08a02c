#version 450
// 8- and 16-bit storage (VK_KHR_8bit_storage, VK_KHR_16bit_storage): narrow
// scalars, vectors and structs read and written under std430 and scalar
// layouts, read from a std140 uniform block and push constants, and through
// a dynamically indexed array of buffers. Each of 64 invocations copies
// one struct from the std430 array into the scalar one, changing each
// member, and writes what it read elsewhere as 32-bit words.
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_16bit_storage : require
#extension GL_EXT_shader_8bit_storage : require
#extension GL_EXT_scalar_block_layout : require
layout(local_size_x = 64) in;
struct Mixed {
  uint8_t a;
  int16_t b;
  f16vec3 c;
  i8vec2 d;
  uint e;
};
layout(std430, set = 0, binding = 0) buffer Std430 { Mixed m[64]; uint16_t shorts[64]; uint8_t bytes[64]; } s430;
layout(scalar, set = 0, binding = 1) buffer Scalar { Mixed m[64]; } sc;
layout(std140, set = 0, binding = 2) uniform Ubo { f16vec4 h; i16vec4 s; u8vec4 b; float16_t arr[4]; } ubo;
layout(std430, set = 0, binding = 3) buffer Out { uint o[]; };
layout(std430, set = 0, binding = 4) buffer Halves { uint16_t v[]; } halves[2];
layout(push_constant) uniform Push { uint16_t p16; int8_t p8; f16vec2 ph; } pc;
void main() {
  const uint i = gl_LocalInvocationID.x;
  const Mixed m = s430.m[i];
  Mixed n;
  n.a = m.a + uint8_t(1);
  n.b = m.b * int16_t(-2);
  n.c = m.c * 2.0hf;
  n.d = m.d.yx;
  n.e = m.e ^ i;
  sc.m[i] = n;
  s430.shorts[i] = uint16_t(i * 1000u);
  s430.bytes[i] = uint8_t(i * 7u);
  const uint other = halves[(i + 1u) & 1u].v[i];
  halves[i & 1u].v[i] = uint16_t(m.b) ^ uint16_t(0x5A5A);
  const uint k = i & 3u;
  o[i * 8u + 0u] = uint(int(ubo.s[k]));
  o[i * 8u + 1u] = floatBitsToUint(float(ubo.h[k]));
  o[i * 8u + 2u] = uint(ubo.b[k]);
  o[i * 8u + 3u] = floatBitsToUint(float(ubo.arr[k]));
  o[i * 8u + 4u] = uint(pc.p16) + i;
  o[i * 8u + 5u] = uint(int(pc.p8));
  o[i * 8u + 6u] = floatBitsToUint(float(pc.ph.y));
  o[i * 8u + 7u] = other;
}
