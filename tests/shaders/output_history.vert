#version 450
// An output read back in a loop after it was copied and then stored again,
// for ir_prepare: a copy of an output must keep the value it copied.
layout(location = 0) out vec2 result;
layout(location = 1) out float trail;
void main() {
  float sum = 0.0;
  for (int i = 0; i < 4; ++i) {
    const vec2 prev = result;  // the previous iteration's store (read from i = 1 on)
    result = vec2(float(gl_VertexIndex + i), float(i) * 0.5);
    if (i > 0) sum += prev.x * 10.0 + prev.y;
  }
  trail = sum;
  gl_Position = vec4(result, sum, 1.0);
}
