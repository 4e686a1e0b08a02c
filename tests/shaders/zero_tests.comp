#version 450
// Conditions that test a value against zero, for ir_prepare's folding of
// the comparison into the Select or branch that reads it: x != 0 and
// x == 0 selecting values, and branches on x == 0 (one, a loop's break,
// whose target has phis fed from both edges).
layout(local_size_x = 48) in;
layout(push_constant) uniform Params {
  uint mask;
  uint rounds;
} params;
layout(set = 0, binding = 0) buffer Out {
  uint v[];
} result;
void main() {
  const uint id = gl_GlobalInvocationID.x;
  const uint bits = id & params.mask;
  const uint a = bits != 0u ? id * 3u : id + 100u;
  const uint b = (id & 4u) == 0u ? 7u : id;
  uint c = 0u, d = id;
  for (uint i = 0u; i < params.rounds; ++i) {
    if (((id >> (i & 7u)) & 1u) == 0u) {
      c += i * 9u + d;
      d = d * 5u + 1u;
    } else {
      d ^= c + i;
      c = c * 3u + 2u;
    }
  }
  uint n = bits, steps = 0u;
  while (n != 0u && steps < 40u) {
    n &= n - 1u;
    ++steps;
  }
  uint m = 0u, k = id;
  for (uint i = 0u; i < params.rounds; ++i) {
    k = k * 3u + 1u;
    if ((k & 16u) == 0u) {
      m = k;
      break;
    }
  }
  result.v[id * 4 + 0] = a ^ (m << 8);
  result.v[id * 4 + 1] = b;
  result.v[id * 4 + 2] = c ^ d;
  result.v[id * 4 + 3] = steps;
}
