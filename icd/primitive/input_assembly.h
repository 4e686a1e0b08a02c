// Input assembly: which vertices of a draw make each primitive, in the
// order the spec's topology rules give them (a geometry shader's input
// array: adjacent vertices included, at their places).
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <span>
#include <vector>

namespace duet::raster {

// Vertices per assembled primitive: 1, 2, 3, 4 (lines with adjacency) or
// 6 (triangles with adjacency); 0 for patch lists.
uint32_t TopologyVertices(VkPrimitiveTopology topology);

// Primitives `topology` makes of `n` vertices (no restart among them).
uint64_t PrimitiveCount(VkPrimitiveTopology topology, uint64_t n);
// ... of the runs of `indices` (UINT32_MAX between runs).
uint64_t StripPrimitives(VkPrimitiveTopology topology, std::span<const uint32_t> indices);

// Appends the vertices of each primitive of `run` (no restarts), each
// primitive TopologyVertices(topology) entries. `provoking_last`: the
// order of VK_PROVOKING_VERTEX_MODE_LAST_VERTEX_EXT for strips.
void AssemblePrimitives(VkPrimitiveTopology topology, std::span<const uint32_t> run, bool provoking_last,
                        std::vector<uint32_t>* out);

}  // namespace duet::raster
