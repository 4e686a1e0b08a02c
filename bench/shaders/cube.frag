#version 450
// Diffuse + ambient light times a sampled RGBA8 texture.
layout(set = 0, binding = 1) uniform sampler2D tex;
layout(location = 0) in vec3 v_normal;
layout(location = 1) in vec2 v_uv;
layout(location = 0) out vec4 out_color;
void main() {
  const vec3 light = normalize(vec3(0.4, 0.7, 0.6));  // world space, y up
  float diffuse = max(dot(normalize(v_normal), light), 0.0);
  vec3 base = texture(tex, v_uv).rgb;
  out_color = vec4(base * (0.25 + 0.75 * diffuse), 1.0);
}
