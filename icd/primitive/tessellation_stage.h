// Tessellation: the control shader, the tessellator and the evaluation
// shader, from a draw's patches to the primitives of their domains.
//
// Control shaders run a lane per (patch, output vertex), whole patches to a
// wave, so a barrier needs no more than running the wave on; their outputs
// are patch memory (RootKind::kPatch) that the invocations of a patch
// share. The evaluation shader's inputs are patch memory too: each patch's
// control outputs are copied to the places the evaluation shader reads
// them from (by location, component and built-in), once per patch. Domain
// points of all patches are then shaded a lane each, in patch order, which
// is the order their primitives are rasterized in.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <vector>

#include "primitive/vertex_stage.h"
#include "spirv_exec/ir.h"
#include "spirv_exec/wave.h"

namespace duet::raster {

struct TessellationStage {
  const spirv_exec::Program* control = nullptr;
  const spirv_exec::ShaderResources* control_resources = nullptr;
  const spirv_exec::Program* evaluation = nullptr;
  const spirv_exec::ShaderResources* evaluation_resources = nullptr;
  spirv_exec::TessellationModes modes;  // both shaders', merged
  bool lower_left = false;              // VK_TESSELLATION_DOMAIN_ORIGIN_LOWER_LEFT
  uint32_t patch_control_points = 0;
  const VaryingLayout* input_layout = nullptr;   // MatchVaryings(vertex, control)
  const VaryingLayout* output_layout = nullptr;  // MatchVaryings(evaluation, what follows)
  uint32_t view_index = 0;
};

struct TessellationOutput {
  ShadedVertices vertices;        // the evaluation shader's
  std::vector<uint32_t> indices;  // primitives of `topology` (a list), in patch order
  VkPrimitiveTopology topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
  uint64_t patches = 0;      // pipeline statistics: control shader patches
  uint64_t evaluations = 0;  // ... evaluation shader invocations
};

// Tessellates the patches of `slots` (patch_control_points slots into
// `vertices` each; a last incomplete patch is dropped).
void Tessellate(const TessellationStage& stage, const ShadedVertices& vertices, const std::vector<uint32_t>& slots,
                TessellationOutput* out);

}  // namespace duet::raster
