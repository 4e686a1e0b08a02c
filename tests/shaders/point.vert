#version 450
// Points of size 4 with a colour from the vertex buffer.
layout(location = 0) in vec4 position;
layout(location = 1) in vec4 color;
layout(location = 0) out vec4 v_color;
void main() {
  gl_Position = position;
  gl_PointSize = 4.0;
  v_color = color;
}
