// Rasterization by screen tiles: each tile is owned by one thread, which
// walks every triangle touching it in primitive order, so no locks touch
// the framebuffer and the output does not depend on the thread count.
// Covered 2x2 quads (from any triangles of the tile) fill fragment waves.
#pragma once

#include <cstdint>
#include <vector>

#include "raster/fragment_output.h"
#include "primitive/primitive_setup.h"
#include "primitive/vertex_stage.h"
#include "spirv_exec/wave.h"

namespace duet::raster {

inline constexpr int32_t kTileSize = 64;

struct FragmentStage {
  const spirv_exec::Program* program = nullptr;  // nullptr: no fragment shader (depth/stencil only)
  const spirv_exec::ShaderResources* resources = nullptr;
  const VaryingLayout* layout = nullptr;
  uint32_t view_index = 0;  // multiview: the view being rendered
  uint32_t layer = 0, viewport_index = 0;  // the primitives' Layer and ViewportIndex
  float min_sample_shading = 0;  // sample shading: VkPipelineMultisampleStateCreateInfo::minSampleShading, else 0
};

// Rasterizes `setup` into `outputs`; adds passing samples to
// *samples_passed and fragment shader invocations (helpers not counted) to
// *invocations, each when not null.
void RasterizeTriangles(const TriangleSetup& setup, const FragmentStage& fragment, const OutputTargets& outputs,
                        uint64_t* samples_passed, uint64_t* invocations = nullptr);

}  // namespace duet::raster
