#version 450
// The three corners of the triangle and their colours, built into the
// shader: no vertex buffer is needed to draw it.
layout(location = 0) out vec3 colour;
const vec2 kPositions[3] = vec2[](vec2(0.0, -0.75), vec2(0.75, 0.75), vec2(-0.75, 0.75));
const vec3 kColours[3] = vec3[](vec3(1.0, 0.0, 0.0), vec3(0.0, 1.0, 0.0), vec3(0.0, 0.0, 1.0));
void main() {
  gl_Position = vec4(kPositions[gl_VertexIndex], 0.0, 1.0);
  colour = kColours[gl_VertexIndex];
}
