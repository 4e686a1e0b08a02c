#version 450
// 64-bit atomics (VK_KHR_shader_atomic_int64) on a buffer and on shared
// memory from 256 invocations in 4 workgroups, with values across the
// 32-bit boundary so that a carry between the words shows.
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_EXT_shader_atomic_int64 : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Totals {
  uint64_t sum;       // 0
  int64_t minimum;    // 0
  uint64_t maximum;   // 0
  uint64_t bits;      // 0
  uint64_t swapped;   // 0
  uint64_t group_sum[4];
} totals;
layout(set = 0, binding = 1) writeonly buffer Results { uint64_t results[]; };  // 2 per invocation
shared uint64_t shared_sum;
void main() {
  const uint i = gl_GlobalInvocationID.x;
  if (gl_LocalInvocationIndex == 0u) shared_sum = 0ul;
  barrier();
  const uint64_t v = 0xFFFFFFF0ul + uint64_t(i);  // crosses 2^32 at i = 16
  results[2u * i] = atomicAdd(totals.sum, v);
  atomicMin(totals.minimum, -int64_t(v) * 3l);
  atomicMax(totals.maximum, v << 20);
  atomicOr(totals.bits, 1ul << (i % 64u));
  results[2u * i + 1u] = atomicCompSwap(totals.swapped, 0ul, v);
  atomicAdd(shared_sum, v);
  barrier();
  if (gl_LocalInvocationIndex == 0u) totals.group_sum[gl_WorkGroupID.x] = shared_sum;
}
