#version 450
// Instanced cubes: each instance places, scales and colours the unit cube.
layout(location = 0) in vec3 position;
layout(location = 1) in vec3 normal;
layout(location = 2) in vec3 base;  // centre of the bottom face
layout(location = 3) in vec3 size;
layout(location = 4) in vec3 colour;
layout(push_constant) uniform Camera { mat4 view_projection; } camera;
layout(location = 0) out vec3 world_normal;
layout(location = 1) out vec3 base_colour;
void main() {
  const vec3 world = base + (position + vec3(0.0, 0.5, 0.0)) * size;
  gl_Position = camera.view_projection * vec4(world, 1.0);
  world_normal = normal;  // scaling along the axes keeps a cube's face normals
  base_colour = colour;
}
