#include "graphics_fixture.h"

#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>

#include "child_test_process.h"
#include "shaders/color_triangle.frag.h"
#include "shaders/color_triangle.vert.h"
#include "shaders/rect.vert.h"

namespace duet_test {

VkPipelineColorBlendAttachmentState BlendState(bool enable, VkBlendFactor src_color, VkBlendFactor dst_color,
                                               VkBlendOp color_op, VkBlendFactor src_alpha, VkBlendFactor dst_alpha,
                                               VkBlendOp alpha_op, VkColorComponentFlags write_mask) {
  return {enable ? VK_TRUE : VK_FALSE, src_color, dst_color, color_op, src_alpha, dst_alpha, alpha_op, write_mask};
}

bool HasDepth(VkFormat format) {
  switch (format) {
    case VK_FORMAT_D16_UNORM:
    case VK_FORMAT_X8_D24_UNORM_PACK32:
    case VK_FORMAT_D32_SFLOAT:
    case VK_FORMAT_D16_UNORM_S8_UINT:
    case VK_FORMAT_D24_UNORM_S8_UINT:
    case VK_FORMAT_D32_SFLOAT_S8_UINT: return true;
    default: return false;
  }
}

bool HasStencil(VkFormat format) {
  switch (format) {
    case VK_FORMAT_S8_UINT:
    case VK_FORMAT_D16_UNORM_S8_UINT:
    case VK_FORMAT_D24_UNORM_S8_UINT:
    case VK_FORMAT_D32_SFLOAT_S8_UINT: return true;
    default: return false;
  }
}

VkImageAspectFlags AspectsOf(VkFormat format) {
  if (!HasDepth(format) && !HasStencil(format)) return VK_IMAGE_ASPECT_COLOR_BIT;
  return (HasDepth(format) ? VK_IMAGE_ASPECT_DEPTH_BIT : 0) | (HasStencil(format) ? VK_IMAGE_ASPECT_STENCIL_BIT : 0);
}

uint32_t Random::Next() {
  state_ += 0x9E3779B97F4A7C15ull;
  return uint32_t(Mix64(state_) >> 32);
}

VkShaderModule GraphicsTest::Module(const uint32_t* code, size_t bytes) {
  VkShaderModuleCreateInfo ci{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
  ci.codeSize = bytes;
  ci.pCode = code;
  VkShaderModule m = VK_NULL_HANDLE;
  EXPECT_EQ(vkCreateShaderModule(device_, &ci, nullptr, &m), VK_SUCCESS);
  if (m != VK_NULL_HANDLE) Defer([this, m] { vkDestroyShaderModule(device_, m, nullptr); });
  return m;
}

VkPipelineLayout GraphicsTest::MakePipelineLayout(const std::vector<VkDescriptorSetLayout>& sets,
                                                  uint32_t push_constant_bytes, VkShaderStageFlags push_constant_stages) {
  VkPushConstantRange range{push_constant_stages, 0, push_constant_bytes};
  VkPipelineLayoutCreateInfo ci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  ci.setLayoutCount = uint32_t(sets.size());
  ci.pSetLayouts = sets.data();
  ci.pushConstantRangeCount = push_constant_bytes != 0 ? 1 : 0;
  ci.pPushConstantRanges = &range;
  VkPipelineLayout layout = VK_NULL_HANDLE;
  EXPECT_EQ(vkCreatePipelineLayout(device_, &ci, nullptr, &layout), VK_SUCCESS);
  if (layout != VK_NULL_HANDLE) Defer([this, layout] { vkDestroyPipelineLayout(device_, layout, nullptr); });
  return layout;
}

VkPipeline GraphicsTest::MakePipeline(const PipelineDesc& d) {
  std::vector<VkPipelineShaderStageCreateInfo> stages;
  if (d.vertex != VK_NULL_HANDLE || d.vertex_stage_next != nullptr)
    stages.push_back({VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, d.vertex_stage_next, 0,
                      VK_SHADER_STAGE_VERTEX_BIT, d.vertex, "main", nullptr});
  if (d.geometry != VK_NULL_HANDLE)
    stages.push_back({VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_GEOMETRY_BIT,
                      d.geometry, "main", nullptr});
  if (d.tess_control != VK_NULL_HANDLE) {
    stages.push_back({VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0,
                      VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT, d.tess_control, "main", nullptr});
    stages.push_back({VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0,
                      VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT, d.tess_evaluation, "main", nullptr});
  }
  if (d.fragment != VK_NULL_HANDLE)
    stages.push_back({VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, d.fragment_stage_next, 0,
                      VK_SHADER_STAGE_FRAGMENT_BIT, d.fragment, "main", nullptr});
  VkPipelineVertexInputStateCreateInfo vi{VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO,
                                          d.vertex_input_next};
  vi.vertexBindingDescriptionCount = uint32_t(d.bindings.size());
  vi.pVertexBindingDescriptions = d.bindings.data();
  vi.vertexAttributeDescriptionCount = uint32_t(d.attributes.size());
  vi.pVertexAttributeDescriptions = d.attributes.data();
  VkPipelineInputAssemblyStateCreateInfo ia{VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
  ia.topology = d.topology;
  ia.primitiveRestartEnable = d.primitive_restart;
  VkViewport viewport = d.viewport;
  if (viewport.width == 0) viewport = {0, 0, float(d.extent.width), float(d.extent.height), 0, 1};
  VkRect2D scissor = d.scissor;
  if (scissor.extent.width == 0) scissor = {{0, 0}, d.extent};
  VkPipelineViewportStateCreateInfo vp{VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO};
  vp.pNext = d.viewport_next;
  vp.viewportCount = 1;
  vp.pViewports = &viewport;
  vp.scissorCount = 1;
  vp.pScissors = &scissor;
  if (!d.viewports.empty()) {
    vp.viewportCount = uint32_t(d.viewports.size());
    vp.pViewports = d.viewports.data();
    vp.scissorCount = uint32_t(d.scissors.size());
    vp.pScissors = d.scissors.data();
  }
  VkPipelineMultisampleStateCreateInfo ms{VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO};
  ms.rasterizationSamples = d.samples;
  ms.sampleShadingEnable = d.min_sample_shading > 0;
  ms.minSampleShading = d.min_sample_shading;
  ms.pSampleMask = d.sample_mask.has_value() ? &*d.sample_mask : nullptr;
  ms.alphaToCoverageEnable = d.alpha_to_coverage;
  ms.alphaToOneEnable = d.alpha_to_one;
  std::vector<VkPipelineColorBlendAttachmentState> blend = d.blend;
  if (blend.empty())
    blend.assign(d.color_formats.size(), BlendState(false, VK_BLEND_FACTOR_ONE, VK_BLEND_FACTOR_ZERO, VK_BLEND_OP_ADD,
                                                    VK_BLEND_FACTOR_ONE, VK_BLEND_FACTOR_ZERO, VK_BLEND_OP_ADD));
  VkPipelineColorBlendStateCreateInfo cb{VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO,
                                         d.color_blend_next};
  cb.flags = d.color_blend_flags;
  cb.attachmentCount = uint32_t(blend.size());
  cb.pAttachments = blend.data();
  cb.logicOpEnable = d.logic_op_enable;
  cb.logicOp = d.logic_op;
  std::memcpy(cb.blendConstants, d.blend_constants, sizeof cb.blendConstants);
  VkPipelineDynamicStateCreateInfo dynamic{VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO};
  dynamic.dynamicStateCount = uint32_t(d.dynamic_states.size());
  dynamic.pDynamicStates = d.dynamic_states.data();
  VkPipelineRenderingCreateInfo rendering{VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO};
  rendering.colorAttachmentCount = uint32_t(d.color_formats.size());
  rendering.pColorAttachmentFormats = d.color_formats.data();
  rendering.depthAttachmentFormat = d.depth_format;
  rendering.stencilAttachmentFormat = d.stencil_format;
  rendering.viewMask = d.view_mask;
  VkGraphicsPipelineCreateInfo ci{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO};
  rendering.pNext = d.next;
  ci.pNext = d.render_pass == VK_NULL_HANDLE ? &rendering : d.next;
  ci.flags = d.flags;
  ci.renderPass = d.render_pass;
  ci.subpass = d.subpass;
  ci.stageCount = uint32_t(stages.size());
  ci.pStages = stages.data();
  ci.pVertexInputState = &vi;
  ci.pInputAssemblyState = &ia;
  VkPipelineTessellationStateCreateInfo tessellation{VK_STRUCTURE_TYPE_PIPELINE_TESSELLATION_STATE_CREATE_INFO,
                                                     d.tessellation_next, 0, d.patch_control_points};
  if (d.tess_control != VK_NULL_HANDLE) ci.pTessellationState = &tessellation;
  ci.pViewportState = &vp;
  ci.pRasterizationState = &d.rasterization;
  ci.pMultisampleState = &ms;
  ci.pDepthStencilState = &d.depth_stencil;
  ci.pColorBlendState = &cb;
  ci.pDynamicState = &dynamic;
  ci.layout = d.layout != VK_NULL_HANDLE ? d.layout : MakePipelineLayout({});
  VkPipeline pipeline = VK_NULL_HANDLE;
  EXPECT_EQ(vkCreateGraphicsPipelines(device_, VK_NULL_HANDLE, 1, &ci, nullptr, &pipeline), VK_SUCCESS);
  if (pipeline != VK_NULL_HANDLE) Defer([this, pipeline] { vkDestroyPipeline(device_, pipeline, nullptr); });
  return pipeline;
}

PipelineDesc GraphicsTest::RectPipeline(VkShaderModule fragment, VkExtent2D extent,
                                        const std::vector<VkDescriptorSetLayout>& sets) {
  PipelineDesc d;
  d.vertex = Module(kRectVert);
  d.fragment = fragment;
  d.layout = MakePipelineLayout(sets, sizeof(RectParams));
  d.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP;
  d.extent = extent;
  return d;
}

PipelineDesc GraphicsTest::ColorPipeline(VkExtent2D extent) {
  PipelineDesc d;
  d.vertex = Module(kColorTriangleVert);
  d.fragment = Module(kColorTriangleFrag);
  d.extent = extent;
  d.bindings = {{0, sizeof(ColorVertex), VK_VERTEX_INPUT_RATE_VERTEX}};
  d.attributes = {{0, 0, VK_FORMAT_R32G32B32A32_SFLOAT, 0}, {1, 0, VK_FORMAT_R32G32B32A32_SFLOAT, 16}};
  return d;
}

void GraphicsTest::DrawRect(VkCommandBuffer cb, VkPipelineLayout layout, const RectParams& rect) {
  vkCmdPushConstants(cb, layout, VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, 0, sizeof rect, &rect);
  vkCmdDraw(cb, 4, 1, 0, 0);
}

VkImageView GraphicsTest::MakeView(VkImage image, VkImageViewType type, VkFormat format,
                                   VkImageSubresourceRange range) {
  VkImageViewCreateInfo ci{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
  ci.image = image;
  ci.viewType = type;
  ci.format = format;
  ci.subresourceRange = range;
  VkImageView view = VK_NULL_HANDLE;
  EXPECT_EQ(vkCreateImageView(device_, &ci, nullptr, &view), VK_SUCCESS);
  if (view != VK_NULL_HANDLE) Defer([this, view] { vkDestroyImageView(device_, view, nullptr); });
  return view;
}

Target GraphicsTest::MakeTarget(VkFormat format, VkExtent2D extent, VkImageUsageFlags extra_usage) {
  const VkImageAspectFlags aspects = AspectsOf(format);
  const VkImageUsageFlags usage = extra_usage | VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT |
                                  (aspects == VK_IMAGE_ASPECT_COLOR_BIT ? VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT
                                                                        : VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT);
  Target t;
  t.format = format;
  t.extent = extent;
  t.image = MakeGeneralImage(ImageInfo(VK_IMAGE_TYPE_2D, format, {extent.width, extent.height, 1}, 1, 1, usage),
                             aspects);
  if (t.image != VK_NULL_HANDLE) t.view = MakeView(t.image, VK_IMAGE_VIEW_TYPE_2D, format, {aspects, 0, 1, 0, 1});
  return t;
}

Target GraphicsTest::MakeLayeredTarget(VkFormat format, VkExtent2D extent, uint32_t layers) {
  Target t;
  t.format = format;
  t.extent = extent;
  t.image = MakeGeneralImage(ImageInfo(VK_IMAGE_TYPE_2D, format, {extent.width, extent.height, 1}, 1, layers,
                                       VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT));
  if (t.image != VK_NULL_HANDLE)
    t.view = MakeView(t.image, VK_IMAGE_VIEW_TYPE_2D_ARRAY, format, {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, layers});
  return t;
}

void GraphicsTest::BeginRendering(VkCommandBuffer cb, const std::vector<AttachmentUse>& colors,
                                  AttachmentUse depth_stencil, uint32_t layers, uint32_t view_mask) {
  auto attachment = [](const AttachmentUse& use) {
    VkRenderingAttachmentInfo a{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
    a.imageView = use.target->view;
    a.imageLayout = VK_IMAGE_LAYOUT_GENERAL;
    a.loadOp = use.load;
    a.storeOp = use.store;
    a.clearValue = use.clear;
    return a;
  };
  std::vector<VkRenderingAttachmentInfo> color_infos;
  for (const AttachmentUse& c : colors) color_infos.push_back(attachment(c));
  VkRenderingAttachmentInfo depth{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
  VkRenderingAttachmentInfo stencil{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
  VkRenderingInfo info{VK_STRUCTURE_TYPE_RENDERING_INFO};
  const Target* first = !colors.empty() ? colors[0].target : depth_stencil.target;
  info.renderArea = {{0, 0}, first->extent};
  info.layerCount = layers;
  info.viewMask = view_mask;
  info.colorAttachmentCount = uint32_t(color_infos.size());
  info.pColorAttachments = color_infos.data();
  if (depth_stencil.target != nullptr) {
    if (HasDepth(depth_stencil.target->format)) {
      depth = attachment(depth_stencil);
      info.pDepthAttachment = &depth;
    }
    if (HasStencil(depth_stencil.target->format)) {
      stencil = attachment(depth_stencil);
      info.pStencilAttachment = &stencil;
    }
  }
  vkCmdBeginRendering(cb, &info);
}

QueueTest::HostBuffer GraphicsTest::Upload(const void* bytes, size_t size, VkBufferUsageFlags usage) {
  HostBuffer hb = MakeHostBuffer(std::max<size_t>(size, 4), usage);
  if (hb.data != nullptr && size != 0) std::memcpy(hb.data, bytes, size);
  return hb;
}

GraphicsTest::DescriptorSet GraphicsTest::MakeDescriptorSet(const std::vector<VkDescriptorType>& types) {
  DescriptorSet s;
  std::vector<VkDescriptorSetLayoutBinding> bindings;
  std::vector<VkDescriptorPoolSize> sizes;
  for (uint32_t i = 0; i < types.size(); ++i) {
    const VkShaderStageFlags stages = types[i] == VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT
                                          ? VK_SHADER_STAGE_FRAGMENT_BIT
                                          : VK_SHADER_STAGE_ALL_GRAPHICS;
    bindings.push_back({i, types[i], 1, stages, nullptr});
    sizes.push_back({types[i], 1});
  }
  VkDescriptorSetLayoutCreateInfo lci{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
  lci.bindingCount = uint32_t(bindings.size());
  lci.pBindings = bindings.data();
  EXPECT_EQ(vkCreateDescriptorSetLayout(device_, &lci, nullptr, &s.layout), VK_SUCCESS);
  if (s.layout == VK_NULL_HANDLE) return s;
  Defer([this, l = s.layout] { vkDestroyDescriptorSetLayout(device_, l, nullptr); });
  VkDescriptorPoolCreateInfo pci{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
  pci.maxSets = 1;
  pci.poolSizeCount = uint32_t(sizes.size());
  pci.pPoolSizes = sizes.data();
  VkDescriptorPool pool = VK_NULL_HANDLE;
  EXPECT_EQ(vkCreateDescriptorPool(device_, &pci, nullptr, &pool), VK_SUCCESS);
  if (pool == VK_NULL_HANDLE) return s;
  Defer([this, pool] { vkDestroyDescriptorPool(device_, pool, nullptr); });
  VkDescriptorSetAllocateInfo ai{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
  ai.descriptorPool = pool;
  ai.descriptorSetCount = 1;
  ai.pSetLayouts = &s.layout;
  EXPECT_EQ(vkAllocateDescriptorSets(device_, &ai, &s.set), VK_SUCCESS);
  return s;
}

void GraphicsTest::WriteSampler(const DescriptorSet& s, uint32_t binding, VkSampler sampler, VkImageView view) {
  WriteImageDescriptor(s, binding, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, sampler, view);
}

void GraphicsTest::WriteImageDescriptor(const DescriptorSet& s, uint32_t binding, VkDescriptorType type,
                                        VkSampler sampler, VkImageView view) {
  const VkDescriptorImageInfo info{sampler, view, VK_IMAGE_LAYOUT_GENERAL};
  WriteDescriptor(s, binding, type, &info, nullptr);
}

void GraphicsTest::WriteBuffer(const DescriptorSet& s, uint32_t binding, VkDescriptorType type, VkBuffer buffer) {
  const VkDescriptorBufferInfo info{buffer, 0, VK_WHOLE_SIZE};
  WriteDescriptor(s, binding, type, nullptr, &info);
}

void GraphicsTest::WriteDescriptor(const DescriptorSet& s, uint32_t binding, VkDescriptorType type,
                                   const VkDescriptorImageInfo* image, const VkDescriptorBufferInfo* buffer) {
  VkWriteDescriptorSet write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
  write.dstSet = s.set;
  write.dstBinding = binding;
  write.descriptorCount = 1;
  write.descriptorType = type;
  write.pImageInfo = image;
  write.pBufferInfo = buffer;
  vkUpdateDescriptorSets(device_, 1, &write, 0, nullptr);
}

VkSampler GraphicsTest::MakeSampler(const VkSamplerCreateInfo& ci) {
  VkSampler sampler = VK_NULL_HANDLE;
  EXPECT_EQ(vkCreateSampler(device_, &ci, nullptr, &sampler), VK_SUCCESS);
  if (sampler != VK_NULL_HANDLE) Defer([this, sampler] { vkDestroySampler(device_, sampler, nullptr); });
  return sampler;
}

bool ReferenceCovers(const double (&x)[3], const double (&y)[3], int px, int py) {
  int64_t fx[3], fy[3];
  for (int i = 0; i < 3; ++i) {
    fx[i] = std::llround(x[i] * 256);
    fy[i] = std::llround(y[i] * 256);
  }
  const int64_t sx = int64_t(px) * 256 + 128, sy = int64_t(py) * 256 + 128;
  int64_t area = (fx[1] - fx[0]) * (fy[2] - fy[0]) - (fx[2] - fx[0]) * (fy[1] - fy[0]);
  if (area == 0) return false;
  const int sign = area > 0 ? 1 : -1;
  for (int e = 0; e < 3; ++e) {
    const int j = (e + 1) % 3, k = (e + 2) % 3;
    const int64_t dx = (fx[k] - fx[j]) * sign, dy = (fy[k] - fy[j]) * sign;
    const int64_t value = dx * (sy - fy[j]) - dy * (sx - fx[j]);
    if (value > 0) continue;
    // On the edge: only a top edge (horizontal, interior below) or a left
    // edge (interior to its right, in y-down framebuffer coordinates) owns it.
    const bool top = dy == 0 && dx > 0;
    const bool left = dy < 0;
    if (value == 0 && (top || left)) continue;
    return false;
  }
  return true;
}

// --- child processes ---------------------------------------------------------------

std::string ChildImagePath() {
  const char* path = std::getenv("DUET_TEST_IMAGE_OUT");
  return path != nullptr ? path : "";
}

bool WriteChildImage(const std::vector<uint8_t>& bytes) {
  std::ofstream out(ChildImagePath(), std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
  return bool(out);
}

std::vector<uint8_t> RenderInChild(const std::string& test, std::vector<std::pair<std::string, std::string>> env,
                                   std::string* log) {
  char path[] = "/tmp/duet-test-image-XXXXXX";
  const int fd = mkstemp(path);
  if (fd < 0) return {};
  close(fd);
  env.emplace_back("DUET_TEST_IMAGE_OUT", path);
  const ChildResult child = RunTestInChild(test, env, std::chrono::seconds(120));
  std::vector<uint8_t> bytes;
  if (child.exit_code == 0) {
    std::ifstream in(path, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  std::remove(path);
  if (log != nullptr) *log = child.output;
  return bytes;
}

std::string CurrentTestName() {
  const ::testing::TestInfo* info = ::testing::UnitTest::GetInstance()->current_test_info();
  return std::string(info->test_suite_name()) + "." + info->name();
}

}  // namespace duet_test
