#version 450
// The triangle domain (cw vertex order) over the viewport: u along x, v along y.
layout(triangles, equal_spacing, cw) in;
void main() { gl_Position = vec4(gl_TessCoord.xy * 2.0 - 1.0, 0.0, 1.0); }
