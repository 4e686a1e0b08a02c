#version 450
// 64-bit integer steps for the 64-bit expansions and ir_prepare's fusions:
// splitmix64 (x ^ (x >> k) on both words, 64-bit multiplies by
// constants), xorshift64 (left shifts), shifts by 1, 32, 33 and 63 and
// arithmetic ones, a product of two varying values, a 32-bit index
// computation (i * stride + base), a 32-bit rotate and shifts that are
// not one, and a 32-bit hash's xor of two products.
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
layout(local_size_x = 48) in;
layout(push_constant) uniform Params {
  uint rounds;
  uint stride;
} params;
layout(set = 0, binding = 0) buffer Out {
  uint64_t v[];
} result;
void main() {
  const uint id = gl_GlobalInvocationID.x;
  uint64_t x = uint64_t(id) * 0x9E3779B97F4A7C15ul + 1ul;
  uint64_t h = 0ul;
  for (uint i = 0u; i < params.rounds; ++i) {
    x += 0x9E3779B97F4A7C15ul;
    uint64_t z = x;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ul;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBul;
    h ^= z ^ (z >> 31);
  }
  uint64_t s = x | 1ul;
  s ^= s << 13;
  s ^= s >> 7;
  s ^= s << 17;
  const int64_t n = int64_t(h);
  const uint64_t shifts = (x << 1) ^ (x >> 32) ^ (x << 33) ^ (x >> 63) ^ uint64_t(n >> 5) ^ uint64_t(n >> 40);
  result.v[id * 7 + 0] = h;
  result.v[id * 7 + 1] = s;
  result.v[id * 7 + 2] = shifts;
  result.v[id * 7 + 3] = x * h - s;
  result.v[id * 7 + 4] = uint64_t(id * params.stride + 7u);
  const uint a = id * 0x9E3779B9u;
  result.v[id * 7 + 5] = uint64_t((a << 7) | (a >> 25)) | uint64_t((a << 3) | (a >> 28)) << 32;
  const uint h32 = (id * 0x8DA6B343u) ^ ((id + params.stride) * 0xD8163841u);
  result.v[id * 7 + 6] = uint64_t(h32);
}
