#pragma once

#include <vulkan/vulkan_core.h>

#include <cstddef>

#include "util/object.h"
#include "util/vk_util.h"

namespace duet {

struct Device;

// Device memory is host memory: "device addresses" are host pointers.
struct DeviceMemory : NonDispatchableObject {
  DUET_OBJECT_TYPE(VkDeviceMemory, VK_OBJECT_TYPE_DEVICE_MEMORY);

  DeviceMemory() : NonDispatchableObject(kObjectType) {}

  VkDeviceSize size = 0;
  uint32_t type_index = 0;
  std::byte* data = nullptr;
  size_t mapped_length = 0;  // the length of the host mapping backing `data`
  bool mapped = false;
};

// The *2 memory requirements of a buffer or image: memory is host memory,
// so no resource needs or prefers a dedicated allocation.
inline void FillMemoryRequirements2(const VkMemoryRequirements& requirements, VkMemoryRequirements2* out) {
  out->memoryRequirements = requirements;
  if (auto* dedicated =
          FindInChain<VkMemoryDedicatedRequirements>(out->pNext, VK_STRUCTURE_TYPE_MEMORY_DEDICATED_REQUIREMENTS)) {
    dedicated->prefersDedicatedAllocation = VK_FALSE;
    dedicated->requiresDedicatedAllocation = VK_FALSE;
  }
}

}  // namespace duet
