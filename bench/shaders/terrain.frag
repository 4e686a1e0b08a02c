#version 450
// Terrain colour: grass to rock with height, lit by one sun.
layout(location = 0) in vec3 t_normal;
layout(location = 1) in float t_height;
layout(location = 0) out vec4 out_color;
void main() {
  vec3 base = mix(vec3(0.20, 0.55, 0.18), vec3(0.55, 0.45, 0.35), clamp(t_height * 2.0 + 0.5, 0.0, 1.0));
  float light = 0.3 + 0.7 * max(dot(normalize(t_normal), normalize(vec3(0.4, 0.8, -0.3))), 0.0);
  out_color = vec4(base * light, 1.0);
}
