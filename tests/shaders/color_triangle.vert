#version 450
// Passes positions and colours through; positions come from a vertex buffer.
layout(location = 0) in vec4 position;
layout(location = 1) in vec4 color;
layout(location = 0) out vec4 v_color;
void main() {
  gl_Position = position;
  v_color = color;
}
