#version 450
#extension GL_EXT_multiview : require
// What input_attachment_test.cpp reads back as input attachments: a colour
// and a code from a hash of the pixel, the view and the sample written
// (params.sample_index; negative: every sample), and a depth from the pixel
// and the view. The test computes the same values.
layout(push_constant) uniform Params { int sample_index; } params;
layout(location = 0) out vec4 color;
layout(location = 1) out uint code;
uint Hash(uint x, uint y, uint seed) {
  uint h = x * 0x9E3779B1u ^ y * 0x85EBCA77u ^ seed * 0xC2B2AE3Du;
  h ^= h >> 15;
  h *= 0x2C1B3C6Du;
  h ^= h >> 13;
  return h;
}
void main() {
  const uvec2 p = uvec2(gl_FragCoord.xy);
  const uint view = uint(gl_ViewIndex);
  const bool one_sample = params.sample_index >= 0;
  const uint h = Hash(p.x, p.y, 7u + view + (one_sample ? 100u + uint(params.sample_index) : 0u));
  color = vec4(uvec4(h & 255u, (h >> 8) & 255u, (h >> 16) & 255u, h >> 24)) / 255.0;
  code = h;
  gl_FragDepth = float(p.x * 64u + p.y + view * 1024u) / 4096.0;
  gl_SampleMask[0] = one_sample ? 1 << params.sample_index : -1;
}
