#version 450
// Inclusive prefix sum of each 256-element block in shared memory
// (Hillis-Steele), with a barrier between steps.
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) buffer Data { uint data[]; };
shared uint scratch[256];
void main() {
  uint i = gl_LocalInvocationID.x;
  uint base = gl_WorkGroupID.x * 256;
  scratch[i] = data[base + i];
  barrier();
  for (uint step = 1; step < 256; step *= 2) {
    uint add = i >= step ? scratch[i - step] : 0;
    barrier();
    scratch[i] += add;
    barrier();
  }
  data[base + i] = scratch[i];
}
