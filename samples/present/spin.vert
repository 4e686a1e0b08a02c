#version 450
// A colour wheel of six triangles turning by a few degrees per frame, so
// that frame N always looks the same (the picture depends on N, not on time).
layout(push_constant) uniform Frame { float angle; float aspect; } frame;
layout(location = 0) out vec3 colour;
const vec3 kColours[6] = vec3[](vec3(1, 0, 0), vec3(1, 1, 0), vec3(0, 1, 0), vec3(0, 1, 1), vec3(0, 0, 1), vec3(1, 0, 1));
void main() {
  const uint wedge = uint(gl_VertexIndex) / 3u, corner = uint(gl_VertexIndex) % 3u;
  const float a = frame.angle + radians(60.0) * float(wedge + (corner == 2u ? 1u : 0u));
  const vec2 p = corner == 0u ? vec2(0.0) : 0.8 * vec2(cos(a), sin(a));
  gl_Position = vec4(p.x / frame.aspect, p.y, 0.0, 1.0);
  colour = corner == 0u ? vec3(1.0) : kColours[(wedge + (corner == 2u ? 1u : 0u)) % 6u];
}
