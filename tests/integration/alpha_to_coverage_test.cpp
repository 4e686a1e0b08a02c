// Alpha to coverage: location 0's alpha picks how many samples a fragment
// covers, with a colour attachment and without one (depth-only
// rendering), counted by a precise occlusion query over a 4x target.
#include <gtest/gtest.h>

#include <string>

#include "graphics_fixture.h"
#include "shaders/flat_color.frag.h"

namespace duet_test {
namespace {

constexpr VkExtent2D kExtent{8, 8};
constexpr uint64_t kPixels = 64;

class AlphaToCoverageTest : public GraphicsTest {
 protected:
  // Samples that pass when a full-target rectangle of `alpha` is drawn
  // with alpha to coverage into a 4x depth attachment (and a 4x colour one
  // when `with_color`).
  uint64_t PassedSamples(float alpha, bool with_color) {
    PipelineDesc desc = RectPipeline(Module(kFlatColorFrag), kExtent);
    if (!with_color) desc.color_formats = {};
    desc.depth_format = VK_FORMAT_D32_SFLOAT;
    desc.samples = VK_SAMPLE_COUNT_4_BIT;
    desc.alpha_to_coverage = true;
    desc.depth_stencil.depthTestEnable = desc.depth_stencil.depthWriteEnable = VK_TRUE;
    desc.depth_stencil.depthCompareOp = VK_COMPARE_OP_LESS;
    const VkPipeline pipeline = MakePipeline(desc);

    VkImageCreateInfo ci = ImageInfo(VK_IMAGE_TYPE_2D, VK_FORMAT_D32_SFLOAT, {kExtent.width, kExtent.height, 1}, 1, 1,
                                     VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT);
    ci.samples = VK_SAMPLE_COUNT_4_BIT;
    const VkImage depth_image = MakeGeneralImage(ci, VK_IMAGE_ASPECT_DEPTH_BIT);
    ci.format = VK_FORMAT_R8G8B8A8_UNORM;
    ci.usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT;
    const VkImage color_image = MakeGeneralImage(ci);
    VkRenderingAttachmentInfo depth{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
    depth.imageView =
        MakeView(depth_image, VK_IMAGE_VIEW_TYPE_2D, VK_FORMAT_D32_SFLOAT, {VK_IMAGE_ASPECT_DEPTH_BIT, 0, 1, 0, 1});
    depth.imageLayout = VK_IMAGE_LAYOUT_GENERAL;
    depth.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
    depth.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
    depth.clearValue.depthStencil = {1.0f, 0};
    VkRenderingAttachmentInfo color{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
    color.imageView =
        MakeView(color_image, VK_IMAGE_VIEW_TYPE_2D, VK_FORMAT_R8G8B8A8_UNORM, {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1});
    color.imageLayout = VK_IMAGE_LAYOUT_GENERAL;
    color.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
    color.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
    VkRenderingInfo info{VK_STRUCTURE_TYPE_RENDERING_INFO};
    info.renderArea = {{0, 0}, kExtent};
    info.layerCount = 1;
    info.colorAttachmentCount = with_color ? 1 : 0;
    info.pColorAttachments = with_color ? &color : nullptr;
    info.pDepthAttachment = &depth;

    VkQueryPoolCreateInfo qci{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
    qci.queryType = VK_QUERY_TYPE_OCCLUSION;
    qci.queryCount = 1;
    VkQueryPool pool = VK_NULL_HANDLE;
    EXPECT_EQ(vkCreateQueryPool(device_, &qci, nullptr, &pool), VK_SUCCESS);
    Defer([this, pool] { vkDestroyQueryPool(device_, pool, nullptr); });

    VkCommandBuffer cb = BeginCommands();
    vkCmdResetQueryPool(cb, pool, 0, 1);
    vkCmdBeginRendering(cb, &info);
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
    vkCmdBeginQuery(cb, pool, 0, VK_QUERY_CONTROL_PRECISE_BIT);
    RectParams rect;
    rect.z = 0.5f;
    rect.color[3] = alpha;
    DrawRect(cb, desc.layout, rect);
    vkCmdEndQuery(cb, pool, 0);
    vkCmdEndRendering(cb);
    EndSubmitWait(cb);
    uint64_t passed = 0;
    EXPECT_EQ(vkGetQueryPoolResults(device_, pool, 0, 1, sizeof passed, &passed, sizeof passed,
                                    VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT),
              VK_SUCCESS);
    return passed;
  }
};

TEST_F(AlphaToCoverageTest, AlphaPicksTheSamplesWithAndWithoutAColourAttachment) {
  ASSERT_EQ(features_.occlusionQueryPrecise, VK_TRUE);
  for (const bool with_color : {true, false}) {
    SCOPED_TRACE(with_color ? "with a colour attachment" : "depth only");
    EXPECT_EQ(PassedSamples(0.0f, with_color), 0u) << "alpha 0 covers no sample";
    EXPECT_EQ(PassedSamples(1.0f, with_color), 4 * kPixels) << "alpha 1 covers every sample";
    const uint64_t half = PassedSamples(0.5f, with_color);
    EXPECT_GT(half, 0u);
    EXPECT_LT(half, 4 * kPixels);
    // Duet covers round(alpha * samples) samples of each pixel.
    if (std::string(props_.deviceName).find("Duet") != std::string::npos) EXPECT_EQ(half, 2 * kPixels);
  }
}

}  // namespace
}  // namespace duet_test
