// Graphics pipeline state the spec tells the driver to ignore may be any
// pointer, garbage included (dEQP-VK.api.pipeline.pipeline_invalid_pointers_unused_structs):
// viewport, multisample, depth/stencil and colour blend state when
// rasterization is statically discarded; depth/stencil state without a
// depth or stencil attachment; colour blend state without colour
// attachments; viewport and scissor arrays when they are dynamic;
// tessellation state without tessellation stages; arrays whose count is 0.
// Here every such pointer is the address of a page that faults when read.
#include <sys/mman.h>

#include <cstring>

#include "graphics_fixture.h"
#include "shaders/flat_color.frag.h"
#include "shaders/rect.vert.h"
#include "shaders/rect_store.vert.h"

namespace duet_test {
namespace {

constexpr VkExtent2D kExtent{16, 16};

class PipelineIgnoredStateTest : public GraphicsTest {
 protected:
  void SetUp() override {
    GraphicsTest::SetUp();
    if (HasFatalFailure()) return;
    if (validation_layer_) GTEST_SKIP() << "the validation layer may read what the driver must ignore";
    page_ = mmap(nullptr, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    ASSERT_NE(page_, MAP_FAILED);
  }
  void TearDown() override {
    if (page_ != nullptr && page_ != MAP_FAILED) munmap(page_, 4096);
    GraphicsTest::TearDown();
  }

  template <typename T>
  const T* Garbage() const {
    return static_cast<const T*>(page_);
  }

  // A create info for rect.vert (+ flat_color.frag unless `vertex_only`)
  // whose every ignorable pointer is garbage; the caller makes the parts it
  // uses valid.
  VkGraphicsPipelineCreateInfo CreateInfo(VkPipelineLayout layout, bool vertex_only) {
    stages_[0] = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_VERTEX_BIT,
                  vertex_only ? Module(kRectStoreVert) : Module(kRectVert), "main", nullptr};
    stages_[1] = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_FRAGMENT_BIT,
                  Module(kFlatColorFrag), "main", nullptr};
    vertex_input_ = {VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
    vertex_input_.pVertexBindingDescriptions = Garbage<VkVertexInputBindingDescription>();
    vertex_input_.pVertexAttributeDescriptions = Garbage<VkVertexInputAttributeDescription>();
    input_assembly_ = {VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
    input_assembly_.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP;
    rasterization_ = {VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
    rasterization_.polygonMode = VK_POLYGON_MODE_FILL;
    rasterization_.lineWidth = 1.0f;
    dynamic_ = {VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO};
    dynamic_.pDynamicStates = Garbage<VkDynamicState>();
    VkGraphicsPipelineCreateInfo ci{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO};
    ci.stageCount = vertex_only ? 1 : 2;
    ci.pStages = stages_;
    ci.pVertexInputState = &vertex_input_;
    ci.pInputAssemblyState = &input_assembly_;
    ci.pTessellationState = Garbage<VkPipelineTessellationStateCreateInfo>();
    ci.pViewportState = Garbage<VkPipelineViewportStateCreateInfo>();
    ci.pRasterizationState = &rasterization_;
    ci.pMultisampleState = Garbage<VkPipelineMultisampleStateCreateInfo>();
    ci.pDepthStencilState = Garbage<VkPipelineDepthStencilStateCreateInfo>();
    ci.pColorBlendState = Garbage<VkPipelineColorBlendStateCreateInfo>();
    ci.pDynamicState = &dynamic_;
    ci.layout = layout;
    return ci;
  }

  VkPipeline Create(const VkGraphicsPipelineCreateInfo& ci) {
    VkPipeline pipeline = VK_NULL_HANDLE;
    EXPECT_EQ(vkCreateGraphicsPipelines(device_, VK_NULL_HANDLE, 1, &ci, nullptr, &pipeline), VK_SUCCESS);
    if (pipeline != VK_NULL_HANDLE) Defer([this, pipeline] { vkDestroyPipeline(device_, pipeline, nullptr); });
    return pipeline;
  }

  void* page_ = nullptr;
  VkPipelineShaderStageCreateInfo stages_[2]{};
  VkPipelineVertexInputStateCreateInfo vertex_input_{};
  VkPipelineInputAssemblyStateCreateInfo input_assembly_{};
  VkPipelineRasterizationStateCreateInfo rasterization_{};
  VkPipelineDynamicStateCreateInfo dynamic_{};
};

// Rasterization discarded: only the vertex stage's state is read, and the
// draw still runs its vertex shader (which stores).
TEST_F(PipelineIgnoredStateTest, DiscardedRasterizationReadsNoFragmentState) {
  DescriptorSet set = MakeDescriptorSet({VK_DESCRIPTOR_TYPE_STORAGE_BUFFER});
  HostBuffer stores = MakeHostBuffer(64, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
  ASSERT_NE(stores.data, nullptr);
  std::memset(stores.data, 0, stores.size);
  WriteBuffer(set, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, stores.buffer);
  VkPipelineLayout layout = MakePipelineLayout({set.layout}, sizeof(RectParams));
  VkGraphicsPipelineCreateInfo ci = CreateInfo(layout, /*vertex_only=*/true);
  rasterization_.rasterizerDiscardEnable = VK_TRUE;
  // The fragment shader is there too: with discard it runs nowhere.
  ci.stageCount = 2;
  VkPipelineRenderingCreateInfo rendering{VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO};
  const VkFormat format = VK_FORMAT_R8G8B8A8_UNORM;
  rendering.colorAttachmentCount = 1;
  rendering.pColorAttachmentFormats = &format;
  ci.pNext = &rendering;
  VkPipeline pipeline = Create(ci);
  ASSERT_NE(pipeline, VK_NULL_HANDLE);

  Target color = MakeTarget(format, kExtent);
  VkCommandBuffer cb = BeginCommands();
  BeginRendering(cb, {{&color, VK_ATTACHMENT_LOAD_OP_CLEAR}});
  vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
  vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, layout, 0, 1, &set.set, 0, nullptr);
  DrawRect(cb, layout, RectParams{});
  vkCmdEndRendering(cb);
  ASSERT_NO_FATAL_FAILURE(EndSubmitWait(cb));
  EXPECT_EQ(stores.as<uint32_t>()[0], 4u) << "the vertex shader ran for the 4 vertices";
}

// No depth/stencil attachment, no colour attachment: neither state is read;
// dynamic viewports and scissors: their arrays are not read.
TEST_F(PipelineIgnoredStateTest, StateOfAbsentAttachmentsAndDynamicArraysIsNotRead) {
  VkPipelineLayout layout = MakePipelineLayout({}, sizeof(RectParams));
  VkGraphicsPipelineCreateInfo ci = CreateInfo(layout, /*vertex_only=*/false);
  const VkDynamicState dynamic_states[] = {VK_DYNAMIC_STATE_VIEWPORT, VK_DYNAMIC_STATE_SCISSOR};
  dynamic_.dynamicStateCount = 2;
  dynamic_.pDynamicStates = dynamic_states;
  VkPipelineViewportStateCreateInfo viewport{VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO};
  viewport.viewportCount = 1;
  viewport.pViewports = Garbage<VkViewport>();
  viewport.scissorCount = 1;
  viewport.pScissors = Garbage<VkRect2D>();
  ci.pViewportState = &viewport;
  VkPipelineMultisampleStateCreateInfo multisample{VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO};
  multisample.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT;
  ci.pMultisampleState = &multisample;
  // Dynamic rendering without VkPipelineRenderingCreateInfo: no attachments.
  EXPECT_NE(Create(ci), VK_NULL_HANDLE);

  // The same against a render pass object's subpass without attachments.
  VkSubpassDescription subpass{};
  subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
  VkRenderPass pass = MakeRenderPass({}, {subpass});
  ASSERT_NE(pass, VK_NULL_HANDLE);
  ci.renderPass = pass;
  EXPECT_NE(Create(ci), VK_NULL_HANDLE);

  // With a colour attachment the blend state is read (and must be valid),
  // the depth/stencil state still is not; the pipeline draws.
  VkPipelineColorBlendAttachmentState blend =
      BlendState(false, VK_BLEND_FACTOR_ONE, VK_BLEND_FACTOR_ZERO, VK_BLEND_OP_ADD, VK_BLEND_FACTOR_ONE,
                 VK_BLEND_FACTOR_ZERO, VK_BLEND_OP_ADD);
  VkPipelineColorBlendStateCreateInfo color_blend{VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO};
  color_blend.attachmentCount = 1;
  color_blend.pAttachments = &blend;
  ci.pColorBlendState = &color_blend;
  ci.renderPass = VK_NULL_HANDLE;
  VkPipelineRenderingCreateInfo rendering{VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO};
  const VkFormat format = VK_FORMAT_R8G8B8A8_UNORM;
  rendering.colorAttachmentCount = 1;
  rendering.pColorAttachmentFormats = &format;
  ci.pNext = &rendering;
  VkPipeline pipeline = Create(ci);
  ASSERT_NE(pipeline, VK_NULL_HANDLE);

  Target color = MakeTarget(format, kExtent);
  VkCommandBuffer cb = BeginCommands();
  BeginRendering(cb, {{&color, VK_ATTACHMENT_LOAD_OP_CLEAR}});
  vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
  const VkViewport vp{0, 0, float(kExtent.width), float(kExtent.height), 0, 1};
  const VkRect2D scissor{{0, 0}, kExtent};
  vkCmdSetViewport(cb, 0, 1, &vp);
  vkCmdSetScissor(cb, 0, 1, &scissor);
  RectParams rect;
  rect.color[0] = 1, rect.color[1] = 0, rect.color[2] = 0, rect.color[3] = 1;
  DrawRect(cb, layout, rect);
  vkCmdEndRendering(cb);
  ASSERT_NO_FATAL_FAILURE(EndSubmitWait(cb));
  const std::vector<uint32_t> pixels = Read<uint32_t>(color);
  ASSERT_EQ(pixels.size(), size_t(kExtent.width * kExtent.height));
  for (uint32_t p : pixels) ASSERT_EQ(p, 0xFF0000FFu) << "every pixel is the rectangle's red";
}

}  // namespace
}  // namespace duet_test
