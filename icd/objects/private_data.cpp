// Private data (Vulkan 1.3 core): a value per (slot, object), kept in a
// device-wide map so objects need no storage of their own.
#include <cstdint>
#include <mutex>

#include "dispatch/entrypoints.h"
#include "objects/device.h"
#include "util/host_alloc.h"

namespace duet {

struct PrivateDataSlot : NonDispatchableObject {
  DUET_OBJECT_TYPE(VkPrivateDataSlot, VK_OBJECT_TYPE_PRIVATE_DATA_SLOT);

  PrivateDataSlot() : NonDispatchableObject(kObjectType) {}
};

}  // namespace duet

namespace duet::api {

VKAPI_ATTR VkResult VKAPI_CALL CreatePrivateDataSlot(VkDevice _device, const VkPrivateDataSlotCreateInfo*,
                                                     const VkAllocationCallbacks* pAllocator,
                                                     VkPrivateDataSlot* pPrivateDataSlot) {
  Device* device = FromHandle<Device>(_device);
  auto* slot = HostNew<PrivateDataSlot>(ChooseAllocator(pAllocator, device->Allocator()),
                                        VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
  if (slot == nullptr) return VK_ERROR_OUT_OF_HOST_MEMORY;
  *pPrivateDataSlot = ToHandle(slot);
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL DestroyPrivateDataSlot(VkDevice _device, VkPrivateDataSlot privateDataSlot,
                                                  const VkAllocationCallbacks* pAllocator) {
  Device* device = FromHandle<Device>(_device);
  if (privateDataSlot == VK_NULL_HANDLE) return;
  {
    std::lock_guard lock(device->private_data_mutex);
    const auto slot = reinterpret_cast<uint64_t>(privateDataSlot);
    std::erase_if(device->private_data, [&](const auto& entry) { return entry.first.slot == slot; });
  }
  HostDelete(ChooseAllocator(pAllocator, device->Allocator()), FromHandle<PrivateDataSlot>(privateDataSlot));
}

VKAPI_ATTR VkResult VKAPI_CALL SetPrivateData(VkDevice _device, VkObjectType objectType, uint64_t objectHandle,
                                              VkPrivateDataSlot privateDataSlot, uint64_t data) {
  Device* device = FromHandle<Device>(_device);
  std::lock_guard lock(device->private_data_mutex);
  device->private_data[{reinterpret_cast<uint64_t>(privateDataSlot), objectHandle, objectType}] = data;
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL GetPrivateData(VkDevice _device, VkObjectType objectType, uint64_t objectHandle,
                                          VkPrivateDataSlot privateDataSlot, uint64_t* pData) {
  Device* device = FromHandle<Device>(_device);
  std::lock_guard lock(device->private_data_mutex);
  auto it = device->private_data.find({reinterpret_cast<uint64_t>(privateDataSlot), objectHandle, objectType});
  *pData = it == device->private_data.end() ? 0 : it->second;
}

}  // namespace duet::api
