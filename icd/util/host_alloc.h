// Host allocations for driver objects, through the application's
// VkAllocationCallbacks when it gives them (object's own, else its parent's),
// else the C++ heap.
#pragma once

#include <vulkan/vulkan_core.h>

#include <cstddef>
#include <new>
#include <utility>

namespace duet {

void* HostAllocate(const VkAllocationCallbacks* allocator, size_t size, size_t alignment,
                   VkSystemAllocationScope scope);
void HostFree(const VkAllocationCallbacks* allocator, void* memory);

// The callbacks that apply to a child object: its own, else its parent's.
inline const VkAllocationCallbacks* ChooseAllocator(const VkAllocationCallbacks* own,
                                                    const VkAllocationCallbacks* parent) {
  return own != nullptr ? own : parent;
}

// nullptr when the allocation or the constructor fails.
template <typename T, typename... Args>
T* HostNew(const VkAllocationCallbacks* allocator, VkSystemAllocationScope scope, Args&&... args) {
  void* memory = HostAllocate(allocator, sizeof(T), alignof(T), scope);
  if (memory == nullptr) return nullptr;
  try {
    return new (memory) T(std::forward<Args>(args)...);
  } catch (const std::bad_alloc&) {
    HostFree(allocator, memory);
    return nullptr;
  }
}

template <typename T>
void HostDelete(const VkAllocationCallbacks* allocator, T* object) {
  if (object == nullptr) return;
  object->~T();
  HostFree(allocator, object);
}

}  // namespace duet
