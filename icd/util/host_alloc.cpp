#include "util/host_alloc.h"

#include <cstdlib>

namespace duet {

void* HostAllocate(const VkAllocationCallbacks* allocator, size_t size, size_t alignment,
                   VkSystemAllocationScope scope) {
  if (allocator != nullptr) return allocator->pfnAllocation(allocator->pUserData, size, alignment, scope);
  if (alignment < alignof(std::max_align_t)) alignment = alignof(std::max_align_t);
  return std::aligned_alloc(alignment, (size + alignment - 1) / alignment * alignment);
}

void HostFree(const VkAllocationCallbacks* allocator, void* memory) {
  if (memory == nullptr) return;
  if (allocator != nullptr) {
    allocator->pfnFree(allocator->pUserData, memory);
    return;
  }
  std::free(memory);
}

}  // namespace duet
