#version 450
// Transform feedback from a vertex shader: buffer 0 takes a vec4 naming the
// vertex and instance (16-byte records), buffer 1 the vertex index as a
// float at byte 4 of 8-byte records (bytes 0-3 are left alone).
layout(location = 0, xfb_buffer = 0, xfb_offset = 0, xfb_stride = 16) out vec4 v_data;
layout(location = 1, xfb_buffer = 1, xfb_offset = 4, xfb_stride = 8) out float v_index;
void main() {
  v_data = vec4(float(gl_VertexIndex), float(gl_VertexIndex * 2), float(gl_InstanceIndex), 1.0);
  v_index = float(gl_VertexIndex);
  gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
  gl_PointSize = 1.0;
}
