#version 450
// The fuzzed fragment shaders' vertex stage: a triangle covering the target.
void main() {
  const vec2 corners[3] = vec2[3](vec2(-1.0, -1.0), vec2(3.0, -1.0), vec2(-1.0, 3.0));
  gl_Position = vec4(corners[gl_VertexIndex % 3], 0.5, 1.0);
}
