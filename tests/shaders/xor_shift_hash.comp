#version 450
// Xor-shifts for ir_prepare's fusion: a hash with x ^= x >> k steps and an
// xorshift32 generator (x ^= x << 13 ...) in a loop, plus shifts that must
// stay (a shift read twice, a shift of another value, a shifted value
// rewritten before the xor).
layout(local_size_x = 48) in;
layout(push_constant) uniform Params {
  uint rounds;
  uint k;
} params;
layout(set = 0, binding = 0) buffer Out {
  uint v[];
} result;
uint Hash(uint h) {
  h ^= h >> 16;
  h *= 0x7FEB352Du;
  h ^= h >> 15;
  h *= 0x846CA68Bu;
  h ^= h >> params.k;  // a shift by a uniform register
  return h;
}
void main() {
  const uint id = gl_GlobalInvocationID.x;
  uint x = id * 0x9E3779B9u + 1u;
  for (uint i = 0u; i < params.rounds; ++i) {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
  }
  const uint s = id >> 3;                 // read twice: stays a shift
  const uint other = (id * 7u) ^ ((id * 7u) >> 2);  // fuses
  const uint mixed = (id + 1u) ^ (id >> 1);  // shift of another value: stays
  result.v[id * 4 + 0] = Hash(id);
  result.v[id * 4 + 1] = x;
  result.v[id * 4 + 2] = (s ^ id) + s + other;
  result.v[id * 4 + 3] = mixed;
}
