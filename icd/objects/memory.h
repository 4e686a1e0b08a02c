#pragma once

#include <vulkan/vulkan_core.h>

#include <atomic>
#include <cstddef>
#include <cstdint>

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
  size_t mapped_length = 0;  // the length of the host mapping backing `data` (0: imported host memory)
  // External memory: the memfd behind an exportable or imported allocation
  // (VK_KHR_external_memory_fd, opaque fds), closed with it; -1 otherwise.
  int fd = -1;
  bool mapped = false;
  // Whether the application ever mapped it, and how many buffers and images
  // were ever bound to it: what the driver knows an image holds
  // (Image::known_clear) is only kept for memory the host never saw and
  // no other resource shares.
  std::atomic<bool> ever_mapped{false};
  std::atomic<uint32_t> bound_resources{0};
};

// Buffer device addresses are host addresses. Shaders check each access
// made through one (a PhysicalStorageBuffer pointer) against the live memory
// allocations of every device, so a wrong address reads 0 and drops writes
// instead of touching whatever the process has there. One lookup serves one
// instruction: it remembers the allocation it last found.
class DeviceMemoryLookup {
 public:
  // The host address of `size` bytes at `address` when they lie within one
  // live allocation, else nullptr.
  std::byte* Host(uint64_t address, uint64_t size) {
    if (address >= begin_ && address + size <= end_ && address + size >= address)
      return reinterpret_cast<std::byte*>(static_cast<uintptr_t>(address));
    return Find(address, size);
  }

 private:
  std::byte* Find(uint64_t address, uint64_t size);
  uint64_t begin_ = 0, end_ = 0;
};

// What memory of external handle type `type` can do with buffers and
// images: opaque fds are exported and imported, host allocations imported
// (VK_EXT_external_memory_host); other types nothing (all zero).
VkExternalMemoryProperties ExternalMemoryPropertiesOf(VkExternalMemoryHandleTypeFlagBits type);

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
