#include "primitive/transform_feedback.h"

#include <cstring>

#include "objects/buffer.h"
#include "primitive/input_assembly.h"

namespace duet::raster {

void CaptureTransformFeedback(const spirv_exec::Program& program, const VaryingLayout& layout,
                              const StreamPrimitives& primitives, uint32_t stream, bool provoking_last,
                              TransformFeedback* xfb, uint64_t* written, uint64_t* needed) {
  // The buffers this stream writes, and each output's first float in a vertex.
  bool uses[4] = {};
  std::vector<uint32_t> first_float(program.xfb_outputs.size());
  uint32_t at = layout.xfb_offset;
  for (size_t k = 0; k < program.xfb_outputs.size(); ++k) {
    const spirv_exec::XfbOutput& out = program.xfb_outputs[k];
    first_float[k] = at;
    at += out.count;
    if (out.stream == stream) uses[out.buffer] = true;
  }
  // Adjacency topologies (a vertex shader's) write their lines and
  // triangles without the adjacent vertices.
  const VkPrimitiveTopology topology = primitives.topology;
  const uint32_t assembled_per = TopologyVertices(topology);
  const uint32_t per = MainVertexCount(topology);
  if (assembled_per == 0) return;  // patch lists: nothing without tessellation
  std::vector<uint32_t> assembled;
  AssembleRuns(topology, *primitives.indices, provoking_last, &assembled);
  for (size_t p = 0; p + assembled_per <= assembled.size(); p += assembled_per) {
    if (needed != nullptr) ++*needed;
    // Written whole or not at all.
    bool fits = true;
    for (uint32_t b = 0; b < 4; ++b) {
      if (!uses[b]) continue;
      const TransformFeedback::Binding& binding = xfb->bindings[b];
      fits &= binding.buffer != nullptr && xfb->written[b] + VkDeviceSize(per) * program.xfb_strides[b] <= binding.size;
    }
    if (!fits) continue;
    for (uint32_t v = 0; v < per; ++v) {
      const float* vertex = primitives.vertices->Vertex(MainVertex(topology, &assembled[p], v));
      for (size_t k = 0; k < program.xfb_outputs.size(); ++k) {
        const spirv_exec::XfbOutput& out = program.xfb_outputs[k];
        if (out.stream != stream || layout.xfb_offset == UINT32_MAX) continue;
        const TransformFeedback::Binding& binding = xfb->bindings[out.buffer];
        const VkDeviceSize record =
            binding.offset + xfb->written[out.buffer] + VkDeviceSize(v) * program.xfb_strides[out.buffer];
        for (uint32_t c = 0; c < out.count; ++c) {
          const VkDeviceSize to = record + out.offset + 4 * VkDeviceSize(c);
          if (to + 4 > binding.buffer->size || binding.buffer->Data() == nullptr) continue;
          std::memcpy(binding.buffer->Data() + to, &vertex[kVaryingsOffset + first_float[k] + c], 4);
        }
      }
    }
    for (uint32_t b = 0; b < 4; ++b)
      if (uses[b]) xfb->written[b] += VkDeviceSize(per) * program.xfb_strides[b];
    if (written != nullptr) ++*written;
  }
}

}  // namespace duet::raster
