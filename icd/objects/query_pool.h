// Query pools: timestamps, occlusion counts, pipeline statistics, transform
// feedback streams and primitives generated.
// Results and availability are guarded by Device::sync_mutex, so host waits
// share the device's condition with fences and semaphores.
#pragma once

#include <time.h>
#include <vulkan/vulkan_core.h>

#include <array>
#include <bit>
#include <cstdint>
#include <memory_resource>
#include <span>
#include <vector>

#include "util/host_alloc.h"
#include "util/object.h"

namespace duet {

struct Device;

struct QueryPool : NonDispatchableObject {
  DUET_OBJECT_TYPE(VkQueryPool, VK_OBJECT_TYPE_QUERY_POOL);

  explicit QueryPool(const VkAllocationCallbacks* allocator)
      : NonDispatchableObject(kObjectType), memory(allocator, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT) {}

  // The statistics of VkQueryPipelineStatisticFlagBits 0..10 (vertex,
  // geometry, tessellation, fragment and compute stages).
  static constexpr uint32_t kMaxValues = 11;

  struct Query {
    std::array<uint64_t, kMaxValues> values{};  // ValueCount() of them
    bool available = false;
  };

  HostMemoryResource memory;  // queries
  VkQueryType type = VK_QUERY_TYPE_OCCLUSION;
  VkQueryPipelineStatisticFlags statistics = 0;  // pipeline statistics pools: what each query counts
  std::pmr::vector<Query> queries{&memory};

  // The values one query's result holds: one per statistic, two for a
  // transform feedback stream (primitives written, needed), else one.
  uint32_t ValueCount() const {
    if (type == VK_QUERY_TYPE_PIPELINE_STATISTICS) return uint32_t(std::popcount(statistics));
    return type == VK_QUERY_TYPE_TRANSFORM_FEEDBACK_STREAM_EXT ? 2 : 1;
  }
};

// Queue-side updates; each takes Device::sync_mutex.
void ResetQueries(Device* device, QueryPool* pool, uint32_t first, uint32_t count);
void CompleteQuery(Device* device, QueryPool* pool, uint32_t query, std::span<const uint64_t> values);
inline void CompleteQuery(Device* device, QueryPool* pool, uint32_t query, uint64_t value) {
  CompleteQuery(device, pool, query, {&value, 1});
}

enum class QueryResultsCaller { kHost, kQueue };

// Writes results as vkGetQueryPoolResults / vkCmdCopyQueryPoolResults define
// them. Returns VK_NOT_READY when a query was unavailable and not waited for.
// VK_QUERY_RESULT_WAIT_BIT waits on the host only, and only while queues
// have work; a queue's copy never waits (the queue would wait on itself).
VkResult WriteQueryResults(Device* device, QueryPool* pool, uint32_t first, uint32_t count, void* data,
                           VkDeviceSize stride, VkQueryResultFlags flags, QueryResultsCaller caller);

// Nanoseconds on the clock timestamps are taken from (timestampPeriod = 1).
uint64_t TimestampNow();
// Nanoseconds of a POSIX clock (TimestampNow: CLOCK_MONOTONIC).
uint64_t ClockNanoseconds(clockid_t clock);

}  // namespace duet
