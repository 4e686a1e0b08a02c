#version 460
// 8- and 16-bit scalars through buffer device addresses: each invocation
// reads a half, a short and a byte at its index and writes them changed,
// packed the other way round; the last buffer's end is exact, so the last
// reads are at its final bytes.
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_16bit_storage : require
#extension GL_EXT_shader_8bit_storage : require
layout(local_size_x = 64) in;
layout(buffer_reference, std430, buffer_reference_align = 2) buffer Halves { float16_t h[]; };
layout(buffer_reference, std430, buffer_reference_align = 2) buffer Shorts { int16_t s[]; };
layout(buffer_reference, std430, buffer_reference_align = 1) buffer Bytes { uint8_t b[]; };
layout(push_constant) uniform Push {
  Halves halves;  // n halves, then n written
  Shorts shorts;  // n shorts, then n written
  Bytes bytes;    // n bytes, then n written
  uint n;
} pc;
void main() {
  const uint i = gl_GlobalInvocationID.x;
  if (i >= pc.n) return;
  pc.halves.h[pc.n + i] = pc.halves.h[i] * -3.0hf;
  pc.shorts.s[pc.n + i] = pc.shorts.s[i] >> 3s;
  pc.bytes.b[pc.n + i] = pc.bytes.b[i] + uint8_t(pc.bytes.b[(i + 1u) % pc.n]);
}
