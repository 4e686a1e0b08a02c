// Input attachments through the loader: a render pass whose first subpass
// draws colour, an integer code and depth, and whose second reads all three
// as input attachments (subpassLoad of subpassInput, usubpassInput and a
// depth view) at each fragment's pixel; the same with multiview, where each
// view reads its own layer; and subpassInputMS reading each sample of a
// multisampled attachment by index; a feedback loop in rasterization order
// (VK_EXT_rasterization_order_attachment_access).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "graphics_fixture.h"
#include "pixel_hash.h"
#include "shaders/fullscreen.vert.h"
#include "shaders/input_count.frag.h"
#include "shaders/input_depth_step.frag.h"
#include "shaders/input_stencil_seen.frag.h"
#include "shaders/input_read.frag.h"
#include "shaders/input_read_samples.frag.h"
#include "shaders/input_write.frag.h"

namespace duet_test {
namespace {

constexpr VkExtent2D kExtent{16, 12};

struct Float4 {
  float v[4];
};

VkAttachmentDescription Cleared(VkFormat format, VkSampleCountFlagBits samples = VK_SAMPLE_COUNT_1_BIT) {
  return {0,
          format,
          samples,
          VK_ATTACHMENT_LOAD_OP_CLEAR,
          VK_ATTACHMENT_STORE_OP_STORE,
          VK_ATTACHMENT_LOAD_OP_DONT_CARE,
          VK_ATTACHMENT_STORE_OP_DONT_CARE,
          VK_IMAGE_LAYOUT_GENERAL,
          VK_IMAGE_LAYOUT_GENERAL};
}

class InputAttachmentTest : public GraphicsTest {
 protected:
  // An attachment with `layers` layers and a view of all of them.
  Target MakeAttachment(VkFormat format, uint32_t layers, VkSampleCountFlagBits samples = VK_SAMPLE_COUNT_1_BIT) {
    const VkImageAspectFlags aspects = AspectsOf(format);
    const VkImageUsageFlags attachment = aspects == VK_IMAGE_ASPECT_COLOR_BIT
                                             ? VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT
                                             : VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT;
    const VkImageUsageFlags usage =
        VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_INPUT_ATTACHMENT_BIT | attachment;
    VkImageCreateInfo ci = ImageInfo(VK_IMAGE_TYPE_2D, format, {kExtent.width, kExtent.height, 1}, 1, layers, usage);
    ci.samples = samples;
    Target t;
    t.format = format;
    t.extent = kExtent;
    t.image = MakeGeneralImage(ci, aspects);
    if (t.image != VK_NULL_HANDLE)
      t.view = MakeView(t.image, layers > 1 ? VK_IMAGE_VIEW_TYPE_2D_ARRAY : VK_IMAGE_VIEW_TYPE_2D, format,
                        {aspects, 0, 1, 0, layers});
    return t;
  }

  VkRenderPass MakeRenderPass(const std::vector<VkAttachmentDescription>& attachments,
                              const std::vector<VkSubpassDescription>& subpasses, uint32_t view_mask) {
    VkSubpassDependency dependency{0,
                                   1,
                                   VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT |
                                       VK_PIPELINE_STAGE_LATE_FRAGMENT_TESTS_BIT,
                                   VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT,
                                   VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT | VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT,
                                   VK_ACCESS_INPUT_ATTACHMENT_READ_BIT,
                                   VK_DEPENDENCY_BY_REGION_BIT};
    const std::vector<uint32_t> view_masks(subpasses.size(), view_mask);
    VkRenderPassMultiviewCreateInfo multiview{VK_STRUCTURE_TYPE_RENDER_PASS_MULTIVIEW_CREATE_INFO};
    multiview.subpassCount = uint32_t(view_masks.size());
    multiview.pViewMasks = view_masks.data();
    VkRenderPassCreateInfo ci{VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO};
    ci.pNext = view_mask != 0 ? &multiview : nullptr;
    ci.attachmentCount = uint32_t(attachments.size());
    ci.pAttachments = attachments.data();
    ci.subpassCount = uint32_t(subpasses.size());
    ci.pSubpasses = subpasses.data();
    ci.dependencyCount = 1;
    ci.pDependencies = &dependency;
    VkRenderPass pass = VK_NULL_HANDLE;
    EXPECT_EQ(vkCreateRenderPass(device_, &ci, nullptr, &pass), VK_SUCCESS);
    if (pass != VK_NULL_HANDLE) Defer([this, pass] { vkDestroyRenderPass(device_, pass, nullptr); });
    return pass;
  }

  VkFramebuffer MakeFramebuffer(VkRenderPass pass, const std::vector<const Target*>& targets) {
    std::vector<VkImageView> views;
    for (const Target* t : targets) views.push_back(t->view);
    return QueueTest::MakeFramebuffer(pass, views, kExtent);
  }

  void BeginRenderPass(VkCommandBuffer cb, VkRenderPass pass, VkFramebuffer framebuffer,
                       const std::vector<VkClearValue>& clears) {
    VkRenderPassBeginInfo begin{VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO};
    begin.renderPass = pass;
    begin.framebuffer = framebuffer;
    begin.renderArea = {{0, 0}, kExtent};
    begin.clearValueCount = uint32_t(clears.size());
    begin.pClearValues = clears.data();
    vkCmdBeginRenderPass(cb, &begin, VK_SUBPASS_CONTENTS_INLINE);
  }

  template <typename T>
  std::vector<T> ReadLayer(const Target& t, uint32_t layer) {
    const std::vector<uint8_t> bytes = ReadImage(t.image, {VK_IMAGE_ASPECT_COLOR_BIT, 0, layer, 1}, {0, 0, 0},
                                                 {kExtent.width, kExtent.height, 1}, uint32_t(sizeof(T)));
    std::vector<T> out(bytes.size() / sizeof(T));
    if (!bytes.empty()) std::memcpy(out.data(), bytes.data(), bytes.size());
    return out;
  }

  // A two-subpass render pass to run: subpass 0 draws input_write.frag once
  // per entry of `sample_indices` (its push constant; -1: every sample),
  // subpass 1 draws `read_shader`, which reads `inputs` as input
  // attachments 0, 1, ... (bindings 0, 1, ... of set 0).
  struct Chain {
    VkRenderPass pass = VK_NULL_HANDLE;
    VkFramebuffer framebuffer = VK_NULL_HANDLE;
    std::vector<VkClearValue> clears;
    std::vector<VkFormat> written, read;  // the subpasses' colour formats
    bool depth = false;                   // subpass 0 writes depth
    VkSampleCountFlagBits samples = VK_SAMPLE_COUNT_1_BIT;  // of subpass 0
    std::vector<int32_t> sample_indices{-1};
    std::vector<const Target*> inputs;
    VkShaderModule read_shader = VK_NULL_HANDLE;
  };

  void Run(const Chain& c) {
    DescriptorSet inputs = MakeDescriptorSet(
        std::vector<VkDescriptorType>(c.inputs.size(), VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT));
    for (uint32_t i = 0; i < c.inputs.size(); ++i)
      WriteImageDescriptor(inputs, i, VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT, VK_NULL_HANDLE, c.inputs[i]->view);
    PipelineDesc write;
    write.vertex = Module(kFullscreenVert);
    write.fragment = Module(kInputWriteFrag);
    write.layout = MakePipelineLayout({}, 4);
    write.extent = kExtent;
    write.color_formats = c.written;
    write.samples = c.samples;
    write.depth_stencil.depthTestEnable = c.depth;
    write.depth_stencil.depthWriteEnable = c.depth;
    write.depth_stencil.depthCompareOp = VK_COMPARE_OP_ALWAYS;
    write.render_pass = c.pass;
    VkPipeline write_pipeline = MakePipeline(write);
    PipelineDesc read = write;
    read.fragment = c.read_shader;
    read.layout = MakePipelineLayout({inputs.layout});
    read.color_formats = c.read;
    read.samples = VK_SAMPLE_COUNT_1_BIT;
    read.depth_stencil = {VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO};
    read.subpass = 1;
    VkPipeline read_pipeline = MakePipeline(read);
    ASSERT_NE(read_pipeline, VK_NULL_HANDLE);

    VkCommandBuffer cb = BeginCommands();
    BeginRenderPass(cb, c.pass, c.framebuffer, c.clears);
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, write_pipeline);
    for (const int32_t& sample : c.sample_indices) {
      vkCmdPushConstants(cb, write.layout, VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, 0, 4, &sample);
      vkCmdDraw(cb, 3, 1, 0, 0);
    }
    vkCmdNextSubpass(cb, VK_SUBPASS_CONTENTS_INLINE);
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, read_pipeline);
    vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, read.layout, 0, 1, &inputs.set, 0, nullptr);
    vkCmdDraw(cb, 3, 1, 0, 0);
    vkCmdEndRenderPass(cb);
    EndSubmitWait(cb);
  }

  // Subpass 0 draws colour (RGBA8), code (R32_UINT) and depth (D32); subpass
  // 1 reads them as input attachments 0, 1, 2 and writes colour + depth
  // (RGBA32F) and the code ^ 0x5A5A5A5A (R32_UINT). `views` 1: no multiview,
  // else that many views (layers).
  void RunSubpassChain(uint32_t views) {
    const uint32_t layers = views;
    const uint32_t view_mask = views > 1 ? (1u << views) - 1 : 0;
    Target color = MakeAttachment(VK_FORMAT_R8G8B8A8_UNORM, layers);
    Target code = MakeAttachment(VK_FORMAT_R32_UINT, layers);
    Target depth = MakeAttachment(VK_FORMAT_D32_SFLOAT, layers);
    Target color_depth = MakeAttachment(VK_FORMAT_R32G32B32A32_SFLOAT, layers);
    Target code_out = MakeAttachment(VK_FORMAT_R32_UINT, layers);
    ASSERT_NE(code_out.view, VK_NULL_HANDLE);

    const VkAttachmentReference written[2] = {{0, VK_IMAGE_LAYOUT_GENERAL}, {1, VK_IMAGE_LAYOUT_GENERAL}};
    const VkAttachmentReference depth_ref{2, VK_IMAGE_LAYOUT_GENERAL};
    const VkAttachmentReference inputs[3] = {
        {0, VK_IMAGE_LAYOUT_GENERAL}, {1, VK_IMAGE_LAYOUT_GENERAL}, {2, VK_IMAGE_LAYOUT_GENERAL}};
    const VkAttachmentReference outputs[2] = {{3, VK_IMAGE_LAYOUT_GENERAL}, {4, VK_IMAGE_LAYOUT_GENERAL}};
    std::vector<VkSubpassDescription> subpasses(2);
    subpasses[0].pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
    subpasses[0].colorAttachmentCount = 2;
    subpasses[0].pColorAttachments = written;
    subpasses[0].pDepthStencilAttachment = &depth_ref;
    subpasses[1].pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
    subpasses[1].inputAttachmentCount = 3;
    subpasses[1].pInputAttachments = inputs;
    subpasses[1].colorAttachmentCount = 2;
    subpasses[1].pColorAttachments = outputs;
    VkRenderPass pass = MakeRenderPass({Cleared(color.format), Cleared(code.format), Cleared(depth.format),
                                        Cleared(color_depth.format), Cleared(code_out.format)},
                                       subpasses, view_mask);
    Chain chain;
    chain.pass = pass;
    chain.framebuffer = MakeFramebuffer(pass, {&color, &code, &depth, &color_depth, &code_out});
    chain.clears.resize(5);
    chain.clears[2].depthStencil = {1.0f, 0};
    chain.written = {color.format, code.format};
    chain.read = {color_depth.format, code_out.format};
    chain.depth = true;
    chain.inputs = {&color, &code, &depth};
    chain.read_shader = Module(kInputReadFrag);
    Run(chain);

    for (uint32_t view = 0; view < views; ++view) {
      const std::vector<Float4> got = ReadLayer<Float4>(color_depth, view);
      const std::vector<uint32_t> got_code = ReadLayer<uint32_t>(code_out, view);
      ASSERT_EQ(got.size(), size_t(kExtent.width) * kExtent.height);
      ASSERT_EQ(got_code.size(), got.size());
      for (uint32_t i = 0; i < got.size(); ++i) {
        const uint32_t x = i % kExtent.width, y = i / kExtent.width, h = PixelHash(x, y, 7 + view);
        for (int c = 0; c < 3; ++c)
          ASSERT_NEAR(got[i].v[c], float((h >> (8 * c)) & 0xFF) / 255.0f, 1e-6)
              << "colour of pixel " << x << "," << y << " view " << view << " channel " << c;
        ASSERT_EQ(got[i].v[3], float(x * 64 + y + view * 1024) / 4096.0f)
            << "depth of pixel " << x << "," << y << " view " << view;
        ASSERT_EQ(got_code[i], h ^ 0x5A5A5A5Au) << "code of pixel " << x << "," << y << " view " << view;
      }
    }
  }
};

TEST_F(InputAttachmentTest, SecondSubpassReadsColourIntegerAndDepth) { RunSubpassChain(1); }

TEST_F(InputAttachmentTest, EachViewReadsItsOwnLayer) { RunSubpassChain(2); }

// Subpass 0 writes each sample of a 4x attachment with its own colour (one
// draw per sample, gl_SampleMask selecting it); subpass 1 reads them back
// with subpassLoad(input, s).
TEST_F(InputAttachmentTest, MultisampledInputReadsEverySample) {
  Target samples = MakeAttachment(VK_FORMAT_R8G8B8A8_UNORM, 1, VK_SAMPLE_COUNT_4_BIT);
  Target out = MakeAttachment(VK_FORMAT_R32G32B32A32_UINT, 1);
  ASSERT_NE(out.view, VK_NULL_HANDLE);
  const VkAttachmentReference written{0, VK_IMAGE_LAYOUT_GENERAL};
  const VkAttachmentReference output{1, VK_IMAGE_LAYOUT_GENERAL};
  std::vector<VkSubpassDescription> subpasses(2);
  subpasses[0].pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
  subpasses[0].colorAttachmentCount = 1;
  subpasses[0].pColorAttachments = &written;
  subpasses[1].pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
  subpasses[1].inputAttachmentCount = 1;
  subpasses[1].pInputAttachments = &written;
  subpasses[1].colorAttachmentCount = 1;
  subpasses[1].pColorAttachments = &output;
  VkRenderPass pass =
      MakeRenderPass({Cleared(samples.format, VK_SAMPLE_COUNT_4_BIT), Cleared(out.format)}, subpasses, 0);
  Chain chain;
  chain.pass = pass;
  chain.framebuffer = MakeFramebuffer(pass, {&samples, &out});
  chain.clears.resize(2);
  chain.written = {samples.format};
  chain.read = {out.format};
  chain.samples = VK_SAMPLE_COUNT_4_BIT;
  chain.sample_indices = {0, 1, 2, 3};
  chain.inputs = {&samples};
  chain.read_shader = Module(kInputReadSamplesFrag);
  Run(chain);

  struct Uint4 {
    uint32_t v[4];
  };
  const std::vector<Uint4> got = ReadLayer<Uint4>(out, 0);
  ASSERT_EQ(got.size(), size_t(kExtent.width) * kExtent.height);
  for (uint32_t i = 0; i < got.size(); ++i) {
    const uint32_t x = i % kExtent.width, y = i / kExtent.width;
    for (uint32_t s = 0; s < 4; ++s)
      ASSERT_EQ(got[i].v[s], PixelHash(x, y, 7 + 100 + s)) << "pixel " << x << "," << y << " sample " << s;
  }
}

class RasterizationOrderTest : public InputAttachmentTest {
 protected:
  RasterizationOrderTest() {
    device_options_.extensions = {VK_EXT_RASTERIZATION_ORDER_ATTACHMENT_ACCESS_EXTENSION_NAME};
    device_options_.extension_features = {reinterpret_cast<VkBaseOutStructure*>(&features_)};
  }
  VkPhysicalDeviceRasterizationOrderAttachmentAccessFeaturesEXT features_{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_RASTERIZATION_ORDER_ATTACHMENT_ACCESS_FEATURES_EXT, nullptr, VK_TRUE, VK_TRUE,
      VK_TRUE};

  // One subpass whose depth/stencil attachment (`format`, one aspect) is
  // also its input attachment, with a colour attachment of `color_format`
  // that `fragment` writes what it read; 33 full-viewport triangles in
  // rasterization order. Returns the colours.
  template <typename T>
  std::vector<T> RunDepthStencilFeedback(VkFormat format, VkFormat color_format, VkShaderModule fragment) {
    const bool stencil = format == VK_FORMAT_S8_UINT;
    Target ds = MakeAttachment(format, 1);
    Target seen = MakeAttachment(color_format, 1);
    EXPECT_NE(ds.view, VK_NULL_HANDLE);
    EXPECT_NE(seen.view, VK_NULL_HANDLE);
    if (ds.view == VK_NULL_HANDLE || seen.view == VK_NULL_HANDLE) return {};
    VkAttachmentDescription attachments[2] = {Cleared(format), Cleared(color_format)};
    attachments[0].stencilLoadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
    attachments[0].stencilStoreOp = VK_ATTACHMENT_STORE_OP_STORE;
    const VkAttachmentReference ds_ref{0, VK_IMAGE_LAYOUT_GENERAL}, color_ref{1, VK_IMAGE_LAYOUT_GENERAL};
    VkSubpassDescription subpass{};
    subpass.flags = stencil ? VK_SUBPASS_DESCRIPTION_RASTERIZATION_ORDER_ATTACHMENT_STENCIL_ACCESS_BIT_EXT
                            : VK_SUBPASS_DESCRIPTION_RASTERIZATION_ORDER_ATTACHMENT_DEPTH_ACCESS_BIT_EXT;
    subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
    subpass.inputAttachmentCount = 1;
    subpass.pInputAttachments = &ds_ref;
    subpass.colorAttachmentCount = 1;
    subpass.pColorAttachments = &color_ref;
    subpass.pDepthStencilAttachment = &ds_ref;
    VkRenderPassCreateInfo ci{VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO};
    ci.attachmentCount = 2;
    ci.pAttachments = attachments;
    ci.subpassCount = 1;
    ci.pSubpasses = &subpass;
    VkRenderPass pass = VK_NULL_HANDLE;
    EXPECT_EQ(vkCreateRenderPass(device_, &ci, nullptr, &pass), VK_SUCCESS);
    if (pass == VK_NULL_HANDLE) return {};
    Defer([this, pass] { vkDestroyRenderPass(device_, pass, nullptr); });
    const VkFramebuffer framebuffer = MakeFramebuffer(pass, {&ds, &seen});

    DescriptorSet input = MakeDescriptorSet({VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT});
    WriteImageDescriptor(input, 0, VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT, VK_NULL_HANDLE, ds.view);
    PipelineDesc desc;
    desc.vertex = Module(kFullscreenVert);
    desc.fragment = fragment;
    desc.layout = MakePipelineLayout({input.layout});
    desc.extent = kExtent;
    desc.color_formats = {color_format};
    desc.render_pass = pass;
    VkPipelineDepthStencilStateCreateInfo& d = desc.depth_stencil;
    if (stencil) {
      desc.stencil_format = format;
      d.flags = VK_PIPELINE_DEPTH_STENCIL_STATE_CREATE_RASTERIZATION_ORDER_ATTACHMENT_STENCIL_ACCESS_BIT_EXT;
      d.stencilTestEnable = VK_TRUE;
      d.front = {VK_STENCIL_OP_KEEP, VK_STENCIL_OP_INCREMENT_AND_CLAMP, VK_STENCIL_OP_KEEP, VK_COMPARE_OP_ALWAYS,
                 0xFF, 0xFF, 0};
      d.back = d.front;
    } else {
      desc.depth_format = format;
      d.flags = VK_PIPELINE_DEPTH_STENCIL_STATE_CREATE_RASTERIZATION_ORDER_ATTACHMENT_DEPTH_ACCESS_BIT_EXT;
      d.depthTestEnable = VK_TRUE;
      d.depthWriteEnable = VK_TRUE;
      d.depthCompareOp = VK_COMPARE_OP_ALWAYS;
    }
    const VkPipeline pipeline = MakePipeline(desc);
    EXPECT_NE(pipeline, VK_NULL_HANDLE);
    if (pipeline == VK_NULL_HANDLE) return {};

    VkCommandBuffer cb = BeginCommands();
    BeginRenderPass(cb, pass, framebuffer, {VkClearValue{}, VkClearValue{}});
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
    vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, desc.layout, 0, 1, &input.set, 0, nullptr);
    vkCmdDraw(cb, 3, 33, 0, 0);
    vkCmdEndRenderPass(cb);
    EndSubmitWait(cb);
    return ReadLayer<T>(seen, 0);
  }
};

// One subpass reads and writes the same R32_UINT attachment; 24 instances
// of a full-viewport triangle, then 9 more in a second draw, each add one:
// every fragment sees the one before it, so every pixel counts to 33.
TEST_F(RasterizationOrderTest, FeedbackLoopSeesEveryEarlierFragment) {
  Target counter = MakeAttachment(VK_FORMAT_R32_UINT, 1);
  ASSERT_NE(counter.view, VK_NULL_HANDLE);
  const VkAttachmentReference ref{0, VK_IMAGE_LAYOUT_GENERAL};
  VkSubpassDescription subpass{};
  subpass.flags = VK_SUBPASS_DESCRIPTION_RASTERIZATION_ORDER_ATTACHMENT_COLOR_ACCESS_BIT_EXT;
  subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
  subpass.inputAttachmentCount = 1;
  subpass.pInputAttachments = &ref;
  subpass.colorAttachmentCount = 1;
  subpass.pColorAttachments = &ref;
  VkRenderPassCreateInfo ci{VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO};
  const VkAttachmentDescription attachment = Cleared(counter.format);
  ci.attachmentCount = 1;
  ci.pAttachments = &attachment;
  ci.subpassCount = 1;
  ci.pSubpasses = &subpass;
  VkRenderPass pass = VK_NULL_HANDLE;
  ASSERT_EQ(vkCreateRenderPass(device_, &ci, nullptr, &pass), VK_SUCCESS);
  Defer([this, pass] { vkDestroyRenderPass(device_, pass, nullptr); });
  const VkFramebuffer framebuffer = MakeFramebuffer(pass, {&counter});

  DescriptorSet input = MakeDescriptorSet({VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT});
  WriteImageDescriptor(input, 0, VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT, VK_NULL_HANDLE, counter.view);
  PipelineDesc desc;
  desc.vertex = Module(kFullscreenVert);
  desc.fragment = Module(kInputCountFrag);
  desc.layout = MakePipelineLayout({input.layout});
  desc.extent = kExtent;
  desc.color_formats = {counter.format};
  desc.color_blend_flags = VK_PIPELINE_COLOR_BLEND_STATE_CREATE_RASTERIZATION_ORDER_ATTACHMENT_ACCESS_BIT_EXT;
  desc.render_pass = pass;
  const VkPipeline pipeline = MakePipeline(desc);
  ASSERT_NE(pipeline, VK_NULL_HANDLE);

  VkCommandBuffer cb = BeginCommands();
  BeginRenderPass(cb, pass, framebuffer, {VkClearValue{}});
  vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
  vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, desc.layout, 0, 1, &input.set, 0, nullptr);
  vkCmdDraw(cb, 3, 24, 0, 0);
  vkCmdDraw(cb, 3, 9, 0, 0);
  vkCmdEndRenderPass(cb);
  ASSERT_NO_FATAL_FAILURE(EndSubmitWait(cb));
  const std::vector<uint32_t> counts = ReadLayer<uint32_t>(counter, 0);
  ASSERT_EQ(counts.size(), size_t(kExtent.width) * kExtent.height);
  for (uint32_t i = 0; i < counts.size(); ++i) ASSERT_EQ(counts[i], 33u) << "pixel " << i;
}

// The same with the depth attachment: each fragment reads the depth the one
// before it wrote and writes 1/64 more, so the last one saw 32/64.
TEST_F(RasterizationOrderTest, DepthFeedbackLoopSeesEveryEarlierFragment) {
  const std::vector<float> seen =
      RunDepthStencilFeedback<float>(VK_FORMAT_D32_SFLOAT, VK_FORMAT_R32_SFLOAT, Module(kInputDepthStepFrag));
  ASSERT_EQ(seen.size(), size_t(kExtent.width) * kExtent.height);
  for (uint32_t i = 0; i < seen.size(); ++i) ASSERT_EQ(seen[i], 32.0f / 64.0f) << "pixel " << i;
}

// And with the stencil attachment: each fragment increments it after
// reading it, so the last one read 32.
TEST_F(RasterizationOrderTest, StencilFeedbackLoopSeesEveryEarlierFragment) {
  const std::vector<uint32_t> seen =
      RunDepthStencilFeedback<uint32_t>(VK_FORMAT_S8_UINT, VK_FORMAT_R32_UINT, Module(kInputStencilSeenFrag));
  ASSERT_EQ(seen.size(), size_t(kExtent.width) * kExtent.height);
  for (uint32_t i = 0; i < seen.size(); ++i) ASSERT_EQ(seen[i], 32u) << "pixel " << i;
}

}  // namespace
}  // namespace duet_test
