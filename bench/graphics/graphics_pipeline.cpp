#include "graphics_pipeline.h"

#include "render_target.h"
#include "vk_bench_device.h"

namespace duet_bench {

VkPipeline CreateGraphicsPipeline(BenchDevice& device, const GraphicsPipelineDesc& desc) {
  const VkPipeline pipeline = MakeGraphicsPipeline(device, desc);
  device.Defer([pipeline](VkDevice d) { vkDestroyPipeline(d, pipeline, nullptr); });
  return pipeline;
}

VkPipeline MakeGraphicsPipeline(BenchDevice& device, const GraphicsPipelineDesc& desc) {
  const VkDevice d = device.device();
  std::vector<VkPipelineShaderStageCreateInfo> stages;
  auto add = [&](VkShaderStageFlagBits stage, std::span<const uint32_t> spirv) {
    if (spirv.empty()) return;
    VkShaderModuleCreateInfo module_info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
    module_info.codeSize = spirv.size_bytes();
    module_info.pCode = spirv.data();
    VkPipelineShaderStageCreateInfo info{VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO};
    info.stage = stage;
    Check(vkCreateShaderModule(d, &module_info, nullptr, &info.module), "vkCreateShaderModule");
    info.pName = "main";
    info.pSpecializationInfo = desc.specialization;
    stages.push_back(info);
  };
  add(VK_SHADER_STAGE_VERTEX_BIT, desc.vertex_spirv);
  add(VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT, desc.tess_control_spirv);
  add(VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT, desc.tess_evaluation_spirv);
  add(VK_SHADER_STAGE_GEOMETRY_BIT, desc.geometry_spirv);
  add(VK_SHADER_STAGE_FRAGMENT_BIT, desc.fragment_spirv);
  VkPipelineTessellationStateCreateInfo tessellation{VK_STRUCTURE_TYPE_PIPELINE_TESSELLATION_STATE_CREATE_INFO};
  tessellation.patchControlPoints = desc.patch_control_points;

  VkPipelineVertexInputStateCreateInfo vertex_input{VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
  vertex_input.vertexBindingDescriptionCount = uint32_t(desc.bindings.size());
  vertex_input.pVertexBindingDescriptions = desc.bindings.data();
  vertex_input.vertexAttributeDescriptionCount = uint32_t(desc.attributes.size());
  vertex_input.pVertexAttributeDescriptions = desc.attributes.data();

  VkPipelineInputAssemblyStateCreateInfo input_assembly{
      VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
  input_assembly.topology = desc.topology;

  const VkViewport viewport{0, 0, float(kTargetSize), float(kTargetSize), 0, 1};
  const VkRect2D scissor{{0, 0}, {kTargetSize, kTargetSize}};
  VkPipelineViewportStateCreateInfo viewport_state{VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO};
  viewport_state.viewportCount = 1;
  viewport_state.pViewports = &viewport;
  viewport_state.scissorCount = 1;
  viewport_state.pScissors = &scissor;

  VkPipelineRasterizationStateCreateInfo rasterization{VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
  rasterization.polygonMode = VK_POLYGON_MODE_FILL;
  rasterization.cullMode = desc.cull_mode;
  rasterization.frontFace = VK_FRONT_FACE_COUNTER_CLOCKWISE;
  rasterization.lineWidth = 1.0f;

  VkPipelineMultisampleStateCreateInfo multisample{VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO};
  multisample.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT;

  const bool depth = desc.depth_format != VK_FORMAT_UNDEFINED;
  VkPipelineDepthStencilStateCreateInfo depth_stencil{VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO};
  depth_stencil.depthTestEnable = depth ? VK_TRUE : VK_FALSE;
  depth_stencil.depthWriteEnable = depth ? VK_TRUE : VK_FALSE;
  depth_stencil.depthCompareOp = VK_COMPARE_OP_LESS;
  depth_stencil.maxDepthBounds = 1.0f;

  VkPipelineColorBlendAttachmentState blend_attachment{};
  blend_attachment.colorWriteMask =
      VK_COLOR_COMPONENT_R_BIT | VK_COLOR_COMPONENT_G_BIT | VK_COLOR_COMPONENT_B_BIT | VK_COLOR_COMPONENT_A_BIT;
  VkPipelineColorBlendStateCreateInfo blend{VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO};
  blend.attachmentCount = 1;
  blend.pAttachments = &blend_attachment;

  const VkFormat color_format = kColorFormat;
  VkPipelineRenderingCreateInfo rendering{VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO};
  rendering.colorAttachmentCount = 1;
  rendering.pColorAttachmentFormats = &color_format;
  rendering.depthAttachmentFormat = desc.depth_format;

  VkGraphicsPipelineCreateInfo info{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO};
  info.pNext = &rendering;
  info.stageCount = uint32_t(stages.size());
  info.pStages = stages.data();
  if (!desc.tess_control_spirv.empty()) info.pTessellationState = &tessellation;
  info.pVertexInputState = &vertex_input;
  info.pInputAssemblyState = &input_assembly;
  info.pViewportState = &viewport_state;
  info.pRasterizationState = &rasterization;
  info.pMultisampleState = &multisample;
  info.pDepthStencilState = &depth_stencil;
  info.pColorBlendState = &blend;
  info.layout = desc.layout;
  VkPipeline pipeline = VK_NULL_HANDLE;
  const VkResult result = vkCreateGraphicsPipelines(d, desc.cache, 1, &info, nullptr, &pipeline);
  for (const VkPipelineShaderStageCreateInfo& stage : stages) vkDestroyShaderModule(d, stage.module, nullptr);
  Check(result, "vkCreateGraphicsPipelines");
  return pipeline;
}

SetLayout CreateSetLayout(BenchDevice& device, std::span<const VkDescriptorSetLayoutBinding> bindings,
                          std::span<const VkPushConstantRange> push_constants) {
  SetLayout out;
  const VkDevice d = device.device();
  if (!bindings.empty()) {
    VkDescriptorSetLayoutCreateInfo info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
    info.bindingCount = uint32_t(bindings.size());
    info.pBindings = bindings.data();
    Check(vkCreateDescriptorSetLayout(d, &info, nullptr, &out.set_layout), "vkCreateDescriptorSetLayout");
    const VkDescriptorSetLayout set_layout = out.set_layout;
    device.Defer([set_layout](VkDevice dev) { vkDestroyDescriptorSetLayout(dev, set_layout, nullptr); });
  }
  VkPipelineLayoutCreateInfo layout_info{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  layout_info.setLayoutCount = out.set_layout != VK_NULL_HANDLE ? 1 : 0;
  layout_info.pSetLayouts = &out.set_layout;
  layout_info.pushConstantRangeCount = uint32_t(push_constants.size());
  layout_info.pPushConstantRanges = push_constants.data();
  Check(vkCreatePipelineLayout(d, &layout_info, nullptr, &out.pipeline_layout), "vkCreatePipelineLayout");
  const VkPipelineLayout pipeline_layout = out.pipeline_layout;
  device.Defer([pipeline_layout](VkDevice dev) { vkDestroyPipelineLayout(dev, pipeline_layout, nullptr); });
  return out;
}

void WriteDescriptor(BenchDevice& device, VkDescriptorSet set, uint32_t binding, VkDescriptorType type,
                     const VkDescriptorBufferInfo* buffer, const VkDescriptorImageInfo* image) {
  VkWriteDescriptorSet write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
  write.dstSet = set;
  write.dstBinding = binding;
  write.descriptorCount = 1;
  write.descriptorType = type;
  write.pBufferInfo = buffer;
  write.pImageInfo = image;
  vkUpdateDescriptorSets(device.device(), 1, &write, 0, nullptr);
}

VkDescriptorSet AllocateSet(BenchDevice& device, VkDescriptorSetLayout layout,
                            std::span<const VkDescriptorPoolSize> sizes) {
  const VkDevice d = device.device();
  VkDescriptorPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
  pool_info.maxSets = 1;
  pool_info.poolSizeCount = uint32_t(sizes.size());
  pool_info.pPoolSizes = sizes.data();
  VkDescriptorPool pool = VK_NULL_HANDLE;
  Check(vkCreateDescriptorPool(d, &pool_info, nullptr, &pool), "vkCreateDescriptorPool");
  device.Defer([pool](VkDevice dev) { vkDestroyDescriptorPool(dev, pool, nullptr); });
  VkDescriptorSetAllocateInfo alloc_info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
  alloc_info.descriptorPool = pool;
  alloc_info.descriptorSetCount = 1;
  alloc_info.pSetLayouts = &layout;
  VkDescriptorSet set = VK_NULL_HANDLE;
  Check(vkAllocateDescriptorSets(d, &alloc_info, &set), "vkAllocateDescriptorSets");
  return set;
}

}  // namespace duet_bench
