#version 450
// Terrain patches: each edge's level from its middle's distance to the
// camera (the same for both patches that share it, so no cracks), the
// inner levels the finer of the opposite edges'.
layout(vertices = 4) out;
layout(location = 0) in vec2 v_corner[];
layout(location = 0) out vec2 c_corner[];
const vec3 kCamera = vec3(0.0, 1.2, -1.0);
float EdgeLevel(vec2 a, vec2 b) {
  vec2 m = 0.5 * (a + b);
  return clamp(28.0 / distance(vec3(m.x, 0.0, m.y), kCamera), 1.0, 32.0);
}
void main() {
  c_corner[gl_InvocationID] = v_corner[gl_InvocationID];
  if (gl_InvocationID == 0) {
    // Corners: 0 (u 0, v 0), 1 (u 1, v 0), 2 (u 0, v 1), 3 (u 1, v 1).
    gl_TessLevelOuter[0] = EdgeLevel(v_corner[0], v_corner[2]);
    gl_TessLevelOuter[1] = EdgeLevel(v_corner[0], v_corner[1]);
    gl_TessLevelOuter[2] = EdgeLevel(v_corner[1], v_corner[3]);
    gl_TessLevelOuter[3] = EdgeLevel(v_corner[2], v_corner[3]);
    gl_TessLevelInner[0] = max(gl_TessLevelOuter[1], gl_TessLevelOuter[3]);
    gl_TessLevelInner[1] = max(gl_TessLevelOuter[0], gl_TessLevelOuter[2]);
  }
}
