// Transform feedback (VK_EXT_transform_feedback): the outputs of the last
// pre-rasterization stage decorated for it (Program::xfb_outputs) written
// to the bound buffers, a whole primitive at a time, in primitive order.
#pragma once

#include <vulkan/vulkan_core.h>

#include <array>
#include <cstdint>
#include <vector>

#include "primitive/vertex_stage.h"
#include "spirv_exec/ir.h"

namespace duet {
struct Buffer;
}

namespace duet::raster {

// A command buffer's transform feedback buffers and where writing is.
struct TransformFeedback {
  struct Binding {
    const Buffer* buffer = nullptr;
    VkDeviceSize offset = 0;
    VkDeviceSize size = 0;  // bytes from offset (VK_WHOLE_SIZE resolved)
  };
  std::array<Binding, 4> bindings;
  // Bytes written since each binding's offset: where the next primitive
  // goes, and what vkCmdEndTransformFeedbackEXT stores in a counter buffer.
  std::array<VkDeviceSize, 4> written{};
};

// The primitives of one vertex stream as the last pre-rasterization stage
// made them: runs of `indices` (UINT32_MAX between them) into `vertices`,
// assembled by `topology`.
struct StreamPrimitives {
  const ShadedVertices* vertices = nullptr;
  const std::vector<uint32_t>* indices = nullptr;
  VkPrimitiveTopology topology = VK_PRIMITIVE_TOPOLOGY_POINT_LIST;
};

// Writes the primitives of `stream` that fit in every buffer its outputs
// go to (a primitive that does not fit in one is written to none, and
// none after it on that stream could be); adds the primitives written and
// those that would have been to *written and *needed (each when not null).
// `layout` says where the vertices hold the captured outputs.
void CaptureTransformFeedback(const spirv_exec::Program& program, const VaryingLayout& layout,
                              const StreamPrimitives& primitives, uint32_t stream, bool provoking_last,
                              TransformFeedback* xfb, uint64_t* written, uint64_t* needed);

}  // namespace duet::raster
