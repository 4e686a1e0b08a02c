// Host allocations for driver objects, through the application's
// VkAllocationCallbacks when it gives them (object's own, else its parent's),
// else the C++ heap.
#pragma once

#include <vulkan/vulkan_core.h>

#include <cstddef>
#include <memory_resource>
#include <new>
#include <utility>

namespace duet {

void* HostAllocate(const VkAllocationCallbacks* allocator, size_t size, size_t alignment,
                   VkSystemAllocationScope scope);
void HostFree(const VkAllocationCallbacks* allocator, void* memory);

// pfnInternalAllocation / pfnInternalFree, when the application gave them:
// memory the driver holds for an object outside the callbacks.
void NotifyInternalAllocation(const VkAllocationCallbacks* allocator, size_t size, VkInternalAllocationType type,
                              VkSystemAllocationScope scope);
void NotifyInternalFree(const VkAllocationCallbacks* allocator, size_t size, VkInternalAllocationType type,
                        VkSystemAllocationScope scope);

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

// The host memory of an object's own arrays (bindings, attachments, the
// sets of a pool...): the callbacks the object was created with, copied
// because the application's struct need not outlive the create call, else
// the C++ heap. Containers take it as std::pmr containers; a failed
// allocation throws std::bad_alloc, which the entry point's guard turns into
// VK_ERROR_OUT_OF_HOST_MEMORY (dispatch/host_memory_guard.h).
class HostMemoryResource final : public std::pmr::memory_resource {
 public:
  HostMemoryResource(const VkAllocationCallbacks* callbacks, VkSystemAllocationScope scope)
      : callbacks_(callbacks != nullptr ? *callbacks : VkAllocationCallbacks{}),
        has_callbacks_(callbacks != nullptr),
        scope_(scope) {}
  HostMemoryResource(const HostMemoryResource&) = delete;
  HostMemoryResource& operator=(const HostMemoryResource&) = delete;

  // The callbacks, for objects made on the owner's behalf (a pool's sets).
  const VkAllocationCallbacks* Callbacks() const { return has_callbacks_ ? &callbacks_ : nullptr; }

 private:
  void* do_allocate(size_t bytes, size_t alignment) override;
  void do_deallocate(void* memory, size_t bytes, size_t alignment) override;
  bool do_is_equal(const std::pmr::memory_resource& other) const noexcept override { return this == &other; }

  VkAllocationCallbacks callbacks_;
  bool has_callbacks_;
  VkSystemAllocationScope scope_;
};

template <typename T>
void HostDelete(const VkAllocationCallbacks* allocator, T* object) {
  if (object == nullptr) return;
  object->~T();
  HostFree(allocator, object);
}

}  // namespace duet
