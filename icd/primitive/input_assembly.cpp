#include "primitive/input_assembly.h"

#include <algorithm>

namespace duet::raster {

uint32_t TopologyVertices(VkPrimitiveTopology topology) {
  switch (topology) {
    case VK_PRIMITIVE_TOPOLOGY_POINT_LIST: return 1;
    case VK_PRIMITIVE_TOPOLOGY_LINE_LIST:
    case VK_PRIMITIVE_TOPOLOGY_LINE_STRIP: return 2;
    case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST:
    case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP:
    case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_FAN: return 3;
    case VK_PRIMITIVE_TOPOLOGY_LINE_LIST_WITH_ADJACENCY:
    case VK_PRIMITIVE_TOPOLOGY_LINE_STRIP_WITH_ADJACENCY: return 4;
    case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST_WITH_ADJACENCY:
    case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP_WITH_ADJACENCY: return 6;
    default: return 0;
  }
}

uint64_t PrimitiveCount(VkPrimitiveTopology topology, uint64_t n) {
  switch (topology) {
    case VK_PRIMITIVE_TOPOLOGY_POINT_LIST: return n;
    case VK_PRIMITIVE_TOPOLOGY_LINE_LIST: return n / 2;
    case VK_PRIMITIVE_TOPOLOGY_LINE_STRIP: return n >= 2 ? n - 1 : 0;
    case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST: return n / 3;
    case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP:
    case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_FAN: return n >= 3 ? n - 2 : 0;
    case VK_PRIMITIVE_TOPOLOGY_LINE_LIST_WITH_ADJACENCY: return n / 4;
    case VK_PRIMITIVE_TOPOLOGY_LINE_STRIP_WITH_ADJACENCY: return n >= 4 ? n - 3 : 0;
    case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST_WITH_ADJACENCY: return n / 6;
    case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP_WITH_ADJACENCY: return n >= 6 ? (n - 4) / 2 : 0;
    default: return 0;
  }
}

uint64_t PatchPrimitives(std::span<const uint32_t> indices, uint32_t control_points) {
  uint64_t patches = 0;
  ForEachRun(indices, [&](std::span<const uint32_t> run) { patches += run.size() / std::max(control_points, 1u); });
  return patches;
}

uint64_t StripPrimitives(VkPrimitiveTopology topology, std::span<const uint32_t> indices) {
  uint64_t primitives = 0;
  ForEachRun(indices, [&](std::span<const uint32_t> run) { primitives += PrimitiveCount(topology, run.size()); });
  return primitives;
}

void AssembleRuns(VkPrimitiveTopology topology, std::span<const uint32_t> indices, bool provoking_last,
                  std::vector<uint32_t>* out) {
  ForEachRun(indices, [&](std::span<const uint32_t> run) { AssemblePrimitives(topology, run, provoking_last, out); });
}

void AssemblePrimitives(VkPrimitiveTopology topology, std::span<const uint32_t> run, bool provoking_last,
                        std::vector<uint32_t>* out) {
  const uint64_t count = PrimitiveCount(topology, run.size());
  auto put = [&](std::initializer_list<size_t> at) {
    for (size_t i : at) out->push_back(run[i]);
  };
  for (uint64_t k = 0; k < count; ++k) {
    const size_t i = size_t(k);
    switch (topology) {
      case VK_PRIMITIVE_TOPOLOGY_POINT_LIST: put({i}); break;
      case VK_PRIMITIVE_TOPOLOGY_LINE_LIST: put({2 * i, 2 * i + 1}); break;
      case VK_PRIMITIVE_TOPOLOGY_LINE_STRIP: put({i, i + 1}); break;
      case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST: put({3 * i, 3 * i + 1, 3 * i + 2}); break;
      case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP:
        // Odd triangles keep the winding by swapping two vertices: the last
        // two in first-vertex mode, the first two in last-vertex mode.
        if (i % 2 == 0) put({i, i + 1, i + 2});
        else if (provoking_last) put({i + 1, i, i + 2});
        else put({i, i + 2, i + 1});
        break;
      case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_FAN:
        // The provoking vertex (i + 1, or i + 2 in last-vertex mode) at its
        // end of the triangle, the winding kept by a rotation.
        if (provoking_last) put({0, i + 1, i + 2});
        else put({i + 1, i + 2, 0});
        break;
      case VK_PRIMITIVE_TOPOLOGY_LINE_LIST_WITH_ADJACENCY: put({4 * i, 4 * i + 1, 4 * i + 2, 4 * i + 3}); break;
      case VK_PRIMITIVE_TOPOLOGY_LINE_STRIP_WITH_ADJACENCY: put({i, i + 1, i + 2, i + 3}); break;
      case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST_WITH_ADJACENCY:
        put({6 * i, 6 * i + 1, 6 * i + 2, 6 * i + 3, 6 * i + 4, 6 * i + 5});
        break;
      case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP_WITH_ADJACENCY: {
        // The spec's table: vertices 2i, 2i+2, 2i+4 (in odd triangles
        // 2i, 2i+4, 2i+2, keeping the winding with 2i first; in last-vertex
        // mode 2i+2, 2i, 2i+4, with 2i+4 last), each followed by the vertex
        // adjacent to the edge it begins; the strip's ends have fewer
        // neighbours.
        const bool only = count == 1, first = i == 0, last = i + 1 == count;
        const size_t next = last ? 2 * i + 5 : 2 * i + 6;  // beyond the edge (2i+2, 2i+4)
        if (only) {
          put({0, 1, 2, 5, 4, 3});
        } else if (first) {
          put({0, 1, 2, 6, 4, 3});
        } else if (i % 2 == 0) {
          put({2 * i, 2 * i - 2, 2 * i + 2, next, 2 * i + 4, 2 * i + 3});
        } else if (provoking_last) {
          put({2 * i + 2, 2 * i - 2, 2 * i, 2 * i + 3, 2 * i + 4, next});
        } else {
          put({2 * i, 2 * i + 3, 2 * i + 4, next, 2 * i + 2, 2 * i - 2});
        }
        break;
      }
      default: return;
    }
  }
}

}  // namespace duet::raster
