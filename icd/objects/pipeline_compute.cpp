// vkCreateComputePipelines: the compute stage (objects/stage_compile.h), and
// vkDestroyPipeline.
#include "dispatch/entrypoints.h"
#include "objects/device.h"
#include "objects/pipeline.h"
#include "objects/pipeline_feedback.h"
#include "objects/stage_compile.h"
#include "util/host_alloc.h"
#include "util/vk_util.h"

namespace duet {
namespace {

VkResult CreateComputePipeline(Device* device, const VkComputePipelineCreateInfo& info, PipelineCache* cache,
                               const VkAllocationCallbacks* allocator, Pipeline** out) {
  PipelineFeedback feedback(info.pNext, 1);
  auto* pipeline = HostNew<Pipeline>(allocator, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
  if (pipeline == nullptr) return VK_ERROR_OUT_OF_HOST_MEMORY;
  feedback.BeginStage();
  bool app_hit = false;
  const VkResult result = MakeShaderStage(*device, info.stage, spirv_exec::ShaderStage::kCompute, cache, info.flags,
                                          "vkCreateComputePipelines", &pipeline->compute, &app_hit);
  if (result != VK_SUCCESS) {
    HostDelete(allocator, pipeline);
    return result;
  }
  pipeline->bind_point = VK_PIPELINE_BIND_POINT_COMPUTE;
  ReportPipelineCode(pipeline, allocator);
  feedback.EndStage(0, app_hit);
  feedback.Finish(app_hit);
  *out = pipeline;
  return VK_SUCCESS;
}

}  // namespace
}  // namespace duet

namespace duet::api {

VKAPI_ATTR VkResult VKAPI_CALL CreateComputePipelines(VkDevice _device, VkPipelineCache pipelineCache,
                                                      uint32_t createInfoCount,
                                                      const VkComputePipelineCreateInfo* pCreateInfos,
                                                      const VkAllocationCallbacks* pAllocator,
                                                      VkPipeline* pPipelines) {
  Device* device = FromHandle<Device>(_device);
  PipelineCache* cache = FromHandle<PipelineCache>(pipelineCache);
  const VkAllocationCallbacks* allocator = ChooseAllocator(pAllocator, device->Allocator());
  return CreateEachPipeline(createInfoCount, pCreateInfos, pPipelines,
                            [&](const VkComputePipelineCreateInfo& info, Pipeline** pipeline) {
                              return CreateComputePipeline(device, info, cache, allocator, pipeline);
                            });
}

VKAPI_ATTR void VKAPI_CALL DestroyPipeline(VkDevice _device, VkPipeline pipeline,
                                           const VkAllocationCallbacks* pAllocator) {
  Device* device = FromHandle<Device>(_device);
  DestroyPipelineObject(FromHandle<Pipeline>(pipeline), ChooseAllocator(pAllocator, device->Allocator()));
}

}  // namespace duet::api
