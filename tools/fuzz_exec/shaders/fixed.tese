#version 450
// The fuzzed tessellation control shaders' evaluation stage: triangles
// from the first three control points.
layout(triangles) in;
void main() {
  gl_Position = gl_TessCoord.x * gl_in[0].gl_Position + gl_TessCoord.y * gl_in[1].gl_Position +
                gl_TessCoord.z * gl_in[2].gl_Position;
}
