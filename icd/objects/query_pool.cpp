#include "objects/query_pool.h"

#include <time.h>

#include <cstring>
#include <mutex>

#include "dispatch/entrypoints.h"
#include "objects/device.h"
#include "util/host_alloc.h"
#include "util/log.h"

namespace duet {

uint64_t ClockNanoseconds(clockid_t clock) {
  timespec ts{};
  clock_gettime(clock, &ts);
  return uint64_t(ts.tv_sec) * 1000000000ull + uint64_t(ts.tv_nsec);
}

uint64_t TimestampNow() { return ClockNanoseconds(CLOCK_MONOTONIC); }

void ResetQueries(Device* device, QueryPool* pool, uint32_t first, uint32_t count) {
  std::lock_guard lock(device->sync_mutex);
  for (uint32_t i = first; i < first + count && i < pool->queries.size(); ++i) pool->queries[i] = {};
}

void CompleteQuery(Device* device, QueryPool* pool, uint32_t query, std::span<const uint64_t> values) {
  {
    std::lock_guard lock(device->sync_mutex);
    if (query >= pool->queries.size()) return;
    QueryPool::Query& q = pool->queries[query];
    q.values = {};
    for (size_t i = 0; i < values.size() && i < q.values.size(); ++i) q.values[i] = values[i];
    q.available = true;
  }
  device->sync_cv.notify_all();
}

VkResult WriteQueryResults(Device* device, QueryPool* pool, uint32_t first, uint32_t count, void* data,
                           VkDeviceSize stride, VkQueryResultFlags flags, QueryResultsCaller caller) {
  const bool wide = (flags & VK_QUERY_RESULT_64_BIT) != 0;
  // On a queue, everything that could make a query available has run
  // already (work is in submission order): a wait there could only be for
  // work behind it or for nothing, and would hang the queue.
  const bool wait = (flags & VK_QUERY_RESULT_WAIT_BIT) != 0 && caller == QueryResultsCaller::kHost;
  const bool partial = (flags & VK_QUERY_RESULT_PARTIAL_BIT) != 0;
  const bool with_availability = (flags & VK_QUERY_RESULT_WITH_AVAILABILITY_BIT) != 0;
  auto put = [&](std::byte* at, uint64_t v) {
    if (wide) {
      std::memcpy(at, &v, 8);
    } else {
      uint32_t narrow = static_cast<uint32_t>(v);
      std::memcpy(at, &narrow, 4);
    }
  };

  VkResult result = VK_SUCCESS;
  std::unique_lock lock(device->sync_mutex);
  for (uint32_t i = 0; i < count; ++i) {
    if (first + i >= pool->queries.size()) break;
    QueryPool::Query& query = pool->queries[first + i];
    if (wait) {
      // Only queued work can make a query available. Once every queue is
      // idle, one that is still unavailable never will be (the spec allows
      // VK_ERROR_DEVICE_LOST then, rather than waiting for ever).
      device->sync_cv.wait(lock, [&] {
        return query.available || device->lost.load() || device->queued_submissions.load() == 0;
      });
      if (!query.available && !device->lost) {
        DUET_WARN("vkGetQueryPoolResults: WAIT for query %u, which no queued work makes available", first + i);
        return VK_ERROR_DEVICE_LOST;
      }
    }
    if (device->lost) return VK_ERROR_DEVICE_LOST;
    std::byte* at = static_cast<std::byte*>(data) + i * stride;
    const size_t size = wide ? 8 : 4;
    const uint32_t values = pool->ValueCount();
    if (query.available || partial)
      for (uint32_t v = 0; v < values; ++v) put(at + v * size, query.available ? query.values[v] : 0);
    if (!query.available) result = VK_NOT_READY;
    if (with_availability) put(at + values * size, query.available ? 1 : 0);
  }
  return result;
}

}  // namespace duet

namespace duet::api {

VKAPI_ATTR VkResult VKAPI_CALL CreateQueryPool(VkDevice _device, const VkQueryPoolCreateInfo* pCreateInfo,
                                               const VkAllocationCallbacks* pAllocator, VkQueryPool* pQueryPool) {
  Device* device = FromHandle<Device>(_device);
  const VkQueryType type = pCreateInfo->queryType;
  if (type != VK_QUERY_TYPE_OCCLUSION && type != VK_QUERY_TYPE_TIMESTAMP && type != VK_QUERY_TYPE_PIPELINE_STATISTICS &&
      type != VK_QUERY_TYPE_TRANSFORM_FEEDBACK_STREAM_EXT && type != VK_QUERY_TYPE_PRIMITIVES_GENERATED_EXT) {
    DUET_WARN("vkCreateQueryPool: query type %d is not supported", pCreateInfo->queryType);
    return VK_ERROR_FEATURE_NOT_PRESENT;
  }
  const VkAllocationCallbacks* allocator = ChooseAllocator(pAllocator, device->Allocator());
  auto* pool = HostNew<QueryPool>(allocator, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT, allocator);
  if (pool == nullptr) return VK_ERROR_OUT_OF_HOST_MEMORY;
  pool->type = pCreateInfo->queryType;
  if (pool->type == VK_QUERY_TYPE_PIPELINE_STATISTICS)
    pool->statistics = pCreateInfo->pipelineStatistics & ((1u << QueryPool::kMaxValues) - 1);
  try {
    pool->queries.resize(pCreateInfo->queryCount);
  } catch (const std::bad_alloc&) {
    HostDelete(allocator, pool);
    return VK_ERROR_OUT_OF_HOST_MEMORY;
  }
  *pQueryPool = ToHandle(pool);
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL DestroyQueryPool(VkDevice _device, VkQueryPool queryPool,
                                            const VkAllocationCallbacks* pAllocator) {
  Device* device = FromHandle<Device>(_device);
  HostDelete(ChooseAllocator(pAllocator, device->Allocator()), FromHandle<QueryPool>(queryPool));
}

VKAPI_ATTR void VKAPI_CALL ResetQueryPool(VkDevice device, VkQueryPool queryPool, uint32_t firstQuery,
                                          uint32_t queryCount) {
  ResetQueries(FromHandle<Device>(device), FromHandle<QueryPool>(queryPool), firstQuery, queryCount);
}

VKAPI_ATTR VkResult VKAPI_CALL GetQueryPoolResults(VkDevice device, VkQueryPool queryPool, uint32_t firstQuery,
                                                   uint32_t queryCount, size_t, void* pData, VkDeviceSize stride,
                                                   VkQueryResultFlags flags) {
  return WriteQueryResults(FromHandle<Device>(device), FromHandle<QueryPool>(queryPool), firstQuery, queryCount, pData,
                           stride, flags, QueryResultsCaller::kHost);
}

}  // namespace duet::api
