#version 450
// Subgroup operations on 64-bit integers (shaderSubgroupExtendedTypes with
// shaderInt64): reductions, scans, a broadcast, a shuffle and a vote.
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_EXT_shader_subgroup_extended_types_int64 : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_shuffle : require
#extension GL_KHR_shader_subgroup_vote : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) writeonly buffer Out { uint64_t r[]; };  // 7 per invocation
void main() {
  const uint i = gl_GlobalInvocationID.x;
  const uint64_t x = (uint64_t(i) * 0x9E3779B97F4A7C15ul) >> 7;  // values above 2^32
  const int64_t s = int64_t(x) - 0x0100000000000000l;
  r[7u * i + 0u] = subgroupAdd(x);
  r[7u * i + 1u] = uint64_t(subgroupMin(s));
  r[7u * i + 2u] = subgroupInclusiveAdd(x);
  r[7u * i + 3u] = subgroupExclusiveMax(x);
  r[7u * i + 4u] = subgroupBroadcast(x, 5u);
  r[7u * i + 5u] = subgroupShuffleXor(x, 1u);
  r[7u * i + 6u] = uint64_t(subgroupAllEqual(x)) | uint64_t(subgroupAllEqual(x & 0xFFFFFFFF00000000ul | 7ul)) << 1;
}
