#version 450
// A full-target quad (triangle strip from gl_VertexIndex) with two clip
// distances: x - 0.25 (keeps x >= 0.25) and 0.5 - y (keeps y <= 0.5), and
// the quad's corner index as a third varying-like distance the fragment
// shader reads too.
out gl_PerVertex {
  vec4 gl_Position;
  float gl_ClipDistance[3];
};
void main() {
  const vec2 p = vec2(gl_VertexIndex & 1, gl_VertexIndex >> 1) * 2.0 - 1.0;
  gl_Position = vec4(p, 0.0, 1.0);
  gl_ClipDistance[0] = p.x - 0.25;
  gl_ClipDistance[1] = 0.5 - p.y;
  gl_ClipDistance[2] = 4.0;  // never clips
}
