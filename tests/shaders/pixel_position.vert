#version 450
// rect.vert's rectangle, plus its framebuffer position as two varyings
// (push constant `color.xy` is the target size in pixels).
layout(push_constant) uniform Rect {
  vec4 bounds;  // x0, y0, x1, y1
  vec4 color;
  float z;
  uint back;
  uint seed;
  uint mode;
} rect;
layout(location = 0) out vec2 pixel;
layout(location = 1) out vec2 pixel_too;
void main() {
  const uint i = uint(gl_VertexIndex);
  const vec2 ndc = mix(rect.bounds.xy, rect.bounds.zw, vec2(i >> 1u, i & 1u));
  gl_Position = vec4(ndc, rect.z, 1.0);
  pixel = (ndc * 0.5 + 0.5) * rect.color.xy;
  pixel_too = pixel;
}
