#version 450
// The rectangle's colour from the push constants (rect.vert).
layout(push_constant) uniform Rect {
  vec4 bounds;
  vec4 color;
  float z;
  uint back;
  uint seed;
  uint mode;
} rect;
layout(location = 0) out vec4 out_color;
void main() { out_color = rect.color; }
