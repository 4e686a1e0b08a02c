#version 450
// A full-screen quad from gl_VertexIndex with texture coordinates 0..1.
layout(location = 0) out vec2 v_uv;
void main() {
  vec2 corners[4] = vec2[](vec2(0, 0), vec2(1, 0), vec2(0, 1), vec2(1, 1));
  v_uv = corners[gl_VertexIndex];
  gl_Position = vec4(v_uv * 2.0 - 1.0, 0.0, 1.0);
}
