#version 450
// A quad patch as a bilinear surface over its four control points, moved
// by 1/32 when the bits of the position have odd parity: two patches whose
// copies of a shared edge point differ in any bit leave a crack.
layout(quads, fractional_odd_spacing, ccw) in;
layout(location = 0) in vec4 control[];
void main() {
  float u = gl_TessCoord.x, v = gl_TessCoord.y;
  precise vec2 p = (1.0 - u) * (1.0 - v) * control[0].xy + u * (1.0 - v) * control[1].xy +
                   (1.0 - u) * v * control[2].xy + u * v * control[3].xy;
  if ((bitCount(floatBitsToUint(p.x) ^ floatBitsToUint(p.y)) & 1) == 1) p += vec2(1.0 / 32.0);
  gl_Position = vec4(p, 0.0, 1.0);
}
