#version 450
// Writes red into a storage image at the fragment's pixel; the attachment
// gets the rectangle's colour (rect.vert's push constants).
layout(push_constant) uniform Rect {
  vec4 bounds;
  vec4 color;
  float z;
  uint back;
  uint seed;
  uint mode;
} rect;
layout(set = 0, binding = 0, rgba8) uniform writeonly image2D storage;
layout(location = 0) out vec4 out_color;
void main() {
  imageStore(storage, ivec2(gl_FragCoord.xy), vec4(1.0, 0.0, 0.0, 1.0));
  out_color = rect.color;
}
