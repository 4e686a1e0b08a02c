#version 450
// One triangle that covers the whole viewport (3 vertices, no vertex
// buffer); depth falls from 0.625 at the left edge of the viewport to
// 0.375 at its right edge.
void main() {
  const vec2 corner = vec2(float((gl_VertexIndex & 1) * 4 - 1), float((gl_VertexIndex >> 1) * 4 - 1));
  gl_Position = vec4(corner, 0.5 - 0.125 * corner.x, 1.0);
}
