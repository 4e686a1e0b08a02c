// Pipelines: a compute pipeline's compiled Program; a graphics pipeline's
// compiled stages and fixed-function state.
#pragma once

#include <vulkan/vulkan_core.h>

#include <memory>
#include <vector>

#include "objects/descriptor_set.h"
#include "pipeline_cache/program_store.h"
#include "raster/graphics_state.h"
#include "spirv_exec/ir.h"
#include "util/object.h"

namespace duet {

struct Pipeline : NonDispatchableObject {
  DUET_OBJECT_TYPE(VkPipeline, VK_OBJECT_TYPE_PIPELINE);

  Pipeline() : NonDispatchableObject(kObjectType) {}

  VkPipelineBindPoint bind_point = VK_PIPELINE_BIND_POINT_COMPUTE;
  spirv_exec::Program compute;
  raster::GraphicsPipelineState graphics;
  // A graphics pipeline library (VK_PIPELINE_CREATE_LIBRARY_BIT_KHR): the
  // parts of a pipeline it holds (VK_EXT_graphics_pipeline_library).
  bool library = false;
  VkGraphicsPipelineLibraryFlagsEXT library_parts = 0;
  // What ReportPipelineCode told the application (0: nothing yet).
  size_t reported_code_bytes = 0;
};

// A pipeline's compiled programs live on the driver's heap (the compiler
// builds them there; caches share their encoded form), not in the
// application's callbacks: they are the code the host runs, which the spec
// lets a driver keep outside them if it reports it as an internal
// allocation of executable memory (pfnInternalAllocation at creation,
// pfnInternalFree at destruction, with the same size).
void ReportPipelineCode(Pipeline* pipeline, const VkAllocationCallbacks* allocator);
// Destroys a pipeline made with `allocator`'s callbacks (ChooseAllocator'd).
void DestroyPipelineObject(Pipeline* pipeline, const VkAllocationCallbacks* allocator);

// Compiled stages the application keeps (objects/pipeline_cache.cpp).
struct PipelineCache : NonDispatchableObject {
  DUET_OBJECT_TYPE(VkPipelineCache, VK_OBJECT_TYPE_PIPELINE_CACHE);

  PipelineCache() : NonDispatchableObject(kObjectType) {}

  pipeline_cache::ProgramStore store;
};

// The loop of vkCreate*Pipelines: pipeline i made by make(infos[i], &pipeline),
// VK_NULL_HANDLE where that fails; EARLY_RETURN_ON_FAILURE stops at the
// first failure. The result is the last error, else VK_PIPELINE_COMPILE_REQUIRED
// if a pipeline needed a compilation it was not allowed.
template <class Info, class Make>
VkResult CreateEachPipeline(uint32_t count, const Info* infos, VkPipeline* pipelines, Make make) {
  VkResult result = VK_SUCCESS;
  for (uint32_t i = 0; i < count; ++i) {
    Pipeline* pipeline = nullptr;
    const VkResult r = make(infos[i], &pipeline);
    pipelines[i] = r == VK_SUCCESS ? ToHandle(pipeline) : VK_NULL_HANDLE;
    if (r == VK_SUCCESS) continue;
    if (r < 0 || result == VK_SUCCESS) result = r;
    if ((infos[i].flags & VK_PIPELINE_CREATE_EARLY_RETURN_ON_FAILURE_BIT) != 0) {
      for (uint32_t j = i + 1; j < count; ++j) pipelines[j] = VK_NULL_HANDLE;
      break;
    }
  }
  return result;
}

}  // namespace duet
