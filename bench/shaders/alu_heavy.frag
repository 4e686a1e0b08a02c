#version 450
// ALU-heavy fragment shader: 64 rounds of sin and cos per pixel. Each
// round is a contraction (as in alu_loop.comp), so drivers agree to well
// within a UNORM8 step; the offset c depends on the pixel, so the image
// is not uniform. Every argument stays inside [-pi, pi].
layout(location = 0) out vec4 out_color;
void main() {
  vec2 p = gl_FragCoord.xy * (1.0 / 512.0);
  float x = p.x - 0.5, y = p.y - 0.5;
  for (int i = 0; i < 64; ++i) {
    float c = float(i & 7) * 0.125 - 0.5 + 0.5 * p.x;  // in [-0.5, 0.875]
    x = mix(x, sin(fma(y, 0.9, c)), 0.5);
    y = mix(y, cos(fma(x, 0.9, p.y - c)), 0.5);
  }
  out_color = vec4(0.5 + 0.5 * x, 0.5 + 0.5 * y, 0.5 + 0.25 * (x - y), 1.0);
}
