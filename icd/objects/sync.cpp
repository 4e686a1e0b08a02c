// Fences, semaphores and events: host-side commands and the queue-side
// signal/wait operations the queue workers use.
#include "objects/sync.h"

#include <mutex>

#include "dispatch/entrypoints.h"
#include "objects/device.h"
#include "util/host_alloc.h"
#include "util/vk_util.h"

namespace duet {

std::chrono::steady_clock::time_point DeadlineAfter(uint64_t timeout_ns) {
  const auto now = std::chrono::steady_clock::now();
  // Anything beyond ~100 years is "never"; it also keeps the addition in range.
  constexpr uint64_t kForever = uint64_t{100} * 365 * 24 * 3600 * 1000000000ull;
  if (timeout_ns >= kForever) return std::chrono::steady_clock::time_point::max();
  return now + std::chrono::nanoseconds(timeout_ns);
}

namespace {

// Waits on the device condition until `done()` holds, the deadline passes or
// the device is lost. Called with `lock` held on device->sync_mutex.
template <typename Done>
VkResult WaitUntil(Device* device, std::unique_lock<std::mutex>& lock, std::chrono::steady_clock::time_point deadline,
                   Done done) {
  // Lost first: work that was cut short may still signal its fence.
  for (;;) {
    if (device->lost) return VK_ERROR_DEVICE_LOST;
    if (done()) break;
    // A payload shared with another process changes unannounced: look again every millisecond.
    if (SharedPayloadsExist()) {
      const auto slice = std::chrono::steady_clock::now() + std::chrono::milliseconds(1);
      if (slice < deadline) {
        device->sync_cv.wait_until(lock, slice);
        continue;
      }
    }
    if (deadline == std::chrono::steady_clock::time_point::max()) {
      device->sync_cv.wait(lock);
    } else if (device->sync_cv.wait_until(lock, deadline) == std::cv_status::timeout) {
      if (device->lost) return VK_ERROR_DEVICE_LOST;
      return done() ? VK_SUCCESS : VK_TIMEOUT;
    }
  }
  return VK_SUCCESS;
}

}  // namespace

void SignalFence(Device* device, Fence* fence) {
  {
    std::lock_guard lock(device->sync_mutex);
    fence->SetSignaled(true);
  }
  device->sync_cv.notify_all();
}

void SignalSemaphore(Device* device, Semaphore* semaphore, uint64_t value) {
  {
    std::lock_guard lock(device->sync_mutex);
    semaphore->SetValue(semaphore->type == VK_SEMAPHORE_TYPE_TIMELINE ? value : 1);
  }
  device->sync_cv.notify_all();
}

void SignalAll(Device* device, const std::pair<Semaphore*, uint64_t>* semaphores, size_t count, Fence* fence) {
  {
    std::lock_guard lock(device->sync_mutex);
    for (size_t i = 0; i < count; ++i) {
      Semaphore* s = semaphores[i].first;
      s->SetValue(s->type == VK_SEMAPHORE_TYPE_TIMELINE ? semaphores[i].second : 1);
    }
    if (fence != nullptr) fence->SetSignaled(true);
  }
  device->sync_cv.notify_all();
}

void SetEvent(Device* device, Event* event, bool signaled) {
  {
    std::lock_guard lock(device->sync_mutex);
    event->signaled = signaled;
  }
  device->sync_cv.notify_all();
}

bool WaitSemaphore(Device* device, Semaphore* semaphore, uint64_t value) {
  std::unique_lock lock(device->sync_mutex);
  const bool binary = semaphore->type == VK_SEMAPHORE_TYPE_BINARY;
  const uint64_t target = binary ? 1 : value;
  if (WaitUntil(device, lock, std::chrono::steady_clock::time_point::max(),
                [&] { return semaphore->Value() >= target; }) != VK_SUCCESS)
    return false;
  if (binary) semaphore->SetValue(0);
  semaphore->payload.EndTemporary();  // a temporary import lasts until the next wait
  return true;
}

bool WaitEvents(Device* device, Event* const* events, uint32_t count) {
  std::unique_lock lock(device->sync_mutex);
  return WaitUntil(device, lock, std::chrono::steady_clock::time_point::max(), [&] {
           for (uint32_t i = 0; i < count; ++i)
             if (!events[i]->signaled) return false;
           return true;
         }) == VK_SUCCESS;
}

}  // namespace duet

namespace duet::api {

VKAPI_ATTR VkResult VKAPI_CALL CreateFence(VkDevice _device, const VkFenceCreateInfo* pCreateInfo,
                                           const VkAllocationCallbacks* pAllocator, VkFence* pFence) {
  Device* device = FromHandle<Device>(_device);
  Fence* fence = HostNew<Fence>(ChooseAllocator(pAllocator, device->Allocator()), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
  if (fence == nullptr) return VK_ERROR_OUT_OF_HOST_MEMORY;
  // Exportable as an opaque fd: the payload lives in a shared page from the start.
  const auto* exported = FindInChain<VkExportFenceCreateInfo>(pCreateInfo->pNext, VK_STRUCTURE_TYPE_EXPORT_FENCE_CREATE_INFO);
  if (exported != nullptr && exported->handleTypes != 0 && !fence->payload.own.Share()) {
    HostDelete(ChooseAllocator(pAllocator, device->Allocator()), fence);
    return VK_ERROR_OUT_OF_HOST_MEMORY;
  }
  fence->SetSignaled((pCreateInfo->flags & VK_FENCE_CREATE_SIGNALED_BIT) != 0);
  *pFence = ToHandle(fence);
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL DestroyFence(VkDevice _device, VkFence fence, const VkAllocationCallbacks* pAllocator) {
  Device* device = FromHandle<Device>(_device);
  HostDelete(ChooseAllocator(pAllocator, device->Allocator()), FromHandle<Fence>(fence));
}

VKAPI_ATTR VkResult VKAPI_CALL ResetFences(VkDevice _device, uint32_t fenceCount, const VkFence* pFences) {
  Device* device = FromHandle<Device>(_device);
  std::lock_guard lock(device->sync_mutex);
  for (uint32_t i = 0; i < fenceCount; ++i) {
    Fence* fence = FromHandle<Fence>(pFences[i]);
    fence->payload.EndTemporary();  // a temporary import lasts until the reset
    fence->SetSignaled(false);
  }
  return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL GetFenceStatus(VkDevice _device, VkFence fence) {
  Device* device = FromHandle<Device>(_device);
  std::lock_guard lock(device->sync_mutex);
  if (device->lost) return VK_ERROR_DEVICE_LOST;
  return FromHandle<Fence>(fence)->Signaled() ? VK_SUCCESS : VK_NOT_READY;
}

VKAPI_ATTR VkResult VKAPI_CALL WaitForFences(VkDevice _device, uint32_t fenceCount, const VkFence* pFences,
                                             VkBool32 waitAll, uint64_t timeout) {
  Device* device = FromHandle<Device>(_device);
  const auto deadline = DeadlineAfter(timeout);
  std::unique_lock lock(device->sync_mutex);
  return WaitUntil(device, lock, deadline, [&] {
    uint32_t signaled = 0;
    for (uint32_t i = 0; i < fenceCount; ++i) signaled += FromHandle<Fence>(pFences[i])->Signaled() ? 1 : 0;
    return waitAll ? signaled == fenceCount : signaled > 0;
  });
}

VKAPI_ATTR VkResult VKAPI_CALL CreateSemaphore(VkDevice _device, const VkSemaphoreCreateInfo* pCreateInfo,
                                               const VkAllocationCallbacks* pAllocator, VkSemaphore* pSemaphore) {
  Device* device = FromHandle<Device>(_device);
  Semaphore* semaphore =
      HostNew<Semaphore>(ChooseAllocator(pAllocator, device->Allocator()), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
  if (semaphore == nullptr) return VK_ERROR_OUT_OF_HOST_MEMORY;
  if (auto* type = FindInChain<VkSemaphoreTypeCreateInfo>(pCreateInfo->pNext,
                                                          VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO)) {
    semaphore->type = type->semaphoreType;
    if (type->semaphoreType == VK_SEMAPHORE_TYPE_TIMELINE) semaphore->SetValue(type->initialValue);
  }
  const auto* exported =
      FindInChain<VkExportSemaphoreCreateInfo>(pCreateInfo->pNext, VK_STRUCTURE_TYPE_EXPORT_SEMAPHORE_CREATE_INFO);
  if (exported != nullptr && exported->handleTypes != 0 && !semaphore->payload.own.Share()) {
    HostDelete(ChooseAllocator(pAllocator, device->Allocator()), semaphore);
    return VK_ERROR_OUT_OF_HOST_MEMORY;
  }
  *pSemaphore = ToHandle(semaphore);
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL DestroySemaphore(VkDevice _device, VkSemaphore semaphore,
                                            const VkAllocationCallbacks* pAllocator) {
  Device* device = FromHandle<Device>(_device);
  HostDelete(ChooseAllocator(pAllocator, device->Allocator()), FromHandle<Semaphore>(semaphore));
}

VKAPI_ATTR VkResult VKAPI_CALL GetSemaphoreCounterValue(VkDevice _device, VkSemaphore semaphore, uint64_t* pValue) {
  Device* device = FromHandle<Device>(_device);
  std::lock_guard lock(device->sync_mutex);
  if (device->lost) return VK_ERROR_DEVICE_LOST;
  *pValue = FromHandle<Semaphore>(semaphore)->Value();
  return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL WaitSemaphores(VkDevice _device, const VkSemaphoreWaitInfo* pWaitInfo,
                                              uint64_t timeout) {
  Device* device = FromHandle<Device>(_device);
  const auto deadline = DeadlineAfter(timeout);
  const bool any = (pWaitInfo->flags & VK_SEMAPHORE_WAIT_ANY_BIT) != 0;
  std::unique_lock lock(device->sync_mutex);
  return WaitUntil(device, lock, deadline, [&] {
    uint32_t reached = 0;
    for (uint32_t i = 0; i < pWaitInfo->semaphoreCount; ++i)
      reached += FromHandle<Semaphore>(pWaitInfo->pSemaphores[i])->Value() >= pWaitInfo->pValues[i] ? 1 : 0;
    return any ? reached > 0 : reached == pWaitInfo->semaphoreCount;
  });
}

VKAPI_ATTR VkResult VKAPI_CALL SignalSemaphore(VkDevice _device, const VkSemaphoreSignalInfo* pSignalInfo) {
  Device* device = FromHandle<Device>(_device);
  duet::SignalSemaphore(device, FromHandle<Semaphore>(pSignalInfo->semaphore), pSignalInfo->value);
  return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL CreateEvent(VkDevice _device, const VkEventCreateInfo*,
                                           const VkAllocationCallbacks* pAllocator, VkEvent* pEvent) {
  Device* device = FromHandle<Device>(_device);
  Event* event = HostNew<Event>(ChooseAllocator(pAllocator, device->Allocator()), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
  if (event == nullptr) return VK_ERROR_OUT_OF_HOST_MEMORY;
  *pEvent = ToHandle(event);
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL DestroyEvent(VkDevice _device, VkEvent event, const VkAllocationCallbacks* pAllocator) {
  Device* device = FromHandle<Device>(_device);
  HostDelete(ChooseAllocator(pAllocator, device->Allocator()), FromHandle<Event>(event));
}

VKAPI_ATTR VkResult VKAPI_CALL GetEventStatus(VkDevice _device, VkEvent event) {
  Device* device = FromHandle<Device>(_device);
  std::lock_guard lock(device->sync_mutex);
  if (device->lost) return VK_ERROR_DEVICE_LOST;
  return FromHandle<Event>(event)->signaled ? VK_EVENT_SET : VK_EVENT_RESET;
}

VKAPI_ATTR VkResult VKAPI_CALL SetEvent(VkDevice _device, VkEvent event) {
  duet::SetEvent(FromHandle<Device>(_device), FromHandle<Event>(event), true);
  return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL ResetEvent(VkDevice _device, VkEvent event) {
  duet::SetEvent(FromHandle<Device>(_device), FromHandle<Event>(event), false);
  return VK_SUCCESS;
}

// Opaque fds of fence and semaphore payloads (VK_KHR_external_fence_fd,
// VK_KHR_external_semaphore_fd): a shared page (sync_payload.h) that any
// device of this driver, in any process, can import. No sync fds.
namespace {

VkResult ExportPayload(Device* device, ImportablePayload& payload, int* fd) {
  std::lock_guard lock(device->sync_mutex);
  SyncPayload& current = payload.Current();
  if (!current.Share()) return VK_ERROR_OUT_OF_HOST_MEMORY;  // (keeps the value)
  *fd = current.Export();
  return *fd >= 0 ? VK_SUCCESS : VK_ERROR_TOO_MANY_OBJECTS;
}

VkResult ImportPayload(Device* device, ImportablePayload& payload, bool temporary, int fd) {
  {
    std::lock_guard lock(device->sync_mutex);
    SyncPayload& target = temporary ? payload.temporary : payload.own;
    if (!target.Import(fd)) return VK_ERROR_INVALID_EXTERNAL_HANDLE;
    if (temporary) payload.temporary_active = true;
    if (!temporary) payload.EndTemporary();
  }
  device->sync_cv.notify_all();
  return VK_SUCCESS;
}

}  // namespace

VKAPI_ATTR VkResult VKAPI_CALL GetSemaphoreFdKHR(VkDevice _device, const VkSemaphoreGetFdInfoKHR* pGetFdInfo,
                                                 int* pFd) {
  if (pGetFdInfo->handleType != VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT) return VK_ERROR_INVALID_EXTERNAL_HANDLE;
  return ExportPayload(FromHandle<Device>(_device), FromHandle<Semaphore>(pGetFdInfo->semaphore)->payload, pFd);
}

VKAPI_ATTR VkResult VKAPI_CALL ImportSemaphoreFdKHR(VkDevice _device,
                                                    const VkImportSemaphoreFdInfoKHR* pImportSemaphoreFdInfo) {
  const VkImportSemaphoreFdInfoKHR& info = *pImportSemaphoreFdInfo;
  if (info.handleType != VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT) return VK_ERROR_INVALID_EXTERNAL_HANDLE;
  return ImportPayload(FromHandle<Device>(_device), FromHandle<Semaphore>(info.semaphore)->payload,
                       (info.flags & VK_SEMAPHORE_IMPORT_TEMPORARY_BIT) != 0, info.fd);
}

VKAPI_ATTR VkResult VKAPI_CALL GetFenceFdKHR(VkDevice _device, const VkFenceGetFdInfoKHR* pGetFdInfo, int* pFd) {
  if (pGetFdInfo->handleType != VK_EXTERNAL_FENCE_HANDLE_TYPE_OPAQUE_FD_BIT) return VK_ERROR_INVALID_EXTERNAL_HANDLE;
  return ExportPayload(FromHandle<Device>(_device), FromHandle<Fence>(pGetFdInfo->fence)->payload, pFd);
}

VKAPI_ATTR VkResult VKAPI_CALL ImportFenceFdKHR(VkDevice _device, const VkImportFenceFdInfoKHR* pImportFenceFdInfo) {
  const VkImportFenceFdInfoKHR& info = *pImportFenceFdInfo;
  if (info.handleType != VK_EXTERNAL_FENCE_HANDLE_TYPE_OPAQUE_FD_BIT) return VK_ERROR_INVALID_EXTERNAL_HANDLE;
  return ImportPayload(FromHandle<Device>(_device), FromHandle<Fence>(info.fence)->payload,
                       (info.flags & VK_FENCE_IMPORT_TEMPORARY_BIT) != 0, info.fd);
}

}  // namespace duet::api
