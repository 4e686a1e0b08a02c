#version 450
// 16-bit stage inputs and outputs (storageInputOutput16): attributes of
// R16G16_SFLOAT and R16G16_SINT formats, a flat signed 16-bit output that
// is negative, and an interpolated 16-bit float ramp.
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_16bit_storage : require
layout(location = 0) in vec2 position;
layout(location = 1) in f16vec2 half_pair;
layout(location = 2) in i16vec2 short_pair;
layout(location = 0) out f16vec2 scaled;
layout(location = 1) flat out i16vec2 negated;
layout(location = 2) out float16_t ramp;
void main() {
  gl_Position = vec4(position, 0.0, 1.0);
  scaled = half_pair * 3.0hf;
  negated = short_pair * int16_t(-2);
  ramp = float16_t(position.x + 1.0) * 50.0hf;
}
