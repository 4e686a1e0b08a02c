#include "objects/framebuffer.h"

#include <new>

#include "dispatch/entrypoints.h"
#include "objects/device.h"
#include "objects/image.h"
#include "util/host_alloc.h"

namespace duet::api {

VKAPI_ATTR VkResult VKAPI_CALL CreateFramebuffer(VkDevice _device, const VkFramebufferCreateInfo* pCreateInfo,
                                                 const VkAllocationCallbacks* pAllocator, VkFramebuffer* pFramebuffer) {
  Device* device = FromHandle<Device>(_device);
  const VkAllocationCallbacks* allocator = ChooseAllocator(pAllocator, device->Allocator());
  Framebuffer* framebuffer = HostNew<Framebuffer>(allocator, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT, allocator);
  if (framebuffer == nullptr) return VK_ERROR_OUT_OF_HOST_MEMORY;
  framebuffer->flags = pCreateInfo->flags;
  framebuffer->width = pCreateInfo->width;
  framebuffer->height = pCreateInfo->height;
  framebuffer->layers = pCreateInfo->layers;
  framebuffer->attachment_count = pCreateInfo->attachmentCount;
  // An imageless framebuffer's pAttachments is ignored; its
  // VkFramebufferAttachmentsCreateInfo only describes views that are
  // checked by validation, not by the driver.
  if (!framebuffer->imageless() && pCreateInfo->attachmentCount > 0) {
    try {
      framebuffer->attachments.reserve(pCreateInfo->attachmentCount);
      for (uint32_t i = 0; i < pCreateInfo->attachmentCount; ++i)
        framebuffer->attachments.push_back(FromHandle<ImageView>(pCreateInfo->pAttachments[i]));
    } catch (const std::bad_alloc&) {
      HostDelete(allocator, framebuffer);
      return VK_ERROR_OUT_OF_HOST_MEMORY;
    }
  }
  *pFramebuffer = ToHandle(framebuffer);
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL DestroyFramebuffer(VkDevice _device, VkFramebuffer framebuffer,
                                              const VkAllocationCallbacks* pAllocator) {
  Device* device = FromHandle<Device>(_device);
  HostDelete(ChooseAllocator(pAllocator, device->Allocator()), FromHandle<Framebuffer>(framebuffer));
}

}  // namespace duet::api
