#version 450
layout(early_fragment_tests) in;
// With early fragment tests: only fragments that pass the depth test run.
// Each fragment stores its pixel's tag at its pixel's index and counts
// itself (rect.vert's push constants give the colour; `seed` is the row
// length of the buffer).
layout(push_constant) uniform Rect {
  vec4 bounds;
  vec4 color;
  float z;
  uint back;
  uint seed;
  uint mode;
} rect;
layout(set = 0, binding = 0) buffer Stores {
  uint count;
  uint pixels[];
};
layout(location = 0) out vec4 out_color;
void main() {
  const uvec2 p = uvec2(gl_FragCoord.xy);
  pixels[p.y * rect.seed + p.x] = 1u + p.x + 1000u * p.y;
  atomicAdd(count, 1u);
  out_color = rect.color;
}
