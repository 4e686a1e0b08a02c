// Fences, semaphores (binary and timeline) and events. Their state is
// guarded by Device::sync_mutex and changes are announced on
// Device::sync_cv.
#pragma once

#include <vulkan/vulkan_core.h>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <utility>

#include "objects/sync_payload.h"
#include "util/object.h"

namespace duet {

struct Device;

// A payload imported with VK_*_IMPORT_TEMPORARY_BIT stands in for the
// object's own until a semaphore's next wait or a fence's reset.
struct ImportablePayload {
  SyncPayload own, temporary;
  bool temporary_active = false;

  SyncPayload& Current() { return temporary_active ? temporary : own; }
  const SyncPayload& Current() const { return temporary_active ? temporary : own; }
  void EndTemporary() {
    if (!temporary_active) return;
    temporary.Release();
    temporary_active = false;
  }
};

struct Fence : NonDispatchableObject {
  DUET_OBJECT_TYPE(VkFence, VK_OBJECT_TYPE_FENCE);

  Fence() : NonDispatchableObject(kObjectType) {}

  bool Signaled() const { return payload.Current().Load() != 0; }
  void SetSignaled(bool signaled) { payload.Current().Store(signaled ? 1 : 0); }

  ImportablePayload payload;  // 1 while signaled
};

struct Semaphore : NonDispatchableObject {
  DUET_OBJECT_TYPE(VkSemaphore, VK_OBJECT_TYPE_SEMAPHORE);

  Semaphore() : NonDispatchableObject(kObjectType) {}

  uint64_t Value() const { return payload.Current().Load(); }
  void SetValue(uint64_t value) { payload.Current().Store(value); }

  VkSemaphoreType type = VK_SEMAPHORE_TYPE_BINARY;
  // Timeline: the counter. Binary: 1 while signaled, 0 after a wait consumed it.
  ImportablePayload payload;
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
