// vkCreateDevice with extension and feature checks, and queue retrieval.
#include "objects/device.h"

#include <algorithm>

#include "dispatch/entrypoints.h"
#include "objects/instance.h"
#include "objects/physical_device.h"
#include "util/host_alloc.h"
#include "util/log.h"
#include "util/vk_util.h"

namespace duet {

void LoseDevice(Device* device, const char* why) {
  {
    std::lock_guard lock(device->sync_mutex);
    if (device->lost.exchange(true)) return;
  }
  device->sync_cv.notify_all();
  DUET_ERROR("device lost: %s", why);
}

namespace {

VkResult CheckFeatures(const VkDeviceCreateInfo& info) {
  const DeviceFeatures& supported = SupportedFeatures();
  const char* missing = nullptr;
  if (info.pEnabledFeatures != nullptr) missing = FindUnsupportedCoreFeature(supported.core, *info.pEnabledFeatures);
  for (auto* s = static_cast<const VkBaseInStructure*>(info.pNext); s != nullptr && missing == nullptr; s = s->pNext)
    missing = FindUnsupportedFeature(supported, s);
  if (missing != nullptr) {
    DUET_WARN("vkCreateDevice: feature %s is not supported", missing);
    return VK_ERROR_FEATURE_NOT_PRESENT;
  }
  return VK_SUCCESS;
}

void DestroyQueues(Device* device, const VkAllocationCallbacks* allocator) {
  for (Queue* queue : device->queues) HostDelete(allocator, queue);
  device->queues.clear();
}

}  // namespace
}  // namespace duet

namespace duet::api {

VKAPI_ATTR VkResult VKAPI_CALL CreateDevice(VkPhysicalDevice physicalDevice, const VkDeviceCreateInfo* pCreateInfo,
                                            const VkAllocationCallbacks* pAllocator, VkDevice* pDevice) {
  PhysicalDevice* physical = FromHandle<PhysicalDevice>(physicalDevice);
  Instance* instance = physical->instance;

  dispatch::ExtensionSet enabled;
  for (uint32_t i = 0; i < pCreateInfo->enabledExtensionCount; ++i) {
    const dispatch::ExtensionInfo* ext = dispatch::FindExtension(pCreateInfo->ppEnabledExtensionNames[i]);
    if (ext == nullptr || ext->instance) {
      DUET_WARN("vkCreateDevice: extension %s is not supported", pCreateInfo->ppEnabledExtensionNames[i]);
      return VK_ERROR_EXTENSION_NOT_PRESENT;
    }
    enabled.set(static_cast<size_t>(ext->id));
  }
  if (VkResult result = CheckFeatures(*pCreateInfo); result != VK_SUCCESS) return result;
  for (uint32_t i = 0; i < pCreateInfo->queueCreateInfoCount; ++i) {
    const VkDeviceQueueCreateInfo& q = pCreateInfo->pQueueCreateInfos[i];
    if (q.queueFamilyIndex >= kQueueFamilyCount || q.queueCount == 0 || q.queueCount > kQueuesPerFamily ||
        (q.flags & VK_DEVICE_QUEUE_CREATE_PROTECTED_BIT) != 0) {
      DUET_WARN("vkCreateDevice: queue family %u x%u (flags 0x%x) cannot be created", q.queueFamilyIndex,
                q.queueCount, q.flags);
      return VK_ERROR_INITIALIZATION_FAILED;
    }
  }

  const VkAllocationCallbacks* allocator = ChooseAllocator(pAllocator, instance->Allocator());
  Device* device = HostNew<Device>(allocator, VK_SYSTEM_ALLOCATION_SCOPE_DEVICE, allocator);
  if (device == nullptr) return VK_ERROR_OUT_OF_HOST_MEMORY;
  device->instance = instance;
  device->physical_device = physical;
  device->api_version = std::min(instance->api_version, SupportedProperties().core.apiVersion);
  device->enabled_extensions = enabled;
  if (pCreateInfo->pEnabledFeatures != nullptr) device->enabled_features.core = *pCreateInfo->pEnabledFeatures;
  for (auto* s = static_cast<const VkBaseInStructure*>(pCreateInfo->pNext); s != nullptr; s = s->pNext)
    RecordEnabledFeatures(s, &device->enabled_features);

  size_t queue_count = 0;
  for (uint32_t i = 0; i < pCreateInfo->queueCreateInfoCount; ++i)
    queue_count += pCreateInfo->pQueueCreateInfos[i].queueCount;
  try {
    device->queues.reserve(queue_count);  // the push_backs below then cannot throw
  } catch (const std::bad_alloc&) {
    HostDelete(allocator, device);
    return VK_ERROR_OUT_OF_HOST_MEMORY;
  }
  for (uint32_t i = 0; i < pCreateInfo->queueCreateInfoCount; ++i) {
    const VkDeviceQueueCreateInfo& q = pCreateInfo->pQueueCreateInfos[i];
    for (uint32_t n = 0; n < q.queueCount; ++n) {
      Queue* queue = HostNew<Queue>(allocator, VK_SYSTEM_ALLOCATION_SCOPE_DEVICE, device, q.queueFamilyIndex, n,
                                    q.flags);
      if (queue == nullptr) {
        DestroyQueues(device, allocator);
        HostDelete(allocator, device);
        return VK_ERROR_OUT_OF_HOST_MEMORY;
      }
      device->queues.push_back(queue);
    }
  }
  *pDevice = ToHandle(device);
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL DestroyDevice(VkDevice _device, const VkAllocationCallbacks* pAllocator) {
  Device* device = FromHandle<Device>(_device);
  if (device == nullptr) return;
  const VkAllocationCallbacks* allocator = ChooseAllocator(pAllocator, device->Allocator());
  if (device->memory_allocation_count != 0)
    DUET_WARN("vkDestroyDevice: %u memory allocations were not freed", device->memory_allocation_count.load());
  DestroyQueues(device, allocator);
  HostDelete(allocator, device);
}

VKAPI_ATTR void VKAPI_CALL GetDeviceQueue2(VkDevice _device, const VkDeviceQueueInfo2* pQueueInfo, VkQueue* pQueue) {
  Device* device = FromHandle<Device>(_device);
  *pQueue = VK_NULL_HANDLE;
  for (Queue* queue : device->queues) {
    if (queue->family_index == pQueueInfo->queueFamilyIndex && queue->index == pQueueInfo->queueIndex &&
        queue->flags == pQueueInfo->flags) {
      *pQueue = ToHandle(queue);
      return;
    }
  }
}

VKAPI_ATTR void VKAPI_CALL GetDeviceQueue(VkDevice device, uint32_t queueFamilyIndex, uint32_t queueIndex,
                                          VkQueue* pQueue) {
  VkDeviceQueueInfo2 info{VK_STRUCTURE_TYPE_DEVICE_QUEUE_INFO_2, nullptr, 0, queueFamilyIndex, queueIndex};
  GetDeviceQueue2(device, &info, pQueue);
}

}  // namespace duet::api

namespace duet::api {

// A device group of one device: its memory is its own in every way. (The
// spec asks for two different indices, which one device cannot give; this
// answers anyway rather than leave the output unwritten.)
VKAPI_ATTR void VKAPI_CALL GetDeviceGroupPeerMemoryFeatures(VkDevice, uint32_t, uint32_t, uint32_t,
                                                            VkPeerMemoryFeatureFlags* pPeerMemoryFeatures) {
  *pPeerMemoryFeatures = VK_PEER_MEMORY_FEATURE_COPY_SRC_BIT | VK_PEER_MEMORY_FEATURE_COPY_DST_BIT |
                         VK_PEER_MEMORY_FEATURE_GENERIC_SRC_BIT | VK_PEER_MEMORY_FEATURE_GENERIC_DST_BIT;
}

}  // namespace duet::api
