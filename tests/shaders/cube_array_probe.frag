#version 450
// Samples a cube array at level 0 with the direction (xyz) and cube (w)
// stored for this pixel (row-major, rect.seed pixels a row; drawn with rect.vert).
layout(push_constant) uniform Rect {
  vec4 bounds;
  vec4 color;
  float z;
  uint back;
  uint seed;
  uint mode;
} rect;
layout(set = 0, binding = 0) uniform samplerCubeArray cubes;
layout(set = 0, binding = 1, std430) readonly buffer Probes { vec4 directions[]; } probes;
layout(location = 0) out vec4 out_color;
void main() {
  const uvec2 p = uvec2(gl_FragCoord.xy);
  out_color = textureLod(cubes, probes.directions[p.y * rect.seed + p.x], 0.0);
}
