// Pipelines. A compute pipeline holds its compiled Program and a copy of
// the pipeline layout's descriptor bindings (layouts may be destroyed while
// the pipeline lives).
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
  std::vector<std::vector<DescriptorSetLayoutBinding>> set_bindings;
  std::vector<uint32_t> set_dynamic_offset_start;
};

struct PipelineCache : NonDispatchableObject {
  DUET_OBJECT_TYPE(VkPipelineCache, VK_OBJECT_TYPE_PIPELINE_CACHE);

  PipelineCache() : NonDispatchableObject(kObjectType) {}
};

}  // namespace duet
