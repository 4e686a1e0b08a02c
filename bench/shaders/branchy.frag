#version 450
// Divergent control flow: each pixel takes one of five branches of an
// if/else chain (neighbours rarely agree), then runs a loop with an early
// exit whose trip count differs from pixel to pixel (Collatz steps of a
// hashed number, at most 160).
layout(location = 0) out vec4 out_color;
void main() {
  uvec2 p = uvec2(gl_FragCoord.xy);
  uint h = p.x * 1973u + p.y * 9277u;
  h = (h ^ (h >> 15)) * 0x2C1B3C6Du;
  h ^= h >> 12;
  vec3 c;
  uint branch = h % 5u;
  if (branch == 0u) {
    c = vec3(float(h & 255u) / 255.0, 0.2, 0.1);
  } else if (branch == 1u) {
    c = vec3(0.1, 0.5 + 0.5 * sin(float(p.x & 63u) * 0.05), 0.3);
  } else if (branch == 2u) {
    c = vec3(0.2, 0.3, float(bitCount(h)) / 32.0);
  } else if (branch == 3u) {
    c = vec3(fract(float(h >> 8) * (1.0 / 4096.0)));
  } else {
    c = vec3(vec2(p) / 512.0, 0.6);
  }
  uint n = (h & 1023u) + 1u, steps = 0u;
  for (; steps < 160u; ++steps) {
    if (n == 1u) break;
    n = (n & 1u) != 0u ? 3u * n + 1u : n >> 1;
  }
  out_color = vec4(c * 0.7 + float(steps) * (0.3 / 160.0), 1.0);
}
