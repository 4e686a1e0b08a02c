// Basic subgroup operations: a subgroup is a wave (of the reported
// subgroup size); the subgroup built-ins, subgroupElect (the lowest active
// invocation, also in divergent code) and the subgroup barriers (no-ops
// for a wave).
#include <gtest/gtest.h>

#include "compute_fixture.h"
#include "shaders/subgroup_basic.comp.h"

namespace duet_test {
namespace {

class ShaderSubgroupTest : public ComputeFixture {};

TEST_F(ShaderSubgroupTest, BasicOperations) {
  constexpr uint32_t kGroupSize = 80, kGroups = 3;
  VkPhysicalDeviceSubgroupProperties subgroup{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES};
  VkPhysicalDeviceProperties2 props{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &subgroup};
  vkGetPhysicalDeviceProperties2(phys_, &props);
  const uint32_t kSubgroup = subgroup.subgroupSize;
  ASSERT_TRUE(kSubgroup == 32 || kSubgroup == 64) << kSubgroup;  // the last subgroup of 80 is partial
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

}  // namespace
}  // namespace duet_test
