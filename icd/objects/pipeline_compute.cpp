// vkCreateComputePipelines: specialize and optimize the SPIR-V, compile it
// once into the wave IR; and pipeline caches, which hold no data yet.
#include <cstring>
#include <string>

#include "dispatch/entrypoints.h"
#include "objects/device.h"
#include "objects/device_capabilities.h"
#include "objects/pipeline.h"
#include "objects/pipeline_feedback.h"
#include "spirv_exec/shader_module.h"
#include "spirv_exec/spirv_ingest.h"
#include "util/host_alloc.h"
#include "util/log.h"
#include "util/vk_util.h"

namespace duet {
namespace {

VkResult CreateComputePipeline(Device* device, const VkComputePipelineCreateInfo& info,
                               const VkAllocationCallbacks* allocator, Pipeline** out) {
  const VkPipelineShaderStageCreateInfo& stage = info.stage;
  PipelineFeedback feedback(info.pNext, 1);
  std::vector<uint32_t> inline_words;
  std::string error;
  const std::vector<uint32_t>* words = StageModuleWords(*device, stage, &inline_words, &error);
  if (words == nullptr) {
    DUET_ERROR("vkCreateComputePipelines: %s", error.c_str());
    return VK_ERROR_UNKNOWN;
  }
  std::vector<uint32_t> prepared;
  auto* pipeline = HostNew<Pipeline>(allocator, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
  if (pipeline == nullptr) return VK_ERROR_OUT_OF_HOST_MEMORY;
  feedback.BeginStage();
  if (!spirv_exec::PrepareModule(*words, stage.pSpecializationInfo, ShaderValidationRules(*device), &prepared,
                                 &error) ||
      !spirv_exec::CompileCompute(prepared, stage.pName, &pipeline->compute, &error, StageSubgroupSize(stage))) {
    DUET_ERROR("vkCreateComputePipelines: %s: %s", stage.pName, error.c_str());
    HostDelete(allocator, pipeline);
    // A module the compiler cannot take (or invalid input): no core result
    // code names it, VK_ERROR_UNKNOWN is the spec's last resort.
    return VK_ERROR_UNKNOWN;
  }
  pipeline->bind_point = VK_PIPELINE_BIND_POINT_COMPUTE;
  feedback.EndStage(0);
  feedback.Finish();
  *out = pipeline;
  return VK_SUCCESS;
}

}  // namespace
}  // namespace duet

namespace duet::api {

VKAPI_ATTR VkResult VKAPI_CALL CreateComputePipelines(VkDevice _device, VkPipelineCache, uint32_t createInfoCount,
                                                      const VkComputePipelineCreateInfo* pCreateInfos,
                                                      const VkAllocationCallbacks* pAllocator,
                                                      VkPipeline* pPipelines) {
  Device* device = FromHandle<Device>(_device);
  VkResult result = VK_SUCCESS;
  for (uint32_t i = 0; i < createInfoCount; ++i) {
    Pipeline* pipeline = nullptr;
    const VkResult r =
        CreateComputePipeline(device, pCreateInfos[i], ChooseAllocator(pAllocator, device->Allocator()), &pipeline);
    pPipelines[i] = r == VK_SUCCESS ? ToHandle(pipeline) : VK_NULL_HANDLE;
    if (r != VK_SUCCESS) {
      result = r;
      if ((pCreateInfos[i].flags & VK_PIPELINE_CREATE_EARLY_RETURN_ON_FAILURE_BIT) != 0) {
        for (uint32_t j = i + 1; j < createInfoCount; ++j) pPipelines[j] = VK_NULL_HANDLE;
        break;
      }
    }
  }
  return result;
}

VKAPI_ATTR void VKAPI_CALL DestroyPipeline(VkDevice _device, VkPipeline pipeline,
                                           const VkAllocationCallbacks* pAllocator) {
  Device* device = FromHandle<Device>(_device);
  HostDelete(ChooseAllocator(pAllocator, device->Allocator()), FromHandle<Pipeline>(pipeline));
}

VKAPI_ATTR VkResult VKAPI_CALL CreatePipelineCache(VkDevice _device, const VkPipelineCacheCreateInfo*,
                                                   const VkAllocationCallbacks* pAllocator,
                                                   VkPipelineCache* pPipelineCache) {
  Device* device = FromHandle<Device>(_device);
  auto* cache = HostNew<PipelineCache>(ChooseAllocator(pAllocator, device->Allocator()),
                                       VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
  if (cache == nullptr) return VK_ERROR_OUT_OF_HOST_MEMORY;
  *pPipelineCache = ToHandle(cache);
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL DestroyPipelineCache(VkDevice _device, VkPipelineCache pipelineCache,
                                                const VkAllocationCallbacks* pAllocator) {
  Device* device = FromHandle<Device>(_device);
  HostDelete(ChooseAllocator(pAllocator, device->Allocator()), FromHandle<PipelineCache>(pipelineCache));
}

// The cache data is the header the spec requires and nothing else: compiling
// again is cheap enough that no IR is stored yet.
VKAPI_ATTR VkResult VKAPI_CALL GetPipelineCacheData(VkDevice, VkPipelineCache, size_t* pDataSize, void* pData) {
  VkPipelineCacheHeaderVersionOne header{};
  header.headerSize = sizeof header;
  header.headerVersion = VK_PIPELINE_CACHE_HEADER_VERSION_ONE;
  const VkPhysicalDeviceProperties& props = SupportedProperties().core;
  header.vendorID = props.vendorID;
  header.deviceID = props.deviceID;
  std::memcpy(header.pipelineCacheUUID, props.pipelineCacheUUID, VK_UUID_SIZE);
  if (pData == nullptr) {
    *pDataSize = sizeof header;
    return VK_SUCCESS;
  }
  if (*pDataSize < sizeof header) {
    *pDataSize = 0;
    return VK_INCOMPLETE;
  }
  std::memcpy(pData, &header, sizeof header);
  *pDataSize = sizeof header;
  return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL MergePipelineCaches(VkDevice, VkPipelineCache, uint32_t, const VkPipelineCache*) {
  return VK_SUCCESS;
}

}  // namespace duet::api
