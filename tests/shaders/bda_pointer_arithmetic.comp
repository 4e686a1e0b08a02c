#version 460
// Pointer arithmetic of GL_EXT_buffer_reference2 and uint64_t casts, which
// GLSL compiles through 64-bit integers. shaderInt64 is not advertised; the
// compiler does exactly the 64-bit add, subtract, multiply, equality and
// width conversions that addresses need (carries included), and this shader
// checks those.
#extension GL_EXT_buffer_reference2 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
layout(local_size_x = 64) in;
layout(buffer_reference, std430, buffer_reference_align = 16) buffer Vec { uvec4 v; };
layout(buffer_reference, std430, buffer_reference_align = 8) buffer Wide { u64vec2 w[]; };
layout(push_constant) uniform Push {
  Vec base;      // element 64 of an array of 128 uvec4
  uint64_t raw;  // the same address as an integer
  Wide wide;     // 64 results of two 64-bit words
  uint n;
} pc;
void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= pc.n) return;
  Vec forward = pc.base + i;
  Vec back = pc.base[-1 - int(i)];
  Vec from_int = Vec(pc.raw + uint64_t(i) * 16ul);
  uint distance = uint(uint64_t(forward) - uint64_t(pc.base));
  uint same = uint64_t(back) == pc.raw - 16ul * uint64_t(i + 1u) ? 1000000u : 0u;
  forward.v.w = forward.v.x + back.v.y + from_int.v.z + distance * 1000u + same;
  // Carries across the words, sign extension, and a product past 32 bits.
  pc.wide.w[i] = u64vec2(0xFFFFFFF0ul + uint64_t(i) * 0x100000001ul, uint64_t(int64_t(int(i) - 40)) * 3ul);
}
