// Descriptor set layouts: bindings sorted by number, each given its place in
// a set (first Descriptor record, inline byte offset, dynamic offset index),
// and the support query that says whether such a layout fits the limits.
#include <algorithm>
#include <new>
#include <span>

#include "dispatch/entrypoints.h"
#include "objects/descriptor_set.h"
#include "objects/device_limits.h"
#include "objects/device.h"
#include "objects/device_capabilities.h"
#include "objects/sampler.h"
#include "util/host_alloc.h"
#include "util/log.h"
#include "util/vk_util.h"

namespace duet {
namespace {

// Inline uniform blocks start 16-byte aligned in a set's bytes, so a shader
// may read a vec4 at offset 0 with an aligned load.
constexpr uint32_t kInlineBlockAlignment = 16;

const DescriptorSetLayoutBinding* FindBinding(std::span<const DescriptorSetLayoutBinding> bindings, uint32_t binding) {
  auto it = std::lower_bound(bindings.begin(), bindings.end(), binding,
                             [](const DescriptorSetLayoutBinding& b, uint32_t n) { return b.binding < n; });
  return it != bindings.end() && it->binding == binding ? &*it : nullptr;
}

bool HasImmutableSamplers(const VkDescriptorSetLayoutBinding& b) {
  return (b.descriptorType == VK_DESCRIPTOR_TYPE_SAMPLER ||
          b.descriptorType == VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER) &&
         b.pImmutableSamplers != nullptr && b.descriptorCount > 0;
}

bool IsDynamicBuffer(VkDescriptorType type) {
  return type == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC || type == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC;
}

// Fills `layout` from the create info; VK_ERROR_OUT_OF_HOST_MEMORY when the
// layout's totals do not fit 32 bits (no set of it could ever be allocated).
// May throw std::bad_alloc.
VkResult BuildLayout(const VkDescriptorSetLayoutCreateInfo& info, DescriptorSetLayout* layout) {
  const auto* binding_flags = FindInChain<VkDescriptorSetLayoutBindingFlagsCreateInfo>(
      info.pNext, VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_BINDING_FLAGS_CREATE_INFO);
  // bindingCount is either 0 (no flags) or the layout's binding count.
  const bool has_flags = binding_flags != nullptr && binding_flags->bindingCount == info.bindingCount &&
                         binding_flags->pBindingFlags != nullptr;

  layout->flags = info.flags;
  layout->bindings.reserve(info.bindingCount);
  for (uint32_t i = 0; i < info.bindingCount; ++i) {
    const VkDescriptorSetLayoutBinding& in = info.pBindings[i];
    DescriptorSetLayoutBinding b{};
    b.binding = in.binding;
    b.type = in.descriptorType;
    b.count = in.descriptorCount;
    b.stages = in.stageFlags;
    b.flags = has_flags ? binding_flags->pBindingFlags[i] : 0;
    if (HasImmutableSamplers(in)) {
      b.immutable_samplers.resize(in.descriptorCount);
      for (uint32_t j = 0; j < in.descriptorCount; ++j)
        b.immutable_samplers[j] = FromHandle<Sampler>(in.pImmutableSamplers[j]);
    }
    layout->bindings.push_back(std::move(b));
  }
  std::sort(layout->bindings.begin(), layout->bindings.end(),
            [](const DescriptorSetLayoutBinding& a, const DescriptorSetLayoutBinding& b) {
              return a.binding < b.binding;
            });

  uint64_t records = 0, inline_bytes = 0, dynamic = 0;
  for (DescriptorSetLayoutBinding& b : layout->bindings) {
    b.first_descriptor = static_cast<uint32_t>(records);
    b.dynamic_index = static_cast<uint32_t>(dynamic);
    b.inline_offset = 0;
    if (b.IsInlineBlock()) {
      inline_bytes = (inline_bytes + kInlineBlockAlignment - 1) / kInlineBlockAlignment * kInlineBlockAlignment;
      b.inline_offset = static_cast<uint32_t>(inline_bytes);
      inline_bytes += b.count;
      ++layout->inline_block_count;
    }
    if (IsDynamicBuffer(b.type)) dynamic += b.count;
    records += b.RecordCount();
    if (records > UINT32_MAX || inline_bytes > UINT32_MAX) return VK_ERROR_OUT_OF_HOST_MEMORY;
  }
  layout->descriptor_count = static_cast<uint32_t>(records);
  layout->inline_data_size = static_cast<uint32_t>(inline_bytes);
  layout->dynamic_buffer_count = static_cast<uint32_t>(dynamic);
  return VK_SUCCESS;
}

// Whether sets of `layout` fit the device's per-set limits. Per-type limits
// (maxDescriptorSet*) bound pipeline layouts, not set layouts, so they are
// not checked here. `max_variable_count` gets the largest count the
// variable-count binding could have with the other bindings as they are
// (whether or not the requested one fits, as the spec asks), or 0 when
// there is no such binding.
bool FitsLimits(const DescriptorSetLayout& layout, uint32_t* max_variable_count) {
  const DeviceProperties& props = SupportedProperties();
  const uint64_t max_records = props.vulkan11.maxPerSetDescriptors;
  const uint64_t max_inline_size = props.vulkan13.maxInlineUniformBlockSize;
  const uint64_t max_inline_total = props.vulkan13.maxInlineUniformTotalSize;

  bool fits = true;
  uint64_t inline_total = 0;
  for (const DescriptorSetLayoutBinding& b : layout.bindings) {
    if (DescriptorTypeSlot(b.type) == kNoDescriptorTypeSlot) fits = false;
    if (b.IsInlineBlock()) {
      if (b.count % 4 != 0 || b.count > max_inline_size) fits = false;
      inline_total += b.count;
    }
  }
  if (layout.descriptor_count > max_records || inline_total > max_inline_total ||
      layout.inline_block_count > props.vulkan13.maxDescriptorSetInlineUniformBlocks)
    fits = false;

  *max_variable_count = 0;
  if (const DescriptorSetLayoutBinding* variable = layout.VariableBinding()) {
    if (variable->IsInlineBlock()) {
      const uint64_t others = inline_total - variable->count;
      const uint64_t room = others < max_inline_total ? max_inline_total - others : 0;
      *max_variable_count = static_cast<uint32_t>(std::min(max_inline_size, room) / 4 * 4);
    } else {
      const uint64_t others = layout.descriptor_count - variable->count;
      *max_variable_count = static_cast<uint32_t>(others < max_records ? max_records - others : 0);
    }
  }
  return fits;
}

}  // namespace

const DescriptorSetLayoutBinding* DescriptorSetLayout::Find(uint32_t binding) const {
  return FindBinding(bindings, binding);
}

const DescriptorSetLayoutBinding* DescriptorSetLayout::VariableBinding() const {
  if (bindings.empty()) return nullptr;
  const DescriptorSetLayoutBinding& last = bindings.back();
  return (last.flags & VK_DESCRIPTOR_BINDING_VARIABLE_DESCRIPTOR_COUNT_BIT) != 0 ? &last : nullptr;
}

const DescriptorSetLayoutBinding* DescriptorSet::Find(uint32_t binding) const { return FindBinding(bindings, binding); }

}  // namespace duet

namespace duet::api {

VKAPI_ATTR VkResult VKAPI_CALL CreateDescriptorSetLayout(VkDevice _device,
                                                         const VkDescriptorSetLayoutCreateInfo* pCreateInfo,
                                                         const VkAllocationCallbacks* pAllocator,
                                                         VkDescriptorSetLayout* pSetLayout) {
  Device* device = FromHandle<Device>(_device);
  const VkAllocationCallbacks* allocator = ChooseAllocator(pAllocator, device->Allocator());
  DescriptorSetLayout* layout = HostNew<DescriptorSetLayout>(allocator, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT, allocator);
  if (layout == nullptr) return VK_ERROR_OUT_OF_HOST_MEMORY;
  VkResult result;
  try {
    result = BuildLayout(*pCreateInfo, layout);
  } catch (const std::bad_alloc&) {
    result = VK_ERROR_OUT_OF_HOST_MEMORY;
  }
  if (result != VK_SUCCESS) {
    HostDelete(allocator, layout);
    return result;
  }
  *pSetLayout = ToHandle(layout);
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL DestroyDescriptorSetLayout(VkDevice _device, VkDescriptorSetLayout descriptorSetLayout,
                                                      const VkAllocationCallbacks* pAllocator) {
  Device* device = FromHandle<Device>(_device);
  HostDelete(ChooseAllocator(pAllocator, device->Allocator()), FromHandle<DescriptorSetLayout>(descriptorSetLayout));
}

VKAPI_ATTR void VKAPI_CALL GetDescriptorSetLayoutSupport(VkDevice _device,
                                                         const VkDescriptorSetLayoutCreateInfo* pCreateInfo,
                                                         VkDescriptorSetLayoutSupport* pSupport) {
  auto* variable_support = FindInChain<VkDescriptorSetVariableDescriptorCountLayoutSupport>(
      pSupport->pNext, VK_STRUCTURE_TYPE_DESCRIPTOR_SET_VARIABLE_DESCRIPTOR_COUNT_LAYOUT_SUPPORT);
  uint32_t max_variable_count = 0;
  bool supported = false;
  try {
    DescriptorSetLayout layout(FromHandle<Device>(_device)->Allocator());
    supported = BuildLayout(*pCreateInfo, &layout) == VK_SUCCESS && FitsLimits(layout, &max_variable_count);
    // A push descriptor set holds at most maxPushDescriptors descriptors.
    if ((pCreateInfo->flags & VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR) != 0)
      supported = supported && layout.descriptor_count <= limits::kMaxPushDescriptors;
  } catch (const std::bad_alloc&) {
    supported = false;  // the query has no error code; a layout we cannot build is not supported
  }
  pSupport->supported = supported ? VK_TRUE : VK_FALSE;
  if (variable_support != nullptr) variable_support->maxVariableDescriptorCount = max_variable_count;
}

}  // namespace duet::api
