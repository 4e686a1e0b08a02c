// The depth bounds test (depthBounds: a fragment passes only where the
// depth already stored lies within the bounds, static or dynamic), and
// VK_EXT_depth_range_unrestricted: viewport depth ranges, depth clears and
// depth writes outside [0, 1] kept as they are in a float depth attachment.
#include <vector>

#include "graphics_fixture.h"
#include "shaders/flat_color.frag.h"

namespace duet_test {
namespace {

constexpr VkExtent2D kExtent{16, 8};

class DepthBoundsRangeTest : public GraphicsTest {
 protected:
  DepthBoundsRangeTest() { device_options_.extensions = {VK_EXT_DEPTH_RANGE_UNRESTRICTED_EXTENSION_NAME}; }
};

TEST_F(DepthBoundsRangeTest, BoundsPassOnlyWhereTheStoredDepthIsWithin) {
  ASSERT_EQ(features_.depthBounds, VK_TRUE);
  PipelineDesc desc = RectPipeline(Module(kFlatColorFrag), kExtent);
  desc.depth_format = VK_FORMAT_D32_SFLOAT;
  desc.depth_stencil.depthTestEnable = VK_TRUE;
  desc.depth_stencil.depthCompareOp = VK_COMPARE_OP_ALWAYS;
  desc.depth_stencil.depthBoundsTestEnable = VK_TRUE;
  desc.depth_stencil.minDepthBounds = 0.2f;
  desc.depth_stencil.maxDepthBounds = 0.5f;
  const VkPipeline static_bounds = MakePipeline(desc);
  desc.dynamic_states = {VK_DYNAMIC_STATE_DEPTH_BOUNDS};
  const VkPipeline dynamic_bounds = MakePipeline(desc);
  const Target color = MakeTarget(VK_FORMAT_R8G8B8A8_UNORM, kExtent);
  const Target depth = MakeTarget(VK_FORMAT_D32_SFLOAT, kExtent);

  VkCommandBuffer cb = BeginCommands();
  VkClearValue clear{};
  clear.depthStencil = {0.3f, 0};
  BeginRendering(cb, {{&color, VK_ATTACHMENT_LOAD_OP_CLEAR}}, {&depth, VK_ATTACHMENT_LOAD_OP_CLEAR, clear});
  // Columns 8..15 hold 0.8, columns 0..7 the cleared 0.3.
  VkClearAttachment right{VK_IMAGE_ASPECT_DEPTH_BIT, 0, {}};
  right.clearValue.depthStencil = {0.8f, 0};
  const VkClearRect rect{{{8, 0}, {8, kExtent.height}}, 0, 1};
  vkCmdClearAttachments(cb, 1, &right, 1, &rect);
  // Rows 0..3: static bounds [0.2, 0.5] (red); rows 4..7: dynamic bounds [0.7, 0.9] (green).
  vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, static_bounds);
  RectParams top;
  top.bounds[3] = 0.0f;
  top.color[1] = top.color[2] = 0.0f;
  DrawRect(cb, desc.layout, top);
  vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, dynamic_bounds);
  vkCmdSetDepthBounds(cb, 0.7f, 0.9f);
  RectParams bottom;
  bottom.bounds[1] = 0.0f;
  bottom.color[0] = bottom.color[2] = 0.0f;
  DrawRect(cb, desc.layout, bottom);
  vkCmdEndRendering(cb);
  EndSubmitWait(cb);

  const std::vector<uint32_t> pixels = Read<uint32_t>(color);
  for (uint32_t y = 0; y < kExtent.height; ++y) {
    for (uint32_t x = 0; x < kExtent.width; ++x) {
      const bool left = x < 8, top_half = y < 4;
      const uint32_t expected = top_half ? (left ? 0xFF0000FFu : 0) : (left ? 0 : 0xFF00FF00u);
      EXPECT_EQ(pixels[y * kExtent.width + x], expected) << "pixel " << x << "," << y;
    }
  }
}

TEST_F(DepthBoundsRangeTest, UnrestrictedDepthIsStoredAsIs) {
  PipelineDesc desc = RectPipeline(Module(kFlatColorFrag), kExtent);
  desc.depth_format = VK_FORMAT_D32_SFLOAT;
  desc.depth_stencil.depthTestEnable = VK_TRUE;
  desc.depth_stencil.depthWriteEnable = VK_TRUE;
  desc.depth_stencil.depthCompareOp = VK_COMPARE_OP_LESS;
  desc.viewport = {0, 0, float(kExtent.width), float(kExtent.height), -2.0f, 3.0f};  // outside [0, 1]
  desc.depth_stencil.depthBoundsTestEnable = VK_TRUE;  // bounds beyond [0, 1] too
  desc.depth_stencil.minDepthBounds = -10.0f;
  desc.depth_stencil.maxDepthBounds = 10.0f;
  const VkPipeline pipeline = MakePipeline(desc);
  const Target color = MakeTarget(VK_FORMAT_R8G8B8A8_UNORM, kExtent);
  const Target depth = MakeTarget(VK_FORMAT_D32_SFLOAT, kExtent);

  VkCommandBuffer cb = BeginCommands();
  VkClearValue clear{};
  clear.depthStencil = {5.0f, 0};  // cleared beyond 1
  BeginRendering(cb, {{&color, VK_ATTACHMENT_LOAD_OP_CLEAR}}, {&depth, VK_ATTACHMENT_LOAD_OP_CLEAR, clear});
  vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
  RectParams left;  // z_ndc 0.9: depth -2 + 5 * 0.9 = 2.5
  left.bounds[2] = 0.0f;
  left.z = 0.9f;
  DrawRect(cb, desc.layout, left);
  RectParams right;  // z_ndc 0.1: depth -1.5
  right.bounds[0] = 0.5f;
  right.z = 0.1f;
  DrawRect(cb, desc.layout, right);
  vkCmdEndRendering(cb);
  EndSubmitWait(cb);

  const std::vector<float> depths = Read<float>(depth, VK_IMAGE_ASPECT_DEPTH_BIT);
  for (uint32_t y = 0; y < kExtent.height; ++y) {
    for (uint32_t x = 0; x < kExtent.width; ++x) {
      const float expected = x < 8 ? 2.5f : x >= 12 ? -1.5f : 5.0f;
      EXPECT_FLOAT_EQ(depths[y * kExtent.width + x], expected) << "pixel " << x << "," << y;
    }
  }
}

}  // namespace
}  // namespace duet_test
