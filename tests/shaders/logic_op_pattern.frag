#version 450
// Source colours for the logic-op tests (logic_op_test.cpp computes the
// same): bytes of a hash of the pixel position and the seed, as UNORM
// (k/255), float, sRGB, UINT and SNORM (k/127, never -128) outputs.
layout(push_constant) uniform Params { uint seed; } params;
layout(location = 0) out vec4 unorm_out;
layout(location = 1) out vec4 float_out;
layout(location = 2) out vec4 srgb_out;
layout(location = 3) out uvec4 uint_out;
layout(location = 4) out vec4 snorm_out;
uint Hash(uint x, uint y, uint seed) {
  uint h = x * 0x9E3779B1u ^ y * 0x85EBCA77u ^ seed * 0xC2B2AE3Du;
  h ^= h >> 15;
  h *= 0x2C1B3C6Du;
  h ^= h >> 13;
  return h;
}
void main() {
  const uvec2 p = uvec2(gl_FragCoord.xy);
  const uint h = Hash(p.x, p.y, params.seed);
  const uvec4 bytes = uvec4(h & 255u, (h >> 8) & 255u, (h >> 16) & 255u, h >> 24);
  unorm_out = vec4(bytes) / 255.0;
  float_out = vec4(bytes) / 256.0;
  srgb_out = vec4(bytes) / 255.0;
  uint_out = bytes;
  snorm_out = max(vec4(ivec4(bytes << 24) >> 24), vec4(-127.0)) / 127.0;
}
