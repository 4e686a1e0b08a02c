#version 450
// A full-target quad (triangle strip from gl_VertexIndex) coloured by the
// attribute at location 0 plus 0.5 red: a null vertex buffer's R32G32
// attribute reads (0, 0, 0, 1).
layout(location = 0) in vec4 fetched;
layout(location = 0) out vec4 v_color;
void main() {
  gl_Position = vec4(vec2(gl_VertexIndex & 1, gl_VertexIndex >> 1) * 2.0 - 1.0, 0.0, 1.0);
  v_color = fetched + vec4(0.5, 0.0, 0.0, 0.0);
}
