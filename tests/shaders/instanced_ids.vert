#version 450
// Per-vertex positions (binding 0) moved by a per-instance offset and
// coloured by a per-instance colour (binding 1); the provoking vertex's
// gl_VertexIndex and gl_InstanceIndex reach the fragment (ids.frag).
layout(location = 0) in vec2 position;
layout(location = 1) in vec2 offset;
layout(location = 2) in vec4 color;
layout(location = 0) flat out uvec4 ids;
void main() {
  gl_Position = vec4(position + offset, 0.0, 1.0);
  ids = uvec4(uint(gl_VertexIndex), uint(gl_InstanceIndex), packUnorm4x8(color), 0xA5u);
}
