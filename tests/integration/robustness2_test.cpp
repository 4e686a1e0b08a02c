// VK_EXT_robustness2's null descriptors: of every kind, they read as zero
// (sizes too) and drop writes and atomics; a null vertex buffer's
// attributes read zero with alpha 1. (Out-of-range accesses:
// shader_buffers_test.cpp RobustAccess and the image tests.)
#include <cstring>
#include <vector>

#include "compute_fixture.h"
#include "graphics_fixture.h"
#include "shaders/color_triangle.frag.h"
#include "shaders/null_attribute.vert.h"
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

class NullVertexBufferTest : public GraphicsTest {
 protected:
  NullVertexBufferTest() {
    device_options_.extensions = {VK_EXT_ROBUSTNESS_2_EXTENSION_NAME};
    device_options_.extension_features = {reinterpret_cast<VkBaseOutStructure*>(&features_)};
  }
  VkPhysicalDeviceRobustness2FeaturesEXT features_{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ROBUSTNESS_2_FEATURES_EXT,
                                                   nullptr, VK_FALSE, VK_FALSE, VK_TRUE};
};

TEST_F(NullVertexBufferTest, AttributesReadZeroWithAlphaOne) {
  constexpr VkExtent2D kExtent{8, 8};
  PipelineDesc desc;
  desc.vertex = Module(kNullAttributeVert);
  desc.fragment = Module(kColorTriangleFrag);
  desc.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP;
  desc.extent = kExtent;
  desc.bindings = {{0, 8, VK_VERTEX_INPUT_RATE_VERTEX}};
  desc.attributes = {{0, 0, VK_FORMAT_R32G32_SFLOAT, 0}};
  const VkPipeline pipeline = MakePipeline(desc);
  const Target target = MakeTarget(VK_FORMAT_R8G8B8A8_UNORM, kExtent);
  VkCommandBuffer cb = BeginCommands();
  BeginRendering(cb, {{&target, VK_ATTACHMENT_LOAD_OP_CLEAR, {}}});
  vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
  const VkBuffer null_buffer = VK_NULL_HANDLE;
  const VkDeviceSize offset = 0;
  vkCmdBindVertexBuffers(cb, 0, 1, &null_buffer, &offset);
  vkCmdDraw(cb, 4, 1, 0, 0);
  vkCmdEndRendering(cb);
  EndSubmitWait(cb);
  const std::vector<uint32_t> pixels = Read<uint32_t>(target);
  ASSERT_EQ(pixels.size(), 64u);
  for (uint32_t i = 0; i < 64; ++i) ASSERT_EQ(pixels[i], PackRgba8(128, 0, 0, 255)) << "pixel " << i;
}

}  // namespace
}  // namespace duet_test
