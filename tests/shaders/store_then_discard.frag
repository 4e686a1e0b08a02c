#version 450
// Stores its pixel's tag into the buffer and, in a storage image, red at
// its pixel; then discards the fragments of odd columns: their stores stay.
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
layout(set = 0, binding = 1, rgba8) uniform writeonly image2D marks;
layout(location = 0) out vec4 out_color;
void main() {
  const uvec2 p = uvec2(gl_FragCoord.xy);
  pixels[p.y * rect.seed + p.x] = 1u + p.x + 1000u * p.y;
  imageStore(marks, ivec2(p), vec4(1.0, 0.0, 0.0, 1.0));
  atomicAdd(count, 1u);
  if ((p.x & 1u) != 0u) discard;
  out_color = rect.color;
}
