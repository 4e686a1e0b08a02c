#version 450
// A depth comparison at the coordinates and reference stored for this
// pixel (u, v, reference; row-major, rect.seed pixels a row; rect.vert).
layout(push_constant) uniform Rect {
  vec4 bounds;
  vec4 color;
  float z;
  uint back;
  uint seed;
  uint mode;
} rect;
layout(set = 0, binding = 0) uniform sampler2DShadow shadow;
layout(set = 0, binding = 1, std430) readonly buffer Probes { vec4 coords[]; } probes;
layout(location = 0) out vec4 out_color;
void main() {
  const uvec2 p = uvec2(gl_FragCoord.xy);
  out_color = vec4(textureLod(shadow, probes.coords[p.y * rect.seed + p.x].xyz, 0.0));
}
