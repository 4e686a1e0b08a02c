// Load-op clears are written tile by tile as draws reach them and the rest
// at the end (raster/deferred_clear): whatever the order, the result is
// the clear's. Render areas that do not line up with tiles, draws that
// cover part of them, and pixels outside them left alone.
#include <cstring>
#include <functional>

#include "graphics_fixture.h"
#include "shaders/flat_color.frag.h"
#include "shaders/store_red_texel.frag.h"

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

  // Every pixel of an RGBA8 target is `want` (the first few that are not
  // are reported).
  void ExpectEvery(const Target& t, uint32_t want) {
    const std::vector<uint32_t> pixels = Read<uint32_t>(t);
    ASSERT_EQ(pixels.size(), size_t(kExtent.width) * kExtent.height);
    int wrong = 0;
    for (size_t i = 0; i < pixels.size(); ++i)
      if (pixels[i] != want && ++wrong <= 5)
        ADD_FAILURE() << "pixel " << i % kExtent.width << "," << i / kExtent.width << ": " << std::hex << pixels[i];
    EXPECT_EQ(wrong, 0);
  }
  // Submits `cb`, waits, and returns the bottom-right pixel of `t` and a new
  // command buffer.
  uint32_t SubmitAndReadCorner(VkCommandBuffer* cb, const Target& t) {
    EndSubmitWait(*cb);
    const std::vector<uint32_t> pixels = Read<uint32_t>(t);
    *cb = BeginCommands();
    return pixels.empty() ? 0 : pixels.back();
  }

  // A 4-sample RGBA8 colour attachment of kExtent.
  VkImageView MakeMultisampledView() {
    VkImageCreateInfo info = ImageInfo(VK_IMAGE_TYPE_2D, VK_FORMAT_R8G8B8A8_UNORM, {kExtent.width, kExtent.height, 1},
                                       1, 1, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT);
    info.samples = VK_SAMPLE_COUNT_4_BIT;
    const VkImage image = MakeGeneralImage(info);
    if (image == VK_NULL_HANDLE) return VK_NULL_HANDLE;
    return MakeView(image, VK_IMAGE_VIEW_TYPE_2D, VK_FORMAT_R8G8B8A8_UNORM, {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1});
  }

  // One layer of `area`, one colour attachment and maybe a depth one.
  static VkRenderingInfo Rendering(const VkRect2D& area, const VkRenderingAttachmentInfo* color,
                                   const VkRenderingAttachmentInfo* depth = nullptr) {
    VkRenderingInfo info{VK_STRUCTURE_TYPE_RENDERING_INFO};
    info.renderArea = area;
    info.layerCount = 1;
    info.colorAttachmentCount = 1;
    info.pColorAttachments = color;
    info.pDepthAttachment = depth;
    return info;
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
  const VkRenderingInfo info = Rendering(kArea, &color_info, &depth_info);

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
  const VkRenderingInfo info = Rendering({{0, 0}, kExtent}, &color_info, &depth_info);

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

// A clear that finds tiles still holding its value from the image's last
// clear leaves them alone (raster/known_clear). Each way of writing the
// image between two clears must make the second one write every tile again:
// each writer here leaves red in some tile the clears know as green.
TEST_F(LoadOpClearTest, WritesBetweenClearsAreCleared) {
  const VkClearValue green{{{0.0f, 1.0f, 0.0f, 1.0f}}};
  const uint32_t kGreen = 0xFF00FF00u;
  const VkClearColorValue red{{1.0f, 0.0f, 0.0f, 1.0f}};
  RectParams corner;  // a red rectangle in the bottom-right tile
  corner.bounds[0] = Ndc(150, kExtent.width);
  corner.bounds[1] = Ndc(140, kExtent.height);
  corner.bounds[2] = corner.bounds[3] = 1;
  corner.color[0] = 1;
  corner.color[1] = corner.color[2] = 0;
  auto barrier = [](VkCommandBuffer cb) {
    VkMemoryBarrier b{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    b.srcAccessMask = VK_ACCESS_MEMORY_WRITE_BIT;
    b.dstAccessMask = VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT;
    vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, 0, 1, &b, 0,
                         nullptr, 0, nullptr);
  };
  const PipelineDesc flat = RectPipeline(Module(kFlatColorFrag), kExtent);
  const VkPipeline flat_pipeline = MakePipeline(flat);
  // The storing draw renders into a target of its own (where fragment
  // shaders may store).
  const bool fragment_stores = features_.fragmentStoresAndAtomics;
  DescriptorSet storage;
  PipelineDesc storing;
  VkPipeline storing_pipeline = VK_NULL_HANDLE;
  if (fragment_stores) {
    storage = MakeDescriptorSet({VK_DESCRIPTOR_TYPE_STORAGE_IMAGE});
    storing = RectPipeline(Module(kStoreRedTexelFrag), kExtent, {storage.layout});
    storing_pipeline = MakePipeline(storing);
  }
  const Target other = MakeTarget(VK_FORMAT_R8G8B8A8_UNORM, kExtent);
  // The resolve comes from a 4-sample image cleared red.
  const VkImageView ms_view = MakeMultisampledView();
  ASSERT_NE(ms_view, VK_NULL_HANDLE);
  std::vector<uint32_t> reds(size_t(kExtent.width) * kExtent.height, 0xFF0000FFu);
  const HostBuffer red_pixels = Upload(reds, VK_BUFFER_USAGE_TRANSFER_SRC_BIT);

  struct Writer {
    const char* name;
    std::function<void(VkCommandBuffer, const Target&)> record;
  };
  const std::vector<Writer> writers = {
      {"vkCmdCopyBufferToImage",
       [&](VkCommandBuffer cb, const Target& t) {
         VkBufferImageCopy region{};
         region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
         region.imageExtent = {kExtent.width, kExtent.height, 1};
         vkCmdCopyBufferToImage(cb, red_pixels.buffer, t.image, VK_IMAGE_LAYOUT_GENERAL, 1, &region);
       }},
      {"vkCmdClearColorImage",
       [&](VkCommandBuffer cb, const Target& t) {
         const VkImageSubresourceRange range{VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
         vkCmdClearColorImage(cb, t.image, VK_IMAGE_LAYOUT_GENERAL, &red, 1, &range);
       }},
      {"a rendering that loads and draws",
       [&](VkCommandBuffer cb, const Target& t) {
         BeginRendering(cb, {{&t, VK_ATTACHMENT_LOAD_OP_LOAD}});
         vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, flat_pipeline);
         DrawRect(cb, flat.layout, corner);
         vkCmdEndRendering(cb);
       }},
      {"a draw storing into it",
       !fragment_stores ? std::function<void(VkCommandBuffer, const Target&)>() :
       [&](VkCommandBuffer cb, const Target& t) {
         WriteImageDescriptor(storage, 0, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, VK_NULL_HANDLE, t.view);
         BeginRendering(cb, {{&other, VK_ATTACHMENT_LOAD_OP_CLEAR, green}});
         vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, storing_pipeline);
         vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, storing.layout, 0, 1, &storage.set, 0, nullptr);
         DrawRect(cb, storing.layout, corner);
         vkCmdEndRendering(cb);
       }},
      {"a resolve into it",
       [&](VkCommandBuffer cb, const Target& t) {
         VkRenderingAttachmentInfo a{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
         a.imageView = ms_view;
         a.imageLayout = VK_IMAGE_LAYOUT_GENERAL;
         a.resolveMode = VK_RESOLVE_MODE_AVERAGE_BIT;
         a.resolveImageView = t.view;
         a.resolveImageLayout = VK_IMAGE_LAYOUT_GENERAL;
         a.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
         a.storeOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
         a.clearValue.color = red;
         const VkRenderingInfo info = Rendering({{0, 0}, kExtent}, &a);
         vkCmdBeginRendering(cb, &info);
         vkCmdEndRendering(cb);
       }},
  };
  for (const Writer& writer : writers) {
    SCOPED_TRACE(writer.name);
    if (writer.record == nullptr) continue;
    const Target color = MakeTarget(VK_FORMAT_R8G8B8A8_UNORM, kExtent, VK_IMAGE_USAGE_STORAGE_BIT);
    // Two clears (the second one knows the first), the writer, a clear,
    // all in one command buffer; then once more with the writer in a
    // submission of its own.
    for (const bool apart : {false, true}) {
      VkCommandBuffer cb = BeginCommands();
      for (int i = 0; i < 2; ++i) {
        BeginRendering(cb, {{&color, VK_ATTACHMENT_LOAD_OP_CLEAR, green}});
        vkCmdEndRendering(cb);
        barrier(cb);
      }
      if (apart) {
        EndSubmitWait(cb);
        cb = BeginCommands();
      }
      writer.record(cb, color);
      if (apart) ASSERT_EQ(SubmitAndReadCorner(&cb, color), 0xFF0000FFu) << "the writer leaves red in the corner";
      barrier(cb);
      BeginRendering(cb, {{&color, VK_ATTACHMENT_LOAD_OP_CLEAR, green}});
      vkCmdEndRendering(cb);
      EndSubmitWait(cb);
      SCOPED_TRACE(apart ? "apart" : "together");
      ExpectEvery(color, kGreen);
    }
  }
}

// Inside the instance of a clear that knows the image: what its draws and
// vkCmdClearAttachments write must be cleared by the next clear. Draws go
// through the rasterizer's merge paths: no depth (written as a whole), and
// a depth test run before shading.
TEST_F(LoadOpClearTest, WritesInsideAKnownClearAreClearedNextTime) {
  const VkClearValue green{{{0.0f, 1.0f, 0.0f, 1.0f}}};
  const PipelineDesc flat = RectPipeline(Module(kFlatColorFrag), kExtent);
  const VkPipeline flat_pipeline = MakePipeline(flat);
  const PipelineDesc tested = DepthTestedRects();
  const VkPipeline tested_pipeline = MakePipeline(tested);
  const Target depth = MakeTarget(VK_FORMAT_D32_SFLOAT, kExtent);
  const VkRect2D corner{{150, 100}, {50, 50}};
  enum Writer { kFlatDraw, kDepthTestedDraw, kClearAttachments };
  for (const Writer writer : {kFlatDraw, kDepthTestedDraw, kClearAttachments}) {
    SCOPED_TRACE(writer);
    const Target color = MakeTarget(VK_FORMAT_R8G8B8A8_UNORM, kExtent);
    VkRenderingAttachmentInfo color_info, depth_info;
    ClearToBlue(color, depth, &color_info, &depth_info);
    color_info.clearValue = green;
    const VkRenderingInfo info =
        Rendering({{0, 0}, kExtent}, &color_info, writer == kDepthTestedDraw ? &depth_info : nullptr);
    VkCommandBuffer cb = BeginCommands();
    for (int frame = 0; frame < 3; ++frame) {
      vkCmdBeginRendering(cb, &info);
      if (frame == 1) {
        if (writer == kClearAttachments) {
          VkClearAttachment clear{VK_IMAGE_ASPECT_COLOR_BIT, 0, {}};
          clear.clearValue.color = {{1.0f, 0.0f, 0.0f, 1.0f}};
          const VkClearRect rect{corner, 0, 1};
          vkCmdClearAttachments(cb, 1, &clear, 1, &rect);
        } else {
          const bool depth_tested = writer == kDepthTestedDraw;
          vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, depth_tested ? tested_pipeline : flat_pipeline);
          DrawRect(cb, depth_tested ? tested.layout : flat.layout, Rect(corner, 0.25f, 1, 0));
        }
      }
      vkCmdEndRendering(cb);
      if (frame == 1) ASSERT_EQ(SubmitAndReadCorner(&cb, color), 0xFF0000FFu) << "red in the corner";
    }
    EndSubmitWait(cb);
    ExpectEvery(color, 0xFF00FF00u);
  }
}

// A render pass object whose resolve attachment has a clear of its own: the
// resolve at the end overwrites what the clear wrote, so a later clear of
// the same value must write it again.
TEST_F(LoadOpClearTest, AResolveOverwritesTheResolveAttachmentsClear) {
  const Target resolved = MakeTarget(VK_FORMAT_R8G8B8A8_UNORM, kExtent);
  const VkImageView ms_view = MakeMultisampledView();
  ASSERT_NE(ms_view, VK_NULL_HANDLE);
  std::vector<VkAttachmentDescription> attachments(2);
  for (VkAttachmentDescription& a : attachments) {
    a.format = VK_FORMAT_R8G8B8A8_UNORM;
    a.samples = VK_SAMPLE_COUNT_1_BIT;
    a.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
    a.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
    a.stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
    a.stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
    a.initialLayout = a.finalLayout = VK_IMAGE_LAYOUT_GENERAL;
  }
  attachments[0].samples = VK_SAMPLE_COUNT_4_BIT;
  const VkAttachmentReference color_ref{0, VK_IMAGE_LAYOUT_GENERAL}, resolve_ref{1, VK_IMAGE_LAYOUT_GENERAL};
  VkSubpassDescription subpass{};
  subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
  subpass.colorAttachmentCount = 1;
  subpass.pColorAttachments = &color_ref;
  subpass.pResolveAttachments = &resolve_ref;
  const VkRenderPass pass = MakeRenderPass(attachments, {subpass});
  ASSERT_NE(pass, VK_NULL_HANDLE);
  const VkFramebuffer framebuffer = MakeFramebuffer(pass, {ms_view, resolved.view}, kExtent);
  ASSERT_NE(framebuffer, VK_NULL_HANDLE);

  const VkClearValue green{{{0.0f, 1.0f, 0.0f, 1.0f}}};
  const VkClearValue clears[2] = {{{{1.0f, 0.0f, 0.0f, 1.0f}}}, green};  // samples red, resolve target green
  VkRenderPassBeginInfo begin{VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO};
  begin.renderPass = pass;
  begin.framebuffer = framebuffer;
  begin.renderArea = {{0, 0}, kExtent};
  begin.clearValueCount = 2;
  begin.pClearValues = clears;
  VkCommandBuffer cb = BeginCommands();
  vkCmdBeginRenderPass(cb, &begin, VK_SUBPASS_CONTENTS_INLINE);
  vkCmdEndRenderPass(cb);
  ASSERT_EQ(SubmitAndReadCorner(&cb, resolved), 0xFF0000FFu) << "the resolve writes red";
  BeginRendering(cb, {{&resolved, VK_ATTACHMENT_LOAD_OP_CLEAR, green}});
  vkCmdEndRendering(cb);
  EndSubmitWait(cb);
  ExpectEvery(resolved, 0xFF00FF00u);
}

// Memory the application maps may change under the driver's feet: a clear
// of it is written whole every time.
TEST_F(LoadOpClearTest, ClearsOfMappedMemoryAreWrittenWhole) {
  const VkClearValue green{{{0.0f, 1.0f, 0.0f, 1.0f}}};
  const Target color = MakeTarget(VK_FORMAT_R8G8B8A8_UNORM, kExtent);
  for (int i = 0; i < 2; ++i) {
    VkCommandBuffer cb = BeginCommands();
    BeginRendering(cb, {{&color, VK_ATTACHMENT_LOAD_OP_CLEAR, green}});
    vkCmdEndRendering(cb);
    EndSubmitWait(cb);
  }
  void* mapped = nullptr;
  ASSERT_EQ(vkMapMemory(device_, ImageMemory(color.image), 0, VK_WHOLE_SIZE, 0, &mapped), VK_SUCCESS);
  std::memset(mapped, 0x7F, size_t(kExtent.width) * kExtent.height * 4);
  vkUnmapMemory(device_, ImageMemory(color.image));
  VkCommandBuffer cb = BeginCommands();
  BeginRendering(cb, {{&color, VK_ATTACHMENT_LOAD_OP_CLEAR, green}});
  vkCmdEndRendering(cb);
  EndSubmitWait(cb);
  ExpectEvery(color, 0xFF00FF00u);
}

}  // namespace
}  // namespace duet_test
