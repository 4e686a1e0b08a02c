#version 450
// A ground plane seen in perspective from just above it: a quad from one
// to sixty units in front of the eye, its texture repeated along it.
layout(location = 0) out vec2 uv;
layout(push_constant) uniform View { float aspect; } view;
const vec3 kCorners[4] = vec3[](vec3(-12.0, -1.0, 1.0), vec3(12.0, -1.0, 1.0), vec3(-12.0, -1.0, 60.0),
                                vec3(12.0, -1.0, 60.0));
void main() {
  const vec3 p = kCorners[gl_VertexIndex];
  uv = p.xz * 0.25;
  // Perspective with a 60 degree vertical field of view, depth in [0, 1]
  // between 0.1 and 100; Vulkan's clip space has y pointing down.
  const float focal = 1.0 / tan(radians(30.0)), near = 0.1, far = 100.0;
  gl_Position = vec4(p.x * focal / view.aspect, -p.y * focal, (p.z - near) * far / (far - near), p.z);
}
