#version 450
// Patches of four control points, passed on, with the tessellation levels
// the test pushes.
layout(vertices = 4) out;
layout(push_constant) uniform Levels {
  vec4 outer;
  vec2 inner;
} levels;
layout(location = 0) in vec4 point[];
layout(location = 0) out vec4 control[];
void main() {
  control[gl_InvocationID] = point[gl_InvocationID];
  for (int i = 0; i < 4; ++i) gl_TessLevelOuter[i] = levels.outer[i];
  gl_TessLevelInner[0] = levels.inner.x;
  gl_TessLevelInner[1] = levels.inner.y;
}
