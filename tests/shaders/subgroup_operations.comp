#version 450
// Every subgroup operation class on 32-bit values: vote, ballot, arithmetic
// (reduce, scans, clusters), shuffles, relative shuffles and quads, the
// mask built-ins, and operations in divergent code (only the lanes of the
// branch take part). 80 invocations per workgroup: the last subgroup is
// partial. Values are small integers, so float sums are exact.
#extension GL_KHR_shader_subgroup_vote : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_shuffle : require
#extension GL_KHR_shader_subgroup_shuffle_relative : require
#extension GL_KHR_shader_subgroup_clustered : require
#extension GL_KHR_shader_subgroup_quad : require
layout(local_size_x = 80) in;
layout(set = 0, binding = 0) buffer Out { uint r[]; };
const uint kWords = 34u;
void main() {
  const uint i = gl_GlobalInvocationID.x;
  const uint lane = gl_SubgroupInvocationID;
  const uint x = (i * 7u + 3u) % 13u;
  const uint o = i * kWords;
  r[o + 0u] = subgroupAdd(x);
  r[o + 1u] = subgroupInclusiveAdd(x);
  r[o + 2u] = subgroupExclusiveMax(x);
  r[o + 3u] = subgroupClusteredMin(x, 4u);
  r[o + 4u] = uint(subgroupAdd(float(x)));
  uvec4 big = subgroupBallot(x > 6u);
  r[o + 5u] = big.x;
  r[o + 6u] = big.y;
  r[o + 7u] = subgroupBallotBitCount(big);
  r[o + 8u] = subgroupBallotExclusiveBitCount(big);
  r[o + 9u] = subgroupBallotFindLSB(big);
  r[o + 10u] = subgroupBallotFindMSB(big);
  r[o + 11u] = subgroupShuffleXor(x, 1u);
  r[o + 12u] = subgroupShuffleUp(x, 2u);
  r[o + 13u] = subgroupShuffleDown(x, 3u);
  r[o + 14u] = subgroupQuadSwapDiagonal(x);
  r[o + 15u] = subgroupQuadBroadcast(x, 2u);
  r[o + 16u] = uint(subgroupAll(x < 13u));
  r[o + 17u] = uint(subgroupAny(x == 12u));
  r[o + 18u] = uint(subgroupAllEqual(x)) * 2u + uint(subgroupAllEqual(uvec2(7u, lane / 64u)));
  r[o + 19u] = subgroupBroadcast(x, 3u);
  r[o + 20u] = subgroupBroadcastFirst(x);
  r[o + 21u] = uint(subgroupInverseBallot(uvec4(0x55555555u, 0xAAAAAAAAu, 0u, 0u)));
  r[o + 22u] = uint(subgroupBallotBitExtract(big, 5u));
  r[o + 23u] = gl_SubgroupLtMask.x;
  r[o + 24u] = gl_SubgroupGeMask.y;
  r[o + 25u] = 99u;
  r[o + 26u] = 99u;
  r[o + 27u] = 99u;
  r[o + 28u] = 99u;
  if (lane % 3u != 0u) {
    r[o + 25u] = subgroupAdd(x);
    r[o + 26u] = subgroupExclusiveAdd(1u);
    r[o + 27u] = subgroupBallot(true).x;
    r[o + 28u] = subgroupMin(x);
  }
  r[o + 29u] = uint(subgroupOr(x > 11u)) + 2u * uint(subgroupAnd(x > 0u));
  r[o + 30u] = subgroupXor(x);
  r[o + 31u] = subgroupClusteredAdd(x, 8u);
  r[o + 32u] = subgroupInclusiveMul(x % 2u + 1u);
  r[o + 33u] = uint(subgroupExclusiveMin(int(x) - 6) + 100);
}
