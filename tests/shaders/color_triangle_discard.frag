#version 450
// color_triangle.frag with a discard no fragment takes: the driver must
// then run the depth test after shading (tests compare that order with
// the early tests color_triangle.frag allows).
layout(location = 0) in vec4 v_color;
layout(location = 0) out vec4 out_color;
void main() {
  if (v_color.a < 0.0) discard;
  out_color = v_color;
}
