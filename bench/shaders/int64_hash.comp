#version 450
// Integer hashing in 64 bits: `rounds` rounds of splitmix64 per
// invocation (adds, xor-shifts and 64-bit multiplies), the kind of code
// random number generators and hash tables run.
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) writeonly buffer Out { uint64_t result[]; };
layout(push_constant) uniform Params { uint rounds; };
void main() {
  uint64_t x = uint64_t(gl_GlobalInvocationID.x);
  uint64_t h = 0ul;
  for (uint i = 0u; i < rounds; ++i) {
    x += 0x9E3779B97F4A7C15ul;
    uint64_t z = x;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ul;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBul;
    h ^= z ^ (z >> 31);
  }
  result[gl_GlobalInvocationID.x] = h;
}
