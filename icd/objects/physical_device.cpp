// Queries on the one physical device: properties, features, queues, memory.
#include "objects/memory.h"
#include "objects/physical_device.h"

#include <sys/sysinfo.h>

#include <algorithm>
#include <cstdio>
#include <iterator>

#include "dispatch/entrypoints.h"
#include "objects/device_capabilities.h"
#include "objects/device_limits.h"
#include "util/vk_util.h"

namespace duet {

VkPhysicalDeviceMemoryProperties MakeMemoryProperties() {
  VkPhysicalDeviceMemoryProperties memory{};
  struct sysinfo info {};
  uint64_t total = sysinfo(&info) == 0 ? uint64_t{info.totalram} * info.mem_unit : uint64_t{1} << 32;
  memory.memoryHeapCount = 1;
  // Leave a quarter of RAM to the application and the system.
  memory.memoryHeaps[0] = {total / 4 * 3, VK_MEMORY_HEAP_DEVICE_LOCAL_BIT};
  memory.memoryTypeCount = 1;
  memory.memoryTypes[0] = {VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT | VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                               VK_MEMORY_PROPERTY_HOST_COHERENT_BIT | VK_MEMORY_PROPERTY_HOST_CACHED_BIT,
                           0};
  return memory;
}

namespace {

// Memory the system could give now (MemAvailable: free plus reclaimable).
VkDeviceSize AvailableSystemMemory() {
  if (std::FILE* meminfo = std::fopen("/proc/meminfo", "r")) {
    char line[128];
    unsigned long long kib = 0;
    bool found = false;
    while (!found && std::fgets(line, sizeof line, meminfo) != nullptr)
      found = std::sscanf(line, "MemAvailable: %llu kB", &kib) == 1;
    std::fclose(meminfo);
    if (found) return VkDeviceSize(kib) * 1024;
  }
  struct sysinfo info {};
  return sysinfo(&info) == 0 ? VkDeviceSize(info.freeram) * info.mem_unit : 0;
}

VkQueueFamilyProperties QueueFamily() {
  return {VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT | VK_QUEUE_TRANSFER_BIT, kQueuesPerFamily, 64, {1, 1, 1}};
}

}  // namespace
}  // namespace duet

namespace duet::api {

VKAPI_ATTR void VKAPI_CALL GetPhysicalDeviceProperties(VkPhysicalDevice, VkPhysicalDeviceProperties* pProperties) {
  *pProperties = SupportedProperties().core;
}

VKAPI_ATTR void VKAPI_CALL GetPhysicalDeviceProperties2(VkPhysicalDevice, VkPhysicalDeviceProperties2* pProperties) {
  pProperties->properties = SupportedProperties().core;
  for (auto* s = static_cast<VkBaseOutStructure*>(pProperties->pNext); s != nullptr; s = s->pNext)
    FillPropertiesStruct(SupportedProperties(), s);
}

VKAPI_ATTR void VKAPI_CALL GetPhysicalDeviceFeatures(VkPhysicalDevice, VkPhysicalDeviceFeatures* pFeatures) {
  *pFeatures = SupportedFeatures().core;
}

VKAPI_ATTR void VKAPI_CALL GetPhysicalDeviceFeatures2(VkPhysicalDevice, VkPhysicalDeviceFeatures2* pFeatures) {
  pFeatures->features = SupportedFeatures().core;
  for (auto* s = static_cast<VkBaseOutStructure*>(pFeatures->pNext); s != nullptr; s = s->pNext)
    FillFeaturesStruct(SupportedFeatures(), s);
}

VKAPI_ATTR void VKAPI_CALL GetPhysicalDeviceQueueFamilyProperties(VkPhysicalDevice, uint32_t* pQueueFamilyPropertyCount,
                                                                  VkQueueFamilyProperties* pQueueFamilyProperties) {
  VkQueueFamilyProperties families[] = {QueueFamily()};
  FillArray(families, pQueueFamilyPropertyCount, pQueueFamilyProperties);
}

VKAPI_ATTR void VKAPI_CALL GetPhysicalDeviceQueueFamilyProperties2(VkPhysicalDevice, uint32_t* pQueueFamilyPropertyCount,
                                                                   VkQueueFamilyProperties2* pQueueFamilyProperties) {
  if (pQueueFamilyProperties == nullptr) {
    *pQueueFamilyPropertyCount = kQueueFamilyCount;
    return;
  }
  if (*pQueueFamilyPropertyCount == 0) return;
  pQueueFamilyProperties[0].queueFamilyProperties = QueueFamily();
  *pQueueFamilyPropertyCount = kQueueFamilyCount;
}

VKAPI_ATTR void VKAPI_CALL GetPhysicalDeviceMemoryProperties(VkPhysicalDevice physicalDevice,
                                                             VkPhysicalDeviceMemoryProperties* pMemoryProperties) {
  *pMemoryProperties = FromHandle<PhysicalDevice>(physicalDevice)->memory_properties;
}

VKAPI_ATTR void VKAPI_CALL GetPhysicalDeviceMemoryProperties2(VkPhysicalDevice physicalDevice,
                                                              VkPhysicalDeviceMemoryProperties2* pMemoryProperties) {
  const PhysicalDevice* physical = FromHandle<PhysicalDevice>(physicalDevice);
  pMemoryProperties->memoryProperties = physical->memory_properties;
  if (auto* budget = FindInChain<VkPhysicalDeviceMemoryBudgetPropertiesEXT>(
          pMemoryProperties->pNext, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MEMORY_BUDGET_PROPERTIES_EXT)) {
    std::fill(std::begin(budget->heapBudget), std::end(budget->heapBudget), VkDeviceSize{0});
    std::fill(std::begin(budget->heapUsage), std::end(budget->heapUsage), VkDeviceSize{0});
    // The one heap: what this process's devices use, and what it could use
    // besides: the memory the system has available now, within the heap.
    const VkDeviceSize used = physical->allocated_bytes.load();
    const VkDeviceSize heap = physical->memory_properties.memoryHeaps[0].size;
    budget->heapUsage[0] = used;
    budget->heapBudget[0] = std::min(heap, used + AvailableSystemMemory());
  }
}

VKAPI_ATTR VkResult VKAPI_CALL EnumerateDeviceExtensionProperties(VkPhysicalDevice, const char* pLayerName,
                                                                  uint32_t* pPropertyCount,
                                                                  VkExtensionProperties* pProperties) {
  if (pLayerName != nullptr) return VK_ERROR_LAYER_NOT_PRESENT;
  return EnumerateExtensions(dispatch::DeviceExtensions(), pPropertyCount, pProperties);
}

VKAPI_ATTR VkResult VKAPI_CALL EnumerateDeviceLayerProperties(VkPhysicalDevice, uint32_t* pPropertyCount,
                                                              VkLayerProperties*) {
  *pPropertyCount = 0;
  return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL GetPhysicalDeviceToolProperties(VkPhysicalDevice, uint32_t* pToolCount,
                                                               VkPhysicalDeviceToolProperties*) {
  *pToolCount = 0;  // the driver is no tool; layers add their own entries
  return VK_SUCCESS;
}

// External memory: opaque fds and host allocations (memory.cpp); fences
// and semaphores: opaque fds (objects/sync.cpp).
VKAPI_ATTR void VKAPI_CALL GetPhysicalDeviceExternalBufferProperties(VkPhysicalDevice,
                                                                     const VkPhysicalDeviceExternalBufferInfo* pInfo,
                                                                     VkExternalBufferProperties* pProperties) {
  pProperties->externalMemoryProperties = ExternalMemoryPropertiesOf(pInfo->handleType);
}

VKAPI_ATTR void VKAPI_CALL GetPhysicalDeviceExternalFenceProperties(VkPhysicalDevice,
                                                                    const VkPhysicalDeviceExternalFenceInfo* pInfo,
                                                                    VkExternalFenceProperties* pProperties) {
  const bool opaque = pInfo->handleType == VK_EXTERNAL_FENCE_HANDLE_TYPE_OPAQUE_FD_BIT;
  const VkExternalFenceHandleTypeFlags types = opaque ? VK_EXTERNAL_FENCE_HANDLE_TYPE_OPAQUE_FD_BIT : 0;
  pProperties->exportFromImportedHandleTypes = types;
  pProperties->compatibleHandleTypes = types;
  pProperties->externalFenceFeatures =
      opaque ? VK_EXTERNAL_FENCE_FEATURE_EXPORTABLE_BIT | VK_EXTERNAL_FENCE_FEATURE_IMPORTABLE_BIT : 0;
}

VKAPI_ATTR void VKAPI_CALL GetPhysicalDeviceExternalSemaphoreProperties(
    VkPhysicalDevice, const VkPhysicalDeviceExternalSemaphoreInfo* pInfo, VkExternalSemaphoreProperties* pProperties) {
  const bool opaque = pInfo->handleType == VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT;
  const VkExternalSemaphoreHandleTypeFlags types = opaque ? VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT : 0;
  pProperties->exportFromImportedHandleTypes = types;
  pProperties->compatibleHandleTypes = types;
  pProperties->externalSemaphoreFeatures =
      opaque ? VK_EXTERNAL_SEMAPHORE_FEATURE_EXPORTABLE_BIT | VK_EXTERNAL_SEMAPHORE_FEATURE_IMPORTABLE_BIT : 0;
}

}  // namespace duet::api
