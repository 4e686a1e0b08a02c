// VK_EXT_multisampled_render_to_single_sampled through the loader: a
// single-sampled attachment rendered with 4 samples through dynamic
// rendering and through a render pass object's subpass: a triangle's edge
// pixels resolve to partial coverage, and an
// attachment loaded (LOAD) keeps its texels where nothing is drawn
// (every implicit sample starts as the attachment's texel, and the resolve
// gives it back).
#include <algorithm>
#include <vector>

#include "graphics_fixture.h"

namespace duet_test {
namespace {

constexpr VkExtent2D kExtent{16, 16};

class MultisampledSingleTest : public GraphicsTest {
 protected:
  MultisampledSingleTest() {
    device_options_.extensions = {"VK_EXT_multisampled_render_to_single_sampled"};
    feature_.multisampledRenderToSingleSampled = VK_TRUE;
    device_options_.extension_features = {reinterpret_cast<VkBaseOutStructure*>(&feature_)};
  }

  // Draws a triangle over the upper left half (x + y < 16) with 4 samples
  // into the single-sampled `target`, cleared to black or loaded.
  void Draw(const Target& target, VkAttachmentLoadOp load) {
    PipelineDesc desc = ColorPipeline(kExtent);
    desc.samples = VK_SAMPLE_COUNT_4_BIT;
    const VkPipeline pipeline = MakePipeline(desc);
    const VkMultisampledRenderToSingleSampledInfoEXT single{
        VK_STRUCTURE_TYPE_MULTISAMPLED_RENDER_TO_SINGLE_SAMPLED_INFO_EXT, nullptr, VK_TRUE, VK_SAMPLE_COUNT_4_BIT};
    const std::vector<ColorVertex> vertices = {
        {{-1, -1, 0, 1}, {1, 1, 1, 1}}, {{-1, 1, 0, 1}, {1, 1, 1, 1}}, {{1, -1, 0, 1}, {1, 1, 1, 1}}};
    HostBuffer buffer = Upload(vertices, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT);
    VkRenderingAttachmentInfo color{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
    color.imageView = target.view;
    color.imageLayout = VK_IMAGE_LAYOUT_GENERAL;
    color.loadOp = load;
    color.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
    VkRenderingInfo info{VK_STRUCTURE_TYPE_RENDERING_INFO, &single};
    info.renderArea = {{0, 0}, kExtent};
    info.layerCount = 1;
    info.colorAttachmentCount = 1;
    info.pColorAttachments = &color;
    VkCommandBuffer cb = BeginCommands();
    vkCmdBeginRendering(cb, &info);
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
    VkDeviceSize offset = 0;
    vkCmdBindVertexBuffers(cb, 0, 1, &buffer.buffer, &offset);
    vkCmdDraw(cb, 3, 1, 0, 0);
    vkCmdEndRendering(cb);
    EndSubmitWait(cb);
  }

  // A single-sampled RGBA8 attachment made for this use
  // (VK_IMAGE_CREATE_MULTISAMPLED_RENDER_TO_SINGLE_SAMPLED_BIT_EXT).
  Target MakeSingleSampledTarget() {
    VkImageCreateInfo ci = ImageInfo(VK_IMAGE_TYPE_2D, VK_FORMAT_R8G8B8A8_UNORM, {kExtent.width, kExtent.height, 1}, 1,
                                     1, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
                                            VK_IMAGE_USAGE_TRANSFER_DST_BIT);
    ci.flags = VK_IMAGE_CREATE_MULTISAMPLED_RENDER_TO_SINGLE_SAMPLED_BIT_EXT;
    Target t;
    t.image = MakeGeneralImage(ci);
    t.view = MakeView(t.image, VK_IMAGE_VIEW_TYPE_2D, ci.format, {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1});
    t.format = ci.format;
    t.extent = kExtent;
    return t;
  }

  VkPhysicalDeviceMultisampledRenderToSingleSampledFeaturesEXT feature_{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MULTISAMPLED_RENDER_TO_SINGLE_SAMPLED_FEATURES_EXT};
};

TEST_F(MultisampledSingleTest, EdgePixelsResolvePartialCoverage) {
  const Target target = MakeSingleSampledTarget();
  Draw(target, VK_ATTACHMENT_LOAD_OP_CLEAR);
  const std::vector<uint32_t> pixels = Read<uint32_t>(target);
  uint32_t partial = 0;
  for (uint32_t y = 0; y < kExtent.height; ++y)
    for (uint32_t x = 0; x < kExtent.width; ++x) {
      const uint32_t red = Channel(pixels[y * kExtent.width + x], 0);
      if (x + y + 1 < kExtent.width) EXPECT_EQ(red, 255u) << x << "," << y;  // wholly inside
      if (x + y > kExtent.width) EXPECT_EQ(red, 0u) << x << "," << y;       // wholly outside
      partial += red != 0 && red != 255;
    }
  // The diagonal's pixels: some of their 4 samples covered.
  EXPECT_GE(partial, kExtent.width / 2);
}

TEST_F(MultisampledSingleTest, LoadedTexelsSurviveWhereNothingIsDrawn) {
  const Target target = MakeSingleSampledTarget();
  const uint32_t blue = PackRgba8(0, 0, 255, 255);
  Fill(target, VK_IMAGE_ASPECT_COLOR_BIT, std::vector<uint32_t>(kExtent.width * kExtent.height, blue));
  Draw(target, VK_ATTACHMENT_LOAD_OP_LOAD);
  const std::vector<uint32_t> pixels = Read<uint32_t>(target);
  for (uint32_t y = 0; y < kExtent.height; ++y)
    for (uint32_t x = 0; x < kExtent.width; ++x) {
      const uint32_t p = pixels[y * kExtent.width + x];
      if (x + y + 1 < kExtent.width) EXPECT_EQ(p, PackRgba8(255, 255, 255, 255)) << x << "," << y;
      if (x + y > kExtent.width) EXPECT_EQ(p, blue) << x << "," << y;
    }
}

// The same through vkCreateRenderPass2: the subpass asks for 4 samples.
TEST_F(MultisampledSingleTest, RenderPassSubpassRendersWithFourSamples) {
  const Target target = MakeSingleSampledTarget();
  VkAttachmentDescription2 attachment{VK_STRUCTURE_TYPE_ATTACHMENT_DESCRIPTION_2};
  attachment.format = VK_FORMAT_R8G8B8A8_UNORM;
  attachment.samples = VK_SAMPLE_COUNT_1_BIT;
  attachment.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
  attachment.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
  attachment.stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
  attachment.stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
  attachment.initialLayout = attachment.finalLayout = VK_IMAGE_LAYOUT_GENERAL;
  const VkAttachmentReference2 color{VK_STRUCTURE_TYPE_ATTACHMENT_REFERENCE_2, nullptr, 0, VK_IMAGE_LAYOUT_GENERAL,
                                     VK_IMAGE_ASPECT_COLOR_BIT};
  const VkMultisampledRenderToSingleSampledInfoEXT single{
      VK_STRUCTURE_TYPE_MULTISAMPLED_RENDER_TO_SINGLE_SAMPLED_INFO_EXT, nullptr, VK_TRUE, VK_SAMPLE_COUNT_4_BIT};
  VkSubpassDescription2 subpass{VK_STRUCTURE_TYPE_SUBPASS_DESCRIPTION_2, &single};
  subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
  subpass.colorAttachmentCount = 1;
  subpass.pColorAttachments = &color;
  VkRenderPassCreateInfo2 ci{VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO_2};
  ci.attachmentCount = 1;
  ci.pAttachments = &attachment;
  ci.subpassCount = 1;
  ci.pSubpasses = &subpass;
  VkRenderPass pass = VK_NULL_HANDLE;
  ASSERT_EQ(vkCreateRenderPass2(device_, &ci, nullptr, &pass), VK_SUCCESS);
  Defer([this, pass] { vkDestroyRenderPass(device_, pass, nullptr); });
  const VkFramebuffer framebuffer = MakeFramebuffer(pass, {target.view}, kExtent);
  PipelineDesc desc = ColorPipeline(kExtent);
  desc.samples = VK_SAMPLE_COUNT_4_BIT;
  desc.render_pass = pass;
  const VkPipeline pipeline = MakePipeline(desc);
  const std::vector<ColorVertex> vertices = {
      {{-1, -1, 0, 1}, {1, 1, 1, 1}}, {{-1, 1, 0, 1}, {1, 1, 1, 1}}, {{1, -1, 0, 1}, {1, 1, 1, 1}}};
  HostBuffer buffer = Upload(vertices, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT);
  VkCommandBuffer cb = BeginCommands();
  const VkClearValue clear{};
  VkRenderPassBeginInfo begin{VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO};
  begin.renderPass = pass;
  begin.framebuffer = framebuffer;
  begin.renderArea = {{0, 0}, kExtent};
  begin.clearValueCount = 1;
  begin.pClearValues = &clear;
  vkCmdBeginRenderPass(cb, &begin, VK_SUBPASS_CONTENTS_INLINE);
  vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
  VkDeviceSize offset = 0;
  vkCmdBindVertexBuffers(cb, 0, 1, &buffer.buffer, &offset);
  vkCmdDraw(cb, 3, 1, 0, 0);
  vkCmdEndRenderPass(cb);
  EndSubmitWait(cb);
  const std::vector<uint32_t> pixels = Read<uint32_t>(target);
  uint32_t partial = 0;
  for (uint32_t y = 0; y < kExtent.height; ++y)
    for (uint32_t x = 0; x < kExtent.width; ++x) {
      const uint32_t red = Channel(pixels[y * kExtent.width + x], 0);
      if (x + y + 1 < kExtent.width) EXPECT_EQ(red, 255u) << x << "," << y;
      if (x + y > kExtent.width) EXPECT_EQ(red, 0u) << x << "," << y;
      partial += red != 0 && red != 255;
    }
  EXPECT_GE(partial, kExtent.width / 2);
}

}  // namespace
}  // namespace duet_test
