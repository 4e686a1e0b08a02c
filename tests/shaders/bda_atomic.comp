#version 460
// Atomics through buffer device addresses.
#extension GL_EXT_buffer_reference : require
layout(local_size_x = 64) in;

layout(buffer_reference, std430, buffer_reference_align = 4) buffer Counters {
  uint total;
  uint maximum;
  uint swapped;
  uint bins[8];
};
layout(buffer_reference, std430, buffer_reference_align = 4) buffer Words { uint v[]; };

layout(push_constant) uniform Push {
  Counters counters;
  Words olds;
  uint n;
} pc;

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= pc.n) return;
  atomicAdd(pc.counters.total, i);
  atomicMax(pc.counters.maximum, (i * 37u) % 1000u);
  atomicCompSwap(pc.counters.swapped, 0u, i + 1u);
  pc.olds.v[i] = atomicAdd(pc.counters.bins[i % 8u], 1u);
}
