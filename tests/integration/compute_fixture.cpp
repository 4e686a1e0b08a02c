#include "compute_fixture.h"

namespace duet_test {

ComputeFixture::Kernel ComputeFixture::MakeKernelWithBindings(std::span<const uint32_t> code,
                                                              const std::vector<BufferBinding>& buffers,
                                                              uint32_t push_bytes,
                                                              const VkSpecializationInfo* specialization) {
  Kernel k;
  std::vector<VkDescriptorSetLayoutBinding> bindings;
  for (uint32_t i = 0; i < buffers.size(); ++i)
    bindings.push_back(
        {i, buffers[i].type, 1 + uint32_t(buffers[i].more_elements.size()), VK_SHADER_STAGE_COMPUTE_BIT, nullptr});
  VkDescriptorSetLayoutCreateInfo lci{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
  lci.bindingCount = uint32_t(bindings.size());
  lci.pBindings = bindings.data();
  VkDescriptorSetLayout set_layout = VK_NULL_HANDLE;
  EXPECT_EQ(vkCreateDescriptorSetLayout(device_, &lci, nullptr, &set_layout), VK_SUCCESS);
  Defer([this, set_layout] { vkDestroyDescriptorSetLayout(device_, set_layout, nullptr); });

  k = MakePipeline(code, {set_layout}, push_bytes, specialization);

  std::vector<VkDescriptorPoolSize> sizes;
  for (const BufferBinding& b : buffers) sizes.push_back({b.type, 1 + uint32_t(b.more_elements.size())});
  k.set = AllocateSet(set_layout, sizes);
  std::vector<std::vector<VkDescriptorBufferInfo>> infos;
  std::vector<VkDescriptorImageInfo> image_infos;
  for (const BufferBinding& b : buffers) {
    infos.push_back({{b.buffer, b.offset, b.range}});
    for (VkBuffer element : b.more_elements) infos.back().push_back({element, 0, VK_WHOLE_SIZE});
    image_infos.push_back({b.sampler, b.view, VK_IMAGE_LAYOUT_GENERAL});
  }
  std::vector<VkWriteDescriptorSet> writes;
  for (uint32_t i = 0; i < buffers.size(); ++i) {
    VkWriteDescriptorSet w{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
    w.dstSet = k.set;
    w.dstBinding = i;
    w.descriptorCount = 1;
    w.descriptorType = buffers[i].type;
    const bool image = w.descriptorType == VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER ||
                       w.descriptorType == VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE ||
                       w.descriptorType == VK_DESCRIPTOR_TYPE_STORAGE_IMAGE;
    const bool texel_buffer = w.descriptorType == VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER ||
                              w.descriptorType == VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER;
    if (image) {
      w.pImageInfo = &image_infos[i];
    } else if (texel_buffer) {
      w.pTexelBufferView = &buffers[i].texel_view;
    } else {
      w.pBufferInfo = infos[i].data();
      w.descriptorCount = uint32_t(infos[i].size());
    }
    writes.push_back(w);
  }
  vkUpdateDescriptorSets(device_, uint32_t(writes.size()), writes.data(), 0, nullptr);
  return k;
}

VkDescriptorSet ComputeFixture::AllocateSet(VkDescriptorSetLayout layout,
                                            const std::vector<VkDescriptorPoolSize>& sizes) {
  VkDescriptorPoolCreateInfo dpci{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
  dpci.maxSets = 1;
  dpci.poolSizeCount = uint32_t(sizes.size());
  dpci.pPoolSizes = sizes.data();
  VkDescriptorPool pool = VK_NULL_HANDLE;
  EXPECT_EQ(vkCreateDescriptorPool(device_, &dpci, nullptr, &pool), VK_SUCCESS);
  Defer([this, pool] { vkDestroyDescriptorPool(device_, pool, nullptr); });
  VkDescriptorSetAllocateInfo dsai{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
  dsai.descriptorPool = pool;
  dsai.descriptorSetCount = 1;
  dsai.pSetLayouts = &layout;
  VkDescriptorSet set = VK_NULL_HANDLE;
  EXPECT_EQ(vkAllocateDescriptorSets(device_, &dsai, &set), VK_SUCCESS);
  return set;
}

ComputeFixture::Kernel ComputeFixture::MakePipeline(std::span<const uint32_t> code,
                                                    const std::vector<VkDescriptorSetLayout>& set_layouts,
                                                    uint32_t push_bytes, const VkSpecializationInfo* specialization) {
  Kernel k;
  VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, push_bytes};
  VkPipelineLayoutCreateInfo plci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  plci.setLayoutCount = uint32_t(set_layouts.size());
  plci.pSetLayouts = set_layouts.data();
  plci.pushConstantRangeCount = push_bytes ? 1 : 0;
  plci.pPushConstantRanges = &range;
  EXPECT_EQ(vkCreatePipelineLayout(device_, &plci, nullptr, &k.layout), VK_SUCCESS);
  Defer([this, layout = k.layout] { vkDestroyPipelineLayout(device_, layout, nullptr); });

  VkShaderModuleCreateInfo mci{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
  mci.codeSize = code.size_bytes();
  mci.pCode = code.data();
  VkShaderModule module = VK_NULL_HANDLE;
  EXPECT_EQ(vkCreateShaderModule(device_, &mci, nullptr, &module), VK_SUCCESS);
  VkComputePipelineCreateInfo cci{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO, pipeline_next_};
  cci.flags = VK_PIPELINE_CREATE_DISPATCH_BASE_BIT;  // tests may vkCmdDispatchBase with any kernel
  cci.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, stage_next_, stage_flags_,
               VK_SHADER_STAGE_COMPUTE_BIT, module, "main", specialization};
  cci.layout = k.layout;
  EXPECT_EQ(vkCreateComputePipelines(device_, VK_NULL_HANDLE, 1, &cci, nullptr, &k.pipeline), VK_SUCCESS);
  vkDestroyShaderModule(device_, module, nullptr);
  Defer([this, p = k.pipeline] { vkDestroyPipeline(device_, p, nullptr); });
  return k;
}

VkImageView ComputeFixture::MakeImageView(VkImage image, VkFormat format, bool destroy_at_teardown) {
  VkImageViewCreateInfo vci{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
  vci.image = image;
  vci.viewType = VK_IMAGE_VIEW_TYPE_2D;
  vci.format = format;
  vci.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
  VkImageView view = VK_NULL_HANDLE;
  EXPECT_EQ(vkCreateImageView(device_, &vci, nullptr, &view), VK_SUCCESS);
  if (destroy_at_teardown) Defer([this, view] { vkDestroyImageView(device_, view, nullptr); });
  return view;
}

ComputeFixture::Kernel ComputeFixture::MakeKernel(std::span<const uint32_t> code, const std::vector<VkBuffer>& buffers,
                                                  uint32_t push_bytes) {
  std::vector<BufferBinding> bindings;
  for (VkBuffer b : buffers) bindings.push_back({b});
  return MakeKernelWithBindings(code, bindings, push_bytes);
}

VkResult ComputeFixture::TryCreatePipeline(std::span<const uint32_t> code,
                                           const VkSpecializationInfo* specialization) {
  VkPipelineLayoutCreateInfo plci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  VkPipelineLayout layout = VK_NULL_HANDLE;
  EXPECT_EQ(vkCreatePipelineLayout(device_, &plci, nullptr, &layout), VK_SUCCESS);
  Defer([this, layout] { vkDestroyPipelineLayout(device_, layout, nullptr); });
  VkShaderModuleCreateInfo mci{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
  mci.codeSize = code.size_bytes();
  mci.pCode = code.data();
  VkShaderModule module = VK_NULL_HANDLE;
  const VkResult module_result = vkCreateShaderModule(device_, &mci, nullptr, &module);
  if (module_result != VK_SUCCESS) return module_result;
  VkComputePipelineCreateInfo cci{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
  cci.flags = VK_PIPELINE_CREATE_DISPATCH_BASE_BIT;  // tests may vkCmdDispatchBase with any kernel
  cci.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_COMPUTE_BIT, module,
               "main", specialization};
  cci.layout = layout;
  VkPipeline pipeline = VK_NULL_HANDLE;
  const VkResult result = vkCreateComputePipelines(device_, VK_NULL_HANDLE, 1, &cci, nullptr, &pipeline);
  vkDestroyShaderModule(device_, module, nullptr);
  if (pipeline != VK_NULL_HANDLE) vkDestroyPipeline(device_, pipeline, nullptr);
  return result;
}

void ComputeFixture::Run(const Kernel& k, uint32_t x, uint32_t y, uint32_t z, const void* push, uint32_t push_bytes) {
  VkCommandBuffer cb = BeginCommands();
  vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, k.pipeline);
  vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, k.layout, 0, 1, &k.set, 0, nullptr);
  if (push_bytes) vkCmdPushConstants(cb, k.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, push_bytes, push);
  vkCmdDispatch(cb, x, y, z);
  EndSubmitWait(cb);
}

QueueTest::HostBuffer ComputeFixture::StorageBuffer(VkDeviceSize size) {
  return MakeHostBuffer(size, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT |
                                  VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT);
}

}  // namespace duet_test
