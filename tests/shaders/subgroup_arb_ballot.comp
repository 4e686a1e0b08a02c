#version 450
// GL_ARB_shader_ballot (VK_EXT_shader_subgroup_ballot): 64-bit ballots and
// masks, reading another invocation's value and the first one's.
#extension GL_ARB_shader_ballot : require
#extension GL_ARB_gpu_shader_int64 : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) writeonly buffer Out { uint64_t r[]; };  // 6 per invocation
void main() {
  const uint i = gl_GlobalInvocationID.x;
  const uint lane = gl_SubGroupInvocationARB;
  r[6u * i + 0u] = ballotARB(lane % 3u == 0u);
  r[6u * i + 1u] = uint64_t(readInvocationARB(i * 10u, 7u));
  r[6u * i + 2u] = uint64_t(readFirstInvocationARB(i * 10u + 1u));
  r[6u * i + 3u] = gl_SubGroupEqMaskARB;
  r[6u * i + 4u] = gl_SubGroupLtMaskARB;
  r[6u * i + 5u] = uint64_t(gl_SubGroupSizeARB) << 32 | uint64_t(lane);
}
