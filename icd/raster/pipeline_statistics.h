// What pipeline statistics queries count (VkQueryPipelineStatisticFlagBits
// 0..10): draws and dispatches add to it while a query is active.
#pragma once

#include <vulkan/vulkan_core.h>

#include <array>
#include <bit>
#include <cstdint>

namespace duet::raster {

struct PipelineStatistics {
  std::array<uint64_t, 11> counts{};  // by the statistic's bit number

  void Add(VkQueryPipelineStatisticFlagBits statistic, uint64_t n) {
    counts[size_t(std::countr_zero(uint32_t(statistic)))] += n;
  }
  // The values a query counting `flags` reports, in bit order; returns how many.
  uint32_t Values(VkQueryPipelineStatisticFlags flags, uint64_t* out) const {
    uint32_t n = 0;
    for (uint32_t bit = 0; bit < counts.size(); ++bit)
      if ((flags >> bit) & 1) out[n++] = counts[bit];
    return n;
  }
};

struct TransformFeedback;  // primitive/transform_feedback.h

// What the active queries count during a draw (null: nothing counts).
struct DrawCounters {
  uint64_t* samples_passed = nullptr;        // occlusion queries
  PipelineStatistics* statistics = nullptr;  // pipeline statistics queries
  // Per vertex stream: primitives-generated queries, and transform
  // feedback stream queries (primitives written, primitives needed).
  std::array<uint64_t*, 4> primitives_generated{};
  std::array<uint64_t*, 4> xfb_written{}, xfb_needed{};
  TransformFeedback* transform_feedback = nullptr;  // active transform feedback, else null
  bool CountsStreams() const {
    for (size_t s = 0; s < 4; ++s)
      if (primitives_generated[s] != nullptr || xfb_needed[s] != nullptr) return true;
    return false;
  }
};

}  // namespace duet::raster
