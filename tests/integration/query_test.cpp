// Query pools through the loader: timestamps, occlusion queries without
// draws, the result flags of vkGetQueryPoolResults (64-bit, availability,
// wait, partial), host and command-buffer resets, vkCmdCopyQueryPoolResults.
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

#include "vk_fixture.h"

namespace duet_test {
namespace {

constexpr uint64_t kMs = 1000 * 1000;
constexpr uint8_t kSentinel = 0xA7;
constexpr uint64_t kSentinel64 = 0xA7A7A7A7A7A7A7A7ull;
constexpr uint32_t kSentinel32 = 0xA7A7A7A7u;

class Queries : public QueueTest {
 protected:
  void SetUp() override {
    QueueTest::SetUp();
    if (HasFatalFailure()) return;
    uint32_t count = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(phys_, &count, nullptr);
    std::vector<VkQueueFamilyProperties> props(count);
    vkGetPhysicalDeviceQueueFamilyProperties(phys_, &count, props.data());
    valid_bits_ = props[queue_family_].timestampValidBits;
  }

  // A command buffer that waits for the host to set `event`.
  static void WaitHost(VkCommandBuffer cb, VkEvent event) {
    vkCmdWaitEvents(cb, 1, &event, VK_PIPELINE_STAGE_HOST_BIT, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, 0, nullptr, 0,
                    nullptr, 0, nullptr);
  }

  // Writes timestamps to queries [first, first+count) of `pool` (after a
  // vkCmdResetQueryPool of them) and waits.
  void WriteTimestamps(VkQueryPool pool, uint32_t first, uint32_t count) {
    VkCommandBuffer cb = BeginCommands();
    vkCmdResetQueryPool(cb, pool, first, count);
    for (uint32_t q = first; q < first + count; ++q)
      vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, pool, q);
    EndSubmitWait(cb);
  }

  // Waits 10 s for `fence`. A queue that hangs instead cannot be torn down
  // (vkDeviceWaitIdle would hang too): the test fails and the process ends.
  void WaitFenceOrExit(VkFence fence) {
    const VkResult r = vkWaitForFences(device_, 1, &fence, VK_TRUE, 10ull * 1000 * 1000 * 1000);
    if (r == VK_TIMEOUT) {
      ADD_FAILURE() << "the queue is still busy after 10 s: it waits on its own work";
      std::fflush(nullptr);
      std::_Exit(1);
    }
    VK_ASSERT_OK(r);
  }

  uint32_t valid_bits_ = 0;
};

TEST_F(Queries, TimestampPropertiesAreUsable) {
  EXPECT_GT(valid_bits_, 0u) << "the universal queue family must support timestamps";
  EXPECT_GE(valid_bits_, 36u) << "timestampValidBits must be 0 or in [36, 64]";
  EXPECT_LE(valid_bits_, 64u);
  EXPECT_GT(props_.limits.timestampPeriod, 0.0f);
}

TEST_F(Queries, TimestampsAreOrderedAndMeasureRealTime) {
  ASSERT_GT(valid_bits_, 0u);
  VkQueryPool pool = MakeQueryPool(VK_QUERY_TYPE_TIMESTAMP, 4);
  HostBuffer big = MakeHostBuffer(16 << 20);
  ASSERT_NE(big.data, nullptr);
  VkCommandBuffer cb = BeginCommands();
  vkCmdResetQueryPool(cb, pool, 0, 4);
  vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, pool, 0);
  vkCmdFillBuffer(cb, big.buffer, 0, VK_WHOLE_SIZE, 0x01020304);
  vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, pool, 1);
  vkCmdWriteTimestamp2(cb, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, pool, 2);
  const uint64_t before = MonotonicNs();
  ASSERT_NO_FATAL_FAILURE(EndSubmitWait(cb));
  const uint64_t after = MonotonicNs();

  // Query 3 is held back: it is written only after the host sleeps 50 ms.
  VkEvent event = MakeEvent();
  ScopeExit unblock([&] { vkSetEvent(device_, event); });
  VkCommandBuffer late = BeginCommands();
  WaitHost(late, event);
  vkCmdWriteTimestamp(late, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, pool, 3);
  VK_ASSERT_OK(vkEndCommandBuffer(late));
  VkFence fence = MakeFence();
  ASSERT_NO_FATAL_FAILURE(Submit(late, fence));
  SleepMs(50);
  VK_ASSERT_OK(vkSetEvent(device_, event));
  ASSERT_NO_FATAL_FAILURE(WaitFence(fence));

  uint64_t ts[4] = {};
  VK_ASSERT_OK(vkGetQueryPoolResults(device_, pool, 0, 4, sizeof(ts), ts, 8,
                                     VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT));
  if (valid_bits_ < 64) {
    for (uint64_t t : ts) EXPECT_EQ(t >> valid_bits_, 0u) << "bits above timestampValidBits must be zero";
  }
  EXPECT_LE(ts[0], ts[1]);
  EXPECT_LE(ts[1], ts[2]);
  EXPECT_LT(ts[2], ts[3]);
  const double period = props_.limits.timestampPeriod;
  const double span_ns = double(ts[2] - ts[0]) * period;
  EXPECT_LE(span_ns, double(after - before) + 1e6) << "the commands took longer than their submission";
  EXPECT_GE(double(ts[3] - ts[2]) * period, 45e6) << "query 3 was written at least 50 ms after query 2";
  // The driver documents its timestamps as CLOCK_MONOTONIC nanoseconds
  // (timestampPeriod 1): they fall between the host clock readings.
  if (period == 1.0f && valid_bits_ == 64) {
    EXPECT_GE(ts[0], before);
    EXPECT_LE(ts[2], after);
  }
}

TEST_F(Queries, ResultLayoutsAndFlags) {
  ASSERT_GT(valid_bits_, 0u);
  VkQueryPool pool = MakeQueryPool(VK_QUERY_TYPE_TIMESTAMP, 3);
  ASSERT_NO_FATAL_FAILURE(WriteTimestamps(pool, 0, 3));
  uint64_t ref[3];
  VK_ASSERT_OK(vkGetQueryPoolResults(device_, pool, 0, 3, sizeof(ref), ref, 8, VK_QUERY_RESULT_64_BIT));

  // 64-bit with availability, stride 32: value, availability, then 16
  // bytes the driver must not touch.
  std::vector<uint8_t> data(3 * 32, kSentinel);
  VK_ASSERT_OK(vkGetQueryPoolResults(device_, pool, 0, 3, data.size(), data.data(), 32,
                                     VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WITH_AVAILABILITY_BIT));
  for (uint32_t q = 0; q < 3; ++q) {
    uint64_t v[4];
    std::memcpy(v, data.data() + 32 * q, 32);
    EXPECT_EQ(v[0], ref[q]) << "query " << q;
    EXPECT_NE(v[1], 0u) << "query " << q << " availability";
    EXPECT_EQ(v[2], kSentinel64) << "query " << q << ": bytes past the availability word were written";
    EXPECT_EQ(v[3], kSentinel64);
  }

  // 32-bit, stride 12, with availability: the value wraps or saturates.
  std::vector<uint32_t> narrow(9, kSentinel32);
  VK_ASSERT_OK(vkGetQueryPoolResults(device_, pool, 0, 3, 36, narrow.data(), 12,
                                     VK_QUERY_RESULT_WITH_AVAILABILITY_BIT | VK_QUERY_RESULT_WAIT_BIT));
  for (uint32_t q = 0; q < 3; ++q) {
    const uint32_t v = narrow[3 * q];
    EXPECT_TRUE(v == uint32_t(ref[q]) || (ref[q] > UINT32_MAX && v == UINT32_MAX))
        << "query " << q << ": 32-bit result " << v << " for " << ref[q];
    EXPECT_NE(narrow[3 * q + 1], 0u);
    EXPECT_EQ(narrow[3 * q + 2], kSentinel32);
  }

  // A sub-range: only queries 1 and 2, tightly packed.
  uint64_t two[2] = {};
  VK_ASSERT_OK(vkGetQueryPoolResults(device_, pool, 1, 2, sizeof(two), two, 8, VK_QUERY_RESULT_64_BIT));
  EXPECT_EQ(two[0], ref[1]);
  EXPECT_EQ(two[1], ref[2]);
}

TEST_F(Queries, UnavailableQueryIsNotReadyWithoutWait) {
  VkQueryPool pool = MakeQueryPool(VK_QUERY_TYPE_TIMESTAMP, 2);
  vkResetQueryPool(device_, pool, 0, 2);
  uint64_t data[4];
  std::fill(std::begin(data), std::end(data), kSentinel64);
  VK_EXPECT_RESULT(VK_NOT_READY,
                   vkGetQueryPoolResults(device_, pool, 0, 2, 16, data, 8, VK_QUERY_RESULT_64_BIT));
  EXPECT_EQ(data[0], kSentinel64) << "no value may be written for an unavailable query";
  EXPECT_EQ(data[1], kSentinel64);
  VK_EXPECT_RESULT(VK_NOT_READY, vkGetQueryPoolResults(device_, pool, 0, 2, 32, data, 16,
                                                       VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WITH_AVAILABILITY_BIT));
  EXPECT_EQ(data[0], kSentinel64);
  EXPECT_EQ(data[1], 0u) << "availability is written even for unavailable queries";
  EXPECT_EQ(data[2], kSentinel64);
  EXPECT_EQ(data[3], 0u);

  // Query 0 becomes available, query 1 stays reset: mixed result.
  VkCommandBuffer cb = BeginCommands();
  vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, pool, 0);
  ASSERT_NO_FATAL_FAILURE(EndSubmitWait(cb));
  std::fill(std::begin(data), std::end(data), kSentinel64);
  VK_EXPECT_RESULT(VK_NOT_READY, vkGetQueryPoolResults(device_, pool, 0, 2, 32, data, 16,
                                                       VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WITH_AVAILABILITY_BIT));
  EXPECT_NE(data[0], kSentinel64);
  EXPECT_NE(data[1], 0u);
  EXPECT_EQ(data[2], kSentinel64);
  EXPECT_EQ(data[3], 0u);
  VK_EXPECT_RESULT(VK_SUCCESS, vkGetQueryPoolResults(device_, pool, 0, 1, 8, data, 8, VK_QUERY_RESULT_64_BIT));
}

TEST_F(Queries, WaitBitBlocksUntilTheQueryIsWritten) {
  VkQueryPool pool = MakeQueryPool(VK_QUERY_TYPE_TIMESTAMP, 1);
  vkResetQueryPool(device_, pool, 0, 1);
  VkEvent event = MakeEvent();
  ScopeExit unblock([&] { vkSetEvent(device_, event); });
  VkCommandBuffer cb = BeginCommands();
  WaitHost(cb, event);
  vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, pool, 0);
  VK_ASSERT_OK(vkEndCommandBuffer(cb));
  ASSERT_NO_FATAL_FAILURE(Submit(cb));
  SleepMs(20);
  uint64_t v[2] = {kSentinel64, kSentinel64};
  VK_EXPECT_RESULT(VK_NOT_READY, vkGetQueryPoolResults(device_, pool, 0, 1, 16, v, 16,
                                                       VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WITH_AVAILABILITY_BIT));
  EXPECT_EQ(v[0], kSentinel64);
  EXPECT_EQ(v[1], 0u);

  std::atomic<uint64_t> set_at{0};
  std::thread setter([&] {
    SleepMs(80);
    set_at = MonotonicNs();
    vkSetEvent(device_, event);
  });
  const VkResult r = vkGetQueryPoolResults(device_, pool, 0, 1, 16, v, 16,
                                           VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT |
                                               VK_QUERY_RESULT_WITH_AVAILABILITY_BIT);
  const uint64_t returned_at = MonotonicNs();
  setter.join();
  VK_EXPECT_RESULT(VK_SUCCESS, r);
  EXPECT_GE(returned_at, set_at.load());
  EXPECT_NE(v[0], kSentinel64);
  EXPECT_NE(v[1], 0u);
  ASSERT_EQ(vkQueueWaitIdle(queue_), VK_SUCCESS);
}

TEST_F(Queries, HostResetMakesQueriesUnavailable) {
  VkQueryPool pool = MakeQueryPool(VK_QUERY_TYPE_TIMESTAMP, 4);
  ASSERT_NO_FATAL_FAILURE(WriteTimestamps(pool, 0, 4));
  vkResetQueryPool(device_, pool, 1, 2);  // queries 1 and 2 only
  uint64_t data[8];
  std::fill(std::begin(data), std::end(data), kSentinel64);
  VK_EXPECT_RESULT(VK_NOT_READY, vkGetQueryPoolResults(device_, pool, 0, 4, sizeof(data), data, 16,
                                                       VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WITH_AVAILABILITY_BIT));
  const uint64_t expected_availability[4] = {1, 0, 0, 1};
  for (uint32_t q = 0; q < 4; ++q) {
    if (expected_availability[q]) {
      EXPECT_NE(data[2 * q], kSentinel64) << "query " << q;
      EXPECT_NE(data[2 * q + 1], 0u) << "query " << q;
    } else {
      EXPECT_EQ(data[2 * q], kSentinel64) << "query " << q;
      EXPECT_EQ(data[2 * q + 1], 0u) << "query " << q;
    }
  }
  // Used again after the host reset.
  VkCommandBuffer cb = BeginCommands();
  vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, pool, 1);
  vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, pool, 2);
  ASSERT_NO_FATAL_FAILURE(EndSubmitWait(cb));
  VK_EXPECT_RESULT(VK_SUCCESS, vkGetQueryPoolResults(device_, pool, 0, 4, sizeof(data), data, 16,
                                                     VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WITH_AVAILABILITY_BIT));
}

TEST_F(Queries, CmdResetQueryPoolMakesQueriesUnavailable) {
  VkQueryPool pool = MakeQueryPool(VK_QUERY_TYPE_TIMESTAMP, 3);
  ASSERT_NO_FATAL_FAILURE(WriteTimestamps(pool, 0, 3));
  VkCommandBuffer cb = BeginCommands();
  vkCmdResetQueryPool(cb, pool, 2, 1);
  ASSERT_NO_FATAL_FAILURE(EndSubmitWait(cb));
  uint64_t data[6];
  std::fill(std::begin(data), std::end(data), kSentinel64);
  VK_EXPECT_RESULT(VK_NOT_READY, vkGetQueryPoolResults(device_, pool, 0, 3, sizeof(data), data, 16,
                                                       VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WITH_AVAILABILITY_BIT));
  EXPECT_NE(data[1], 0u);
  EXPECT_NE(data[3], 0u);
  EXPECT_EQ(data[4], kSentinel64);
  EXPECT_EQ(data[5], 0u);
}

TEST_F(Queries, CopyQueryPoolResultsWithStride) {
  VkQueryPool pool = MakeQueryPool(VK_QUERY_TYPE_TIMESTAMP, 4);
  ASSERT_NO_FATAL_FAILURE(WriteTimestamps(pool, 0, 3));
  vkResetQueryPool(device_, pool, 3, 1);  // query 3: reset, never written, unavailable
  uint64_t ref[3];
  VK_ASSERT_OK(vkGetQueryPoolResults(device_, pool, 0, 3, sizeof(ref), ref, 8, VK_QUERY_RESULT_64_BIT));

  HostBuffer b = MakeHostBuffer(512);
  ASSERT_NE(b.data, nullptr);
  std::memset(b.data, kSentinel, b.size);
  VkCommandBuffer cb = BeginCommands();
  FullBarrier(cb);
  // 64-bit + availability at offset 16, stride 24: 4 queries.
  vkCmdCopyQueryPoolResults(cb, pool, 0, 4, b.buffer, 16, 24,
                            VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WITH_AVAILABILITY_BIT);
  // 32-bit without availability at offset 200, stride 8 (queries 0..2, all available, wait).
  vkCmdCopyQueryPoolResults(cb, pool, 0, 3, b.buffer, 200, 8, VK_QUERY_RESULT_WAIT_BIT);
  ASSERT_NO_FATAL_FAILURE(EndSubmitWait(cb));

  auto u64 = [&](size_t off) {
    uint64_t v;
    std::memcpy(&v, b.data + off, 8);
    return v;
  };
  auto u32 = [&](size_t off) {
    uint32_t v;
    std::memcpy(&v, b.data + off, 4);
    return v;
  };
  for (size_t i = 0; i < 16; ++i) ASSERT_EQ(b.data[i], kSentinel) << "byte " << i << " before dstOffset";
  for (uint32_t q = 0; q < 3; ++q) {
    EXPECT_EQ(u64(16 + 24 * q), ref[q]) << "query " << q;
    EXPECT_NE(u64(16 + 24 * q + 8), 0u) << "query " << q;
    EXPECT_EQ(u64(16 + 24 * q + 16), kSentinel64) << "query " << q << " stride gap";
  }
  // Query 3 is unavailable: its availability word is zero (with
  // WITH_AVAILABILITY "results for all queries" are copied, so the value
  // word itself is not specified).
  EXPECT_EQ(u64(16 + 80), 0u);
  for (uint32_t q = 0; q < 3; ++q) {
    const uint32_t v = u32(200 + 8 * q);
    EXPECT_TRUE(v == uint32_t(ref[q]) || (ref[q] > UINT32_MAX && v == UINT32_MAX)) << "query " << q;
    EXPECT_EQ(u32(200 + 8 * q + 4), kSentinel32);
  }
  for (size_t i = 224; i < 512; ++i) ASSERT_EQ(b.data[i], kSentinel) << "byte " << i;
}

TEST_F(Queries, CmdCopyQueryPoolResultsSeesEarlierResetInSameBuffer) {
  // The validation layer warns that a reset query "may return no data":
  // that is what this test checks.
  expected_validation_ids_.push_back("UNASSIGNED-CoreValidation-DrawState-InvalidQuery");
  VkQueryPool pool = MakeQueryPool(VK_QUERY_TYPE_TIMESTAMP, 2);
  ASSERT_NO_FATAL_FAILURE(WriteTimestamps(pool, 0, 2));
  HostBuffer b = MakeHostBuffer(64);
  ASSERT_NE(b.data, nullptr);
  std::memset(b.data, kSentinel, b.size);
  VkCommandBuffer cb = BeginCommands();
  vkCmdResetQueryPool(cb, pool, 0, 2);
  vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, pool, 1);
  vkCmdCopyQueryPoolResults(cb, pool, 0, 2, b.buffer, 0, 16,
                            VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WITH_AVAILABILITY_BIT);
  // Without any flag, nothing is written for an unavailable query.
  vkCmdCopyQueryPoolResults(cb, pool, 0, 1, b.buffer, 32, 4, 0);
  ASSERT_NO_FATAL_FAILURE(EndSubmitWait(cb));
  uint64_t v[4];
  std::memcpy(v, b.data, 32);
  EXPECT_EQ(v[1], 0u) << "query 0 was reset before the copy: unavailable";
  uint32_t w;
  std::memcpy(&w, b.data + 32, 4);
  EXPECT_EQ(w, kSentinel32) << "a value was written for an unavailable query";
  // Query 1's timestamp may or may not be available to a copy without WAIT;
  // if its availability says so, the value must be there.
  if (v[3] != 0) EXPECT_NE(v[2], kSentinel64);
}

TEST_F(Queries, OcclusionQueryWithoutDrawsIsZero) {
  VkQueryPool pool = MakeQueryPool(VK_QUERY_TYPE_OCCLUSION, 2);
  VkCommandBuffer cb = BeginCommands();
  vkCmdResetQueryPool(cb, pool, 0, 2);
  vkCmdBeginQuery(cb, pool, 0, 0);
  vkCmdEndQuery(cb, pool, 0);
  vkCmdBeginQuery(cb, pool, 1, 0);
  vkCmdEndQuery(cb, pool, 1);
  ASSERT_NO_FATAL_FAILURE(EndSubmitWait(cb));
  uint64_t data[4];
  std::fill(std::begin(data), std::end(data), kSentinel64);
  VK_EXPECT_RESULT(VK_SUCCESS, vkGetQueryPoolResults(device_, pool, 0, 2, sizeof(data), data, 16,
                                                     VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WITH_AVAILABILITY_BIT));
  EXPECT_EQ(data[0], 0u);
  EXPECT_EQ(data[1], 1u);
  EXPECT_EQ(data[2], 0u);
  EXPECT_NE(data[3], 0u);
  uint32_t narrow[2] = {kSentinel32, kSentinel32};
  VK_EXPECT_RESULT(VK_SUCCESS, vkGetQueryPoolResults(device_, pool, 0, 2, sizeof(narrow), narrow, 4,
                                                     VK_QUERY_RESULT_WAIT_BIT));
  EXPECT_EQ(narrow[0], 0u);
  EXPECT_EQ(narrow[1], 0u);
}

TEST_F(Queries, OcclusionPartialResultsWhileUnavailable) {
  VkQueryPool pool = MakeQueryPool(VK_QUERY_TYPE_OCCLUSION, 1);
  vkResetQueryPool(device_, pool, 0, 1);
  VkEvent event = MakeEvent();
  ScopeExit unblock([&] { vkSetEvent(device_, event); });
  VkCommandBuffer cb = BeginCommands();
  WaitHost(cb, event);
  vkCmdBeginQuery(cb, pool, 0, 0);
  vkCmdEndQuery(cb, pool, 0);
  VK_ASSERT_OK(vkEndCommandBuffer(cb));
  VkFence fence = MakeFence();
  ASSERT_NO_FATAL_FAILURE(Submit(cb, fence));

  // Unavailable: PARTIAL writes a value between zero and the final result
  // (which is 0 without draws), and the availability word is zero.
  uint64_t v[2] = {kSentinel64, kSentinel64};
  const VkResult r = vkGetQueryPoolResults(device_, pool, 0, 1, 16, v, 16,
                                           VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_PARTIAL_BIT |
                                               VK_QUERY_RESULT_WITH_AVAILABILITY_BIT);
  EXPECT_TRUE(r == VK_SUCCESS || r == VK_NOT_READY) << R{r};
  EXPECT_EQ(v[0], 0u) << "a partial result must be written";
  EXPECT_EQ(v[1], 0u);

  VK_ASSERT_OK(vkSetEvent(device_, event));
  ASSERT_NO_FATAL_FAILURE(WaitFence(fence));
  v[0] = v[1] = kSentinel64;
  VK_EXPECT_RESULT(VK_SUCCESS, vkGetQueryPoolResults(device_, pool, 0, 1, 16, v, 16,
                                                     VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_PARTIAL_BIT |
                                                         VK_QUERY_RESULT_WITH_AVAILABILITY_BIT));
  EXPECT_EQ(v[0], 0u);
  EXPECT_NE(v[1], 0u);
}

TEST_F(Queries, HostReadsResultsWhileTheQueueWritesThem) {
  // A host thread polls without WAIT while the queue writes 64 timestamps,
  // one per submission: availability only goes from 0 to 1, and an
  // available query always has its value.
  constexpr uint32_t kCount = 64;
  VkQueryPool pool = MakeQueryPool(VK_QUERY_TYPE_TIMESTAMP, kCount);
  vkResetQueryPool(device_, pool, 0, kCount);
  std::atomic<bool> stop{false};
  std::atomic<uint32_t> errors{0};
  std::thread poller([&] {
    std::vector<bool> seen(kCount, false);
    std::vector<uint64_t> data(2 * kCount);
    while (!stop.load()) {
      std::fill(data.begin(), data.end(), kSentinel64);
      const VkResult r = vkGetQueryPoolResults(device_, pool, 0, kCount, 16 * kCount, data.data(), 16,
                                               VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WITH_AVAILABILITY_BIT);
      if (r != VK_SUCCESS && r != VK_NOT_READY) ++errors;
      for (uint32_t q = 0; q < kCount; ++q) {
        const bool available = data[2 * q + 1] != 0;
        if (seen[q] && !available) ++errors;                   // availability went back
        if (available && data[2 * q] == kSentinel64) ++errors;  // available without a value
        seen[q] = seen[q] || available;
      }
    }
  });
  for (uint32_t q = 0; q < kCount; ++q) {
    VkCommandBuffer cb = BeginCommands();
    vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, pool, q);
    VK_ASSERT_OK(vkEndCommandBuffer(cb));
    ASSERT_NO_FATAL_FAILURE(Submit(cb));
  }
  VK_ASSERT_OK(vkQueueWaitIdle(queue_));
  stop = true;
  poller.join();
  EXPECT_EQ(errors.load(), 0u);
  std::vector<uint64_t> ts(kCount);
  VK_EXPECT_RESULT(VK_SUCCESS, vkGetQueryPoolResults(device_, pool, 0, kCount, 8 * kCount, ts.data(), 8,
                                                     VK_QUERY_RESULT_64_BIT));
}

TEST_F(Queries, TimestampsOfSuccessiveSubmissionsAreMonotonic) {
  constexpr uint32_t kCount = 64;
  VkQueryPool pool = MakeQueryPool(VK_QUERY_TYPE_TIMESTAMP, kCount);
  vkResetQueryPool(device_, pool, 0, kCount);
  // Timestamps are only comparable within one queue: all go to queue_.
  for (uint32_t q = 0; q < kCount; ++q) {
    VkCommandBuffer cb = BeginCommands();
    vkCmdWriteTimestamp2(cb, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, pool, q);
    VK_ASSERT_OK(vkEndCommandBuffer(cb));
    ASSERT_NO_FATAL_FAILURE(Submit(cb));
  }
  std::vector<uint64_t> ts(kCount);
  VK_ASSERT_OK(vkGetQueryPoolResults(device_, pool, 0, kCount, 8 * kCount, ts.data(), 8,
                                     VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT));
  for (uint32_t q = 1; q < kCount; ++q) EXPECT_LE(ts[q - 1], ts[q]) << "query " << q;
}

// A copy with WAIT of a query nothing makes available is the application's
// error, but the queue runs it in order: it must not wait for work behind it
// (or for nothing) and hang itself and every fence after it.
TEST_F(Queries, CopyWithWaitOfAnUnavailableQueryDoesNotHangTheQueue) {
  expected_validation_ids_.push_back("UNASSIGNED-CoreValidation-DrawState-InvalidQuery");
  VkQueryPool pool = MakeQueryPool(VK_QUERY_TYPE_OCCLUSION, 2);
  HostBuffer b = MakeHostBuffer(64);
  ASSERT_NE(b.data, nullptr);
  std::memset(b.data, kSentinel, b.size);
  VkCommandBuffer cb = BeginCommands();
  vkCmdResetQueryPool(cb, pool, 0, 2);
  vkCmdBeginQuery(cb, pool, 0, 0);
  vkCmdEndQuery(cb, pool, 0);
  // Query 1 is reset and never begun.
  vkCmdCopyQueryPoolResults(cb, pool, 0, 2, b.buffer, 0, 16,
                            VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT | VK_QUERY_RESULT_WITH_AVAILABILITY_BIT);
  VK_ASSERT_OK(vkEndCommandBuffer(cb));
  VkFence fence = MakeFence();
  ASSERT_NO_FATAL_FAILURE(Submit(cb, fence));
  ASSERT_NO_FATAL_FAILURE(WaitFenceOrExit(fence));
  uint64_t v[4];
  std::memcpy(v, b.data, sizeof v);
  EXPECT_EQ(v[0], 0u);
  EXPECT_NE(v[1], 0u) << "query 0 ended before the copy";
  EXPECT_EQ(v[3], 0u) << "query 1 never became available";
  // The queue goes on working.
  ASSERT_NO_FATAL_FAILURE(WriteTimestamps(MakeQueryPool(VK_QUERY_TYPE_TIMESTAMP, 1), 0, 1));
}

// On the host, WAIT for a query that no queued work will ever make
// available may end in VK_ERROR_DEVICE_LOST (the spec's words), not in a
// wait for ever; the device itself is not lost.
TEST_F(Queries, HostWaitForAQueryNothingWillWriteReturns) {
  expected_validation_ids_.push_back("UNASSIGNED-CoreValidation-DrawState-InvalidQuery");
  VkQueryPool pool = MakeQueryPool(VK_QUERY_TYPE_TIMESTAMP, 1);
  vkResetQueryPool(device_, pool, 0, 1);
  std::atomic<bool> done{false};
  std::atomic<VkResult> result{VK_SUCCESS};
  std::thread waiter([&] {
    uint64_t v = 0;
    result = vkGetQueryPoolResults(device_, pool, 0, 1, 8, &v, 8, VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT);
    done = true;
  });
  for (int i = 0; i < 1000 && !done.load(); ++i) SleepMs(10);
  if (!done.load()) {
    ADD_FAILURE() << "vkGetQueryPoolResults with WAIT still waits after 10 s for a query nothing writes";
    std::fflush(nullptr);
    std::_Exit(1);  // the waiting thread cannot be joined
  }
  waiter.join();
  VK_EXPECT_RESULT(VK_ERROR_DEVICE_LOST, result.load());
  ASSERT_NO_FATAL_FAILURE(WriteTimestamps(pool, 0, 1));
  uint64_t v = 0;
  VK_EXPECT_RESULT(VK_SUCCESS, vkGetQueryPoolResults(device_, pool, 0, 1, 8, &v, 8,
                                                     VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT));
}

// Inside a multiview render pass instance a query takes one index per view
// (the spec: N consecutive queries, N the view mask's bits); all of them
// become available, so a copy with WAIT of the N finds them.
class MultiviewQueries : public Queries {
 protected:
  MultiviewQueries() { device_options_.render_pass_features = true; }
};

TEST_F(MultiviewQueries, QueriesInAMultiviewRenderingTakeOneIndexPerView) {
  // This validation layer does not know that the views take the indices
  // after the first: it reports the copy of those as of unissued queries.
  expected_validation_ids_.push_back("UNASSIGNED-CoreValidation-DrawState-InvalidQuery");
  constexpr uint32_t kViewMask = 0b1011;  // three views
  constexpr uint32_t kViews = 3;
  VkImageCreateInfo ici{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
  ici.imageType = VK_IMAGE_TYPE_2D;
  ici.format = VK_FORMAT_R8G8B8A8_UNORM;
  ici.extent = {4, 4, 1};
  ici.mipLevels = 1;
  ici.arrayLayers = 4;
  ici.samples = VK_SAMPLE_COUNT_1_BIT;
  ici.tiling = VK_IMAGE_TILING_OPTIMAL;
  ici.usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT;
  VkImage image = MakeGeneralImage(ici);
  ASSERT_NE(image, VK_NULL_HANDLE);
  VkImageViewCreateInfo vci{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
  vci.image = image;
  vci.viewType = VK_IMAGE_VIEW_TYPE_2D_ARRAY;
  vci.format = ici.format;
  vci.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 4};
  VkImageView view = VK_NULL_HANDLE;
  VK_ASSERT_OK(vkCreateImageView(device_, &vci, nullptr, &view));
  Defer([this, view] { vkDestroyImageView(device_, view, nullptr); });

  VkQueryPool occlusion = MakeQueryPool(VK_QUERY_TYPE_OCCLUSION, kViews);
  VkQueryPool timestamps = MakeQueryPool(VK_QUERY_TYPE_TIMESTAMP, kViews);
  HostBuffer b = MakeHostBuffer(2 * kViews * 16);
  ASSERT_NE(b.data, nullptr);
  std::memset(b.data, kSentinel, b.size);

  VkCommandBuffer cb = BeginCommands();
  vkCmdResetQueryPool(cb, occlusion, 0, kViews);
  vkCmdResetQueryPool(cb, timestamps, 0, kViews);
  VkRenderingAttachmentInfo color{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
  color.imageView = view;
  color.imageLayout = VK_IMAGE_LAYOUT_GENERAL;
  color.loadOp = VK_ATTACHMENT_LOAD_OP_LOAD;
  color.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
  VkRenderingInfo info{VK_STRUCTURE_TYPE_RENDERING_INFO};
  info.renderArea = {{0, 0}, {4, 4}};
  info.viewMask = kViewMask;
  info.colorAttachmentCount = 1;
  info.pColorAttachments = &color;
  vkCmdBeginRendering(cb, &info);
  vkCmdBeginQuery(cb, occlusion, 0, 0);
  vkCmdEndQuery(cb, occlusion, 0);
  vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, timestamps, 0);
  vkCmdEndRendering(cb);
  const VkQueryResultFlags flags =
      VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT | VK_QUERY_RESULT_WITH_AVAILABILITY_BIT;
  vkCmdCopyQueryPoolResults(cb, occlusion, 0, kViews, b.buffer, 0, 16, flags);
  vkCmdCopyQueryPoolResults(cb, timestamps, 0, kViews, b.buffer, kViews * 16, 16, flags);
  VK_ASSERT_OK(vkEndCommandBuffer(cb));
  VkFence fence = MakeFence();
  ASSERT_NO_FATAL_FAILURE(Submit(cb, fence));
  ASSERT_NO_FATAL_FAILURE(WaitFenceOrExit(fence));

  for (uint32_t q = 0; q < 2 * kViews; ++q) {
    uint64_t v[2];
    std::memcpy(v, b.data + 16 * q, 16);
    EXPECT_NE(v[1], 0u) << (q < kViews ? "occlusion" : "timestamp") << " query " << q % kViews
                        << " of the view mask's three is unavailable";
    if (q < kViews) EXPECT_EQ(v[0], 0u) << "occlusion query " << q << ": nothing was drawn";
  }
  // The host sees the same, without waiting.
  uint64_t host[2 * kViews];
  VK_EXPECT_RESULT(VK_SUCCESS, vkGetQueryPoolResults(device_, occlusion, 0, kViews, sizeof host, host, 16,
                                                     VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WITH_AVAILABILITY_BIT));
}

}  // namespace
}  // namespace duet_test
