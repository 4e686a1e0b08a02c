#version 450
// Counts values into 16 bins with atomics, first in shared memory, then globally.
layout(local_size_x = 128) in;
layout(set = 0, binding = 0) readonly buffer Values { uint values[]; };
layout(set = 0, binding = 1) buffer Bins { uint bins[16]; };
shared uint local_bins[16];
void main() {
  uint i = gl_LocalInvocationID.x;
  if (i < 16) local_bins[i] = 0;
  barrier();
  atomicAdd(local_bins[values[gl_GlobalInvocationID.x] % 16], 1);
  barrier();
  if (i < 16) atomicAdd(bins[i], local_bins[i]);
}
