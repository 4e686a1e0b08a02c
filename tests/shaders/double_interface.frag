#version 450
// The other side of double_interface.vert: the doubles as float words.
layout(location = 0) flat in dvec3 triple;
layout(location = 2) flat in double product;
layout(location = 0) out vec4 values;
void main() {
  values = vec4(vec3(triple), float(product));
}
