#version 450
// Narrow vectors packed into wider words (packFloat2x16, pack32, pack64:
// OpBitcast to fewer, wider components) from constants, which the optimizer
// folds, and from loaded values, which it does not.
#extension GL_EXT_shader_explicit_arithmetic_types : require
layout(local_size_x = 1) in;
layout(std430, set = 0, binding = 0) buffer In { uint x; } src;
layout(std430, set = 0, binding = 1) buffer Out { uint r[]; };
void main() {
  r[0] = packFloat2x16(f16vec2(2.0hf, 3.0hf));
  r[1] = packFloat2x16(f16vec2(2.0hf, -1.0hf)) + 1u;
  r[2] = pack32(u16vec2(0x1234us, 0xABCDus));
  r[3] = uint(pack32(i16vec2(-2s, 5s)));
  r[4] = pack32(u8vec4(1, 2, 0x83, 4));
  const uint64_t wide = pack64(u16vec4(1us, 2us, 3us, 0xFFFFus));
  r[5] = uint(wide);
  r[6] = uint(wide >> 32);
  const u16vec2 pair = u16vec2(pack16(u8vec2(0x12, 0x34)), pack16(i8vec2(-1, 2)));
  r[7] = pack32(pair);
  const uint x = src.x;
  r[8] = packFloat2x16(f16vec2(float16_t(x), float16_t(x + 1u)));
  r[9] = pack32(u8vec4(x, x + 1u, x + 2u, x + 3u));
}
