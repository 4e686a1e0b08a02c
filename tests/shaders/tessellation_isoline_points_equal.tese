#version 450
// Each domain point of an isoline patch in point mode (equal spacing)
// appends its u to the buffer.
layout(isolines, equal_spacing, point_mode) in;
layout(std430, binding = 0) buffer Points {
  uint count;
  float u[];
} points;
void main() {
  uint i = atomicAdd(points.count, 1u);
  points.u[i] = gl_TessCoord.x;
  gl_PointSize = 1.0;
}
