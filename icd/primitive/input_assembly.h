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

// fn(run) for each run of `indices` between primitive restarts (UINT32_MAX).
template <typename F>
void ForEachRun(std::span<const uint32_t> indices, F&& fn) {
  for (size_t begin = 0; begin < indices.size();) {
    size_t end = begin;
    while (end < indices.size() && indices[end] != UINT32_MAX) ++end;
    fn(indices.subspan(begin, end - begin));
    begin = end + 1;
  }
}

// Primitives `topology` makes of `n` vertices (no restart among them).
uint64_t PrimitiveCount(VkPrimitiveTopology topology, uint64_t n);
// ... of the runs of `indices` (UINT32_MAX between runs).
uint64_t StripPrimitives(VkPrimitiveTopology topology, std::span<const uint32_t> indices);
// Patches of `control_points` vertices in each run of `indices`.
uint64_t PatchPrimitives(std::span<const uint32_t> indices, uint32_t control_points);

// Appends the vertices of each primitive of `run` (no restarts), each
// primitive TopologyVertices(topology) entries. `provoking_last`: the
// order of VK_PROVOKING_VERTEX_MODE_LAST_VERTEX_EXT for strips.
void AssemblePrimitives(VkPrimitiveTopology topology, std::span<const uint32_t> run, bool provoking_last,
                        std::vector<uint32_t>* out);
// ... of every run of `indices`.
void AssembleRuns(VkPrimitiveTopology topology, std::span<const uint32_t> indices, bool provoking_last,
                  std::vector<uint32_t>* out);

// A primitive's own vertices, what is rasterized or captured without a
// geometry shader: adjacency topologies leave out the adjacent ones.
// MainVertexCount: 1, 2 or 3; MainVertex: vertex v of `primitive` (as
// AssemblePrimitives gives it) among them.
inline uint32_t MainVertexCount(VkPrimitiveTopology topology) {
  const uint32_t n = TopologyVertices(topology);
  return n == 4 ? 2 : n == 6 ? 3 : n;
}
inline uint32_t MainVertex(VkPrimitiveTopology topology, const uint32_t* primitive, uint32_t v) {
  const uint32_t n = TopologyVertices(topology);
  return n == 4 ? primitive[1 + v] : n == 6 ? primitive[2 * v] : primitive[v];
}

}  // namespace duet::raster
