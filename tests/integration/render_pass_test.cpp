// Render passes, framebuffers and dynamic rendering through the loader,
// without draws: load ops (CLEAR over the render area only, LOAD,
// DONT_CARE), first-use clears across subpasses, colour and depth/stencil
// resolves, imageless framebuffers, multiview, and vkCmdClearAttachments.
// Every attachment starts from a known value written by a transfer clear,
// and expected images are a host model of the spec's rules.
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "vk_fixture.h"

namespace duet_test {
namespace {

// RGBA8 UNORM texel as the 32-bit word it is in memory (R in the low byte).
uint32_t Rgba8(float r, float g, float b, float a) {
  auto unorm = [](float v) { return uint32_t(std::lround(double(v) * 255.0)); };
  return unorm(r) | unorm(g) << 8 | unorm(b) << 16 | unorm(a) << 24;
}

uint32_t Rgba8(const VkClearColorValue& c) { return Rgba8(c.float32[0], c.float32[1], c.float32[2], c.float32[3]); }

// A 24-bit UNORM depth value.
uint32_t Depth24(float d) { return uint32_t(std::lround(double(d) * double((1u << 24) - 1))); }

VkClearValue ColorValue(float r, float g, float b, float a) {
  VkClearValue v{};
  v.color = {{r, g, b, a}};
  return v;
}

VkClearValue DepthStencilValue(float depth, uint32_t stencil) {
  VkClearValue v{};
  v.depthStencil = {depth, stencil};
  return v;
}

// A host model of one layer of an image: one 32-bit value per pixel.
struct Model {
  uint32_t width = 0, height = 0;
  std::vector<uint32_t> pixels;

  Model(VkExtent2D extent, uint32_t value) : width(extent.width), height(extent.height),
                                             pixels(size_t(width) * height, value) {}
  void Fill(const VkRect2D& rect, uint32_t value) {
    for (uint32_t y = 0; y < rect.extent.height; ++y)
      for (uint32_t x = 0; x < rect.extent.width; ++x)
        pixels[size_t(rect.offset.y + y) * width + rect.offset.x + x] = value;
  }
};

::testing::AssertionResult Matches(const std::vector<uint32_t>& got, const Model& model, const std::string& what) {
  if (got.size() != model.pixels.size())
    return ::testing::AssertionFailure() << what << ": read " << got.size() << " pixels, expected "
                                         << model.pixels.size();
  for (size_t i = 0; i < got.size(); ++i) {
    if (got[i] == model.pixels[i]) continue;
    return ::testing::AssertionFailure() << what << ": pixel (" << i % model.width << ", " << i / model.width
                                         << ") is 0x" << std::hex << got[i] << ", expected 0x" << model.pixels[i];
  }
  return ::testing::AssertionSuccess();
}

VkAttachmentDescription Description(VkFormat format, VkAttachmentLoadOp load, VkAttachmentStoreOp store,
                                    VkSampleCountFlagBits samples = VK_SAMPLE_COUNT_1_BIT,
                                    VkAttachmentLoadOp stencil_load = VK_ATTACHMENT_LOAD_OP_DONT_CARE,
                                    VkAttachmentStoreOp stencil_store = VK_ATTACHMENT_STORE_OP_DONT_CARE) {
  return {0, format, samples, load, store, stencil_load, stencil_store, VK_IMAGE_LAYOUT_GENERAL,
          VK_IMAGE_LAYOUT_GENERAL};
}

class RenderPassTest : public QueueTest {
 protected:
  RenderPassTest() { device_options_.render_pass_features = true; }

  static constexpr VkFormat kColor = VK_FORMAT_R8G8B8A8_UNORM;
  static constexpr VkExtent2D kExtent{16, 12};

  struct Attachment {
    VkImage image = VK_NULL_HANDLE;
    VkImageView view = VK_NULL_HANDLE;  // every layer
    VkFormat format = VK_FORMAT_UNDEFINED;
    VkExtent2D extent{};
    uint32_t layers = 1;
  };

  static VkImageAspectFlags AspectsOf(VkFormat format) {
    switch (format) {
      case VK_FORMAT_D16_UNORM:
      case VK_FORMAT_X8_D24_UNORM_PACK32:
      case VK_FORMAT_D32_SFLOAT: return VK_IMAGE_ASPECT_DEPTH_BIT;
      case VK_FORMAT_S8_UINT: return VK_IMAGE_ASPECT_STENCIL_BIT;
      case VK_FORMAT_D16_UNORM_S8_UINT:
      case VK_FORMAT_D24_UNORM_S8_UINT:
      case VK_FORMAT_D32_SFLOAT_S8_UINT: return VK_IMAGE_ASPECT_DEPTH_BIT | VK_IMAGE_ASPECT_STENCIL_BIT;
      default: return VK_IMAGE_ASPECT_COLOR_BIT;
    }
  }

  // An image in GENERAL layout usable as attachment and transfer source and
  // destination, and a view of all its layers.
  Attachment MakeAttachment(VkFormat format, VkExtent2D extent = kExtent, uint32_t layers = 1,
                            VkSampleCountFlagBits samples = VK_SAMPLE_COUNT_1_BIT,
                            VkImageUsageFlags extra_usage = 0) {
    const VkImageAspectFlags aspects = AspectsOf(format);
    const VkImageUsageFlags usage =
        VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT | extra_usage |
        (aspects == VK_IMAGE_ASPECT_COLOR_BIT ? VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT
                                              : VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT);
    VkImageCreateInfo ci = ImageInfo(VK_IMAGE_TYPE_2D, format, {extent.width, extent.height, 1}, 1, layers, usage);
    ci.samples = samples;
    Attachment a;
    a.image = MakeGeneralImage(ci, aspects);
    a.format = format;
    a.extent = extent;
    a.layers = layers;
    if (a.image != VK_NULL_HANDLE)
      a.view = MakeView(a.image, format, layers > 1 ? VK_IMAGE_VIEW_TYPE_2D_ARRAY : VK_IMAGE_VIEW_TYPE_2D, 0, layers);
    return a;
  }

  VkImageView MakeView(VkImage image, VkFormat format, VkImageViewType type, uint32_t base_layer,
                       uint32_t layer_count) {
    VkImageViewCreateInfo ci{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
    ci.image = image;
    ci.viewType = type;
    ci.format = format;
    ci.subresourceRange = {AspectsOf(format), 0, 1, base_layer, layer_count};
    VkImageView view = VK_NULL_HANDLE;
    VkResult r = vkCreateImageView(device_, &ci, nullptr, &view);
    EXPECT_EQ(r, VK_SUCCESS) << "vkCreateImageView -> " << R{r};
    if (r != VK_SUCCESS) return VK_NULL_HANDLE;
    Defer([this, view] { vkDestroyImageView(device_, view, nullptr); });
    return view;
  }

  VkRenderPass MakeRenderPass2(const VkRenderPassCreateInfo2& ci) {
    VkRenderPass pass = VK_NULL_HANDLE;
    VkResult r = vkCreateRenderPass2(device_, &ci, nullptr, &pass);
    EXPECT_EQ(r, VK_SUCCESS) << "vkCreateRenderPass2 -> " << R{r};
    if (r != VK_SUCCESS) return VK_NULL_HANDLE;
    Defer([this, pass] { vkDestroyRenderPass(device_, pass, nullptr); });
    return pass;
  }

  VkFramebuffer MakeFramebuffer(VkRenderPass pass, const std::vector<VkImageView>& views,
                                VkExtent2D extent = kExtent, uint32_t layers = 1) {
    return QueueTest::MakeFramebuffer(pass, views, extent, layers);
  }

  // Sets every texel of every layer of a colour image (one submission).
  void FillColor(const Attachment& a, const VkClearValue& value) {
    VkCommandBuffer cb = BeginCommands();
    const VkImageSubresourceRange range{VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, a.layers};
    vkCmdClearColorImage(cb, a.image, VK_IMAGE_LAYOUT_GENERAL, &value.color, 1, &range);
    EndSubmitWait(cb);
  }

  void FillDepthStencil(const Attachment& a, const VkClearValue& value) {
    VkCommandBuffer cb = BeginCommands();
    const VkImageSubresourceRange range{AspectsOf(a.format), 0, 1, 0, a.layers};
    vkCmdClearDepthStencilImage(cb, a.image, VK_IMAGE_LAYOUT_GENERAL, &value.depthStencil, 1, &range);
    EndSubmitWait(cb);
  }

  // One layer of an attachment's aspect as 32-bit words per pixel: RGBA8
  // texels, 24-bit depth (the undefined high byte masked off), or stencil.
  std::vector<uint32_t> Read(const Attachment& a, uint32_t layer,
                             VkImageAspectFlagBits aspect = VK_IMAGE_ASPECT_COLOR_BIT) {
    const uint32_t size = aspect == VK_IMAGE_ASPECT_STENCIL_BIT ? 1 : 4;
    const std::vector<uint8_t> bytes =
        ReadImage(a.image, {VkImageAspectFlags(aspect), 0, layer, 1}, {0, 0, 0}, {a.extent.width, a.extent.height, 1},
                  size);
    std::vector<uint32_t> out(bytes.size() / size);
    for (size_t i = 0; i < out.size(); ++i) {
      if (size == 1) {
        out[i] = bytes[i];
        continue;
      }
      std::memcpy(&out[i], &bytes[i * 4], 4);
      if (aspect == VK_IMAGE_ASPECT_DEPTH_BIT) out[i] &= 0xFFFFFF;
    }
    return out;
  }

  VkFormat DepthStencilFormat() const {
    for (VkFormat f : {VK_FORMAT_D24_UNORM_S8_UINT, VK_FORMAT_D32_SFLOAT_S8_UINT})
      if (FormatHas(f, VK_IMAGE_TILING_OPTIMAL, VK_FORMAT_FEATURE_DEPTH_STENCIL_ATTACHMENT_BIT)) return f;
    return VK_FORMAT_UNDEFINED;
  }

  static void BeginPass(VkCommandBuffer cb, VkRenderPass pass, VkFramebuffer framebuffer, const VkRect2D& area,
                        const std::vector<VkClearValue>& clears, const void* next = nullptr,
                        VkSubpassContents contents = VK_SUBPASS_CONTENTS_INLINE) {
    VkRenderPassBeginInfo begin{VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO, next};
    begin.renderPass = pass;
    begin.framebuffer = framebuffer;
    begin.renderArea = area;
    begin.clearValueCount = uint32_t(clears.size());
    begin.pClearValues = clears.data();
    vkCmdBeginRenderPass(cb, &begin, contents);
  }

  static constexpr VkRect2D kFullArea{{0, 0}, kExtent};
};

TEST_F(RenderPassTest, RenderAreaGranularityIsOnePixel) {
  const VkAttachmentReference color{0, VK_IMAGE_LAYOUT_GENERAL};
  VkSubpassDescription subpass{0, VK_PIPELINE_BIND_POINT_GRAPHICS, 0, nullptr, 1, &color};
  VkRenderPass pass = MakeRenderPass(
      {Description(kColor, VK_ATTACHMENT_LOAD_OP_CLEAR, VK_ATTACHMENT_STORE_OP_STORE)}, {subpass});
  ASSERT_NE(pass, VK_NULL_HANDLE);
  VkExtent2D granularity{0, 0};
  vkGetRenderAreaGranularity(device_, pass, &granularity);
  EXPECT_EQ(granularity.width, 1u);
  EXPECT_EQ(granularity.height, 1u);
}

// CLEAR writes the clear value over the render area of every framebuffer
// layer and leaves the pixels outside alone.
TEST_F(RenderPassTest, ClearCoversRenderAreaOfEveryLayerOnly) {
  Attachment target = MakeAttachment(kColor, kExtent, 2);
  ASSERT_NE(target.view, VK_NULL_HANDLE);
  const VkClearValue old_value = ColorValue(0.2f, 0.4f, 0.6f, 0.8f);
  ASSERT_NO_FATAL_FAILURE(FillColor(target, old_value));

  const VkAttachmentReference color{0, VK_IMAGE_LAYOUT_GENERAL};
  VkSubpassDescription subpass{0, VK_PIPELINE_BIND_POINT_GRAPHICS, 0, nullptr, 1, &color};
  VkRenderPass pass = MakeRenderPass(
      {Description(kColor, VK_ATTACHMENT_LOAD_OP_CLEAR, VK_ATTACHMENT_STORE_OP_STORE)}, {subpass});
  VkFramebuffer framebuffer = MakeFramebuffer(pass, {target.view}, kExtent, 2);
  ASSERT_NE(framebuffer, VK_NULL_HANDLE);

  const VkRect2D area{{3, 5}, {7, 6}};
  const VkClearValue clear = ColorValue(1.0f, 0.25f, 0.0f, 0.75f);
  VkCommandBuffer cb = BeginCommands();
  BeginPass(cb, pass, framebuffer, area, {clear});
  vkCmdEndRenderPass(cb);
  ASSERT_NO_FATAL_FAILURE(EndSubmitWait(cb));

  Model model(kExtent, Rgba8(old_value.color));
  model.Fill(area, Rgba8(clear.color));
  for (uint32_t layer = 0; layer < 2; ++layer)
    EXPECT_TRUE(Matches(Read(target, layer), model, "layer " + std::to_string(layer)));
}

// LOAD keeps what the attachment held; a load or store op DONT_CARE leaves
// it undefined (not checked: a clear stored DONT_CARE may be dropped); the
// STORE of a load op LOAD does not change memory.
TEST_F(RenderPassTest, LoadAndDontCareKeepContents) {
  Attachment cleared = MakeAttachment(kColor), loaded = MakeAttachment(kColor), dont_care = MakeAttachment(kColor);
  ASSERT_NE(dont_care.view, VK_NULL_HANDLE);
  std::vector<uint8_t> pattern(size_t(kExtent.width) * kExtent.height * 4);
  FillPattern(pattern, 42);
  ASSERT_NO_FATAL_FAILURE(WriteImage(loaded.image, {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1}, {0, 0, 0},
                                     {kExtent.width, kExtent.height, 1}, 4, pattern));
  ASSERT_NO_FATAL_FAILURE(FillColor(cleared, ColorValue(0, 0, 0, 0)));

  const VkAttachmentReference colors[3] = {
      {0, VK_IMAGE_LAYOUT_GENERAL}, {1, VK_IMAGE_LAYOUT_GENERAL}, {2, VK_IMAGE_LAYOUT_GENERAL}};
  VkSubpassDescription subpass{0, VK_PIPELINE_BIND_POINT_GRAPHICS, 0, nullptr, 3, colors};
  VkRenderPass pass =
      MakeRenderPass({Description(kColor, VK_ATTACHMENT_LOAD_OP_CLEAR, VK_ATTACHMENT_STORE_OP_STORE),
                      Description(kColor, VK_ATTACHMENT_LOAD_OP_LOAD, VK_ATTACHMENT_STORE_OP_STORE),
                      Description(kColor, VK_ATTACHMENT_LOAD_OP_DONT_CARE, VK_ATTACHMENT_STORE_OP_DONT_CARE)},
                     {subpass});
  VkFramebuffer framebuffer = MakeFramebuffer(pass, {cleared.view, loaded.view, dont_care.view});
  ASSERT_NE(framebuffer, VK_NULL_HANDLE);
  // Clear values of attachments that are not cleared are ignored.
  const VkClearValue clear = ColorValue(0.0f, 0.6f, 1.0f, 1.0f);
  VkCommandBuffer cb = BeginCommands();
  BeginPass(cb, pass, framebuffer, kFullArea, {clear, ColorValue(1, 1, 1, 1), ColorValue(1, 1, 1, 1)});
  vkCmdEndRenderPass(cb);
  ASSERT_NO_FATAL_FAILURE(EndSubmitWait(cb));

  EXPECT_TRUE(Matches(Read(cleared, 0), Model(kExtent, Rgba8(clear.color)), "CLEAR"));
  std::vector<uint8_t> loaded_bytes = ReadImage(loaded.image, {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1}, {0, 0, 0},
                                                {kExtent.width, kExtent.height, 1}, 4);
  EXPECT_EQ(FirstDifference(loaded_bytes, pattern), SIZE_MAX) << "LOAD changed the attachment";
}

// Each attachment is cleared in the first subpass that uses it, and not
// again in later ones: a clear made in subpass 0 survives subpass 1, which
// reads that attachment as an input and clears its own colour attachment.
TEST_F(RenderPassTest, SecondSubpassClearsItsOwnAttachmentAtFirstUse) {
  Attachment first = MakeAttachment(kColor, kExtent, 1, VK_SAMPLE_COUNT_1_BIT, VK_IMAGE_USAGE_INPUT_ATTACHMENT_BIT);
  Attachment second = MakeAttachment(kColor);
  ASSERT_NE(second.view, VK_NULL_HANDLE);
  ASSERT_NO_FATAL_FAILURE(FillColor(first, ColorValue(0, 0, 0, 0)));
  ASSERT_NO_FATAL_FAILURE(FillColor(second, ColorValue(0, 0, 0, 0)));

  const VkAttachmentReference color0{0, VK_IMAGE_LAYOUT_GENERAL}, color1{1, VK_IMAGE_LAYOUT_GENERAL};
  const VkAttachmentReference input0{0, VK_IMAGE_LAYOUT_GENERAL};
  const VkSubpassDescription subpasses[2] = {
      {0, VK_PIPELINE_BIND_POINT_GRAPHICS, 0, nullptr, 1, &color0},
      {0, VK_PIPELINE_BIND_POINT_GRAPHICS, 1, &input0, 1, &color1},
  };
  const VkSubpassDependency dependency{0,
                                       1,
                                       VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
                                       VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT,
                                       VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT,
                                       VK_ACCESS_INPUT_ATTACHMENT_READ_BIT,
                                       VK_DEPENDENCY_BY_REGION_BIT};
  const VkAttachmentDescription descriptions[2] = {
      Description(kColor, VK_ATTACHMENT_LOAD_OP_CLEAR, VK_ATTACHMENT_STORE_OP_STORE),
      Description(kColor, VK_ATTACHMENT_LOAD_OP_CLEAR, VK_ATTACHMENT_STORE_OP_STORE)};
  VkRenderPassCreateInfo ci{VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO};
  ci.attachmentCount = 2;
  ci.pAttachments = descriptions;
  ci.subpassCount = 2;
  ci.pSubpasses = subpasses;
  ci.dependencyCount = 1;
  ci.pDependencies = &dependency;
  VkRenderPass pass = VK_NULL_HANDLE;
  VK_ASSERT_OK(vkCreateRenderPass(device_, &ci, nullptr, &pass));
  Defer([this, pass] { vkDestroyRenderPass(device_, pass, nullptr); });
  VkFramebuffer framebuffer = MakeFramebuffer(pass, {first.view, second.view});
  ASSERT_NE(framebuffer, VK_NULL_HANDLE);

  const VkClearValue clear0 = ColorValue(1, 0, 0, 1), clear1 = ColorValue(0, 0, 1, 1);
  const VkClearValue marked0 = ColorValue(0, 1, 0, 1), marked1 = ColorValue(1, 1, 0, 1);
  const VkClearRect rect0{{{1, 1}, {4, 3}}, 0, 1}, rect1{{{8, 6}, {5, 5}}, 0, 1};
  VkCommandBuffer cb = BeginCommands();
  BeginPass(cb, pass, framebuffer, kFullArea, {clear0, clear1});
  VkClearAttachment mark{VK_IMAGE_ASPECT_COLOR_BIT, 0, marked0};
  vkCmdClearAttachments(cb, 1, &mark, 1, &rect0);  // subpass 0: colour 0 is attachment 0
  vkCmdNextSubpass(cb, VK_SUBPASS_CONTENTS_INLINE);
  mark.clearValue = marked1;
  vkCmdClearAttachments(cb, 1, &mark, 1, &rect1);  // subpass 1: colour 0 is attachment 1
  vkCmdEndRenderPass(cb);
  ASSERT_NO_FATAL_FAILURE(EndSubmitWait(cb));

  Model model0(kExtent, Rgba8(clear0.color)), model1(kExtent, Rgba8(clear1.color));
  model0.Fill(rect0.rect, Rgba8(marked0.color));
  model1.Fill(rect1.rect, Rgba8(marked1.color));
  EXPECT_TRUE(Matches(Read(first, 0), model0, "attachment 0"));
  EXPECT_TRUE(Matches(Read(second, 0), model1, "attachment 1"));
}

// A 4x attachment cleared by its load op and resolved at the end of the
// subpass: every resolved pixel inside the render area is the clear colour
// (the average of four equal samples); outside it the resolve target keeps
// its value.
TEST_F(RenderPassTest, MultisampleClearResolvesToClearColour) {
  Attachment msaa = MakeAttachment(kColor, kExtent, 1, VK_SAMPLE_COUNT_4_BIT);
  Attachment resolved = MakeAttachment(kColor);
  ASSERT_NE(resolved.view, VK_NULL_HANDLE);
  const VkClearValue old_value = ColorValue(0.2f, 0.2f, 0.2f, 0.2f);
  ASSERT_NO_FATAL_FAILURE(FillColor(msaa, old_value));
  ASSERT_NO_FATAL_FAILURE(FillColor(resolved, old_value));

  const VkAttachmentReference color{0, VK_IMAGE_LAYOUT_GENERAL}, resolve{1, VK_IMAGE_LAYOUT_GENERAL};
  VkSubpassDescription subpass{0, VK_PIPELINE_BIND_POINT_GRAPHICS, 0, nullptr, 1, &color, &resolve};
  VkRenderPass pass = MakeRenderPass(
      {Description(kColor, VK_ATTACHMENT_LOAD_OP_CLEAR, VK_ATTACHMENT_STORE_OP_DONT_CARE, VK_SAMPLE_COUNT_4_BIT),
       Description(kColor, VK_ATTACHMENT_LOAD_OP_DONT_CARE, VK_ATTACHMENT_STORE_OP_STORE)},
      {subpass});
  VkFramebuffer framebuffer = MakeFramebuffer(pass, {msaa.view, resolved.view});
  ASSERT_NE(framebuffer, VK_NULL_HANDLE);

  const VkRect2D area{{2, 0}, {12, 9}};
  const VkClearValue clear = ColorValue(0.75f, 0.4f, 1.0f, 0.6f);
  VkCommandBuffer cb = BeginCommands();
  BeginPass(cb, pass, framebuffer, area, {clear, ColorValue(0, 0, 0, 0)});
  vkCmdEndRenderPass(cb);
  ASSERT_NO_FATAL_FAILURE(EndSubmitWait(cb));

  Model model(kExtent, Rgba8(old_value.color));
  model.Fill(area, Rgba8(clear.color));
  EXPECT_TRUE(Matches(Read(resolved, 0), model, "resolve target"));
}

// Depth and stencil follow their own load ops: loadOp for depth,
// stencilLoadOp for stencil.
TEST_F(RenderPassTest, DepthAndStencilLoadOpsAreSeparate) {
  const VkFormat format = DepthStencilFormat();
  if (format != VK_FORMAT_D24_UNORM_S8_UINT) GTEST_SKIP() << "D24_UNORM_S8_UINT attachments are not supported";
  Attachment ds = MakeAttachment(format);
  ASSERT_NE(ds.view, VK_NULL_HANDLE);
  ASSERT_NO_FATAL_FAILURE(FillDepthStencil(ds, DepthStencilValue(0.25f, 7)));

  const VkAttachmentReference depth_ref{0, VK_IMAGE_LAYOUT_GENERAL};
  VkSubpassDescription subpass{0, VK_PIPELINE_BIND_POINT_GRAPHICS, 0, nullptr, 0, nullptr, nullptr, &depth_ref};
  // Pass A clears depth and loads stencil; pass B loads depth and clears stencil.
  VkRenderPass clear_depth = MakeRenderPass(
      {Description(format, VK_ATTACHMENT_LOAD_OP_CLEAR, VK_ATTACHMENT_STORE_OP_STORE, VK_SAMPLE_COUNT_1_BIT,
                   VK_ATTACHMENT_LOAD_OP_LOAD, VK_ATTACHMENT_STORE_OP_STORE)},
      {subpass});
  VkRenderPass clear_stencil = MakeRenderPass(
      {Description(format, VK_ATTACHMENT_LOAD_OP_LOAD, VK_ATTACHMENT_STORE_OP_STORE, VK_SAMPLE_COUNT_1_BIT,
                   VK_ATTACHMENT_LOAD_OP_CLEAR, VK_ATTACHMENT_STORE_OP_STORE)},
      {subpass});
  VkFramebuffer framebuffer = MakeFramebuffer(clear_depth, {ds.view});
  ASSERT_NE(framebuffer, VK_NULL_HANDLE);

  VkCommandBuffer cb = BeginCommands();
  BeginPass(cb, clear_depth, framebuffer, kFullArea, {DepthStencilValue(0.75f, 99)});
  vkCmdEndRenderPass(cb);
  ASSERT_NO_FATAL_FAILURE(EndSubmitWait(cb));
  EXPECT_TRUE(Matches(Read(ds, 0, VK_IMAGE_ASPECT_DEPTH_BIT), Model(kExtent, Depth24(0.75f)), "depth after A"));
  EXPECT_TRUE(Matches(Read(ds, 0, VK_IMAGE_ASPECT_STENCIL_BIT), Model(kExtent, 7), "stencil after A"));

  // Only the low 8 bits of a stencil clear value are written.
  const VkRect2D area{{4, 4}, {8, 4}};
  cb = BeginCommands();
  BeginPass(cb, clear_stencil, framebuffer, area, {DepthStencilValue(0.5f, 0x1AB)});
  vkCmdEndRenderPass(cb);
  ASSERT_NO_FATAL_FAILURE(EndSubmitWait(cb));
  Model stencil(kExtent, 7);
  stencil.Fill(area, 0xAB);
  EXPECT_TRUE(Matches(Read(ds, 0, VK_IMAGE_ASPECT_DEPTH_BIT), Model(kExtent, Depth24(0.75f)), "depth after B"));
  EXPECT_TRUE(Matches(Read(ds, 0, VK_IMAGE_ASPECT_STENCIL_BIT), stencil, "stencil after B"));
}

// An imageless framebuffer takes its views at begin: the same framebuffer
// renders into two different images.
TEST_F(RenderPassTest, ImagelessFramebufferTakesViewsAtBegin) {
  Attachment a = MakeAttachment(kColor), b = MakeAttachment(kColor);
  ASSERT_NE(b.view, VK_NULL_HANDLE);
  ASSERT_NO_FATAL_FAILURE(FillColor(a, ColorValue(0, 0, 0, 0)));
  ASSERT_NO_FATAL_FAILURE(FillColor(b, ColorValue(0, 0, 0, 0)));

  const VkAttachmentReference color{0, VK_IMAGE_LAYOUT_GENERAL};
  VkSubpassDescription subpass{0, VK_PIPELINE_BIND_POINT_GRAPHICS, 0, nullptr, 1, &color};
  VkRenderPass pass = MakeRenderPass(
      {Description(kColor, VK_ATTACHMENT_LOAD_OP_CLEAR, VK_ATTACHMENT_STORE_OP_STORE)}, {subpass});
  ASSERT_NE(pass, VK_NULL_HANDLE);

  const VkFormat view_format = kColor;
  VkFramebufferAttachmentImageInfo image_info{VK_STRUCTURE_TYPE_FRAMEBUFFER_ATTACHMENT_IMAGE_INFO};
  image_info.usage = VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT |
                     VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT;
  image_info.width = kExtent.width;
  image_info.height = kExtent.height;
  image_info.layerCount = 1;
  image_info.viewFormatCount = 1;
  image_info.pViewFormats = &view_format;
  VkFramebufferAttachmentsCreateInfo attachments_info{VK_STRUCTURE_TYPE_FRAMEBUFFER_ATTACHMENTS_CREATE_INFO};
  attachments_info.attachmentImageInfoCount = 1;
  attachments_info.pAttachmentImageInfos = &image_info;
  VkFramebufferCreateInfo ci{VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO, &attachments_info};
  ci.flags = VK_FRAMEBUFFER_CREATE_IMAGELESS_BIT;
  ci.renderPass = pass;
  ci.attachmentCount = 1;
  ci.width = kExtent.width;
  ci.height = kExtent.height;
  ci.layers = 1;
  VkFramebuffer framebuffer = VK_NULL_HANDLE;
  VK_ASSERT_OK(vkCreateFramebuffer(device_, &ci, nullptr, &framebuffer));
  Defer([this, framebuffer] { vkDestroyFramebuffer(device_, framebuffer, nullptr); });

  const VkClearValue clear_a = ColorValue(0.2f, 0.4f, 0.6f, 0.8f), clear_b = ColorValue(0.8f, 0.6f, 0.4f, 0.2f);
  VkRenderPassAttachmentBeginInfo views{VK_STRUCTURE_TYPE_RENDER_PASS_ATTACHMENT_BEGIN_INFO};
  views.attachmentCount = 1;
  VkCommandBuffer cb = BeginCommands();
  views.pAttachments = &a.view;
  BeginPass(cb, pass, framebuffer, kFullArea, {clear_a}, &views);
  vkCmdEndRenderPass(cb);
  views.pAttachments = &b.view;  // recording copied the first begin info
  BeginPass(cb, pass, framebuffer, {{0, 0}, {8, 8}}, {clear_b}, &views);
  vkCmdEndRenderPass(cb);
  ASSERT_NO_FATAL_FAILURE(EndSubmitWait(cb));

  Model model_b(kExtent, Rgba8(0, 0, 0, 0));
  model_b.Fill({{0, 0}, {8, 8}}, Rgba8(clear_b.color));
  EXPECT_TRUE(Matches(Read(a, 0), Model(kExtent, Rgba8(clear_a.color)), "first begin"));
  EXPECT_TRUE(Matches(Read(b, 0), model_b, "second begin"));
}

// Dynamic rendering: a CLEAR load op and an AVERAGE resolve of a 4x
// attachment, in a suspended instance that the resuming one continues
// without clearing again, resolving at its end.
TEST_F(RenderPassTest, DynamicRenderingClearsAndResolves) {
  Attachment msaa = MakeAttachment(kColor, kExtent, 1, VK_SAMPLE_COUNT_4_BIT);
  Attachment resolved = MakeAttachment(kColor);
  ASSERT_NE(resolved.view, VK_NULL_HANDLE);
  ASSERT_NO_FATAL_FAILURE(FillColor(resolved, ColorValue(0, 0, 0, 0)));

  const VkClearValue clear = ColorValue(0.25f, 0.5f, 0.75f, 1.0f);
  VkRenderingAttachmentInfo color{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
  color.imageView = msaa.view;
  color.imageLayout = VK_IMAGE_LAYOUT_GENERAL;
  color.resolveMode = VK_RESOLVE_MODE_AVERAGE_BIT;
  color.resolveImageView = resolved.view;
  color.resolveImageLayout = VK_IMAGE_LAYOUT_GENERAL;
  color.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
  color.storeOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
  color.clearValue = clear;
  const VkRect2D area{{1, 2}, {10, 8}};
  VkRenderingInfo info{VK_STRUCTURE_TYPE_RENDERING_INFO};
  info.renderArea = area;
  info.layerCount = 1;
  info.colorAttachmentCount = 1;
  info.pColorAttachments = &color;

  const VkClearValue marked = ColorValue(1, 0, 1, 1);
  const VkClearAttachment mark{VK_IMAGE_ASPECT_COLOR_BIT, 0, marked};
  const VkClearRect rect{{{3, 3}, {2, 4}}, 0, 1};
  VkCommandBuffer cb = BeginCommands();
  info.flags = VK_RENDERING_SUSPENDING_BIT;
  vkCmdBeginRendering(cb, &info);
  vkCmdClearAttachments(cb, 1, &mark, 1, &rect);
  vkCmdEndRendering(cb);
  info.flags = VK_RENDERING_RESUMING_BIT;
  vkCmdBeginRendering(cb, &info);
  vkCmdEndRendering(cb);
  ASSERT_NO_FATAL_FAILURE(EndSubmitWait(cb));

  Model model(kExtent, Rgba8(0, 0, 0, 0));
  model.Fill(area, Rgba8(clear.color));
  model.Fill(rect.rect, Rgba8(marked.color));
  EXPECT_TRUE(Matches(Read(resolved, 0), model, "resolve target"));
}

// Dynamic rendering with one depth/stencil view as depth attachment (CLEAR)
// and stencil attachment (LOAD): each aspect follows its own attachment.
TEST_F(RenderPassTest, DynamicRenderingDepthAndStencilAttachments) {
  const VkFormat format = DepthStencilFormat();
  if (format != VK_FORMAT_D24_UNORM_S8_UINT) GTEST_SKIP() << "D24_UNORM_S8_UINT attachments are not supported";
  Attachment ds = MakeAttachment(format);
  ASSERT_NE(ds.view, VK_NULL_HANDLE);
  ASSERT_NO_FATAL_FAILURE(FillDepthStencil(ds, DepthStencilValue(1.0f, 3)));

  VkRenderingAttachmentInfo depth{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
  depth.imageView = ds.view;
  depth.imageLayout = VK_IMAGE_LAYOUT_GENERAL;
  depth.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
  depth.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
  depth.clearValue = DepthStencilValue(0.5f, 0x77);
  VkRenderingAttachmentInfo stencil = depth;
  stencil.loadOp = VK_ATTACHMENT_LOAD_OP_LOAD;
  const VkRect2D area{{0, 4}, {16, 5}};
  VkRenderingInfo info{VK_STRUCTURE_TYPE_RENDERING_INFO};
  info.renderArea = area;
  info.layerCount = 1;
  info.pDepthAttachment = &depth;
  info.pStencilAttachment = &stencil;
  VkCommandBuffer cb = BeginCommands();
  vkCmdBeginRendering(cb, &info);
  vkCmdEndRendering(cb);
  ASSERT_NO_FATAL_FAILURE(EndSubmitWait(cb));

  Model depth_model(kExtent, Depth24(1.0f));
  depth_model.Fill(area, Depth24(0.5f));
  EXPECT_TRUE(Matches(Read(ds, 0, VK_IMAGE_ASPECT_DEPTH_BIT), depth_model, "depth"));
  EXPECT_TRUE(Matches(Read(ds, 0, VK_IMAGE_ASPECT_STENCIL_BIT), Model(kExtent, 3), "stencil"));
}

// vkCmdClearAttachments clears each rectangle in its own layers, colour
// and depth/stencil aspects separately.
TEST_F(RenderPassTest, ClearAttachmentsRectsAndLayers) {
  Attachment target = MakeAttachment(kColor, kExtent, 2);
  const VkFormat ds_format = DepthStencilFormat();
  ASSERT_NE(ds_format, VK_FORMAT_UNDEFINED);
  Attachment ds = MakeAttachment(ds_format, kExtent, 2);
  ASSERT_NE(ds.view, VK_NULL_HANDLE);
  const VkClearValue old_value = ColorValue(0.2f, 0.2f, 0.2f, 1.0f);
  ASSERT_NO_FATAL_FAILURE(FillColor(target, old_value));
  ASSERT_NO_FATAL_FAILURE(FillDepthStencil(ds, DepthStencilValue(1.0f, 1)));

  const VkAttachmentReference color{0, VK_IMAGE_LAYOUT_GENERAL}, ds_ref{1, VK_IMAGE_LAYOUT_GENERAL};
  VkSubpassDescription subpass{0, VK_PIPELINE_BIND_POINT_GRAPHICS, 0, nullptr, 1, &color, nullptr, &ds_ref};
  VkRenderPass pass = MakeRenderPass(
      {Description(kColor, VK_ATTACHMENT_LOAD_OP_LOAD, VK_ATTACHMENT_STORE_OP_STORE),
       Description(ds_format, VK_ATTACHMENT_LOAD_OP_LOAD, VK_ATTACHMENT_STORE_OP_STORE, VK_SAMPLE_COUNT_1_BIT,
                   VK_ATTACHMENT_LOAD_OP_LOAD, VK_ATTACHMENT_STORE_OP_STORE)},
      {subpass});
  VkFramebuffer framebuffer = MakeFramebuffer(pass, {target.view, ds.view}, kExtent, 2);
  ASSERT_NE(framebuffer, VK_NULL_HANDLE);

  const VkClearRect rects[3] = {
      {{{0, 0}, {4, 4}}, 0, 1},    // layer 0 only
      {{{10, 6}, {6, 6}}, 1, 1},   // layer 1 only
      {{{5, 2}, {3, 8}}, 0, 2},    // both layers
  };
  const VkClearValue color_value = ColorValue(0.0f, 1.0f, 0.4f, 0.6f);
  const VkClearAttachment clears[2] = {
      {VK_IMAGE_ASPECT_COLOR_BIT, 0, color_value},
      {VK_IMAGE_ASPECT_STENCIL_BIT, 0, DepthStencilValue(0.0f, 200)},  // stencil only: depth stays
  };
  VkCommandBuffer cb = BeginCommands();
  BeginPass(cb, pass, framebuffer, kFullArea, {});
  vkCmdClearAttachments(cb, 2, clears, 3, rects);
  vkCmdEndRenderPass(cb);
  ASSERT_NO_FATAL_FAILURE(EndSubmitWait(cb));

  for (uint32_t layer = 0; layer < 2; ++layer) {
    Model colors(kExtent, Rgba8(old_value.color)), stencil(kExtent, 1);
    for (const VkClearRect& r : rects) {
      if (layer < r.baseArrayLayer || layer >= r.baseArrayLayer + r.layerCount) continue;
      colors.Fill(r.rect, Rgba8(color_value.color));
      stencil.Fill(r.rect, 200);
    }
    const std::string name = "layer " + std::to_string(layer);
    EXPECT_TRUE(Matches(Read(target, layer), colors, name + " colour"));
    EXPECT_TRUE(Matches(Read(ds, layer, VK_IMAGE_ASPECT_STENCIL_BIT), stencil, name + " stencil"));
    if (ds_format == VK_FORMAT_D24_UNORM_S8_UINT)
      EXPECT_TRUE(Matches(Read(ds, layer, VK_IMAGE_ASPECT_DEPTH_BIT), Model(kExtent, Depth24(1.0f)), name + " depth"));
  }
}

// vkCreateRenderPass2 with a depth/stencil resolve (SAMPLE_ZERO): the 4x
// attachment's cleared depth and stencil reach the single-sample one; a
// second pass resolves depth only (stencil NONE), leaving stencil alone.
TEST_F(RenderPassTest, RenderPass2DepthStencilResolveSampleZero) {
  const VkFormat format = DepthStencilFormat();
  if (format != VK_FORMAT_D24_UNORM_S8_UINT) GTEST_SKIP() << "D24_UNORM_S8_UINT attachments are not supported";
  VkPhysicalDeviceDepthStencilResolveProperties resolve_props{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DEPTH_STENCIL_RESOLVE_PROPERTIES};
  VkPhysicalDeviceProperties2 props2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &resolve_props};
  vkGetPhysicalDeviceProperties2(phys_, &props2);
  ASSERT_TRUE(resolve_props.supportedDepthResolveModes & VK_RESOLVE_MODE_SAMPLE_ZERO_BIT);
  ASSERT_TRUE(resolve_props.independentResolveNone);

  Attachment msaa = MakeAttachment(format, kExtent, 1, VK_SAMPLE_COUNT_4_BIT);
  Attachment resolved = MakeAttachment(format);
  ASSERT_NE(resolved.view, VK_NULL_HANDLE);
  ASSERT_NO_FATAL_FAILURE(FillDepthStencil(resolved, DepthStencilValue(1.0f, 0)));

  auto make_pass = [&](VkResolveModeFlagBits stencil_mode) {
    VkAttachmentDescription2 attachments[2] = {{VK_STRUCTURE_TYPE_ATTACHMENT_DESCRIPTION_2},
                                               {VK_STRUCTURE_TYPE_ATTACHMENT_DESCRIPTION_2}};
    for (VkAttachmentDescription2& a : attachments) {
      a.format = format;
      a.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
      a.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
      a.stencilLoadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
      a.stencilStoreOp = VK_ATTACHMENT_STORE_OP_STORE;
      a.initialLayout = a.finalLayout = VK_IMAGE_LAYOUT_GENERAL;
    }
    attachments[0].samples = VK_SAMPLE_COUNT_4_BIT;
    attachments[1].samples = VK_SAMPLE_COUNT_1_BIT;
    attachments[1].loadOp = attachments[1].stencilLoadOp = VK_ATTACHMENT_LOAD_OP_LOAD;
    const VkAttachmentReference2 ds_ref{VK_STRUCTURE_TYPE_ATTACHMENT_REFERENCE_2, nullptr, 0,
                                        VK_IMAGE_LAYOUT_GENERAL, 0};
    const VkAttachmentReference2 resolve_ref{VK_STRUCTURE_TYPE_ATTACHMENT_REFERENCE_2, nullptr, 1,
                                             VK_IMAGE_LAYOUT_GENERAL, 0};
    VkSubpassDescriptionDepthStencilResolve ds_resolve{VK_STRUCTURE_TYPE_SUBPASS_DESCRIPTION_DEPTH_STENCIL_RESOLVE};
    ds_resolve.depthResolveMode = VK_RESOLVE_MODE_SAMPLE_ZERO_BIT;
    ds_resolve.stencilResolveMode = stencil_mode;
    ds_resolve.pDepthStencilResolveAttachment = &resolve_ref;
    VkSubpassDescription2 subpass{VK_STRUCTURE_TYPE_SUBPASS_DESCRIPTION_2, &ds_resolve};
    subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
    subpass.pDepthStencilAttachment = &ds_ref;
    VkRenderPassCreateInfo2 ci{VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO_2};
    ci.attachmentCount = 2;
    ci.pAttachments = attachments;
    ci.subpassCount = 1;
    ci.pSubpasses = &subpass;
    return MakeRenderPass2(ci);
  };
  VkRenderPass both = make_pass(VK_RESOLVE_MODE_SAMPLE_ZERO_BIT);
  VkRenderPass depth_only = make_pass(VK_RESOLVE_MODE_NONE);
  VkFramebuffer framebuffer = MakeFramebuffer(both, {msaa.view, resolved.view});
  ASSERT_NE(framebuffer, VK_NULL_HANDLE);

  auto run = [&](VkRenderPass pass, const VkClearValue& clear) {
    VkCommandBuffer cb = BeginCommands();
    VkRenderPassBeginInfo begin{VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO};
    const VkClearValue clears[2] = {clear, DepthStencilValue(0, 0)};
    begin.renderPass = pass;
    begin.framebuffer = framebuffer;
    begin.renderArea = kFullArea;
    begin.clearValueCount = 2;
    begin.pClearValues = clears;
    const VkSubpassBeginInfo subpass_begin{VK_STRUCTURE_TYPE_SUBPASS_BEGIN_INFO, nullptr, VK_SUBPASS_CONTENTS_INLINE};
    const VkSubpassEndInfo subpass_end{VK_STRUCTURE_TYPE_SUBPASS_END_INFO};
    vkCmdBeginRenderPass2(cb, &begin, &subpass_begin);
    vkCmdEndRenderPass2(cb, &subpass_end);
    EndSubmitWait(cb);
  };
  ASSERT_NO_FATAL_FAILURE(run(both, DepthStencilValue(0.25f, 0x5C)));
  EXPECT_TRUE(Matches(Read(resolved, 0, VK_IMAGE_ASPECT_DEPTH_BIT), Model(kExtent, Depth24(0.25f)), "depth"));
  EXPECT_TRUE(Matches(Read(resolved, 0, VK_IMAGE_ASPECT_STENCIL_BIT), Model(kExtent, 0x5C), "stencil"));

  ASSERT_NO_FATAL_FAILURE(run(depth_only, DepthStencilValue(0.75f, 0x11)));
  EXPECT_TRUE(Matches(Read(resolved, 0, VK_IMAGE_ASPECT_DEPTH_BIT), Model(kExtent, Depth24(0.75f)),
                      "depth, second pass"));
  EXPECT_TRUE(Matches(Read(resolved, 0, VK_IMAGE_ASPECT_STENCIL_BIT), Model(kExtent, 0x5C), "stencil, not resolved"));
}

// Multiview: a view's load op runs in the first subpass whose view mask
// holds it, on the layer of that view; layers no subpass views are left
// alone. vkCmdClearAttachments clears the subpass's views.
TEST_F(RenderPassTest, MultiviewClearsEachViewAtFirstUse) {
  Attachment target = MakeAttachment(kColor, kExtent, 4);
  ASSERT_NE(target.view, VK_NULL_HANDLE);
  const VkClearValue old_value = ColorValue(0.2f, 0.2f, 0.2f, 0.2f);
  ASSERT_NO_FATAL_FAILURE(FillColor(target, old_value));

  const VkAttachmentReference color{0, VK_IMAGE_LAYOUT_GENERAL};
  const VkSubpassDescription subpasses[2] = {
      {0, VK_PIPELINE_BIND_POINT_GRAPHICS, 0, nullptr, 1, &color},
      {0, VK_PIPELINE_BIND_POINT_GRAPHICS, 0, nullptr, 1, &color},
  };
  const uint32_t view_masks[2] = {0b0101, 0b0011};
  VkRenderPassMultiviewCreateInfo multiview{VK_STRUCTURE_TYPE_RENDER_PASS_MULTIVIEW_CREATE_INFO};
  multiview.subpassCount = 2;
  multiview.pViewMasks = view_masks;
  const VkSubpassDependency dependency{0,
                                       1,
                                       VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
                                       VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
                                       VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT,
                                       VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT,
                                       VK_DEPENDENCY_BY_REGION_BIT};
  const VkAttachmentDescription description =
      Description(kColor, VK_ATTACHMENT_LOAD_OP_CLEAR, VK_ATTACHMENT_STORE_OP_STORE);
  VkRenderPassCreateInfo ci{VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO, &multiview};
  ci.attachmentCount = 1;
  ci.pAttachments = &description;
  ci.subpassCount = 2;
  ci.pSubpasses = subpasses;
  ci.dependencyCount = 1;
  ci.pDependencies = &dependency;
  VkRenderPass pass = VK_NULL_HANDLE;
  VK_ASSERT_OK(vkCreateRenderPass(device_, &ci, nullptr, &pass));
  Defer([this, pass] { vkDestroyRenderPass(device_, pass, nullptr); });
  VkFramebuffer framebuffer = MakeFramebuffer(pass, {target.view}, kExtent, 1);
  ASSERT_NE(framebuffer, VK_NULL_HANDLE);

  const VkClearValue clear = ColorValue(0.0f, 0.4f, 0.8f, 1.0f), marked = ColorValue(1, 1, 1, 1);
  const VkClearRect rect{{{2, 2}, {5, 5}}, 0, 1};
  const VkClearAttachment mark{VK_IMAGE_ASPECT_COLOR_BIT, 0, marked};
  VkCommandBuffer cb = BeginCommands();
  BeginPass(cb, pass, framebuffer, kFullArea, {clear});
  vkCmdClearAttachments(cb, 1, &mark, 1, &rect);  // views 0 and 2
  vkCmdNextSubpass(cb, VK_SUBPASS_CONTENTS_INLINE);  // view 1 is cleared here, view 0 is not again
  vkCmdEndRenderPass(cb);
  ASSERT_NO_FATAL_FAILURE(EndSubmitWait(cb));

  Model marked_layer(kExtent, Rgba8(clear.color));
  marked_layer.Fill(rect.rect, Rgba8(marked.color));
  EXPECT_TRUE(Matches(Read(target, 0), marked_layer, "layer 0"));
  EXPECT_TRUE(Matches(Read(target, 1), Model(kExtent, Rgba8(clear.color)), "layer 1"));
  EXPECT_TRUE(Matches(Read(target, 2), marked_layer, "layer 2"));
  EXPECT_TRUE(Matches(Read(target, 3), Model(kExtent, Rgba8(old_value.color)), "layer 3"));
}

// vkCmdClearAttachments recorded in a secondary command buffer applies to
// the primary's current subpass.
TEST_F(RenderPassTest, ClearAttachmentsFromSecondaryCommandBuffer) {
  Attachment target = MakeAttachment(kColor);
  ASSERT_NE(target.view, VK_NULL_HANDLE);
  const VkAttachmentReference color{0, VK_IMAGE_LAYOUT_GENERAL};
  VkSubpassDescription subpass{0, VK_PIPELINE_BIND_POINT_GRAPHICS, 0, nullptr, 1, &color};
  VkRenderPass pass = MakeRenderPass(
      {Description(kColor, VK_ATTACHMENT_LOAD_OP_CLEAR, VK_ATTACHMENT_STORE_OP_STORE)}, {subpass});
  VkFramebuffer framebuffer = MakeFramebuffer(pass, {target.view});
  ASSERT_NE(framebuffer, VK_NULL_HANDLE);

  const VkClearValue clear = ColorValue(0, 0, 0, 1), marked = ColorValue(0.6f, 0.8f, 0.2f, 1.0f);
  const VkClearRect rect{{{6, 1}, {9, 10}}, 0, 1};
  VkCommandBuffer secondary = AllocateCommandBuffer(pool_, VK_COMMAND_BUFFER_LEVEL_SECONDARY);
  ASSERT_NE(secondary, VK_NULL_HANDLE);
  VkCommandBufferInheritanceInfo inheritance{VK_STRUCTURE_TYPE_COMMAND_BUFFER_INHERITANCE_INFO};
  inheritance.renderPass = pass;
  inheritance.subpass = 0;
  inheritance.framebuffer = framebuffer;
  VkCommandBufferBeginInfo secondary_begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  secondary_begin.flags = VK_COMMAND_BUFFER_USAGE_RENDER_PASS_CONTINUE_BIT;
  secondary_begin.pInheritanceInfo = &inheritance;
  VK_ASSERT_OK(vkBeginCommandBuffer(secondary, &secondary_begin));
  const VkClearAttachment mark{VK_IMAGE_ASPECT_COLOR_BIT, 0, marked};
  vkCmdClearAttachments(secondary, 1, &mark, 1, &rect);
  VK_ASSERT_OK(vkEndCommandBuffer(secondary));

  VkCommandBuffer cb = BeginCommands();
  BeginPass(cb, pass, framebuffer, kFullArea, {clear}, nullptr, VK_SUBPASS_CONTENTS_SECONDARY_COMMAND_BUFFERS);
  vkCmdExecuteCommands(cb, 1, &secondary);
  vkCmdEndRenderPass(cb);
  ASSERT_NO_FATAL_FAILURE(EndSubmitWait(cb));

  Model model(kExtent, Rgba8(clear.color));
  model.Fill(rect.rect, Rgba8(marked.color));
  EXPECT_TRUE(Matches(Read(target, 0), model, "attachment"));
}

}  // namespace
}  // namespace duet_test
