#version 450
// dst[i] = src[i] * params.scale + params.bias. Set 0 is pushed
// (VK_KHR_push_descriptor); set 1 is an allocated set.
layout(local_size_x = 16) in;
layout(set = 0, binding = 0) readonly buffer Src { uint v[]; } src;
layout(set = 0, binding = 1) buffer Dst { uint v[]; } dst;
layout(set = 1, binding = 0) uniform Params { uint scale; uint bias; } params;

void main() {
  uint i = gl_GlobalInvocationID.x;
  dst.v[i] = src.v[i] * params.scale + params.bias;
}
