#version 450
// component_varyings.vert's outputs, read back in other shapes: location 0
// as one vec4, location 1 as a vec2 and two floats. The colour is red from
// location 0 and the rest from location 1.
layout(location = 0) in vec4 rgba;
layout(location = 1, component = 0) in vec2 zero_g;
layout(location = 1, component = 2) in float b;
layout(location = 1, component = 3) in float a;
layout(location = 0) out vec4 color;
void main() { color = vec4(rgba.r + zero_g.x, zero_g.y, b, a) * 0.5 + rgba * 0.5; }
