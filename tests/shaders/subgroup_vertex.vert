#version 450
// Subgroup operations in a vertex shader: each vertex records its rank
// among the subgroup's active invocations (an exclusive scan), their count
// (a reduction), the subgroup's first vertex (a broadcast) and the
// ballot's bit count (which must equal the count).
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_ballot : require
layout(set = 0, binding = 0) writeonly buffer Out { uvec4 r[]; };
void main() {
  const uint v = uint(gl_VertexIndex);
  r[v] = uvec4(subgroupExclusiveAdd(1u), subgroupAdd(1u), subgroupBroadcastFirst(v),
               subgroupBallotBitCount(subgroupBallot(true)));
  gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
  gl_PointSize = 1.0;
}
