#version 450
// Subgroup operations on 8- and 16-bit integers and 16-bit floats
// (shaderSubgroupExtendedTypes): signed minimum and maximum, sums that wrap
// at 16 bits, a half-precision scan, a shuffle, and exclusive signed
// minimum and maximum scans (the first lane gets the type's INT_MAX / INT_MIN).
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_subgroup_extended_types_int8 : require
#extension GL_EXT_shader_subgroup_extended_types_int16 : require
#extension GL_EXT_shader_subgroup_extended_types_float16 : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_shuffle : require
layout(local_size_x = 128) in;
layout(std430, set = 0, binding = 0) writeonly buffer Out { uint o[]; };
void main() {
  const uint i = gl_LocalInvocationID.x;
  const int16_t s = int16_t(int(i) * 300 - 9000);
  const int8_t b = int8_t(int(i) * 5 - 100);
  const uint16_t u = uint16_t(i * 2000u);
  const float16_t h = float16_t(i & 63u) * 0.25hf;  // (sums stay exact in half)
  o[i * 8u + 0u] = uint(int(subgroupMin(s)));
  o[i * 8u + 1u] = uint(int(subgroupInclusiveAdd(s)));
  o[i * 8u + 2u] = uint(int(subgroupMax(b)));
  o[i * 8u + 3u] = uint(subgroupAdd(u));
  o[i * 8u + 4u] = floatBitsToUint(float(subgroupInclusiveAdd(h)));
  o[i * 8u + 5u] = uint(int(subgroupShuffleXor(b, 1u)));
  o[i * 8u + 6u] = uint(int(subgroupExclusiveMin(s)));
  o[i * 8u + 7u] = uint(int(subgroupExclusiveMax(b)));
}
