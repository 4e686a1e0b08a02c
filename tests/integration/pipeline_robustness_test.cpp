// VK_EXT_pipeline_robustness: the device reports robustness2 behaviour as
// its default for buffers, vertex inputs and images, and a pipeline that
// asks for robust buffer access 2 (or disables robustness) reads 0 past
// the end of a descriptor's range.
#include <gtest/gtest.h>

#include <cstring>

#include "compute_fixture.h"
#include "shaders/read_past_end.comp.h"

namespace duet_test {
namespace {

class PipelineRobustnessTest : public ComputeFixture {
 protected:
  PipelineRobustnessTest() {
    device_options_.extensions = {VK_EXT_PIPELINE_ROBUSTNESS_EXTENSION_NAME};
    device_options_.extension_features = {reinterpret_cast<VkBaseOutStructure*>(&feature_)};
    feature_.pipelineRobustness = VK_TRUE;
  }
  VkPhysicalDevicePipelineRobustnessFeaturesEXT feature_{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_ROBUSTNESS_FEATURES_EXT};
};

TEST_F(PipelineRobustnessTest, DefaultsAndARobustPipelineReadZeroPastTheRange) {
  VkPhysicalDevicePipelineRobustnessPropertiesEXT defaults{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_ROBUSTNESS_PROPERTIES_EXT};
  VkPhysicalDeviceProperties2 props{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &defaults};
  vkGetPhysicalDeviceProperties2(phys_, &props);
  EXPECT_EQ(defaults.defaultRobustnessStorageBuffers,
            VK_PIPELINE_ROBUSTNESS_BUFFER_BEHAVIOR_ROBUST_BUFFER_ACCESS_2_EXT);
  EXPECT_EQ(defaults.defaultRobustnessUniformBuffers,
            VK_PIPELINE_ROBUSTNESS_BUFFER_BEHAVIOR_ROBUST_BUFFER_ACCESS_2_EXT);
  EXPECT_EQ(defaults.defaultRobustnessVertexInputs, VK_PIPELINE_ROBUSTNESS_BUFFER_BEHAVIOR_ROBUST_BUFFER_ACCESS_2_EXT);
  EXPECT_EQ(defaults.defaultRobustnessImages, VK_PIPELINE_ROBUSTNESS_IMAGE_BEHAVIOR_ROBUST_IMAGE_ACCESS_2_EXT);

  for (const VkPipelineRobustnessBufferBehaviorEXT behaviour :
       {VK_PIPELINE_ROBUSTNESS_BUFFER_BEHAVIOR_ROBUST_BUFFER_ACCESS_2_EXT,
        VK_PIPELINE_ROBUSTNESS_BUFFER_BEHAVIOR_DEVICE_DEFAULT_EXT}) {
    VkPipelineRobustnessCreateInfoEXT robustness{VK_STRUCTURE_TYPE_PIPELINE_ROBUSTNESS_CREATE_INFO_EXT};
    robustness.storageBuffers = robustness.uniformBuffers = behaviour;
    robustness.vertexInputs = VK_PIPELINE_ROBUSTNESS_BUFFER_BEHAVIOR_DEVICE_DEFAULT_EXT;
    robustness.images = VK_PIPELINE_ROBUSTNESS_IMAGE_BEHAVIOR_DEVICE_DEFAULT_EXT;
    pipeline_next_ = &robustness;
    HostBuffer data = StorageBuffer(256);
    HostBuffer uniforms = MakeHostBuffer(256, VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT);
    for (uint32_t i = 0; i < 64; ++i) {
      data.as<uint32_t>()[i] = 100 + i;
      uniforms.as<uint32_t>()[i] = 200 + i;
    }
    HostBuffer out = StorageBuffer(16 * 4);
    BufferBinding data_binding{data.buffer};
    data_binding.range = 16;  // four words
    BufferBinding uniform_binding{uniforms.buffer, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER};
    uniform_binding.range = 16;
    Kernel k = MakeKernelWithBindings(kReadPastEndComp, {data_binding, uniform_binding, {out.buffer}}, 0);
    pipeline_next_ = nullptr;
    Run(k, 1);
    const uint32_t* r = out.as<uint32_t>();
    for (uint32_t i = 0; i < 8; ++i) {
      EXPECT_EQ(r[i], i < 4 ? 100 + i : 0u) << "storage word " << i;
      EXPECT_EQ(r[8 + i], i < 4 ? 200 + i : 0u) << "uniform word " << i;
    }
  }
}

}  // namespace
}  // namespace duet_test
