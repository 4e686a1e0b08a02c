// Geometry shading: each assembled primitive runs the geometry shader
// `invocations` times, one invocation per wave lane (primitive order, then
// invocation), and each invocation emits strips of vertices. The strips
// are kept in that order, which is the order they are rasterized in.
#pragma once

#include <vulkan/vulkan.h>

#include <array>
#include <cstdint>
#include <vector>

#include "primitive/vertex_stage.h"
#include "spirv_exec/ir.h"
#include "spirv_exec/wave.h"

namespace duet::raster {

struct GeometryOutput {
  ShadedVertices vertices;
  // Per vertex stream: strips (or points) of `topology`, each ended by UINT32_MAX.
  std::array<std::vector<uint32_t>, 4> indices;
  VkPrimitiveTopology topology = VK_PRIMITIVE_TOPOLOGY_POINT_LIST;
  uint64_t invocations = 0;  // pipeline statistics: shader invocations
  uint64_t primitives = 0;   // ... and the primitives of the strips (every stream's)
};

// What the geometry shader's stage needs besides its inputs.
struct GeometryStage {
  const spirv_exec::Program* program = nullptr;
  const spirv_exec::ShaderResources* resources = nullptr;
  const VaryingLayout* input_layout = nullptr;   // the vertex shader's outputs (MatchVaryings(vertex, geometry))
  const VaryingLayout* output_layout = nullptr;  // what the rasterizer takes (MatchVaryings(geometry, fragment))
  uint32_t view_index = 0;
};

// Runs the geometry shader over `primitives` (slots into `vertices`,
// `per_primitive` of them each, as AssemblePrimitives gives them).
void ShadeGeometry(const GeometryStage& stage, const ShadedVertices& vertices, const std::vector<uint32_t>& primitives,
                   uint32_t per_primitive, GeometryOutput* out);

}  // namespace duet::raster
