#version 450
// A value that goes through a dynamically indexed local array (private
// memory: the index is a push constant) before its derivative is taken:
// the helper invocations of half-covered quads must store and load it too.
// Each fragment stores dFdxFine and dFdyFine of 2x + 4y at its pixel.
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
  float values[3];
  values[0] = 2.0 * gl_FragCoord.x + 4.0 * gl_FragCoord.y;
  values[1] = -1.0;
  values[2] = -2.0;
  const float v = values[rect.mode];
  const uvec2 p = uvec2(gl_FragCoord.xy);
  pixels[p.y * rect.seed + p.x] = uint(dFdxFine(v)) + 100u * uint(dFdyFine(v));
  out_color = rect.color;
}
