// VK_EXT_headless_surface with real rendering: a scene (a clear and two
// rotated, textured quads, drawn with dynamic rendering) is rendered once
// into an offscreen image and once into a headless swapchain's image that
// is presented; the PNG the driver dumps for the presented frame
// (DUET_DUMP_FRAMES) holds exactly the offscreen pixels. Several frames go
// through one swapchain (a changed frame, then an unchanged one), so the
// damage-aware present (content diff in bands) is covered too.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <set>

#include "shaders/headless_scene.vert.h"
#include "shaders/textured.frag.h"
#include "wsi_fixture.h"

namespace duet_test {
namespace {

constexpr uint32_t kWidth = 97, kHeight = 61;  // odd sizes: rows are not a multiple of anything
constexpr float kClear[4] = {0.2f, 0.25f, 0.4f, 1.0f};

struct SceneVertex {
  float x, y, u, v;
};

class WsiHeadlessDraw : public WsiTest, public ::testing::WithParamInterface<VkFormat> {
 protected:
  WsiHeadlessDraw() { device_options_.render_pass_features = true; }  // dynamicRendering

  void SetUp() override {
    WsiTest::SetUp();
    if (HasFatalFailure()) return;
    ASSERT_NO_FATAL_FAILURE(MakeTexture());
    ASSERT_NO_FATAL_FAILURE(MakePipeline(GetParam()));
  }

  VkImageView View(VkImage image, VkFormat format) {
    VkImageViewCreateInfo ci{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
    ci.image = image;
    ci.viewType = VK_IMAGE_VIEW_TYPE_2D;
    ci.format = format;
    ci.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    VkImageView view = VK_NULL_HANDLE;
    EXPECT_EQ(vkCreateImageView(device_, &ci, nullptr, &view), VK_SUCCESS);
    Defer([this, view] { vkDestroyImageView(device_, view, nullptr); });
    return view;
  }

  // An 8x8 RGBA8 texture of distinct colours, sampled linearly (so the quads
  // show gradients, not only texel copies), in a descriptor set.
  void MakeTexture() {
    VkImage texture = MakeGeneralImage(ImageInfo(VK_IMAGE_TYPE_2D, VK_FORMAT_R8G8B8A8_UNORM, {8, 8, 1}));
    ASSERT_NE(texture, VK_NULL_HANDLE);
    std::vector<uint8_t> texels(8 * 8 * 4);
    for (uint32_t i = 0; i < 64; ++i) {
      texels[i * 4 + 0] = uint8_t((i % 8) * 36);
      texels[i * 4 + 1] = uint8_t((i / 8) * 36);
      texels[i * 4 + 2] = uint8_t(((i * 37) % 64) * 4);
      texels[i * 4 + 3] = 255;
    }
    ASSERT_NO_FATAL_FAILURE(WriteImage(texture, {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1}, {0, 0, 0}, {8, 8, 1}, 4, texels));

    VkSamplerCreateInfo sci{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
    sci.magFilter = sci.minFilter = VK_FILTER_LINEAR;
    sci.addressModeU = sci.addressModeV = sci.addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
    VkSampler sampler = VK_NULL_HANDLE;
    ASSERT_EQ(vkCreateSampler(device_, &sci, nullptr, &sampler), VK_SUCCESS);
    Defer([this, sampler] { vkDestroySampler(device_, sampler, nullptr); });

    VkDescriptorSetLayoutBinding binding{0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, VK_SHADER_STAGE_FRAGMENT_BIT,
                                         nullptr};
    VkDescriptorSetLayoutCreateInfo lci{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
    lci.bindingCount = 1;
    lci.pBindings = &binding;
    ASSERT_EQ(vkCreateDescriptorSetLayout(device_, &lci, nullptr, &set_layout_), VK_SUCCESS);
    Defer([this] { vkDestroyDescriptorSetLayout(device_, set_layout_, nullptr); });
    VkDescriptorPoolSize size{VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1};
    VkDescriptorPoolCreateInfo dpci{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
    dpci.maxSets = 1;
    dpci.poolSizeCount = 1;
    dpci.pPoolSizes = &size;
    VkDescriptorPool pool = VK_NULL_HANDLE;
    ASSERT_EQ(vkCreateDescriptorPool(device_, &dpci, nullptr, &pool), VK_SUCCESS);
    Defer([this, pool] { vkDestroyDescriptorPool(device_, pool, nullptr); });
    VkDescriptorSetAllocateInfo dsai{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
    dsai.descriptorPool = pool;
    dsai.descriptorSetCount = 1;
    dsai.pSetLayouts = &set_layout_;
    ASSERT_EQ(vkAllocateDescriptorSets(device_, &dsai, &set_), VK_SUCCESS);
    VkDescriptorImageInfo info{sampler, View(texture, VK_FORMAT_R8G8B8A8_UNORM), VK_IMAGE_LAYOUT_GENERAL};
    VkWriteDescriptorSet write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
    write.dstSet = set_;
    write.descriptorCount = 1;
    write.descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
    write.pImageInfo = &info;
    vkUpdateDescriptorSets(device_, 1, &write, 0, nullptr);
  }

  VkShaderModule Module(const uint32_t* code, size_t bytes) {
    VkShaderModuleCreateInfo ci{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
    ci.codeSize = bytes;
    ci.pCode = code;
    VkShaderModule m = VK_NULL_HANDLE;
    EXPECT_EQ(vkCreateShaderModule(device_, &ci, nullptr, &m), VK_SUCCESS);
    Defer([this, m] { vkDestroyShaderModule(device_, m, nullptr); });
    return m;
  }

  void MakePipeline(VkFormat color_format) {
    VkPipelineLayoutCreateInfo plci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    plci.setLayoutCount = 1;
    plci.pSetLayouts = &set_layout_;
    ASSERT_EQ(vkCreatePipelineLayout(device_, &plci, nullptr, &layout_), VK_SUCCESS);
    Defer([this] { vkDestroyPipelineLayout(device_, layout_, nullptr); });
    VkPipelineShaderStageCreateInfo stages[2] = {
        {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_VERTEX_BIT,
         Module(kHeadlessSceneVert, sizeof kHeadlessSceneVert), "main", nullptr},
        {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_FRAGMENT_BIT,
         Module(kTexturedFrag, sizeof kTexturedFrag), "main", nullptr}};
    VkVertexInputBindingDescription binding{0, sizeof(SceneVertex), VK_VERTEX_INPUT_RATE_VERTEX};
    VkVertexInputAttributeDescription attributes[2] = {{0, 0, VK_FORMAT_R32G32_SFLOAT, 0},
                                                       {1, 0, VK_FORMAT_R32G32_SFLOAT, 8}};
    VkPipelineVertexInputStateCreateInfo vi{VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
    vi.vertexBindingDescriptionCount = 1;
    vi.pVertexBindingDescriptions = &binding;
    vi.vertexAttributeDescriptionCount = 2;
    vi.pVertexAttributeDescriptions = attributes;
    VkPipelineInputAssemblyStateCreateInfo ia{VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
    ia.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
    VkViewport viewport{0, 0, float(kWidth), float(kHeight), 0, 1};
    VkRect2D scissor{{0, 0}, {kWidth, kHeight}};
    VkPipelineViewportStateCreateInfo vp{VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO};
    vp.viewportCount = 1;
    vp.pViewports = &viewport;
    vp.scissorCount = 1;
    vp.pScissors = &scissor;
    VkPipelineRasterizationStateCreateInfo rs{VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
    rs.lineWidth = 1.0f;
    VkPipelineMultisampleStateCreateInfo ms{VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO};
    ms.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT;
    VkPipelineColorBlendAttachmentState blend{};
    blend.colorWriteMask = 0xF;
    VkPipelineColorBlendStateCreateInfo cb{VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO};
    cb.attachmentCount = 1;
    cb.pAttachments = &blend;
    VkPipelineRenderingCreateInfo rendering{VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO};
    rendering.colorAttachmentCount = 1;
    rendering.pColorAttachmentFormats = &color_format;
    VkGraphicsPipelineCreateInfo ci{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO};
    ci.pNext = &rendering;
    ci.stageCount = 2;
    ci.pStages = stages;
    ci.pVertexInputState = &vi;
    ci.pInputAssemblyState = &ia;
    ci.pViewportState = &vp;
    ci.pRasterizationState = &rs;
    ci.pMultisampleState = &ms;
    ci.pColorBlendState = &cb;
    ci.layout = layout_;
    ASSERT_EQ(vkCreateGraphicsPipelines(device_, VK_NULL_HANDLE, 1, &ci, nullptr, &pipeline_), VK_SUCCESS);
    Defer([this] { vkDestroyPipeline(device_, pipeline_, nullptr); });
  }

  // Two quads (12 vertices): a large one turned by `degrees` showing the
  // whole texture, and a smaller one over it, turned the other way, whose
  // texture coordinates run past the edges (clamped).
  HostBuffer SceneVertices(float degrees) {
    std::vector<SceneVertex> vertices;
    auto quad = [&](float cx, float cy, float half, float radians, float uv0, float uv1) {
      const float c = std::cos(radians), s = std::sin(radians);
      auto corner = [&](float dx, float dy, float u, float v) {
        return SceneVertex{cx + (dx * c - dy * s) * half, cy + (dx * s + dy * c) * half, u, v};
      };
      const SceneVertex a = corner(-1, -1, uv0, uv0), b = corner(1, -1, uv1, uv0), d = corner(-1, 1, uv0, uv1),
                        e = corner(1, 1, uv1, uv1);
      vertices.insert(vertices.end(), {a, b, d, b, e, d});
    };
    const float radians = degrees * 3.14159265f / 180.0f;
    quad(0.0f, 0.0f, 0.75f, radians, 0.0f, 1.0f);
    quad(0.35f, 0.3f, 0.4f, -2.0f * radians, -0.25f, 1.25f);
    HostBuffer vb = MakeHostBuffer(vertices.size() * sizeof(SceneVertex), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT);
    std::memcpy(vb.data, vertices.data(), vertices.size() * sizeof(SceneVertex));
    return vb;
  }

  // Records the scene into `view` (in `layout` during rendering).
  void RecordScene(VkCommandBuffer cb, VkImageView view, VkImageLayout layout, const HostBuffer& vertices) {
    VkRenderingAttachmentInfo attachment{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
    attachment.imageView = view;
    attachment.imageLayout = layout;
    attachment.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
    attachment.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
    std::memcpy(attachment.clearValue.color.float32, kClear, sizeof kClear);
    VkRenderingInfo info{VK_STRUCTURE_TYPE_RENDERING_INFO};
    info.renderArea = {{0, 0}, {kWidth, kHeight}};
    info.layerCount = 1;
    info.colorAttachmentCount = 1;
    info.pColorAttachments = &attachment;
    vkCmdBeginRendering(cb, &info);
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline_);
    vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, layout_, 0, 1, &set_, 0, nullptr);
    const VkDeviceSize offset = 0;
    vkCmdBindVertexBuffers(cb, 0, 1, &vertices.buffer, &offset);
    vkCmdDraw(cb, 12, 1, 0, 0);
    vkCmdEndRendering(cb);
  }

  // The scene rendered offscreen, as RGBA bytes whatever the format.
  std::vector<uint8_t> RenderOffscreen(float degrees) {
    const VkFormat format = GetParam();
    VkImage image = MakeGeneralImage(ImageInfo(
        VK_IMAGE_TYPE_2D, format, {kWidth, kHeight, 1}, 1, 1,
        VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT));
    EXPECT_NE(image, VK_NULL_HANDLE);
    if (image == VK_NULL_HANDLE) return {};
    const HostBuffer vertices = SceneVertices(degrees);
    VkCommandBuffer cb = BeginCommands();
    RecordScene(cb, View(image, format), VK_IMAGE_LAYOUT_GENERAL, vertices);
    EndSubmitWait(cb);
    std::vector<uint8_t> pixels =
        ReadImage(image, {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1}, {0, 0, 0}, {kWidth, kHeight, 1}, 4);
    if (format == VK_FORMAT_B8G8R8A8_UNORM)
      for (size_t i = 0; i < pixels.size(); i += 4) std::swap(pixels[i], pixels[i + 2]);
    return pixels;
  }

  // The scene rendered into the next image of `swapchain` and presented.
  void RenderAndPresentScene(VkSwapchainKHR swapchain, float degrees) {
    uint32_t index = UINT32_MAX;
    ASSERT_EQ(AcquireWithFence(swapchain, &index), VK_SUCCESS);
    const VkImage image = SwapchainImages(swapchain)[index];
    const HostBuffer vertices = SceneVertices(degrees);
    VkCommandBuffer cb = BeginCommands();
    VkImageMemoryBarrier barrier{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
    barrier.dstAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
    barrier.oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
    barrier.newLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
    barrier.srcQueueFamilyIndex = barrier.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    barrier.image = image;
    barrier.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
                         VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT, 0, 0, nullptr, 0, nullptr, 1, &barrier);
    RecordScene(cb, View(image, GetParam()), VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, vertices);
    barrier.srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
    barrier.dstAccessMask = 0;
    barrier.oldLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
    barrier.newLayout = VK_IMAGE_LAYOUT_PRESENT_SRC_KHR;
    vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, 0, 0,
                         nullptr, 0, nullptr, 1, &barrier);
    ASSERT_EQ(vkEndCommandBuffer(cb), VK_SUCCESS);
    VkSemaphore rendered = MakeBinarySemaphore();
    VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    submit.commandBufferCount = 1;
    submit.pCommandBuffers = &cb;
    submit.signalSemaphoreCount = 1;
    submit.pSignalSemaphores = &rendered;
    ASSERT_EQ(vkQueueSubmit(queue_, 1, &submit, VK_NULL_HANDLE), VK_SUCCESS);
    VkPresentInfoKHR present{VK_STRUCTURE_TYPE_PRESENT_INFO_KHR};
    present.waitSemaphoreCount = 1;
    present.pWaitSemaphores = &rendered;
    present.swapchainCount = 1;
    present.pSwapchains = &swapchain;
    present.pImageIndices = &index;
    ASSERT_EQ(vkQueuePresentKHR(queue_, &present), VK_SUCCESS);
    // The vertex buffer and the view live until TearDown, after the device is idle.
  }

  VkDescriptorSetLayout set_layout_ = VK_NULL_HANDLE;
  VkDescriptorSet set_ = VK_NULL_HANDLE;
  VkPipelineLayout layout_ = VK_NULL_HANDLE;
  VkPipeline pipeline_ = VK_NULL_HANDLE;
};

// Every pixel of the dumped frame equals the offscreen rendering's.
void ExpectSamePixels(const DecodedPng& png, const std::vector<uint8_t>& offscreen, const char* what) {
  ASSERT_EQ(png.width, kWidth) << what;
  ASSERT_EQ(png.height, kHeight) << what;
  ASSERT_EQ(offscreen.size(), png.rgba.size()) << what;
  int mismatches = 0;
  for (uint32_t y = 0; y < kHeight; ++y)
    for (uint32_t x = 0; x < kWidth; ++x) {
      const uint8_t* o = &offscreen[(size_t(y) * kWidth + x) * 4];
      const Rgba expected{o[0], o[1], o[2], o[3]};
      if (png.At(x, y) != expected && mismatches++ < 10)
        ADD_FAILURE() << what << ": pixel " << x << "," << y << " dumped " << png.At(x, y) << ", offscreen "
                      << expected;
    }
  EXPECT_EQ(mismatches, 0) << what;
}

TEST_P(WsiHeadlessDraw, PresentedFramesMatchTheOffscreenRendering) {
  const float angles[] = {0.0f, 25.0f, 25.0f, 70.0f};  // the third frame repeats the second: a clean present
  std::vector<std::vector<uint8_t>> expected;
  for (float a : angles) {
    expected.push_back(RenderOffscreen(a));
    ASSERT_FALSE(HasFatalFailure());
  }
  // The scene is worth comparing: the clear colour in a corner, many
  // colours on the quads, and the frames of different angles differ.
  const std::vector<uint8_t>& first = expected[0];
  EXPECT_EQ((Rgba{first[0], first[1], first[2], first[3]}), (Rgba{51, 64, 102, 255}));
  std::set<uint32_t> colors;
  for (size_t i = 0; i < first.size(); i += 4)
    colors.insert(uint32_t(first[i]) << 16 | first[i + 1] << 8 | first[i + 2]);
  EXPECT_GE(colors.size(), 200u);
  EXPECT_NE(expected[0], expected[1]);
  EXPECT_EQ(expected[1], expected[2]);  // rendering is deterministic

  TempDir dumps;
  ScopedEnv dump_env("DUET_DUMP_FRAMES", dumps.path());
  VkSurfaceKHR surface = MakeHeadlessSurface();
  SwapchainOptions options;
  options.format = GetParam();
  options.extent = {kWidth, kHeight};
  VkSwapchainKHR swapchain = MakeSwapchain(surface, options);
  ASSERT_NE(swapchain, VK_NULL_HANDLE);
  for (float a : angles) ASSERT_NO_FATAL_FAILURE(RenderAndPresentScene(swapchain, a));
  VK_ASSERT_OK(vkQueueWaitIdle(queue_));
  DestroySwapchain(swapchain);  // shows what is still queued

  const std::vector<std::string> files = dumps.Files();
  ASSERT_EQ(files.size(), std::size(angles));
  for (size_t i = 0; i < files.size(); ++i) {
    DecodedPng png;
    ASSERT_TRUE(ReadPng(files[i], &png));
    const std::string what = "frame " + std::to_string(i) + " (" + std::to_string(int(angles[i])) + " degrees)";
    ExpectSamePixels(png, expected[i], what.c_str());
  }
}

INSTANTIATE_TEST_SUITE_P(Formats, WsiHeadlessDraw,
                         ::testing::Values(VK_FORMAT_B8G8R8A8_UNORM, VK_FORMAT_R8G8B8A8_UNORM));

}  // namespace
}  // namespace duet_test
