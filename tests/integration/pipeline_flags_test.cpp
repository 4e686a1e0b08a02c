// Pipeline creation flags that change nothing a draw does here: a
// pipeline made with VK_PIPELINE_CREATE_NO_PROTECTED_ACCESS_BIT_EXT
// (VK_EXT_pipeline_protected_access) draws as one made without it.
#include <algorithm>
#include <vector>

#include "graphics_fixture.h"

namespace duet_test {
namespace {

constexpr VkExtent2D kExtent{16, 16};

class PipelineFlagsTest : public GraphicsTest {
 protected:
  PipelineFlagsTest() {
    device_options_.extensions = {"VK_EXT_pipeline_protected_access"};
    protected_access_.pipelineProtectedAccess = VK_TRUE;
    device_options_.extension_features = {reinterpret_cast<VkBaseOutStructure*>(&protected_access_)};
  }

  std::vector<uint32_t> DrawTriangle(VkPipelineCreateFlags flags) {
    PipelineDesc desc = ColorPipeline(kExtent);
    desc.flags = flags;
    const VkPipeline pipeline = MakePipeline(desc);
    const std::vector<ColorVertex> vertices = {
        {{-1, -1, 0, 1}, {0, 1, 0, 1}}, {{-1, 1, 0, 1}, {0, 1, 0, 1}}, {{1, -1, 0, 1}, {0, 1, 0, 1}}};
    const Target target = MakeTarget(VK_FORMAT_R8G8B8A8_UNORM, kExtent);
    HostBuffer buffer = Upload(vertices, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT);
    VkCommandBuffer cb = BeginCommands();
    BeginRendering(cb, {{&target, VK_ATTACHMENT_LOAD_OP_CLEAR, {}}});
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
    VkDeviceSize offset = 0;
    vkCmdBindVertexBuffers(cb, 0, 1, &buffer.buffer, &offset);
    vkCmdDraw(cb, 3, 1, 0, 0);
    vkCmdEndRendering(cb);
    EndSubmitWait(cb);
    return Read<uint32_t>(target);
  }

  VkPhysicalDevicePipelineProtectedAccessFeaturesEXT protected_access_{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_PROTECTED_ACCESS_FEATURES_EXT};
};

TEST_F(PipelineFlagsTest, NoProtectedAccessDrawsAsUsual) {
  const std::vector<uint32_t> plain = DrawTriangle(0);
  ASSERT_GT(std::count(plain.begin(), plain.end(), PackRgba8(0, 255, 0, 255)), 50);
  EXPECT_EQ(DrawTriangle(VK_PIPELINE_CREATE_NO_PROTECTED_ACCESS_BIT_EXT), plain);
}

}  // namespace
}  // namespace duet_test
