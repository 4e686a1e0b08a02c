#version 450
// As geometry_adjacency.geom, for lines with adjacency (4 vertices).
layout(lines_adjacency) in;
layout(points, max_vertices = 4) out;
layout(location = 0) out vec4 g_color;
void main() {
  for (int k = 0; k < 4; ++k) {
    float y = (float(2 * gl_PrimitiveIDIn + 1) + 0.5) / 16.0 - 1.0;
    gl_Position = vec4(gl_in[k].gl_Position.x, y, 0, 1);
    gl_PointSize = 1.0;
    g_color = vec4(float((k + 1) * 20) / 255.0, 0, 0, 1);
    EmitVertex();
  }
}
