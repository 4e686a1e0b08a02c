#version 450
// Odd input points emit nothing; even ones emit two separate triangles
// (EndPrimitive between them): one left of the point, one right of it, with
// a gap between that a single strip of all six vertices would cover.
layout(points) in;
layout(triangle_strip, max_vertices = 6) out;
layout(location = 0) in vec4 v_color[];
layout(location = 0) out vec4 g_color;
void main() {
  if (gl_PrimitiveIDIn % 2 == 1) return;
  const float p = 2.0 / 32.0;  // one pixel in NDC
  vec4 c = gl_in[0].gl_Position;
  for (int side = 0; side < 2; ++side) {
    float x0 = side == 0 ? -4.0 * p : 2.0 * p;
    float x1 = x0 + 2.0 * p;
    g_color = v_color[0];
    gl_Position = c + vec4(x0, -p, 0, 0); EmitVertex();
    gl_Position = c + vec4(x1, -p, 0, 0); EmitVertex();
    gl_Position = c + vec4(x0, p, 0, 0); EmitVertex();
    EndPrimitive();
  }
}
