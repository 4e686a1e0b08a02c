// VK_EXT_attachment_feedback_loop_layout: a colour attachment in
// ATTACHMENT_FEEDBACK_LOOP_OPTIMAL layout sampled by the draw that writes
// it, each fragment reading its own pixel: it sees what was there before
// the draw (a cleared half and a drawn half), not what the draw writes.
#include <vector>

#include "graphics_fixture.h"
#include "shaders/feedback_loop.frag.h"
#include "shaders/flat_color.frag.h"

namespace duet_test {
namespace {

constexpr VkExtent2D kExtent{16, 16};

class FeedbackLoopTest : public GraphicsTest {
 protected:
  FeedbackLoopTest() {
    device_options_.extensions = {VK_EXT_ATTACHMENT_FEEDBACK_LOOP_LAYOUT_EXTENSION_NAME};
    device_options_.extension_features = {reinterpret_cast<VkBaseOutStructure*>(&features_)};
  }
  VkPhysicalDeviceAttachmentFeedbackLoopLayoutFeaturesEXT features_{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ATTACHMENT_FEEDBACK_LOOP_LAYOUT_FEATURES_EXT, nullptr, VK_TRUE};

  void Begin(VkCommandBuffer cb, const Target& target, VkAttachmentLoadOp load, VkImageLayout layout) {
    VkRenderingAttachmentInfo color{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
    color.imageView = target.view;
    color.imageLayout = layout;
    color.loadOp = load;
    color.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
    color.clearValue.color = {{0.0f, 0.0f, 1.0f, 1.0f}};
    VkRenderingInfo info{VK_STRUCTURE_TYPE_RENDERING_INFO};
    info.renderArea = {{0, 0}, kExtent};
    info.layerCount = 1;
    info.colorAttachmentCount = 1;
    info.pColorAttachments = &color;
    vkCmdBeginRendering(cb, &info);
  }
};

TEST_F(FeedbackLoopTest, DrawsReadTheirOwnPixelsBeforeWritingThem) {
  const Target target = MakeTarget(VK_FORMAT_R8G8B8A8_UNORM, kExtent,
                                   VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_ATTACHMENT_FEEDBACK_LOOP_BIT_EXT);
  const PipelineDesc fill = RectPipeline(Module(kFlatColorFrag), kExtent);
  const VkPipeline fill_pipeline = MakePipeline(fill);
  const DescriptorSet set = MakeDescriptorSet({VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER});
  VkSamplerCreateInfo sci{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
  const VkDescriptorImageInfo image{MakeSampler(sci), target.view, VK_IMAGE_LAYOUT_ATTACHMENT_FEEDBACK_LOOP_OPTIMAL_EXT};
  WriteDescriptor(set, 0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, &image, nullptr);
  PipelineDesc loop = RectPipeline(Module(kFeedbackLoopFrag), kExtent, {set.layout});
  const VkPipeline loop_pipeline = MakePipeline(loop);

  VkCommandBuffer cb = BeginCommands();
  // The left half red over a blue clear.
  Begin(cb, target, VK_ATTACHMENT_LOAD_OP_CLEAR, VK_IMAGE_LAYOUT_GENERAL);
  vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, fill_pipeline);
  RectParams left;
  left.bounds[2] = 0.0f;
  left.color[1] = left.color[2] = 0.0f;
  DrawRect(cb, fill.layout, left);
  vkCmdEndRendering(cb);
  VkImageMemoryBarrier barrier{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
  barrier.srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
  barrier.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
  barrier.oldLayout = VK_IMAGE_LAYOUT_GENERAL;
  barrier.newLayout = VK_IMAGE_LAYOUT_ATTACHMENT_FEEDBACK_LOOP_OPTIMAL_EXT;
  barrier.srcQueueFamilyIndex = barrier.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  barrier.image = target.image;
  barrier.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
  vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
                       VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT | VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT, 0, 0,
                       nullptr, 0, nullptr, 1, &barrier);
  // Every pixel halves itself, reading the attachment it writes.
  Begin(cb, target, VK_ATTACHMENT_LOAD_OP_LOAD, VK_IMAGE_LAYOUT_ATTACHMENT_FEEDBACK_LOOP_OPTIMAL_EXT);
  vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, loop_pipeline);
  vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, loop.layout, 0, 1, &set.set, 0, nullptr);
  DrawRect(cb, loop.layout, RectParams{});
  vkCmdEndRendering(cb);
  barrier.oldLayout = VK_IMAGE_LAYOUT_ATTACHMENT_FEEDBACK_LOOP_OPTIMAL_EXT;
  barrier.newLayout = VK_IMAGE_LAYOUT_GENERAL;
  barrier.srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
  barrier.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
  vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0,
                       nullptr, 0, nullptr, 1, &barrier);
  EndSubmitWait(cb);
  const std::vector<uint32_t> pixels = Read<uint32_t>(target);
  ASSERT_EQ(pixels.size(), kExtent.width * kExtent.height);
  for (uint32_t y = 0; y < kExtent.height; ++y)
    for (uint32_t x = 0; x < kExtent.width; ++x)
      ASSERT_EQ(pixels[y * kExtent.width + x], x < 8 ? PackRgba8(128, 0, 0, 255) : PackRgba8(0, 0, 128, 255))
          << x << "," << y;
}

}  // namespace
}  // namespace duet_test
