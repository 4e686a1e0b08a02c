#version 450
// Reads a storage and a uniform buffer past the end of their descriptors'
// ranges (16 bytes each): robust access gives 0 there.
layout(local_size_x = 8) in;
layout(set = 0, binding = 0) readonly buffer Data { uint data[]; };
layout(set = 0, binding = 1) uniform Uniforms { uvec4 u[4]; };
layout(set = 0, binding = 2) writeonly buffer Out { uint r[]; };
void main() {
  const uint i = gl_LocalInvocationID.x;
  r[i] = data[i];
  r[8u + i] = u[i / 4u][i % 4u];
}
