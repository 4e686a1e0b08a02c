// vkCreatePipelineCache and friends: the application's store of compiled
// stages (pipeline_cache/program_store.h holds them and their data format).
#include "dispatch/entrypoints.h"
#include "objects/device.h"
#include "objects/pipeline.h"
#include "util/host_alloc.h"
#include "util/log.h"
#include "util/vk_util.h"

namespace duet::api {

VKAPI_ATTR VkResult VKAPI_CALL CreatePipelineCache(VkDevice _device, const VkPipelineCacheCreateInfo* pCreateInfo,
                                                   const VkAllocationCallbacks* pAllocator,
                                                   VkPipelineCache* pPipelineCache) {
  Device* device = FromHandle<Device>(_device);
  auto* cache = HostNew<PipelineCache>(ChooseAllocator(pAllocator, device->Allocator()),
                                       VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
  if (cache == nullptr) return VK_ERROR_OUT_OF_HOST_MEMORY;
  // Data from another driver or build, or broken, starts an empty cache
  // (the spec lets a driver ignore what it cannot use).
  if (pCreateInfo->initialDataSize > 0 &&
      cache->store.LoadData(pCreateInfo->pInitialData, pCreateInfo->initialDataSize) == 0)
    DUET_DEBUG("vkCreatePipelineCache: nothing usable in %zu bytes of initial data", pCreateInfo->initialDataSize);
  *pPipelineCache = ToHandle(cache);
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL DestroyPipelineCache(VkDevice _device, VkPipelineCache pipelineCache,
                                                const VkAllocationCallbacks* pAllocator) {
  Device* device = FromHandle<Device>(_device);
  HostDelete(ChooseAllocator(pAllocator, device->Allocator()), FromHandle<PipelineCache>(pipelineCache));
}

VKAPI_ATTR VkResult VKAPI_CALL GetPipelineCacheData(VkDevice, VkPipelineCache pipelineCache, size_t* pDataSize,
                                                    void* pData) {
  const PipelineCache* cache = FromHandle<PipelineCache>(pipelineCache);
  if (pData == nullptr) {
    *pDataSize = cache->store.DataSize();
    return VK_SUCCESS;
  }
  // As many whole entries as fit; fewer than all is VK_INCOMPLETE.
  const size_t whole = cache->store.DataSize();
  *pDataSize = cache->store.WriteData(static_cast<uint8_t*>(pData), *pDataSize);
  return *pDataSize == whole ? VK_SUCCESS : VK_INCOMPLETE;
}

VKAPI_ATTR VkResult VKAPI_CALL MergePipelineCaches(VkDevice, VkPipelineCache dstCache, uint32_t srcCacheCount,
                                                   const VkPipelineCache* pSrcCaches) {
  PipelineCache* dst = FromHandle<PipelineCache>(dstCache);
  for (uint32_t i = 0; i < srcCacheCount; ++i) dst->store.Merge(FromHandle<PipelineCache>(pSrcCaches[i])->store);
  return VK_SUCCESS;
}

}  // namespace duet::api
