#version 450
// Sprites: world-space centres rotated about the y axis by the frame's
// angle and put in perspective; the geometry shader makes the quads.
layout(location = 0) in vec4 centre;
layout(location = 1) in vec4 color;
layout(location = 0) out vec4 v_color;
void main() {
  const float a = 0.6;
  vec3 p = vec3(cos(a) * centre.x + sin(a) * centre.z, centre.y, -sin(a) * centre.x + cos(a) * centre.z);
  p.z += 3.0;  // in front of the camera
  const float near = 0.5, far = 10.0;
  gl_Position = vec4(p.x * 1.5, p.y * 1.5, (p.z - near) * far / (far - near), p.z);
  v_color = color;
}
