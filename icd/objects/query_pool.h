// Query pools: timestamps and occlusion counts. Results and availability
// are guarded by Device::sync_mutex, so host waits share the device's
// condition with fences and semaphores.
#pragma once

#include <vulkan/vulkan_core.h>

#include <cstdint>
#include <vector>

#include "util/object.h"

namespace duet {

struct Device;

struct QueryPool : NonDispatchableObject {
  DUET_OBJECT_TYPE(VkQueryPool, VK_OBJECT_TYPE_QUERY_POOL);

  QueryPool() : NonDispatchableObject(kObjectType) {}

  struct Query {
    uint64_t value = 0;
    bool available = false;
  };

  VkQueryType type = VK_QUERY_TYPE_OCCLUSION;
  std::vector<Query> queries;
};

// Queue-side updates; each takes Device::sync_mutex.
void ResetQueries(Device* device, QueryPool* pool, uint32_t first, uint32_t count);
void CompleteQuery(Device* device, QueryPool* pool, uint32_t query, uint64_t value);

enum class QueryResultsCaller { kHost, kQueue };

// Writes results as vkGetQueryPoolResults / vkCmdCopyQueryPoolResults define
// them. Returns VK_NOT_READY when a query was unavailable and not waited for.
// VK_QUERY_RESULT_WAIT_BIT waits on the host only, and only while queues
// have work; a queue's copy never waits (the queue would wait on itself).
VkResult WriteQueryResults(Device* device, QueryPool* pool, uint32_t first, uint32_t count, void* data,
                           VkDeviceSize stride, VkQueryResultFlags flags, QueryResultsCaller caller);

// Nanoseconds on the clock timestamps are taken from (timestampPeriod = 1).
uint64_t TimestampNow();

}  // namespace duet
