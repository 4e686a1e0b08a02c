// VK_EXT_robustness2's null descriptors: of every kind, they read as zero
// (sizes too) and drop writes and atomics. (Out-of-range accesses:
// shader_buffers_test.cpp RobustAccess and the image tests.)
#include <cstring>
#include <vector>

#include "compute_fixture.h"
#include "shaders/null_descriptors.comp.h"

namespace duet_test {
namespace {

class Robustness2Test : public ComputeFixture {
 protected:
  Robustness2Test() {
    device_options_.extensions = {VK_EXT_ROBUSTNESS_2_EXTENSION_NAME};
    device_options_.extension_features = {reinterpret_cast<VkBaseOutStructure*>(&features_)};
  }
  // nullDescriptor alone (robustBufferAccess2 would need robustBufferAccess enabled too).
  VkPhysicalDeviceRobustness2FeaturesEXT features_{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ROBUSTNESS_2_FEATURES_EXT,
                                                   nullptr, VK_FALSE, VK_FALSE, VK_TRUE};
};

TEST_F(Robustness2Test, NullDescriptorsReadZeroAndDropWrites) {
  VkSamplerCreateInfo sci{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
  VkSampler sampler = VK_NULL_HANDLE;
  ASSERT_EQ(vkCreateSampler(device_, &sci, nullptr, &sampler), VK_SUCCESS);
  Defer([this, sampler] { vkDestroySampler(device_, sampler, nullptr); });
  HostBuffer results = StorageBuffer(4 * 4 * 16);
  std::memset(results.data, 0xCD, 4 * 4 * 16);
  BufferBinding null_buffer, null_uniform, null_texture, null_image, null_texels, out;
  null_uniform.type = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER;
  null_texture.type = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
  null_texture.sampler = sampler;
  null_image.type = VK_DESCRIPTOR_TYPE_STORAGE_IMAGE;
  null_texels.type = VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER;
  out.buffer = results.buffer;
  const Kernel k = MakeKernelWithBindings(kNullDescriptorsComp,
                                          {null_buffer, null_uniform, null_texture, null_image, null_texels, out}, 0);
  Run(k, 1);
  const uint32_t* r = results.as<uint32_t>();
  for (uint32_t i = 0; i < 4 * 4 * 4; ++i) EXPECT_EQ(r[i], 0u) << "lane " << i / 16 << " word " << i % 16;
}

}  // namespace
}  // namespace duet_test
