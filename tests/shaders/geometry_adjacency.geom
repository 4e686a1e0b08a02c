#version 450
// Triangles with adjacency in, one point per input vertex out: vertex k of
// input primitive i at row 2i + 1 and the input vertex's own column, its
// colour (k + 1) * 20 in red. Where a vertex lands says which input vertex
// the assembly put at k.
layout(triangles_adjacency) in;
layout(points, max_vertices = 6) out;
layout(location = 0) out vec4 g_color;
void main() {
  for (int k = 0; k < 6; ++k) {
    float y = (float(2 * gl_PrimitiveIDIn + 1) + 0.5) / 16.0 - 1.0;
    gl_Position = vec4(gl_in[k].gl_Position.x, y, 0, 1);
    gl_PointSize = 1.0;
    g_color = vec4(float((k + 1) * 20) / 255.0, 0, 0, 1);
    EmitVertex();
  }
}
