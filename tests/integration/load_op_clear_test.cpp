// Load-op clears are written tile by tile as draws reach them and the rest
// at the end (raster/deferred_clear): whatever the order, the result is
// the clear's. Render areas that do not line up with tiles, draws that
// cover part of them, and pixels outside them left alone.
#include "graphics_fixture.h"
#include "shaders/flat_color.frag.h"

namespace duet_test {
namespace {

class LoadOpClearTest : public GraphicsTest {
 protected:
  static constexpr VkExtent2D kExtent{200, 150};
  static constexpr VkRect2D kArea{{37, 21}, {130, 100}};  // across 64x64 tiles, aligned to none

  static bool Inside(const VkRect2D& r, uint32_t x, uint32_t y) {
    return int32_t(x) >= r.offset.x && int32_t(x) < r.offset.x + int32_t(r.extent.width) &&
           int32_t(y) >= r.offset.y && int32_t(y) < r.offset.y + int32_t(r.extent.height);
  }

  static uint32_t Pattern(uint32_t x, uint32_t y) { return 0xFF000000u | (x * 7u) << 8 | (y * 5u & 0xFFu); }
  static float DepthPattern(uint32_t x, uint32_t y) { return float((x + y) % 10) / 10.0f; }

  // Flat-coloured rectangles with a D32 depth test LESS that writes.
  PipelineDesc DepthTestedRects() {
    PipelineDesc desc = RectPipeline(Module(kFlatColorFrag), kExtent);
    desc.depth_format = VK_FORMAT_D32_SFLOAT;
    desc.depth_stencil.depthTestEnable = VK_TRUE;
    desc.depth_stencil.depthWriteEnable = VK_TRUE;
    desc.depth_stencil.depthCompareOp = VK_COMPARE_OP_LESS;
    return desc;
  }

  // Rectangle r (in pixels) at depth z in opaque (red, green, 0).
  static RectParams Rect(const VkRect2D& r, float z, float red, float green) {
    RectParams p;
    p.bounds[0] = Ndc(r.offset.x, kExtent.width);
    p.bounds[1] = Ndc(r.offset.y, kExtent.height);
    p.bounds[2] = Ndc(r.offset.x + r.extent.width, kExtent.width);
    p.bounds[3] = Ndc(r.offset.y + r.extent.height, kExtent.height);
    p.z = z;
    p.color[0] = red;
    p.color[1] = green;
    p.color[2] = 0;
    p.color[3] = 1;
    return p;
  }

  // Attachment infos clearing colour to blue and depth to 0.5, both stored.
  static void ClearToBlue(const Target& color, const Target& depth, VkRenderingAttachmentInfo* color_info,
                          VkRenderingAttachmentInfo* depth_info) {
    *color_info = {VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
    color_info->imageView = color.view;
    color_info->imageLayout = VK_IMAGE_LAYOUT_GENERAL;
    color_info->loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
    color_info->storeOp = VK_ATTACHMENT_STORE_OP_STORE;
    color_info->clearValue.color = {{0.0f, 0.0f, 1.0f, 1.0f}};
    *depth_info = *color_info;
    depth_info->imageView = depth.view;
    depth_info->clearValue.depthStencil = {0.5f, 0};
  }
};

TEST_F(LoadOpClearTest, ClearsTheRenderAreaAroundAndUnderDraws) {
  const PipelineDesc desc = DepthTestedRects();
  const VkPipeline pipeline = MakePipeline(desc);
  const Target color = MakeTarget(VK_FORMAT_R8G8B8A8_UNORM, kExtent);
  const Target depth = MakeTarget(VK_FORMAT_D32_SFLOAT, kExtent);
  std::vector<uint32_t> pattern;
  std::vector<float> depth_pattern;
  for (uint32_t y = 0; y < kExtent.height; ++y)
    for (uint32_t x = 0; x < kExtent.width; ++x) {
      pattern.push_back(Pattern(x, y));
      depth_pattern.push_back(DepthPattern(x, y));
    }
  Fill(color, VK_IMAGE_ASPECT_COLOR_BIT, pattern);
  Fill(depth, VK_IMAGE_ASPECT_DEPTH_BIT, depth_pattern);

  VkRenderingAttachmentInfo color_info, depth_info;
  ClearToBlue(color, depth, &color_info, &depth_info);
  VkRenderingInfo info{VK_STRUCTURE_TYPE_RENDERING_INFO};
  info.renderArea = kArea;
  info.layerCount = 1;
  info.colorAttachmentCount = 1;
  info.pColorAttachments = &color_info;
  info.pDepthAttachment = &depth_info;

  // Two rectangles in pixels: a red one in front of the cleared depth, a
  // green one behind it (the depth test drops it where the clear is).
  const VkRect2D front{{60, 30}, {40, 30}}, behind{{90, 50}, {60, 60}};
  VkCommandBuffer cb = BeginCommands();
  vkCmdBeginRendering(cb, &info);
  vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
  DrawRect(cb, desc.layout, Rect(front, 0.25f, 1, 0));
  DrawRect(cb, desc.layout, Rect(behind, 0.75f, 0, 1));
  vkCmdEndRendering(cb);
  EndSubmitWait(cb);

  const std::vector<uint32_t> pixels = Read<uint32_t>(color);
  const std::vector<float> depths = Read<float>(depth, VK_IMAGE_ASPECT_DEPTH_BIT);
  ASSERT_EQ(pixels.size(), size_t(kExtent.width) * kExtent.height);
  ASSERT_EQ(depths.size(), pixels.size());
  int wrong = 0;
  for (uint32_t y = 0; y < kExtent.height; ++y) {
    for (uint32_t x = 0; x < kExtent.width; ++x) {
      uint32_t want_color = Pattern(x, y);
      float want_depth = DepthPattern(x, y);
      if (Inside(kArea, x, y)) {
        want_color = 0xFFFF0000u;  // blue
        want_depth = 0.5f;
        if (Inside(front, x, y)) {
          want_color = 0xFF0000FFu;  // red
          want_depth = 0.25f;
        }
      }
      const size_t i = size_t(y) * kExtent.width + x;
      if (pixels[i] != want_color || depths[i] != want_depth) {
        if (++wrong <= 10)
          ADD_FAILURE() << "pixel " << x << "," << y << ": colour " << std::hex << pixels[i] << " want " << want_color
                        << std::dec << ", depth " << depths[i] << " want " << want_depth;
      }
    }
  }
  EXPECT_EQ(wrong, 0);
}

// A depth attachment whose values are not kept (store op DONT_CARE): its
// clear is still written in every tile a draw works in, however far apart
// the draws are. The depth image starts at 0, so a tile left uncleared
// fails the test (LESS against 0) and loses its rectangle.
TEST_F(LoadOpClearTest, DepthNotKeptIsClearedWhereDrawn) {
  const PipelineDesc desc = DepthTestedRects();
  const VkPipeline pipeline = MakePipeline(desc);
  const Target color = MakeTarget(VK_FORMAT_R8G8B8A8_UNORM, kExtent);
  const Target depth = MakeTarget(VK_FORMAT_D32_SFLOAT, kExtent);
  Fill(depth, VK_IMAGE_ASPECT_DEPTH_BIT, std::vector<float>(size_t(kExtent.width) * kExtent.height, 0.0f));

  VkRenderingAttachmentInfo color_info, depth_info;
  ClearToBlue(color, depth, &color_info, &depth_info);
  depth_info.storeOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
  VkRenderingInfo info{VK_STRUCTURE_TYPE_RENDERING_INFO};
  info.renderArea = {{0, 0}, kExtent};
  info.layerCount = 1;
  info.colorAttachmentCount = 1;
  info.pColorAttachments = &color_info;
  info.pDepthAttachment = &depth_info;

  // Two red rectangles in front of the cleared depth, in tiles of their own
  // (64x64 tiles), each drawn twice: the second copy, behind the first,
  // must fail where the first wrote depth.
  const VkRect2D rects[2] = {{{5, 5}, {30, 30}}, {{140, 90}, {50, 50}}};
  VkCommandBuffer cb = BeginCommands();
  vkCmdBeginRendering(cb, &info);
  vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
  for (const VkRect2D& r : rects) DrawRect(cb, desc.layout, Rect(r, 0.25f, 1, 0));
  for (const VkRect2D& r : rects) DrawRect(cb, desc.layout, Rect(r, 0.375f, 1, 1));
  vkCmdEndRendering(cb);
  EndSubmitWait(cb);

  const std::vector<uint32_t> pixels = Read<uint32_t>(color);
  ASSERT_EQ(pixels.size(), size_t(kExtent.width) * kExtent.height);
  int wrong = 0;
  for (uint32_t y = 0; y < kExtent.height; ++y) {
    for (uint32_t x = 0; x < kExtent.width; ++x) {
      const bool drawn = Inside(rects[0], x, y) || Inside(rects[1], x, y);
      const uint32_t want = drawn ? 0xFF0000FFu : 0xFFFF0000u;  // red, else blue
      if (pixels[size_t(y) * kExtent.width + x] != want && ++wrong <= 10)
        ADD_FAILURE() << "pixel " << x << "," << y << ": " << std::hex << pixels[size_t(y) * kExtent.width + x]
                      << " want " << want;
    }
  }
  EXPECT_EQ(wrong, 0);
}

// A second rendering that loads what the first cleared, drawing only in a
// corner: the first one's clear reached every tile, drawn in or not.
TEST_F(LoadOpClearTest, ALaterRenderingLoadsEveryClearedTile) {
  PipelineDesc desc = RectPipeline(Module(kFlatColorFrag), kExtent);
  const VkPipeline pipeline = MakePipeline(desc);
  const Target color = MakeTarget(VK_FORMAT_R8G8B8A8_UNORM, kExtent);
  VkCommandBuffer cb = BeginCommands();
  const VkClearValue green{{{0.0f, 1.0f, 0.0f, 1.0f}}};
  RectParams corner;
  corner.bounds[0] = corner.bounds[1] = -1;
  corner.bounds[2] = Ndc(10, kExtent.width);
  corner.bounds[3] = Ndc(10, kExtent.height);
  corner.color[0] = 1;
  corner.color[1] = corner.color[2] = 0;
  BeginRendering(cb, {{&color, VK_ATTACHMENT_LOAD_OP_CLEAR, green}});
  vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
  DrawRect(cb, desc.layout, corner);
  vkCmdEndRendering(cb);
  BeginRendering(cb, {{&color, VK_ATTACHMENT_LOAD_OP_LOAD}});
  vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
  DrawRect(cb, desc.layout, corner);
  vkCmdEndRendering(cb);
  EndSubmitWait(cb);
  const std::vector<uint32_t> pixels = Read<uint32_t>(color);
  ASSERT_EQ(pixels.size(), size_t(kExtent.width) * kExtent.height);
  for (uint32_t y = 0; y < kExtent.height; ++y)
    for (uint32_t x = 0; x < kExtent.width; ++x)
      ASSERT_EQ(pixels[y * kExtent.width + x], x < 10 && y < 10 ? 0xFF0000FFu : 0xFF00FF00u) << x << "," << y;
}

}  // namespace
}  // namespace duet_test
