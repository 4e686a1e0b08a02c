#version 450
// Three buffers, the descriptors of mutable bindings (mutable_descriptor_test.cpp):
// out[i] = in[i] * u.scale + u.bias.
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer In { uint v[]; } in_buffer;
layout(std140, binding = 1) uniform U { uint scale; uint bias; } u;
layout(std430, binding = 2) buffer Out { uint v[]; } out_buffer;
void main() {
  uint i = gl_GlobalInvocationID.x;
  out_buffer.v[i] = in_buffer.v[i] * u.scale + u.bias;
}
