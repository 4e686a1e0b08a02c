#version 450
// 64-bit stage inputs and outputs: a dvec3 attribute (R64G64B64_SFLOAT)
// takes locations 0 and 1, so the position is at location 2; a dmat2
// attribute at 3 and 4; doubles passed to the fragment shader (flat).
layout(location = 0) in dvec3 triple;
layout(location = 2) in vec2 position;
layout(location = 3) in dmat2 matrix;
layout(location = 0) flat out dvec3 triple_out;
layout(location = 2) flat out double product;
void main() {
  gl_Position = vec4(position, 0.0, 1.0);
  triple_out = triple * 2.0lf;
  product = (matrix * dvec2(triple.x, triple.y)).y;
}
