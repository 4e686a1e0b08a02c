#include "compute_kernel.h"

#include <vector>

#include "vk_bench_device.h"

namespace duet_bench {

ComputeKernel::ComputeKernel(BenchDevice& device, std::span<const uint32_t> spirv,
                             std::span<const VkBuffer> storage_buffers, uint32_t push_constant_bytes)
    : push_constant_bytes_(push_constant_bytes) {
  if ((device.queue_flags() & VK_QUEUE_COMPUTE_BIT) == 0) throw BenchFailure("the queue cannot run compute work");
  const VkDevice d = device.device();
  const uint32_t count = uint32_t(storage_buffers.size());

  std::vector<VkDescriptorSetLayoutBinding> bindings(count);
  for (uint32_t i = 0; i < count; ++i)
    bindings[i] = {i, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr};
  VkDescriptorSetLayoutCreateInfo set_layout_info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
  set_layout_info.bindingCount = count;
  set_layout_info.pBindings = bindings.data();
  VkDescriptorSetLayout set_layout = VK_NULL_HANDLE;
  Check(vkCreateDescriptorSetLayout(d, &set_layout_info, nullptr, &set_layout), "vkCreateDescriptorSetLayout");
  device.Defer([set_layout](VkDevice dev) { vkDestroyDescriptorSetLayout(dev, set_layout, nullptr); });

  const VkPushConstantRange push_range{VK_SHADER_STAGE_COMPUTE_BIT, 0, push_constant_bytes};
  VkPipelineLayoutCreateInfo layout_info{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  layout_info.setLayoutCount = 1;
  layout_info.pSetLayouts = &set_layout;
  layout_info.pushConstantRangeCount = push_constant_bytes != 0 ? 1 : 0;
  layout_info.pPushConstantRanges = &push_range;
  Check(vkCreatePipelineLayout(d, &layout_info, nullptr, &layout_), "vkCreatePipelineLayout");
  const VkPipelineLayout layout = layout_;
  device.Defer([layout](VkDevice dev) { vkDestroyPipelineLayout(dev, layout, nullptr); });

  VkComputePipelineCreateInfo pipeline_info{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
  pipeline_info.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO};
  pipeline_info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  pipeline_info.stage.module = device.CreateShaderModule(spirv);
  pipeline_info.stage.pName = "main";
  pipeline_info.layout = layout_;
  Check(vkCreateComputePipelines(d, VK_NULL_HANDLE, 1, &pipeline_info, nullptr, &pipeline_),
        "vkCreateComputePipelines");
  const VkPipeline pipeline = pipeline_;
  device.Defer([pipeline](VkDevice dev) { vkDestroyPipeline(dev, pipeline, nullptr); });

  const VkDescriptorPoolSize pool_size{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, count};
  VkDescriptorPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
  pool_info.maxSets = 1;
  pool_info.poolSizeCount = 1;
  pool_info.pPoolSizes = &pool_size;
  VkDescriptorPool pool = VK_NULL_HANDLE;
  Check(vkCreateDescriptorPool(d, &pool_info, nullptr, &pool), "vkCreateDescriptorPool");
  device.Defer([pool](VkDevice dev) { vkDestroyDescriptorPool(dev, pool, nullptr); });

  VkDescriptorSetAllocateInfo alloc_info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
  alloc_info.descriptorPool = pool;
  alloc_info.descriptorSetCount = 1;
  alloc_info.pSetLayouts = &set_layout;
  Check(vkAllocateDescriptorSets(d, &alloc_info, &set_), "vkAllocateDescriptorSets");

  std::vector<VkDescriptorBufferInfo> buffer_infos(count);
  std::vector<VkWriteDescriptorSet> writes(count);
  for (uint32_t i = 0; i < count; ++i) {
    buffer_infos[i] = {storage_buffers[i], 0, VK_WHOLE_SIZE};
    writes[i] = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
    writes[i].dstSet = set_;
    writes[i].dstBinding = i;
    writes[i].descriptorCount = 1;
    writes[i].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    writes[i].pBufferInfo = &buffer_infos[i];
  }
  vkUpdateDescriptorSets(d, count, writes.data(), 0, nullptr);
}

void ComputeKernel::RecordDispatch(VkCommandBuffer cb, const void* push, uint32_t groups_x, uint32_t groups_y,
                                   uint32_t groups_z) const {
  vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline_);
  vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, layout_, 0, 1, &set_, 0, nullptr);
  if (push_constant_bytes_ != 0)
    vkCmdPushConstants(cb, layout_, VK_SHADER_STAGE_COMPUTE_BIT, 0, push_constant_bytes_, push);
  vkCmdDispatch(cb, groups_x, groups_y, groups_z);
}

void RecordComputeBarrier(VkCommandBuffer cb) {
  VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
  barrier.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
  barrier.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
  vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &barrier,
                       0, nullptr, 0, nullptr);
}

}  // namespace duet_bench
