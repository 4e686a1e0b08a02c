#version 450
// blend_pattern.frag's two colours as the two sources of dual-source
// blending (location 0, indices 0 and 1).
layout(push_constant) uniform Rect {
  vec4 bounds;
  vec4 color;
  float z;
  uint back;
  uint seed;
  uint mode;
} rect;
layout(location = 0, index = 0) out vec4 out0;
layout(location = 0, index = 1) out vec4 out1;
uint Hash(uint x, uint y, uint seed) {
  uint h = x * 0x9E3779B1u ^ y * 0x85EBCA77u ^ seed * 0xC2B2AE3Du;
  h ^= h >> 15;
  h *= 0x2C1B3C6Du;
  h ^= h >> 12;
  h *= 0x297A2D39u;
  h ^= h >> 15;
  return h;
}
vec4 Pattern(uint h) {
  const vec4 bytes = vec4(h & 255u, (h >> 8) & 255u, (h >> 16) & 255u, h >> 24);
  return rect.mode == 0u ? bytes / 255.0 : bytes / 64.0 - 1.0;
}
void main() {
  const uvec2 p = uvec2(gl_FragCoord.xy);
  out0 = Pattern(Hash(p.x, p.y, rect.seed));
  out1 = Pattern(Hash(p.x, p.y, rect.seed + 1u));
}
