#version 450
// The other side of narrow_interface.vert: 16-bit inputs (the ramp
// interpolated, so rounded to half when read) and 16-bit outputs to
// R16G16B16A16_SINT and _SFLOAT attachments, and the ramp as a float.
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_16bit_storage : require
layout(location = 0) in f16vec2 scaled;
layout(location = 1) flat in i16vec2 negated;
layout(location = 2) in float16_t ramp;
layout(location = 0) out i16vec4 integers;
layout(location = 1) out f16vec4 halves;
layout(location = 2) out float ramp_value;
void main() {
  integers = i16vec4(negated, negated.x / int16_t(3), int16_t(-1));
  halves = f16vec4(scaled, ramp, -scaled.x);
  ramp_value = float(ramp);
}
