// Pipeline layouts: copies of the set layouts' bindings (set layouts may be
// destroyed while the pipeline layout lives), where each set's dynamic
// offsets start in vkCmdBindDescriptorSets' array, and the push constant size.
#include <algorithm>
#include <new>

#include "dispatch/entrypoints.h"
#include "objects/descriptor_set.h"
#include "objects/device.h"
#include "util/host_alloc.h"

namespace duet {
namespace {

// May throw std::bad_alloc.
void BuildPipelineLayout(const VkPipelineLayoutCreateInfo& info, PipelineLayout* layout) {
  layout->set_bindings.resize(info.setLayoutCount);
  layout->set_dynamic_offset_start.resize(info.setLayoutCount);
  uint32_t dynamic = 0;
  for (uint32_t i = 0; i < info.setLayoutCount; ++i) {
    layout->set_dynamic_offset_start[i] = dynamic;
    // VK_NULL_HANDLE (valid only with graphics pipeline libraries): a set with no bindings.
    const DescriptorSetLayout* set_layout = FromHandle<DescriptorSetLayout>(info.pSetLayouts[i]);
    if (set_layout == nullptr) continue;
    layout->set_bindings[i] = set_layout->bindings;
    dynamic += set_layout->dynamic_buffer_count;
  }
  layout->dynamic_offset_count = dynamic;
  layout->push_constant_ranges.assign(info.pPushConstantRanges, info.pPushConstantRanges + info.pushConstantRangeCount);
  for (const VkPushConstantRange& range : layout->push_constant_ranges)
    layout->push_constant_size = std::max(layout->push_constant_size, range.offset + range.size);
}

}  // namespace
}  // namespace duet

namespace duet::api {

VKAPI_ATTR VkResult VKAPI_CALL CreatePipelineLayout(VkDevice _device, const VkPipelineLayoutCreateInfo* pCreateInfo,
                                                    const VkAllocationCallbacks* pAllocator,
                                                    VkPipelineLayout* pPipelineLayout) {
  Device* device = FromHandle<Device>(_device);
  const VkAllocationCallbacks* allocator = ChooseAllocator(pAllocator, device->Allocator());
  PipelineLayout* layout = HostNew<PipelineLayout>(allocator, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT, allocator);
  if (layout == nullptr) return VK_ERROR_OUT_OF_HOST_MEMORY;
  try {
    BuildPipelineLayout(*pCreateInfo, layout);
  } catch (const std::bad_alloc&) {
    HostDelete(allocator, layout);
    return VK_ERROR_OUT_OF_HOST_MEMORY;
  }
  *pPipelineLayout = ToHandle(layout);
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL DestroyPipelineLayout(VkDevice _device, VkPipelineLayout pipelineLayout,
                                                 const VkAllocationCallbacks* pAllocator) {
  Device* device = FromHandle<Device>(_device);
  HostDelete(ChooseAllocator(pAllocator, device->Allocator()), FromHandle<PipelineLayout>(pipelineLayout));
}

}  // namespace duet::api
