#version 450
// Quad patches with an inner level of their own and, on each edge, a level
// from the edge's two corners alone (the same for both patches that share it).
layout(vertices = 4) out;
layout(location = 0) in vec4 point[];
layout(location = 0) out vec4 control[];
float EdgeLevel(vec2 a, vec2 b) {
  vec2 s = a + b;
  return 1.5 + 10.0 * fract(0.37 * s.x * s.x + 0.61 * s.y + 0.29);
}
void main() {
  control[gl_InvocationID] = point[gl_InvocationID];
  // Corners: 0 (u 0, v 0), 1 (u 1, v 0), 2 (u 0, v 1), 3 (u 1, v 1).
  gl_TessLevelOuter[0] = EdgeLevel(point[0].xy, point[2].xy);  // u = 0
  gl_TessLevelOuter[1] = EdgeLevel(point[0].xy, point[1].xy);  // v = 0
  gl_TessLevelOuter[2] = EdgeLevel(point[1].xy, point[3].xy);  // u = 1
  gl_TessLevelOuter[3] = EdgeLevel(point[2].xy, point[3].xy);  // v = 1
  gl_TessLevelInner[0] = 2.5 + 1.7 * float(gl_PrimitiveID % 4);
  gl_TessLevelInner[1] = 3.2 + 2.3 * float(gl_PrimitiveID % 3);
}
