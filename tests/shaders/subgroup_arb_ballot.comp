#version 450
// GL_ARB_shader_ballot (VK_EXT_shader_subgroup_ballot): 64-bit ballots and
// masks, reading another invocation's value and the first one's; and
// GL_ARB_shader_group_vote (VK_EXT_shader_subgroup_vote).
#extension GL_ARB_shader_ballot : require
#extension GL_ARB_shader_group_vote : require
#extension GL_ARB_gpu_shader_int64 : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) writeonly buffer Out { uint64_t r[]; };  // 7 per invocation
void main() {
  const uint i = gl_GlobalInvocationID.x;
  const uint lane = gl_SubGroupInvocationARB;
  r[7u * i + 0u] = ballotARB(lane % 3u == 0u);
  r[7u * i + 1u] = uint64_t(readInvocationARB(i * 10u, 7u));
  r[7u * i + 2u] = uint64_t(readFirstInvocationARB(i * 10u + 1u));
  r[7u * i + 3u] = gl_SubGroupEqMaskARB;
  r[7u * i + 4u] = gl_SubGroupLtMaskARB;
  r[7u * i + 5u] = uint64_t(gl_SubGroupSizeARB) << 32 | uint64_t(lane);
  r[7u * i + 6u] = uint64_t(anyInvocationARB(lane == 5u)) | uint64_t(allInvocationsARB(lane < 64u)) << 1 |
                   uint64_t(allInvocationsARB(lane != 9u)) << 2 | uint64_t(allInvocationsEqualARB(i / 64u == 0u)) << 3 |
                   uint64_t(allInvocationsEqualARB(lane < 3u)) << 4;
}
