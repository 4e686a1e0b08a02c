#version 450
// Loops left by a break as well as at their header, for ir_prepare's phi
// coalescing: in the first the break comes before the values are
// recomputed (their phis may be written directly), in the second after
// the next value is (c's phi must keep its back-edge move: a lane leaving
// at the break reads c, its last iteration's start, after the loop).
layout(local_size_x = 48) in;
layout(push_constant) uniform Params {
  uint limit;
} params;
layout(set = 0, binding = 0) buffer Out {
  uint v[];
} result;
void main() {
  const uint id = gl_GlobalInvocationID.x;
  uint n = id + 1u, steps = 0u;
  for (; steps < params.limit; ++steps) {
    if (n == 1u) break;
    n = (n & 1u) != 0u ? 3u * n + 1u : n >> 1;
  }
  uint c = id, i = 0u;
  for (;;) {
    const uint next = c * 3u + 1u;
    if (i >= params.limit || (next & 3u) == 0u) break;
    c = next;
    ++i;
  }
  result.v[id * 4 + 0] = n;
  result.v[id * 4 + 1] = steps;
  result.v[id * 4 + 2] = c;  // the phi itself, read after the loop
  result.v[id * 4 + 3] = i;
}
