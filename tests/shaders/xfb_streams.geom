#version 450
// Two vertex streams: each input point emits one point on stream 0
// (captured into buffer 0) and, for odd points, two points on stream 1
// (captured into buffer 1).
layout(points) in;
layout(points, max_vertices = 3) out;
layout(location = 0, stream = 0, xfb_buffer = 0, xfb_offset = 0, xfb_stride = 4) out float s0;
layout(location = 1, stream = 1, xfb_buffer = 1, xfb_offset = 0, xfb_stride = 4) out float s1;
void main() {
  float x = gl_in[0].gl_Position.x;
  gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
  gl_PointSize = 1.0;
  s0 = 100.0 + x;
  EmitStreamVertex(0);
  EndStreamPrimitive(0);
  if (gl_PrimitiveIDIn % 2 == 1) {
    for (int i = 0; i < 2; ++i) {
      gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
      gl_PointSize = 1.0;
      s1 = 200.0 + x * 10.0 + float(i);
      EmitStreamVertex(1);
    }
    EndStreamPrimitive(1);
  }
}
