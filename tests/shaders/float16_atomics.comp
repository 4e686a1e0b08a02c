#version 450
// 16-bit float atomics (VK_EXT_shader_atomic_float2) from 256 invocations
// in 4 workgroups: add, min, max and exchange on a buffer (2 bytes per
// value), add and max on shared memory; one add whose sum a half cannot
// hold (2048 + 3: halves are 2 apart there, ties go to even: 2052).
#extension GL_EXT_shader_atomic_float2 : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_16bit_storage : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Totals {
  float16_t sum;       // 0
  float16_t minimum;   // 0
  float16_t maximum;   // 0
  float16_t swapped;   // -1
  float16_t rounded;   // 2048
  float16_t pad;
  float16_t group_sum[4];
  float16_t group_max[4];
} totals;
layout(set = 0, binding = 1) writeonly buffer Results { float16_t results[]; };  // 2 per invocation
shared float16_t shared_sum;
shared float16_t shared_max;
void main() {
  const uint i = gl_GlobalInvocationID.x;
  if (gl_LocalInvocationIndex == 0u) {
    shared_sum = float16_t(0.0);
    shared_max = float16_t(-1000.0);
  }
  barrier();
  results[2u * i] = atomicAdd(totals.sum, float16_t(0.5));
  atomicMin(totals.minimum, float16_t(float(i) * 0.25 - 10.0));
  atomicMax(totals.maximum, float16_t(float(i) * 0.5));
  results[2u * i + 1u] = atomicExchange(totals.swapped, float16_t(i));
  if (i == 5u) atomicAdd(totals.rounded, float16_t(3.0));
  atomicAdd(shared_sum, float16_t(0.25));
  atomicMax(shared_max, float16_t(float(i % 64u) * 0.125 + float(gl_WorkGroupID.x)));
  barrier();
  if (gl_LocalInvocationIndex == 0u) {
    totals.group_sum[gl_WorkGroupID.x] = shared_sum;
    totals.group_max[gl_WorkGroupID.x] = shared_max;
  }
}
