// Fences, semaphores (binary and timeline) and events. Their state is
// guarded by Device::sync_mutex and changes are announced on
// Device::sync_cv.
#pragma once

#include <vulkan/vulkan_core.h>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <utility>

#include "util/object.h"

namespace duet {

struct Device;

struct Fence : NonDispatchableObject {
  DUET_OBJECT_TYPE(VkFence, VK_OBJECT_TYPE_FENCE);

  Fence() : NonDispatchableObject(kObjectType) {}

  bool signaled = false;
};

struct Semaphore : NonDispatchableObject {
  DUET_OBJECT_TYPE(VkSemaphore, VK_OBJECT_TYPE_SEMAPHORE);

  Semaphore() : NonDispatchableObject(kObjectType) {}

  VkSemaphoreType type = VK_SEMAPHORE_TYPE_BINARY;
  // Timeline: the counter. Binary: 1 while signaled, 0 after a wait consumed it.
  uint64_t value = 0;
};

struct Event : NonDispatchableObject {
  DUET_OBJECT_TYPE(VkEvent, VK_OBJECT_TYPE_EVENT);

  Event() : NonDispatchableObject(kObjectType) {}

  bool signaled = false;
};

// The deadline of a Vulkan timeout in nanoseconds (UINT64_MAX: never).
std::chrono::steady_clock::time_point DeadlineAfter(uint64_t timeout_ns);

// Queue-side operations, each taking Device::sync_mutex itself.
void SignalFence(Device* device, Fence* fence);
void SignalSemaphore(Device* device, Semaphore* semaphore, uint64_t value);
// Signals several semaphores (and a fence, if not null) as one operation:
// a waiter woken by any of them sees all of them signaled.
void SignalAll(Device* device, const std::pair<Semaphore*, uint64_t>* semaphores, size_t count, Fence* fence);
void SetEvent(Device* device, Event* event, bool signaled);
// Blocks until the semaphore reaches `value` (binary: is signaled, which the
// wait consumes) or the device is lost; false when lost.
bool WaitSemaphore(Device* device, Semaphore* semaphore, uint64_t value);
// Blocks until every event is set or the device is lost.
bool WaitEvents(Device* device, Event* const* events, uint32_t count);

}  // namespace duet
