#version 450
// 16-bit float arithmetic for ir_prepare's fusion of an operation with the
// rounding of its result: adds, subtracts, multiplies and divides (also of
// results overflowing to infinity, denormal and tied ones), accumulated
// in a loop, written as the floats of their half values.
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
layout(local_size_x = 48) in;
layout(push_constant) uniform Params {
  float scale;
  uint rounds;
} params;
layout(set = 0, binding = 0) buffer Out {
  float v[];
} result;
void main() {
  const uint id = gl_GlobalInvocationID.x;
  const float16_t x = float16_t(float(id) * params.scale - 20.0);
  const float16_t y = float16_t(params.scale) * float16_t(3.0);
  float16_t acc = float16_t(0.0);
  for (uint i = 0u; i < params.rounds; ++i) acc = acc * float16_t(1.5) + x / (y + float16_t(i));
  result.v[id * 4 + 0] = float(x * y);
  result.v[id * 4 + 1] = float(x - y * float16_t(0.001));
  result.v[id * 4 + 2] = float(x / y);
  result.v[id * 4 + 3] = float(acc);
}
