#version 450
// Half-precision arithmetic: `rounds` rounds of a polynomial, a clamp and
// an accumulation per component of an f16vec4, the kind of code ML
// kernels and image filters run in fp16 (shaderFloat16, 16-bit storage).
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_16bit_storage : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) writeonly buffer Out { f16vec4 result[]; };
layout(push_constant) uniform Params { uint rounds; };
void main() {
  const uint id = gl_GlobalInvocationID.x;
  f16vec4 x = f16vec4(float16_t(id & 255u) * 0.00390625hf) + f16vec4(0.0hf, 0.25hf, 0.5hf, 0.75hf);
  f16vec4 acc = f16vec4(0.0hf);
  for (uint i = 0u; i < rounds; ++i) {
    x = clamp(x * x * 0.5hf - x * 0.25hf + 0.375hf, f16vec4(0.0hf), f16vec4(1.0hf));
    acc += x * 0.0625hf;
  }
  result[id] = acc;
}
