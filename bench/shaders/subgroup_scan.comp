#version 450
// Inclusive prefix sums within each subgroup (subgroupInclusiveAdd) and
// each subgroup's total (subgroupAdd), over 16M values: the first pass of
// a prefix sum / stream compaction.
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { uint values[]; };
layout(set = 0, binding = 1) writeonly buffer Out { uint prefix[]; };
layout(set = 0, binding = 2) writeonly buffer Totals { uint totals[]; };
void main() {
  const uint i = gl_GlobalInvocationID.x + gl_GlobalInvocationID.y * gl_NumWorkGroups.x * 64u;
  const uint v = values[i];
  prefix[i] = subgroupInclusiveAdd(v);
  const uint total = subgroupAdd(v);
  if (subgroupElect()) totals[i / gl_SubgroupSize] = total;
}
