#version 450
// Element read_index of an input array (push constants; varying_array.vert).
layout(push_constant) uniform Indices {
  int write_index;
  int read_index;
} indices;
layout(location = 0) in vec4 values[4];
layout(location = 0) out vec4 color;
void main() { color = values[indices.read_index]; }
