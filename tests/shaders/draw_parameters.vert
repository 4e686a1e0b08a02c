#version 460
// The draw parameters of each vertex (gl_BaseVertex, gl_BaseInstance,
// gl_DrawID, and gl_InstanceIndex) passed to the fragments. Draw n covers
// the n-th quarter of the target's width with a rectangle of six vertices
// numbered from gl_BaseVertex.
layout(location = 0) flat out uvec4 ids;
const vec2 kCorners[6] = vec2[](vec2(0, 0), vec2(1, 0), vec2(0, 1), vec2(1, 0), vec2(1, 1), vec2(0, 1));
void main() {
  const vec2 c = kCorners[clamp(gl_VertexIndex - gl_BaseVertex, 0, 5)];
  gl_Position = vec4(-1.0 + 0.5 * float(gl_DrawID) + 0.5 * c.x, -1.0 + 2.0 * c.y, 0.5, 1.0);
  ids = uvec4(uint(gl_BaseVertex), uint(gl_BaseInstance), uint(gl_DrawID), uint(gl_InstanceIndex));
}
