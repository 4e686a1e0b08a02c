// VK_EXT_post_depth_coverage: with PostDepthCoverage, SampleMaskIn holds
// the samples that passed the early depth test, not every sample the
// rasterizer covered.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "graphics_fixture.h"
#include "shaders/flat_color.frag.h"
#include "shaders/post_depth_coverage.frag.h"

namespace duet_test {
namespace {

constexpr VkExtent2D kExtent{4, 4};

class PostDepthCoverageTest : public GraphicsTest {
 protected:
  PostDepthCoverageTest() { device_options_.extensions = {VK_EXT_POST_DEPTH_COVERAGE_EXTENSION_NAME}; }

  // A 4x depth-only target; first an occluder at z 0.2 from x = 0.5 (the
  // middle of column 0: samples 1 and 3 of the standard pattern, at x
  // 0.875 and 0.625, are behind it there), then the full target at z 0.5
  // with `fragment`, which records SampleMaskIn per pixel.
  std::vector<uint32_t> Masks(const uint32_t* code, size_t bytes) {
    if (!(props_.limits.framebufferDepthSampleCounts & VK_SAMPLE_COUNT_4_BIT)) return {};
    const DescriptorSet set = MakeDescriptorSet({VK_DESCRIPTOR_TYPE_STORAGE_BUFFER});
    HostBuffer masks = MakeHostBuffer(16 * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    std::memset(masks.data, 0, 16 * 4);
    WriteBuffer(set, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, masks.buffer);
    PipelineDesc occluder = RectPipeline(Module(kFlatColorFrag), kExtent);
    occluder.color_formats = {};
    occluder.depth_format = VK_FORMAT_D32_SFLOAT;
    occluder.samples = VK_SAMPLE_COUNT_4_BIT;
    occluder.depth_stencil.depthTestEnable = occluder.depth_stencil.depthWriteEnable = VK_TRUE;
    occluder.depth_stencil.depthCompareOp = VK_COMPARE_OP_LESS;
    const VkPipeline first = MakePipeline(occluder);
    PipelineDesc recorder = RectPipeline(Module(code, bytes), kExtent, {set.layout});
    recorder.color_formats = {};
    recorder.depth_format = VK_FORMAT_D32_SFLOAT;
    recorder.samples = VK_SAMPLE_COUNT_4_BIT;
    recorder.depth_stencil = occluder.depth_stencil;
    recorder.depth_stencil.depthWriteEnable = VK_FALSE;
    const VkPipeline second = MakePipeline(recorder);

    VkImageCreateInfo ci = ImageInfo(VK_IMAGE_TYPE_2D, VK_FORMAT_D32_SFLOAT, {kExtent.width, kExtent.height, 1}, 1, 1,
                                     VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT);
    ci.samples = VK_SAMPLE_COUNT_4_BIT;
    const VkImage image = MakeGeneralImage(ci, VK_IMAGE_ASPECT_DEPTH_BIT);
    VkRenderingAttachmentInfo depth{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
    depth.imageView = MakeView(image, VK_IMAGE_VIEW_TYPE_2D, VK_FORMAT_D32_SFLOAT, {VK_IMAGE_ASPECT_DEPTH_BIT, 0, 1, 0, 1});
    depth.imageLayout = VK_IMAGE_LAYOUT_GENERAL;
    depth.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
    depth.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
    depth.clearValue.depthStencil = {1.0f, 0};
    VkRenderingInfo info{VK_STRUCTURE_TYPE_RENDERING_INFO};
    info.renderArea = {{0, 0}, kExtent};
    info.layerCount = 1;
    info.pDepthAttachment = &depth;

    VkCommandBuffer cb = BeginCommands();
    vkCmdBeginRendering(cb, &info);
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, first);
    RectParams near;
    near.bounds[0] = Ndc(0.5, kExtent.width);
    near.z = 0.2f;
    DrawRect(cb, occluder.layout, near);
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, second);
    vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, recorder.layout, 0, 1, &set.set, 0, nullptr);
    RectParams full;
    full.z = 0.5f;
    DrawRect(cb, recorder.layout, full);
    vkCmdEndRendering(cb);
    EndSubmitWait(cb);
    const uint32_t* m = masks.as<uint32_t>();
    return std::vector<uint32_t>(m, m + 16);
  }
};

TEST_F(PostDepthCoverageTest, SampleMaskInHoldsTheSamplesThatPassed) {
  ASSERT_EQ(features_.fragmentStoresAndAtomics, VK_TRUE);
  const std::vector<uint32_t> post = Masks(kPostDepthCoverageFrag, sizeof kPostDepthCoverageFrag);
  if (post.empty()) GTEST_SKIP() << "no 4x depth attachments";
  for (uint32_t y = 0; y < kExtent.height; ++y) {
    for (uint32_t x = 0; x < kExtent.width; ++x) {
      SCOPED_TRACE(testing::Message() << "pixel " << x << "," << y);
      // Column 0: samples 0 and 2 pass; columns 1..3 are fully behind the occluder (not shaded).
      EXPECT_EQ(post[y * 4 + x], x == 0 ? 0x5u : 0u);
    }
  }
}

}  // namespace
}  // namespace duet_test
