#version 450
// The fuzzed tessellation evaluation shaders' control stage: patches of
// three control points passed through, every level 3.
layout(vertices = 3) out;
void main() {
  gl_out[gl_InvocationID].gl_Position = gl_in[gl_InvocationID].gl_Position;
  if (gl_InvocationID == 0) {
    gl_TessLevelOuter[0] = gl_TessLevelOuter[1] = gl_TessLevelOuter[2] = gl_TessLevelOuter[3] = 3.0;
    gl_TessLevelInner[0] = gl_TessLevelInner[1] = 3.0;
  }
}
