// VK_EXT_load_store_op_none: LOAD_OP_NONE keeps an attachment's contents
// for the pass to draw over, STORE_OP_NONE leaves a read-only attachment's
// contents as they were.
#include <vector>

#include "graphics_fixture.h"
#include "shaders/flat_color.frag.h"

namespace duet_test {
namespace {

constexpr VkExtent2D kExtent{8, 4};

class LoadStoreOpNoneTest : public GraphicsTest {
 protected:
  LoadStoreOpNoneTest() { device_options_.extensions = {VK_EXT_LOAD_STORE_OP_NONE_EXTENSION_NAME}; }
};

TEST_F(LoadStoreOpNoneTest, ContentsSurviveNoneOps) {
  PipelineDesc desc = RectPipeline(Module(kFlatColorFrag), kExtent);
  desc.depth_format = VK_FORMAT_D32_SFLOAT;
  desc.depth_stencil.depthTestEnable = VK_TRUE;  // tested, never written
  desc.depth_stencil.depthCompareOp = VK_COMPARE_OP_LESS;
  const VkPipeline pipeline = MakePipeline(desc);
  const Target color = MakeTarget(VK_FORMAT_R8G8B8A8_UNORM, kExtent);
  const Target depth = MakeTarget(VK_FORMAT_D32_SFLOAT, kExtent);
  const uint32_t kOld = 0x11223344u;
  ASSERT_NO_FATAL_FAILURE(Fill(color, VK_IMAGE_ASPECT_COLOR_BIT, std::vector<uint32_t>(kExtent.width * kExtent.height, kOld)));
  ASSERT_NO_FATAL_FAILURE(Fill(depth, VK_IMAGE_ASPECT_DEPTH_BIT, std::vector<float>(kExtent.width * kExtent.height, 0.25f)));

  VkCommandBuffer cb = BeginCommands();
  AttachmentUse color_use{&color, VK_ATTACHMENT_LOAD_OP_NONE_EXT};
  AttachmentUse depth_use{&depth, VK_ATTACHMENT_LOAD_OP_NONE_EXT};
  depth_use.store = VK_ATTACHMENT_STORE_OP_NONE;
  BeginRendering(cb, {color_use}, depth_use);
  vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
  RectParams behind;  // behind the stored depth everywhere: draws nothing
  behind.z = 0.5f;
  DrawRect(cb, desc.layout, behind);
  RectParams front;  // the left half, in front: red
  front.bounds[2] = 0.0f;
  front.z = 0.1f;
  front.color[1] = front.color[2] = 0.0f;
  DrawRect(cb, desc.layout, front);
  vkCmdEndRendering(cb);
  EndSubmitWait(cb);

  const std::vector<uint32_t> pixels = Read<uint32_t>(color);
  const std::vector<float> depths = Read<float>(depth, VK_IMAGE_ASPECT_DEPTH_BIT);
  for (uint32_t y = 0; y < kExtent.height; ++y) {
    for (uint32_t x = 0; x < kExtent.width; ++x) {
      EXPECT_EQ(pixels[y * kExtent.width + x], x < 4 ? 0xFF0000FFu : kOld) << "pixel " << x << "," << y;
      EXPECT_EQ(depths[y * kExtent.width + x], 0.25f) << "depth " << x << "," << y;
    }
  }
}

}  // namespace
}  // namespace duet_test
