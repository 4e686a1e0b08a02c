#version 450
// Terrain points: the patch's bilinear (x, z), raised by a sum of waves,
// with the normal from the height's differences, in perspective from a
// camera above the plane looking down along +z.
layout(quads, fractional_even_spacing, ccw) in;
layout(location = 0) in vec2 c_corner[];
layout(location = 0) out vec3 t_normal;
layout(location = 1) out float t_height;
const vec3 kCamera = vec3(0.0, 1.2, -1.0);
float Height(vec2 p) {
  return 0.28 * sin(p.x * 3.1) * cos(p.y * 2.3) + 0.09 * sin(p.x * 7.7 + p.y * 5.3) + 0.04 * cos(p.y * 13.0 - p.x * 4.0);
}
void main() {
  vec2 p = mix(mix(c_corner[0], c_corner[1], gl_TessCoord.x), mix(c_corner[2], c_corner[3], gl_TessCoord.x),
               gl_TessCoord.y);
  float h = Height(p);
  const float e = 0.01;
  t_normal = normalize(vec3(Height(p - vec2(e, 0)) - Height(p + vec2(e, 0)), 2.0 * e,
                            Height(p - vec2(0, e)) - Height(p + vec2(0, e))));
  t_height = h;
  vec3 rel = vec3(p.x, h, p.y) - kCamera;
  const float pitch = 0.45;
  float z = rel.z * cos(pitch) - rel.y * sin(pitch);
  float y = rel.z * sin(pitch) + rel.y * cos(pitch);
  const float near = 0.2, far = 12.0;
  gl_Position = vec4(rel.x * 1.3, -y * 1.3, (z - near) * far / (far - near), z);
}
