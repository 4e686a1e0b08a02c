#version 450
// Derivatives of a function of the window position that is not linear
// within a 2x2 quad: fine and coarse, x and y, fwidth, and the unqualified
// forms. Every value is exact in float at these positions.
layout(location = 0) out vec4 fine_out;
layout(location = 1) out vec4 coarse_out;
void main() {
  vec2 p = gl_FragCoord.xy;
  float f = p.x * p.x + 3.0 * p.y * p.y + p.x * p.y;
  fine_out = vec4(dFdxFine(f), dFdyFine(f), fwidthFine(f), dFdx(f));
  coarse_out = vec4(dFdxCoarse(f), dFdyCoarse(f), fwidthCoarse(f), dFdy(f));
}
