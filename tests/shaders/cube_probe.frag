#version 450
// Samples the cube map at level 0 in the direction stored for this pixel
// (row-major, rect.seed pixels a row; drawn with rect.vert).
layout(push_constant) uniform Rect {
  vec4 bounds;
  vec4 color;
  float z;
  uint back;
  uint seed;
  uint mode;
} rect;
layout(set = 0, binding = 0) uniform samplerCube cube;
layout(set = 0, binding = 1, std430) readonly buffer Probes { vec4 directions[]; } probes;
layout(location = 0) out vec4 out_color;
void main() {
  const uvec2 p = uvec2(gl_FragCoord.xy);
  out_color = textureLod(cube, probes.directions[p.y * rect.seed + p.x].xyz, 0.0);
}
