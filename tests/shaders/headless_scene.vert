#version 450
// wsi_headless_draw_test: 2D positions and texture coordinates from a vertex buffer.
layout(location = 0) in vec2 in_position;
layout(location = 1) in vec2 in_uv;
layout(location = 0) out vec2 v_uv;
void main() {
  v_uv = in_uv;
  gl_Position = vec4(in_position, 0.0, 1.0);
}
