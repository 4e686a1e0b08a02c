#version 450
// Subgroup operations in a fragment shader: quad swaps exchange the
// positions of the pixels of each 2x2 quad; the votes and the ballot see
// the covered pixels of the subgroup (all pixels of a full-target draw).
#extension GL_KHR_shader_subgroup_quad : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_vote : require
layout(location = 0) out uvec4 result;
void main() {
  const uvec2 p = uvec2(gl_FragCoord.xy);
  const uint packed = p.x | (p.y << 16);
  const uint count = subgroupBallotBitCount(subgroupBallot(true));
  result = uvec4(subgroupQuadSwapHorizontal(packed), subgroupQuadSwapVertical(packed),
                 subgroupQuadBroadcast(packed, 3u), count + (subgroupAll(p.x < 4096u) ? 1000u : 0u));
}
