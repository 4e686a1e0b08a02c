// Buffers: creation, memory requirements, binding, device addresses.
#include "objects/buffer.h"

#include "dispatch/entrypoints.h"
#include "objects/device.h"
#include "objects/device_limits.h"
#include "util/host_alloc.h"
#include "util/log.h"
#include "util/vk_util.h"

namespace duet {
namespace {

VkMemoryRequirements BufferRequirements(VkDeviceSize size) {
  return {(size + limits::kBufferAlignment - 1) / limits::kBufferAlignment * limits::kBufferAlignment,
          limits::kBufferAlignment, 1u};
}

void FillRequirements2(VkDeviceSize size, VkMemoryRequirements2* out) {
  FillMemoryRequirements2(BufferRequirements(size), out);
}

constexpr VkBufferCreateFlags kSparseFlags =
    VK_BUFFER_CREATE_SPARSE_BINDING_BIT | VK_BUFFER_CREATE_SPARSE_RESIDENCY_BIT | VK_BUFFER_CREATE_SPARSE_ALIASED_BIT;

}  // namespace
}  // namespace duet

namespace duet::api {

VKAPI_ATTR VkResult VKAPI_CALL CreateBuffer(VkDevice _device, const VkBufferCreateInfo* pCreateInfo,
                                            const VkAllocationCallbacks* pAllocator, VkBuffer* pBuffer) {
  Device* device = FromHandle<Device>(_device);
  if ((pCreateInfo->flags & kSparseFlags) != 0) {
    DUET_WARN("vkCreateBuffer: sparse buffers are not supported");
    return VK_ERROR_FEATURE_NOT_PRESENT;
  }
  if (pCreateInfo->size > limits::kMaxResourceSize) return VK_ERROR_OUT_OF_DEVICE_MEMORY;
  Buffer* buffer = HostNew<Buffer>(ChooseAllocator(pAllocator, device->Allocator()), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
  if (buffer == nullptr) return VK_ERROR_OUT_OF_HOST_MEMORY;
  buffer->size = pCreateInfo->size;
  buffer->usage = pCreateInfo->usage;
  buffer->flags = pCreateInfo->flags;
  *pBuffer = ToHandle(buffer);
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL DestroyBuffer(VkDevice _device, VkBuffer _buffer, const VkAllocationCallbacks* pAllocator) {
  Device* device = FromHandle<Device>(_device);
  HostDelete(ChooseAllocator(pAllocator, device->Allocator()), FromHandle<Buffer>(_buffer));
}

VKAPI_ATTR void VKAPI_CALL GetBufferMemoryRequirements(VkDevice, VkBuffer buffer,
                                                       VkMemoryRequirements* pMemoryRequirements) {
  *pMemoryRequirements = BufferRequirements(FromHandle<Buffer>(buffer)->size);
}

VKAPI_ATTR void VKAPI_CALL GetBufferMemoryRequirements2(VkDevice, const VkBufferMemoryRequirementsInfo2* pInfo,
                                                        VkMemoryRequirements2* pMemoryRequirements) {
  FillRequirements2(FromHandle<Buffer>(pInfo->buffer)->size, pMemoryRequirements);
}

VKAPI_ATTR void VKAPI_CALL GetDeviceBufferMemoryRequirements(VkDevice, const VkDeviceBufferMemoryRequirements* pInfo,
                                                             VkMemoryRequirements2* pMemoryRequirements) {
  FillRequirements2(pInfo->pCreateInfo->size, pMemoryRequirements);
}

VKAPI_ATTR VkResult VKAPI_CALL BindBufferMemory2(VkDevice, uint32_t bindInfoCount,
                                                 const VkBindBufferMemoryInfo* pBindInfos) {
  for (uint32_t i = 0; i < bindInfoCount; ++i) {
    Buffer* buffer = FromHandle<Buffer>(pBindInfos[i].buffer);
    buffer->memory = FromHandle<DeviceMemory>(pBindInfos[i].memory);
    buffer->memory_offset = pBindInfos[i].memoryOffset;
    if (buffer->memory != nullptr) ++buffer->memory->bound_resources;
  }
  return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL BindBufferMemory(VkDevice device, VkBuffer buffer, VkDeviceMemory memory,
                                                VkDeviceSize memoryOffset) {
  VkBindBufferMemoryInfo info{VK_STRUCTURE_TYPE_BIND_BUFFER_MEMORY_INFO, nullptr, buffer, memory, memoryOffset};
  return BindBufferMemory2(device, 1, &info);
}

// A device address is the host address of the buffer's first byte.
VKAPI_ATTR VkDeviceAddress VKAPI_CALL GetBufferDeviceAddress(VkDevice, const VkBufferDeviceAddressInfo* pInfo) {
  return reinterpret_cast<VkDeviceAddress>(FromHandle<Buffer>(pInfo->buffer)->Data());
}

VKAPI_ATTR uint64_t VKAPI_CALL GetBufferOpaqueCaptureAddress(VkDevice, const VkBufferDeviceAddressInfo*) {
  return 0;  // bufferDeviceAddressCaptureReplay is not supported
}

VKAPI_ATTR VkResult VKAPI_CALL CreateBufferView(VkDevice _device, const VkBufferViewCreateInfo* pCreateInfo,
                                                const VkAllocationCallbacks* pAllocator, VkBufferView* pView) {
  Device* device = FromHandle<Device>(_device);
  BufferView* view =
      HostNew<BufferView>(ChooseAllocator(pAllocator, device->Allocator()), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
  if (view == nullptr) return VK_ERROR_OUT_OF_HOST_MEMORY;
  view->buffer = FromHandle<Buffer>(pCreateInfo->buffer);
  view->format = pCreateInfo->format;
  view->offset = pCreateInfo->offset;
  view->range = pCreateInfo->range == VK_WHOLE_SIZE ? view->buffer->size - pCreateInfo->offset : pCreateInfo->range;
  *pView = ToHandle(view);
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL DestroyBufferView(VkDevice _device, VkBufferView bufferView,
                                             const VkAllocationCallbacks* pAllocator) {
  Device* device = FromHandle<Device>(_device);
  HostDelete(ChooseAllocator(pAllocator, device->Allocator()), FromHandle<BufferView>(bufferView));
}

}  // namespace duet::api
