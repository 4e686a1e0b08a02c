#version 450
// 64-bit float atomics (VK_EXT_shader_atomic_float, _float2) from 256
// invocations in 4 workgroups: add, min, max and exchange on a buffer, add
// and max on shared memory. Every added value carries 2^-40, which a
// float would lose: the sums are exact in double whatever the order.
#extension GL_EXT_shader_atomic_float : require
#extension GL_EXT_shader_atomic_float2 : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Totals {
  double sum;       // 0
  double minimum;   // 0
  double maximum;   // 0
  double swapped;   // -1
  double group_sum[4];
  double group_max[4];
} totals;
layout(set = 0, binding = 1) writeonly buffer Results { double results[]; };  // 2 per invocation
shared double shared_sum;
shared double shared_max;
const double kTiny = 1.0 / 1099511627776.0;  // 2^-40
void main() {
  const uint i = gl_GlobalInvocationID.x;
  if (gl_LocalInvocationIndex == 0u) {
    shared_sum = 0.0;
    shared_max = -1000.0;
  }
  barrier();
  const double v = double(i % 16u) * 0.5 + kTiny;
  results[2u * i] = atomicAdd(totals.sum, v);
  atomicMin(totals.minimum, double(i) - 100.25 - kTiny);
  atomicMax(totals.maximum, double(i) * 2.0 + kTiny);
  results[2u * i + 1u] = atomicExchange(totals.swapped, double(i) + kTiny);
  atomicAdd(shared_sum, 1.5 + kTiny);
  atomicMax(shared_max, v + double(gl_WorkGroupID.x));
  barrier();
  if (gl_LocalInvocationIndex == 0u) {
    totals.group_sum[gl_WorkGroupID.x] = shared_sum;
    totals.group_max[gl_WorkGroupID.x] = shared_max;
  }
}
