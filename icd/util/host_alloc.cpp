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

void NotifyInternalAllocation(const VkAllocationCallbacks* allocator, size_t size, VkInternalAllocationType type,
                              VkSystemAllocationScope scope) {
  if (allocator != nullptr && allocator->pfnInternalAllocation != nullptr && size != 0)
    allocator->pfnInternalAllocation(allocator->pUserData, size, type, scope);
}

void NotifyInternalFree(const VkAllocationCallbacks* allocator, size_t size, VkInternalAllocationType type,
                        VkSystemAllocationScope scope) {
  if (allocator != nullptr && allocator->pfnInternalFree != nullptr && size != 0)
    allocator->pfnInternalFree(allocator->pUserData, size, type, scope);
}

void* HostMemoryResource::do_allocate(size_t bytes, size_t alignment) {
  // Zero-byte requests get a byte: callbacks need not handle size 0.
  void* memory = HostAllocate(Callbacks(), bytes != 0 ? bytes : 1, alignment, scope_);
  if (memory == nullptr) throw std::bad_alloc();
  return memory;
}

void HostMemoryResource::do_deallocate(void* memory, size_t, size_t) { HostFree(Callbacks(), memory); }

}  // namespace duet
