#version 450
// Clip-space positions (any w) and texture coordinates from a vertex buffer.
layout(location = 0) in vec4 position;
layout(location = 1) in vec2 uv;
layout(location = 0) out vec2 v_uv;
void main() {
  v_uv = uv;
  gl_Position = position;
}
