#version 450
// Texture-heavy: eight dependent samples per pixel, each one's colour
// moving the next one's coordinates (as parallax, refraction or
// flow-map shaders do), linear filtering. The texture is smooth, so a
// filtering difference between drivers moves a coordinate only a little.
layout(set = 0, binding = 0) uniform sampler2D tex;
layout(location = 0) out vec4 out_color;
void main() {
  vec2 uv = gl_FragCoord.xy * (1.0 / 512.0);
  vec4 sum = vec4(0.0);
  for (int i = 0; i < 8; ++i) {
    vec4 t = texture(tex, uv);
    sum += t;
    uv = uv * 1.01 + (t.rg - 0.5) * 0.03 + 0.011;
  }
  out_color = vec4(sum.rgb * 0.125, 1.0);
}
