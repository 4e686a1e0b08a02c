#version 450
// Diffuse light from the sun plus a little sky light.
layout(location = 0) in vec3 world_normal;
layout(location = 1) in vec3 base_colour;
layout(location = 0) out vec4 pixel;
void main() {
  const vec3 sun = normalize(vec3(0.4, 0.8, -0.45));
  const float diffuse = max(dot(normalize(world_normal), sun), 0.0);
  pixel = vec4(base_colour * (0.25 + 0.75 * diffuse), 1.0);
}
