#version 450
// Inputs and outputs that share locations (Component decorations): the
// colour attribute (location 1) read as a vec2 and two floats, passed on as
// two floats and a vec2 at location 0, and whole again at location 1 with
// its red component replaced by 0.
layout(location = 0) in vec4 position;
layout(location = 1, component = 0) in vec2 rg;
layout(location = 1, component = 2) in float b;
layout(location = 1, component = 3) in float a;
layout(location = 0, component = 0) out float out_r;
layout(location = 0, component = 1) out float out_g;
layout(location = 0, component = 2) out vec2 out_ba;
layout(location = 1) out vec4 out_gba;
void main() {
  gl_Position = position;
  out_r = rg.x;
  out_g = rg.y;
  out_ba = vec2(b, a);
  out_gba = vec4(0.0, rg.y, b, a);
}
