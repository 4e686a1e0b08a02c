#include "objects/sampler.h"

#include "dispatch/entrypoints.h"
#include "objects/device.h"
#include "objects/live_objects.h"
#include "util/host_alloc.h"
#include "util/vk_util.h"

namespace duet::api {

VKAPI_ATTR VkResult VKAPI_CALL CreateSampler(VkDevice _device, const VkSamplerCreateInfo* pCreateInfo,
                                             const VkAllocationCallbacks* pAllocator, VkSampler* pSampler) {
  Device* device = FromHandle<Device>(_device);
  Sampler* sampler =
      HostNew<Sampler>(ChooseAllocator(pAllocator, device->Allocator()), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT, *pCreateInfo);
  if (sampler == nullptr) return VK_ERROR_OUT_OF_HOST_MEMORY;
  if (auto* reduction = FindInChain<VkSamplerReductionModeCreateInfo>(
          pCreateInfo->pNext, VK_STRUCTURE_TYPE_SAMPLER_REDUCTION_MODE_CREATE_INFO))
    sampler->reduction_mode = reduction->reductionMode;
  MarkLive(sampler);
  *pSampler = ToHandle(sampler);
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL DestroySampler(VkDevice _device, VkSampler sampler, const VkAllocationCallbacks* pAllocator) {
  Device* device = FromHandle<Device>(_device);
  MarkDead(FromHandle<Sampler>(sampler));
  HostDelete(ChooseAllocator(pAllocator, device->Allocator()), FromHandle<Sampler>(sampler));
}

}  // namespace duet::api
