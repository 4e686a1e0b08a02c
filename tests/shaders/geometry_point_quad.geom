#version 450
// Each point becomes a 4x4-pixel square (of a 32x32 target) in its colour.
layout(points) in;
layout(triangle_strip, max_vertices = 4) out;
layout(location = 0) in vec4 v_color[];
layout(location = 0) out vec4 g_color;
void main() {
  const float h = 2.0 / 16.0;  // two pixels in NDC
  for (int i = 0; i < 4; ++i) {
    gl_Position = gl_in[0].gl_Position + vec4((i & 1) != 0 ? h : -h, (i & 2) != 0 ? h : -h, 0, 0);
    g_color = v_color[0];
    EmitVertex();
  }
}
