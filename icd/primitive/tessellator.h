// The tessellator (the spec's primitive generator): the domain points and
// primitives one patch's tessellation levels make of its domain.
//
// Points on an outer edge depend only on that edge's level and the spacing,
// and are placed symmetrically (the point at x from one end is the one at
// 1 - x from the other, computed once), so patches that share an edge with
// equal levels share its points exactly: no cracks.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <vector>

#include "spirv_exec/ir.h"

namespace duet::raster {

struct PatchTessellation {
  std::vector<float> coords;      // (u, v, w) of each domain point; w is 0 outside the triangle domain
  std::vector<uint32_t> indices;  // each primitive's points: TessellationPrimitiveVertices of them
};

// Points per primitive: 1 in point mode, 2 for isolines, 3 for triangles.
uint32_t TessellationPrimitiveVertices(const spirv_exec::TessellationModes& modes);
VkPrimitiveTopology TessellationTopology(const spirv_exec::TessellationModes& modes);

// Appends the patch's points and primitives (indices count from the points
// already in `out`); nothing when its outer levels discard it.
// `lower_left`: VK_TESSELLATION_DOMAIN_ORIGIN_LOWER_LEFT, which reverses
// the winding the vertex order mode asks for.
void TessellatePatch(const spirv_exec::TessellationModes& modes, bool lower_left, const float outer[4],
                     const float inner[2], PatchTessellation* out);

}  // namespace duet::raster
