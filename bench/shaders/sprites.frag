#version 450
// A round sprite: the colour fading towards the edge of the square.
layout(location = 0) in vec4 g_color;
layout(location = 1) in vec2 g_offset;
layout(location = 0) out vec4 out_color;
void main() {
  float r2 = dot(g_offset, g_offset);
  out_color = vec4(g_color.rgb * clamp(1.2 - r2, 0.2, 1.0), 1.0);
}
