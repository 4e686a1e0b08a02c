// Subgroup operations, with subgroups of the reported size and of every
// size a pipeline may require. The basic class: the built-ins, subgroupElect (the lowest active
// invocation, also in divergent code) and the subgroup barriers (no-ops
// for a wave); then every other class in compute, against a model of the
// subgroups (partial ones and divergent branches included), and quads and
// votes in a fragment shader.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <climits>
#include <cstring>
#include <map>
#include <vector>

#include "compute_fixture.h"
#include "graphics_fixture.h"
#include "shaders/subgroup_arb_ballot.comp.h"
#include "shaders/subgroup_basic.comp.h"
#include "shaders/subgroup_operations.comp.h"
#include "shaders/subgroup_quads.frag.h"
#include "shaders/subgroup_vertex.vert.h"
#include "shaders/flat_color.frag.h"

namespace duet_test {
namespace {

// The subgroup sizes a pipeline may require of `stage`
// (VkPipelineShaderStageRequiredSubgroupSizeCreateInfo): every power of two
// from minSubgroupSize to maxSubgroupSize.
std::vector<uint32_t> RequirableSubgroupSizes(VkPhysicalDevice phys, VkShaderStageFlagBits stage) {
  VkPhysicalDeviceVulkan13Properties v13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_PROPERTIES};
  VkPhysicalDeviceProperties2 props{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &v13};
  vkGetPhysicalDeviceProperties2(phys, &props);
  std::vector<uint32_t> sizes;
  if ((v13.requiredSubgroupSizeStages & stage) == 0) return sizes;
  for (uint32_t size = v13.minSubgroupSize; size != 0 && size <= v13.maxSubgroupSize; size *= 2) sizes.push_back(size);
  return sizes;
}

// A graphics stage's chain requiring subgroups of `size` lanes (none for 0),
// for a test run with the default size (0) and the smallest `stage` may require.
struct RequiredSubgroupSize {
  explicit RequiredSubgroupSize(uint32_t size)
      : info{VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_REQUIRED_SUBGROUP_SIZE_CREATE_INFO, nullptr, size} {}
  const void* StageNext() const { return info.requiredSubgroupSize != 0 ? &info : nullptr; }
  static std::vector<uint32_t> DefaultAndSmallest(VkPhysicalDevice phys, VkShaderStageFlagBits stage) {
    const std::vector<uint32_t> requirable = RequirableSubgroupSizes(phys, stage);
    if (requirable.empty()) return {0u};
    return {0u, requirable[0]};
  }
  VkPipelineShaderStageRequiredSubgroupSizeCreateInfo info;
};

class ShaderSubgroupTest : public ComputeFixture {
 protected:
  // The subgroup sizes to test kernels with: 0 (none required: the
  // device's subgroupSize) and every one a compute stage may require.
  std::vector<uint32_t> SizesToTest() {
    std::vector<uint32_t> sizes = RequirableSubgroupSizes(phys_, VK_SHADER_STAGE_COMPUTE_BIT);
    sizes.insert(sizes.begin(), 0u);
    return sizes;
  }
  // Kernels made next run with subgroups of `required` lanes (0: the
  // default); returns their size.
  uint32_t UseSubgroupSize(uint32_t required) {
    required_.requiredSubgroupSize = required;
    stage_next_ = required != 0 ? &required_ : nullptr;
    if (required != 0) return required;
    VkPhysicalDeviceSubgroupProperties subgroup{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES};
    VkPhysicalDeviceProperties2 props{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &subgroup};
    vkGetPhysicalDeviceProperties2(phys_, &props);
    return subgroup.subgroupSize;
  }
  void CheckBasicOperations(uint32_t subgroup_size);
  void CheckEveryOperationClass(uint32_t subgroup_size);

 private:
  VkPipelineShaderStageRequiredSubgroupSizeCreateInfo required_{
      VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_REQUIRED_SUBGROUP_SIZE_CREATE_INFO};
};

// Each size (the default and every one a pipeline may require) in turn:
// the built-ins, ballots, scans and shuffles are those of its subgroups.
TEST_F(ShaderSubgroupTest, BasicOperations) {
  for (uint32_t required : SizesToTest()) {
    SCOPED_TRACE(testing::Message() << "required subgroup size " << required);
    CheckBasicOperations(UseSubgroupSize(required));
  }
}

TEST_F(ShaderSubgroupTest, EveryOperationClassInCompute) {
  for (uint32_t required : SizesToTest()) {
    SCOPED_TRACE(testing::Message() << "required subgroup size " << required);
    CheckEveryOperationClass(UseSubgroupSize(required));
  }
}

void ShaderSubgroupTest::CheckBasicOperations(uint32_t subgroup_size) {
  const uint32_t kSubgroup = subgroup_size;
  constexpr uint32_t kGroupSize = 80, kGroups = 3;
  VkPhysicalDeviceSubgroupProperties subgroup{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES};
  VkPhysicalDeviceProperties2 props{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &subgroup};
  vkGetPhysicalDeviceProperties2(phys_, &props);
  ASSERT_TRUE(kSubgroup >= 4 && kSubgroup <= 64) << kSubgroup;
  const uint32_t subgroups = (kGroupSize + kSubgroup - 1) / kSubgroup;
  ASSERT_NE(subgroup.supportedOperations & VK_SUBGROUP_FEATURE_BASIC_BIT, 0u);

  HostBuffer out = StorageBuffer(kGroupSize * kGroups * 6 * 4);
  Kernel k = MakeKernel(kSubgroupBasicComp, {out.buffer}, 0);
  Run(k, kGroups);
  const uint32_t* r = out.as<uint32_t>();
  for (uint32_t i = 0; i < kGroupSize * kGroups; ++i) {
    const uint32_t local = i % kGroupSize, lane = local % kSubgroup, subgroup_id = local / kSubgroup;
    const uint32_t* v = r + i * 6;
    EXPECT_EQ(v[0], kSubgroup) << i;
    EXPECT_EQ(v[1], lane) << i;
    EXPECT_EQ(v[2], subgroup_id * 100 + subgroups) << i;
    EXPECT_EQ(v[3], lane == 0 ? 1u : 0u) << "elect in uniform code, invocation " << i;
    EXPECT_EQ(v[4], lane % 3 != 1 ? 2u : lane == 1 ? 1u : 0u) << "elect in divergent code, invocation " << i;
    EXPECT_EQ(v[5], lane == 0 ? 1u : 0u) << "elect after the barriers, invocation " << i;
  }
}

// The subgroup a compute invocation is in: its lanes' values.
struct SubgroupModel {
  std::vector<uint32_t> x;  // per active lane
  uint64_t Ballot(bool (*predicate)(uint32_t)) const {
    uint64_t mask = 0;
    for (uint32_t l = 0; l < x.size(); ++l)
      if (predicate(x[l])) mask |= uint64_t{1} << l;
    return mask;
  }
};

void ShaderSubgroupTest::CheckEveryOperationClass(uint32_t subgroup_size) {
  const uint32_t kSubgroup = subgroup_size;
  constexpr uint32_t kGroupSize = 80, kGroups = 2, kWords = 34;
  VkPhysicalDeviceSubgroupProperties subgroup{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES};
  VkPhysicalDeviceProperties2 props{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &subgroup};
  vkGetPhysicalDeviceProperties2(phys_, &props);
  const VkSubgroupFeatureFlags needed =
      VK_SUBGROUP_FEATURE_VOTE_BIT | VK_SUBGROUP_FEATURE_ARITHMETIC_BIT | VK_SUBGROUP_FEATURE_BALLOT_BIT |
      VK_SUBGROUP_FEATURE_SHUFFLE_BIT | VK_SUBGROUP_FEATURE_SHUFFLE_RELATIVE_BIT | VK_SUBGROUP_FEATURE_CLUSTERED_BIT |
      VK_SUBGROUP_FEATURE_QUAD_BIT;
  ASSERT_EQ(subgroup.supportedOperations & needed, needed);
  ASSERT_TRUE(kSubgroup >= 4 && kSubgroup <= 64) << kSubgroup;  // the model's masks are 64 bits

  HostBuffer out = StorageBuffer(kGroupSize * kGroups * kWords * 4);
  Kernel k = MakeKernel(kSubgroupOperationsComp, {out.buffer}, 0);
  Run(k, kGroups);
  const uint32_t* r = out.as<uint32_t>();
  auto value = [](uint32_t i) { return (i * 7u + 3u) % 13u; };
  for (uint32_t i = 0; i < kGroupSize * kGroups; ++i) {
    const uint32_t local = i % kGroupSize, lane = local % kSubgroup, first = i - lane;
    SubgroupModel s;
    for (uint32_t l = 0; l < kSubgroup && local - lane + l < kGroupSize; ++l) s.x.push_back(value(first + l));
    const uint32_t n = uint32_t(s.x.size());
    const std::vector<uint32_t>& x = s.x;
    uint32_t sum = 0, prefix = 0, exclusive_max = 0, xor_all = 0, product = 1;
    int32_t exclusive_min = INT32_MAX;
    for (uint32_t l = 0; l < n; ++l) {
      sum += x[l];
      xor_all ^= x[l];
      if (l <= lane) prefix += x[l], product *= x[l] % 2 + 1;
      if (l < lane) exclusive_max = std::max(exclusive_max, x[l]), exclusive_min = std::min(exclusive_min, int32_t(x[l]) - 6);
    }
    uint32_t cluster4 = UINT32_MAX, cluster8 = 0;
    for (uint32_t l = lane & ~3u; l < (lane & ~3u) + 4 && l < n; ++l) cluster4 = std::min(cluster4, x[l]);
    for (uint32_t l = lane & ~7u; l < (lane & ~7u) + 8 && l < n; ++l) cluster8 += x[l];
    const uint64_t big = s.Ballot([](uint32_t v) { return v > 6; });
    const uint64_t full = n == 64 ? ~uint64_t{0} : (uint64_t{1} << n) - 1;
    uint64_t divergent = 0;
    uint32_t divergent_sum = 0, divergent_min = UINT32_MAX;
    for (uint32_t l = 0; l < n; ++l)
      if (l % 3 != 0) divergent |= uint64_t{1} << l, divergent_sum += x[l], divergent_min = std::min(divergent_min, x[l]);

    const uint32_t* v = r + i * kWords;
    SCOPED_TRACE(testing::Message() << "invocation " << i << " (lane " << lane << " of " << n << ")");
    EXPECT_EQ(v[0], sum);
    EXPECT_EQ(v[1], prefix);
    EXPECT_EQ(v[2], exclusive_max);
    EXPECT_EQ(v[3], cluster4);
    EXPECT_EQ(v[4], sum) << "float sum";
    EXPECT_EQ(v[5], uint32_t(big));
    EXPECT_EQ(v[6], uint32_t(big >> 32));
    EXPECT_EQ(v[7], uint32_t(std::popcount(big)));
    EXPECT_EQ(v[8], uint32_t(std::popcount(big & ((uint64_t{1} << lane) - 1))));
    EXPECT_EQ(v[9], uint32_t(std::countr_zero(big)));
    EXPECT_EQ(v[10], 63u - uint32_t(std::countl_zero(big)));
    EXPECT_EQ(v[11], x[lane ^ 1]);
    if (lane >= 2) EXPECT_EQ(v[12], x[lane - 2]);
    if (lane + 3 < n) EXPECT_EQ(v[13], x[lane + 3]);
    EXPECT_EQ(v[14], x[lane ^ 3]);
    EXPECT_EQ(v[15], x[(lane & ~3u) | 2]);
    EXPECT_EQ(v[16], 1u);
    EXPECT_EQ(v[17], std::count(x.begin(), x.end(), 12u) > 0 ? 1u : 0u);
    EXPECT_EQ(v[18], 1u) << "allEqual: x differs, (7, 0) does not";
    EXPECT_EQ(v[19], x[3]);
    EXPECT_EQ(v[20], x[0]);
    EXPECT_EQ(v[21], lane < 32 ? 1u - lane % 2 : lane % 2);
    EXPECT_EQ(v[22], uint32_t(big >> 5) & 1u);
    EXPECT_EQ(v[23], lane < 32 ? (1u << lane) - 1 : UINT32_MAX);
    // (the mask's bits end at the subgroup size)
    EXPECT_EQ(v[24], kSubgroup <= 32 ? 0u : lane <= 32 ? UINT32_MAX : UINT32_MAX << (lane - 32));
    if (lane % 3 != 0) {
      EXPECT_EQ(v[25], divergent_sum);
      EXPECT_EQ(v[26], uint32_t(std::popcount(divergent & ((uint64_t{1} << lane) - 1))));
      EXPECT_EQ(v[27], uint32_t(divergent));
      EXPECT_EQ(v[28], divergent_min);
    } else {
      for (int w = 25; w <= 28; ++w) EXPECT_EQ(v[w], 99u) << w;
    }
    const bool any_big = std::count_if(x.begin(), x.end(), [](uint32_t e) { return e > 11; }) > 0;
    const bool all_positive = std::count(x.begin(), x.end(), 0u) == 0;
    EXPECT_EQ(v[29], uint32_t(any_big) + 2u * uint32_t(all_positive));
    EXPECT_EQ(v[30], xor_all);
    EXPECT_EQ(v[31], cluster8);
    EXPECT_EQ(v[32], product);
    EXPECT_EQ(v[33], uint32_t(exclusive_min) + 100u);
    (void)full;
  }
}

class ExtSubgroupBallotTest : public ComputeFixture {
 protected:
  ExtSubgroupBallotTest() {
    device_options_.extensions = {VK_EXT_SHADER_SUBGROUP_BALLOT_EXTENSION_NAME, VK_EXT_SHADER_SUBGROUP_VOTE_EXTENSION_NAME};
  }
};

TEST_F(ExtSubgroupBallotTest, ArbBallotReadsAndMasks) {
  ASSERT_EQ(features_.shaderInt64, VK_TRUE);
  VkPhysicalDeviceSubgroupProperties subgroup{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES};
  VkPhysicalDeviceProperties2 props{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &subgroup};
  vkGetPhysicalDeviceProperties2(phys_, &props);
  const uint32_t n = subgroup.subgroupSize;
  ASSERT_EQ(n, 64u) << "the masks below are those of 64-lane subgroups";
  constexpr uint32_t kInvocations = 128;
  HostBuffer out = StorageBuffer(kInvocations * 7 * 8);
  Kernel k = MakeKernel(kSubgroupArbBallotComp, {out.buffer}, 0);
  Run(k, kInvocations / 64);
  const uint64_t* r = out.as<uint64_t>();
  uint64_t every_third = 0;
  for (uint32_t l = 0; l < 64; l += 3) every_third |= uint64_t{1} << l;
  for (uint32_t i = 0; i < kInvocations; ++i) {
    const uint32_t lane = i % 64, first = i - lane;
    SCOPED_TRACE(testing::Message() << "invocation " << i);
    EXPECT_EQ(r[7 * i + 0], every_third);
    EXPECT_EQ(r[7 * i + 1], uint64_t(first + 7) * 10);
    EXPECT_EQ(r[7 * i + 2], uint64_t(first) * 10 + 1);
    EXPECT_EQ(r[7 * i + 3], uint64_t{1} << lane);
    EXPECT_EQ(r[7 * i + 4], (uint64_t{1} << lane) - 1);
    EXPECT_EQ(r[7 * i + 5], uint64_t{64} << 32 | lane);
    EXPECT_EQ(r[7 * i + 6], 0b01011u) << "any, all, not all, all equal, not all equal";
  }
}

class FragmentSubgroupTest : public GraphicsTest {
 protected:
  void CheckQuadsAndVotes(uint32_t required);
};

// With the default subgroup size and the smallest a pipeline may require.
TEST_F(FragmentSubgroupTest, QuadSwapsAndVotesSeeThePixelsOfEachQuad) {
  for (uint32_t required : RequiredSubgroupSize::DefaultAndSmallest(phys_, VK_SHADER_STAGE_FRAGMENT_BIT)) {
    SCOPED_TRACE(testing::Message() << "required subgroup size " << required);
    CheckQuadsAndVotes(required);
  }
}

void FragmentSubgroupTest::CheckQuadsAndVotes(uint32_t required) {
  VkPhysicalDeviceSubgroupProperties subgroup{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES};
  VkPhysicalDeviceProperties2 props{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &subgroup};
  vkGetPhysicalDeviceProperties2(phys_, &props);
  ASSERT_NE(subgroup.supportedStages & VK_SHADER_STAGE_FRAGMENT_BIT, 0u);
  ASSERT_NE(subgroup.supportedOperations & VK_SUBGROUP_FEATURE_QUAD_BIT, 0u);
  const uint32_t size = required != 0 ? required : subgroup.subgroupSize;
  const RequiredSubgroupSize required_size(required);
  constexpr VkExtent2D kExtent{32, 16};
  PipelineDesc desc = RectPipeline(Module(kSubgroupQuadsFrag), kExtent);
  desc.fragment_stage_next = required_size.StageNext();
  desc.color_formats = {VK_FORMAT_R32G32B32A32_UINT};
  const VkPipeline pipeline = MakePipeline(desc);
  const Target target = MakeTarget(VK_FORMAT_R32G32B32A32_UINT, kExtent);
  VkCommandBuffer cb = BeginCommands();
  BeginRendering(cb, {{&target, VK_ATTACHMENT_LOAD_OP_CLEAR}});
  vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
  DrawRect(cb, desc.layout, RectParams{});
  vkCmdEndRendering(cb);
  EndSubmitWait(cb);
  struct Texel {
    uint32_t v[4];
  };
  const std::vector<Texel> texels = Read<Texel>(target);
  ASSERT_EQ(texels.size(), size_t(kExtent.width) * kExtent.height);
  auto packed = [](uint32_t x, uint32_t y) { return x | (y << 16); };
  for (uint32_t y = 0; y < kExtent.height; ++y) {
    for (uint32_t x = 0; x < kExtent.width; ++x) {
      const uint32_t* t = texels[y * kExtent.width + x].v;
      SCOPED_TRACE(testing::Message() << "pixel " << x << "," << y);
      EXPECT_EQ(t[0], packed(x ^ 1, y));
      EXPECT_EQ(t[1], packed(x, y ^ 1));
      EXPECT_EQ(t[2], packed(x | 1, y | 1));
      // Every pixel is covered, so the subgroup is whole quads of them.
      EXPECT_GE(t[3], 1004u);
      EXPECT_LE(t[3], 1000u + size);
      EXPECT_EQ((t[3] - 1000u) % 4, 0u);
    }
  }
}

class VertexSubgroupTest : public GraphicsTest {
 protected:
  void CheckRanks(uint32_t required);
};

// However the driver groups vertices into subgroups, each subgroup's active
// invocations rank 0..n-1, agree on n and on their first vertex; with the
// default subgroup size and the smallest a pipeline may require.
TEST_F(VertexSubgroupTest, ScansReductionsAndBroadcastsOverVertices) {
  for (uint32_t required : RequiredSubgroupSize::DefaultAndSmallest(phys_, VK_SHADER_STAGE_VERTEX_BIT)) {
    SCOPED_TRACE(testing::Message() << "required subgroup size " << required);
    CheckRanks(required);
  }
}

void VertexSubgroupTest::CheckRanks(uint32_t required) {
  VkPhysicalDeviceSubgroupProperties subgroup{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES};
  VkPhysicalDeviceProperties2 props{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &subgroup};
  vkGetPhysicalDeviceProperties2(phys_, &props);
  ASSERT_NE(subgroup.supportedStages & VK_SHADER_STAGE_VERTEX_BIT, 0u);
  ASSERT_EQ(features_.vertexPipelineStoresAndAtomics, VK_TRUE);
  const uint32_t size = required != 0 ? required : subgroup.subgroupSize;
  const RequiredSubgroupSize required_size(required);
  constexpr uint32_t kVertices = 150;  // two full waves of 64 and a partial one
  const DescriptorSet set = MakeDescriptorSet({VK_DESCRIPTOR_TYPE_STORAGE_BUFFER});
  HostBuffer out = MakeHostBuffer(kVertices * 16, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
  std::memset(out.data, 0xFF, kVertices * 16);
  WriteBuffer(set, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, out.buffer);
  PipelineDesc desc;
  desc.vertex = Module(kSubgroupVertexVert);
  desc.vertex_stage_next = required_size.StageNext();
  desc.fragment = Module(kFlatColorFrag);
  desc.layout = MakePipelineLayout({set.layout}, sizeof(RectParams));  // flat_color.frag's colour
  desc.topology = VK_PRIMITIVE_TOPOLOGY_POINT_LIST;
  desc.extent = {4, 4};
  const VkPipeline pipeline = MakePipeline(desc);
  const Target target = MakeTarget(VK_FORMAT_R8G8B8A8_UNORM, {4, 4});
  VkCommandBuffer cb = BeginCommands();
  BeginRendering(cb, {{&target, VK_ATTACHMENT_LOAD_OP_CLEAR}});
  vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
  vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, desc.layout, 0, 1, &set.set, 0, nullptr);
  const RectParams colour;
  vkCmdPushConstants(cb, desc.layout, VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, 0, sizeof colour,
                     &colour);
  vkCmdDraw(cb, kVertices, 1, 0, 0);
  vkCmdEndRendering(cb);
  EndSubmitWait(cb);

  struct Record {
    uint32_t rank, count, first, ballot_count;
  };
  const Record* r = out.as<Record>();
  std::map<uint32_t, std::vector<uint32_t>> ranks_by_first;
  for (uint32_t v = 0; v < kVertices; ++v) {
    SCOPED_TRACE(testing::Message() << "vertex " << v);
    ASSERT_NE(r[v].count, UINT32_MAX) << "not shaded";
    EXPECT_GE(r[v].count, 1u);
    EXPECT_LE(r[v].count, size);
    EXPECT_LT(r[v].rank, r[v].count);
    EXPECT_EQ(r[v].ballot_count, r[v].count);
    EXPECT_LE(r[v].first, v);
    ranks_by_first[r[v].first].push_back(r[v].rank);
  }
  for (auto& [first, ranks] : ranks_by_first) {
    std::sort(ranks.begin(), ranks.end());
    SCOPED_TRACE(testing::Message() << "subgroup of vertex " << first);
    EXPECT_EQ(r[first].rank, 0u) << "the first active invocation ranks 0";
    for (uint32_t k = 0; k < ranks.size(); ++k) EXPECT_EQ(ranks[k], k);
    EXPECT_EQ(ranks.size(), r[first].count);
  }
}

}  // namespace
}  // namespace duet_test
