#version 450
// An unsigned integer output: the rectangle's seed (rect.vert's push constants).
layout(push_constant) uniform Rect {
  vec4 bounds;
  vec4 color;
  float z;
  uint back;
  uint seed;
  uint mode;
} rect;
layout(location = 0) out uint out_value;
void main() { out_value = rect.seed; }
