#version 450
// One point at a clip-space position with a size, both from push constants.
layout(push_constant) uniform Point {
  vec4 position;
  float size;
} point;
void main() {
  gl_Position = point.position;
  gl_PointSize = point.size;
}
