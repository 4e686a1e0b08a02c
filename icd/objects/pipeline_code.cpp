#include "objects/pipeline.h"
#include "util/host_alloc.h"

namespace duet {

void ReportPipelineCode(Pipeline* pipeline, const VkAllocationCallbacks* allocator) {
  const raster::GraphicsPipelineState& g = pipeline->graphics;
  size_t bytes = spirv_exec::ProgramHostBytes(pipeline->compute);
  for (const spirv_exec::Program* p : {&g.vertex, &g.geometry, &g.tess_control, &g.tess_evaluation, &g.fragment})
    bytes += spirv_exec::ProgramHostBytes(*p);
  pipeline->reported_code_bytes = bytes;
  NotifyInternalAllocation(allocator, bytes, VK_INTERNAL_ALLOCATION_TYPE_EXECUTABLE, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
}

void DestroyPipelineObject(Pipeline* pipeline, const VkAllocationCallbacks* allocator) {
  if (pipeline == nullptr) return;
  NotifyInternalFree(allocator, pipeline->reported_code_bytes, VK_INTERNAL_ALLOCATION_TYPE_EXECUTABLE,
                     VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
  HostDelete(allocator, pipeline);
}

}  // namespace duet
