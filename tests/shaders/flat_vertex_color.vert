#version 450
// Clip-space positions and a colour per vertex, passed on flat: the
// provoking vertex's colour fills the primitive.
layout(location = 0) in vec4 position;
layout(location = 1) in vec4 color;
layout(location = 0) flat out vec4 v_color;
void main() {
  gl_Position = position;
  v_color = color;
}
