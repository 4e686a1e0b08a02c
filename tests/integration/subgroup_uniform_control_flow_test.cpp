// VK_KHR_shader_subgroup_uniform_control_flow through the loader: a shader
// in the SubgroupUniformControlFlowKHR mode whose lanes diverge and then
// reconverge (the wave's lanes run together again after the if), so a
// subgroup operation after the branch sees the whole subgroup
// (subgroup_uniform_control_flow.spvasm).
#include <cstdint>

#include "compute_fixture.h"
#include "shaders/subgroup_uniform_control_flow.spvasm.h"

namespace duet_test {
namespace {

class SubgroupUniformControlFlowTest : public ComputeFixture {
 protected:
  void SetUp() override {
    device_options_.extensions = {VK_KHR_SHADER_SUBGROUP_UNIFORM_CONTROL_FLOW_EXTENSION_NAME};
    uniform_.shaderSubgroupUniformControlFlow = VK_TRUE;
    device_options_.extension_features = {reinterpret_cast<VkBaseOutStructure*>(&uniform_)};
    ComputeFixture::SetUp();
  }
  VkPhysicalDeviceShaderSubgroupUniformControlFlowFeaturesKHR uniform_{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_SUBGROUP_UNIFORM_CONTROL_FLOW_FEATURES_KHR};
};

TEST_F(SubgroupUniformControlFlowTest, DivergedLanesReconvergeAfterTheBranch) {
  VkPhysicalDeviceSubgroupProperties subgroup{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES};
  VkPhysicalDeviceProperties2 properties{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &subgroup};
  vkGetPhysicalDeviceProperties2(phys_, &properties);
  ASSERT_EQ(subgroup.subgroupSize, 64u);  // the model below: one subgroup of 64
  HostBuffer out = StorageBuffer(64 * 4);
  ASSERT_NE(out.data, nullptr);
  Kernel k = MakeKernel(kSubgroupUniformControlFlowSpvasm, {out.buffer}, 0);
  Run(k, 1);
  uint32_t even_sum = 0;
  for (uint32_t x = 0; x < 64; x += 2) even_sum += x;
  for (uint32_t x = 0; x < 64; ++x)
    EXPECT_EQ(out.as<uint32_t>()[x], (x % 2 == 0 ? even_sum : 32u) * 1000u + 64u) << x;
}

}  // namespace
}  // namespace duet_test
