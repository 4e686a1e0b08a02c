#version 450
// rect.vert, and each vertex invocation stores its index plus 7 at its
// index and counts itself.
layout(push_constant) uniform Rect {
  vec4 bounds;  // x0, y0, x1, y1
  vec4 color;
  float z;
  uint back;
  uint seed;
  uint mode;
} rect;
layout(set = 0, binding = 0) buffer Stores {
  uint count;
  uint vertices[];
};
void main() {
  const uint i = uint(gl_VertexIndex);
  vertices[i] = i + 7u;
  atomicAdd(count, 1u);
  vec2 corner = rect.back != 0u ? vec2(i & 1u, i >> 1u) : vec2(i >> 1u, i & 1u);
  gl_Position = vec4(mix(rect.bounds.xy, rect.bounds.zw, corner), rect.z, 1.0);
}
