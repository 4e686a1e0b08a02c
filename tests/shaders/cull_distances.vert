#version 450
// Triangles from a table (gl_VertexIndex), each vertex with the cull
// distance sign(x) (x = 0 counts as inside): a triangle entirely left of
// x = 0 is culled, one across it drawn whole, one right of it drawn.
const vec2 kPositions[9] = vec2[](
    vec2(-1.0, -1.0), vec2(-0.25, -1.0), vec2(-1.0, -0.25),  // left: culled
    vec2(-0.5, 0.0), vec2(0.5, 0.0), vec2(-0.5, 1.0),         // across: drawn, not clipped
    vec2(0.25, -1.0), vec2(1.0, -1.0), vec2(1.0, -0.25));     // right: drawn
out gl_PerVertex {
  vec4 gl_Position;
  float gl_CullDistance[1];
};
layout(location = 0) out vec4 v_color;
void main() {
  const vec2 p = kPositions[gl_VertexIndex];
  gl_Position = vec4(p, 0.0, 1.0);
  gl_CullDistance[0] = p.x < 0.0 ? -1.0 : 1.0;
  v_color = vec4(1.0);
}
