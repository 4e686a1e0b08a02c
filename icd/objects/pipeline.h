// Pipelines: a compute pipeline's compiled Program; a graphics pipeline's
// compiled stages and fixed-function state.
#pragma once

#include <vulkan/vulkan_core.h>

#include <memory>
#include <vector>

#include "objects/descriptor_set.h"
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
};

struct PipelineCache : NonDispatchableObject {
  DUET_OBJECT_TYPE(VkPipelineCache, VK_OBJECT_TYPE_PIPELINE_CACHE);

  PipelineCache() : NonDispatchableObject(kObjectType) {}
};

}  // namespace duet
