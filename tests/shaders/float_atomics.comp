#version 450
// 32-bit float atomics (VK_EXT_shader_atomic_float, _float2) from 256
// invocations in 4 workgroups: add, min, max and exchange on a buffer, add
// and max on shared memory, add and max on R32_SFLOAT image texels. All
// values are multiples of 0.25, so every partial sum is exact whatever the
// order the invocations get there in.
#extension GL_EXT_shader_atomic_float : require
#extension GL_EXT_shader_atomic_float2 : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Totals {
  float sum;       // 0
  float minimum;   // 0
  float maximum;   // 0
  float swapped;   // -1
  float group_sum[4];
  float group_max[4];
} totals;
layout(set = 0, binding = 1, r32f) uniform image2D sums;      // 4x4, zeroed
layout(set = 0, binding = 2, r32f) uniform image2D maximums;  // 4x4, zeroed
layout(set = 0, binding = 3) writeonly buffer Results { float results[]; };  // 2 per invocation
shared float shared_sum;
shared float shared_max;
void main() {
  const uint i = gl_GlobalInvocationID.x;
  if (gl_LocalInvocationIndex == 0u) {
    shared_sum = 0.0;
    shared_max = -1000.0;
  }
  barrier();
  const float v = float(i % 16u) * 0.5;
  results[2u * i] = atomicAdd(totals.sum, v);
  atomicMin(totals.minimum, float(i) - 100.25);
  atomicMax(totals.maximum, float(i) * 2.0);
  results[2u * i + 1u] = atomicExchange(totals.swapped, float(i));
  atomicAdd(shared_sum, 1.5);
  atomicMax(shared_max, v + float(gl_WorkGroupID.x));
  const ivec2 p = ivec2(i % 4u, (i / 4u) % 4u);
  imageAtomicAdd(sums, p, 0.25);
  imageAtomicMax(maximums, p, float(i));
  barrier();
  if (gl_LocalInvocationIndex == 0u) {
    totals.group_sum[gl_WorkGroupID.x] = shared_sum;
    totals.group_max[gl_WorkGroupID.x] = shared_max;
  }
}
