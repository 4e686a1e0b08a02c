#version 450
// Basic subgroup operations (subgroupSupportedOperations = BASIC): the
// built-ins, subgroupElect in uniform and divergent code, and the
// subgroup barriers.
#extension GL_KHR_shader_subgroup_basic : require
layout(local_size_x = 80) in;  // 32- or 64-lane subgroups: the last one is partial
layout(set = 0, binding = 0) buffer Out { uint r[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  r[i * 6u + 0u] = gl_SubgroupSize;
  r[i * 6u + 1u] = gl_SubgroupInvocationID;
  r[i * 6u + 2u] = gl_SubgroupID * 100u + gl_NumSubgroups;
  r[i * 6u + 3u] = subgroupElect() ? 1u : 0u;
  uint elected = 2u;
  if (gl_SubgroupInvocationID % 3u == 1u) elected = subgroupElect() ? 1u : 0u;
  r[i * 6u + 4u] = elected;
  subgroupBarrier();
  subgroupMemoryBarrier();
  subgroupMemoryBarrierBuffer();
  subgroupMemoryBarrierShared();
  r[i * 6u + 5u] = uint(subgroupElect());
}
