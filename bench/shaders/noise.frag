#version 450
// Procedural noise as shader-toy style programs write it: domain-warped
// fractal Brownian motion of value noise. An integer hash per lattice
// point, floor/fract/smoothstep-style mixing, loops whose trip count (the
// octaves) comes from a push constant, five levels of small functions.
layout(push_constant) uniform Params { int octaves; };
layout(location = 0) out vec4 out_color;

uint Hash(uvec2 p) {
  uint h = p.x * 0x8DA6B343u ^ p.y * 0xD8163841u;
  h ^= h >> 13;
  h *= 0x85EBCA6Bu;
  h ^= h >> 16;
  return h;
}
float Lattice(ivec2 p) { return float(Hash(uvec2(p)) & 0xFFFFu) * (1.0 / 65535.0); }
float ValueNoise(vec2 x) {
  vec2 i = floor(x), f = fract(x);
  vec2 u = f * f * (3.0 - 2.0 * f);
  ivec2 c = ivec2(i);
  float a = Lattice(c), b = Lattice(c + ivec2(1, 0));
  float d = Lattice(c + ivec2(0, 1)), e = Lattice(c + ivec2(1, 1));
  return mix(mix(a, b, u.x), mix(d, e, u.x), u.y);
}
float Fbm(vec2 x) {
  float sum = 0.0, amplitude = 0.5;
  for (int i = 0; i < octaves; ++i) {
    sum += amplitude * ValueNoise(x);
    x = x * 2.0 + vec2(17.0, 31.0);
    amplitude *= 0.5;
  }
  return sum;
}
vec2 Warp(vec2 p) { return vec2(Fbm(p), Fbm(p + vec2(5.2, 1.3))); }
float Pattern(vec2 p) {
  vec2 q = Warp(p);
  vec2 r = Warp(p + 2.0 * q + vec2(1.7, 9.2));
  return Fbm(p + 2.0 * r);
}
void main() {
  float v = Pattern(gl_FragCoord.xy * (6.0 / 512.0));
  out_color = vec4(v, v * v, 1.0 - v, 1.0);
}
