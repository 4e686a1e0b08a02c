#version 450
// An output array written at indices known only at run time: every element
// in a loop, then element write_index again (push constants), over one
// triangle that covers the viewport.
layout(push_constant) uniform Indices {
  int write_index;
  int read_index;
} indices;
layout(location = 0) out vec4 values[4];
void main() {
  for (int k = 0; k < 4; ++k) values[k] = vec4(0.125 * float(k), 0.25, 0.5, 1.0);
  values[indices.write_index] = vec4(0.875, 0.75, 0.625, 1.0);
  const vec2 corner = vec2(float((gl_VertexIndex & 1) * 4 - 1), float((gl_VertexIndex >> 1) * 4 - 1));
  gl_Position = vec4(corner, 0.5, 1.0);
}
