#version 450
// A rectangle from gl_VertexIndex (4 vertices, triangle strip): push
// constants give its bounds in normalized device coordinates, its depth and
// whether it faces front (counter-clockwise in framebuffer space) or back.
layout(push_constant) uniform Rect {
  vec4 bounds;  // x0, y0, x1, y1
  vec4 color;
  float z;
  uint back;
  uint seed;
  uint mode;
} rect;
void main() {
  const uint i = uint(gl_VertexIndex);
  vec2 corner = rect.back != 0u ? vec2(i & 1u, i >> 1u) : vec2(i >> 1u, i & 1u);
  gl_Position = vec4(mix(rect.bounds.xy, rect.bounds.zw, corner), rect.z, 1.0);
}
