// vkCmdDraw*: from vertices to pixels in the current render targets.
//
//   vertex_stage     fetch attributes, shade unique vertices in waves
//   primitive_setup  assemble, clip, viewport transform, cull, fixed-point setup
//   tile_raster      bin triangles to tiles; per tile (one thread each, in
//                    primitive order): 2x2 quads, coverage, fragment waves
//   fragment_output  depth/stencil tests, blending, writes
#pragma once

#include <vulkan/vulkan_core.h>

#include <array>
#include <bitset>
#include <cstdint>

#include "raster/graphics_state.h"
#include "raster/pipeline_statistics.h"
#include "raster/render_targets.h"
#include "spirv_exec/compute_dispatch.h"

namespace duet {

struct Buffer;
struct Device;

namespace raster {

struct VertexBufferBinding {
  const Buffer* buffer = nullptr;
  VkDeviceSize offset = 0;
  VkDeviceSize stride = 0;  // from vkCmdBindVertexBuffers2 when given (has_stride)
  bool has_stride = false;
};

// Everything a command buffer has bound or set that draws read.
struct DrawBindings {
  ShaderBindings shader;  // graphics pipeline, descriptor sets, push constants
  std::array<VertexBufferBinding, kMaxVertexBindings> vertex_buffers;
  const Buffer* index_buffer = nullptr;
  VkDeviceSize index_offset = 0;
  VkIndexType index_type = VK_INDEX_TYPE_UINT32;
  GraphicsState dynamic;          // values of dynamic state set by vkCmdSet*
  std::bitset<64> dynamic_set;    // which of them were set (DynamicStateIndex)
};

struct DrawCall {
  bool indexed = false;
  uint32_t count = 0;           // vertices or indices
  uint32_t instance_count = 1;
  uint32_t first = 0;           // first vertex or first index
  int32_t vertex_offset = 0;    // indexed draws
  uint32_t first_instance = 0;
  uint32_t draw_index = 0;      // gl_DrawID for multi-draw indirect
};

// Adds to what `counters` points to: occlusion samples that passed, and
// the pipeline statistics of the vertex and fragment stages.
// Vertex and fragment waves that loop longer than `device`'s watchdog limit
// mark it lost, and the draw stops (as does one that starts on a lost device).
void ExecuteDraw(Device* device, const DrawBindings& bindings, const RenderTargets& targets, const DrawCall& draw,
                 const DrawCounters& counters);

}  // namespace raster
}  // namespace duet
