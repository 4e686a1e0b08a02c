#version 450
// Integer bit manipulation: `rounds` rounds of rotates, bit reversal,
// population counts, bit-field extracts and inserts and find-MSB/LSB per
// invocation, the kind of code hashing, compression and bitboard engines
// run.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) writeonly buffer Out { uint result[]; };
layout(push_constant) uniform Params { uint rounds; };
uint Rotl(uint x, uint k) { return (x << k) | (x >> (32u - k)); }
void main() {
  uint x = gl_GlobalInvocationID.x * 0x9E3779B9u + 1u;
  uint y = 0x85EBCA6Bu, z = 0u;
  for (uint i = 0u; i < rounds; ++i) {
    x = Rotl(x, 7u) ^ bitfieldReverse(y);
    y += uint(bitCount(x)) * 0x27D4EB2Du + i;
    z = bitfieldInsert(z, bitfieldExtract(x, int(y & 15u), 8), int(i & 7u) * 3, 8);
    x ^= uint(findMSB(x | 1u)) << 11 | uint(findLSB(y | 0x80000000u)) << 3;
  }
  result[gl_GlobalInvocationID.x] = x ^ y ^ z;
}
