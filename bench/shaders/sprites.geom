#version 450
// Each point becomes a camera-facing square (a billboard) of a fixed world
// size: the same clip-space offsets at every depth, which the perspective
// divide makes smaller for farther sprites.
layout(points) in;
layout(triangle_strip, max_vertices = 4) out;
layout(location = 0) in vec4 v_color[];
layout(location = 0) out vec4 g_color;
layout(location = 1) out vec2 g_offset;
void main() {
  const float size = 0.04;
  vec4 c = gl_in[0].gl_Position;
  for (int i = 0; i < 4; ++i) {
    vec2 o = vec2((i & 1) != 0 ? 1.0 : -1.0, (i & 2) != 0 ? 1.0 : -1.0);
    gl_Position = c + vec4(o * size * 1.5, 0.0, 0.0);
    g_color = v_color[0];
    g_offset = o;
    EmitVertex();
  }
}
