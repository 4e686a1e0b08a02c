// Queue execution and synchronization through the loader: fences,
// binary and timeline semaphores, events, vkQueueWaitIdle/vkDeviceWaitIdle,
// vkQueueSubmit2. Each ordering test makes the queue's result depend on the
// order (a copy reads what an earlier, blocked submission writes), so it
// fails if the driver runs work early, late or not at all.
#include <atomic>
#include <cstring>
#include <thread>
#include <vector>

#include "vk_fixture.h"

namespace duet_test {
namespace {

constexpr uint64_t kMs = 1000 * 1000;

class Sync : public QueueTest {
 protected:
  // Records vkCmdFillBuffer of the whole buffer.
  static void Fill(VkCommandBuffer cb, const HostBuffer& b, uint32_t value) {
    vkCmdFillBuffer(cb, b.buffer, 0, VK_WHOLE_SIZE, value);
  }
  static void Copy(VkCommandBuffer cb, const HostBuffer& src, const HostBuffer& dst) {
    VkBufferCopy region{0, 0, std::min(src.size, dst.size)};
    vkCmdCopyBuffer(cb, src.buffer, dst.buffer, 1, &region);
  }
  // Every 32-bit word of the buffer equals `value`.
  static ::testing::AssertionResult AllWords(const HostBuffer& b, uint32_t value) {
    const uint32_t* w = b.as<uint32_t>();
    for (size_t i = 0; i < b.size / 4; ++i) {
      if (w[i] != value) {
        return ::testing::AssertionFailure()
               << "word " << i << " is 0x" << std::hex << w[i] << ", expected 0x" << value;
      }
    }
    return ::testing::AssertionSuccess();
  }
  // A command buffer that waits for `event` (set by the host) and then fills `b`.
  VkCommandBuffer WaitHostEventThenFill(VkEvent event, const HostBuffer& b, uint32_t value, bool sync2) {
    VkCommandBuffer cb = BeginCommands();
    if (cb == VK_NULL_HANDLE) return cb;
    if (sync2) {
      VkMemoryBarrier2 mb{VK_STRUCTURE_TYPE_MEMORY_BARRIER_2};
      mb.srcStageMask = VK_PIPELINE_STAGE_2_HOST_BIT;
      mb.srcAccessMask = VK_ACCESS_2_HOST_WRITE_BIT;
      mb.dstStageMask = VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT;
      mb.dstAccessMask = VK_ACCESS_2_TRANSFER_WRITE_BIT;
      VkDependencyInfo dep{VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
      dep.memoryBarrierCount = 1;
      dep.pMemoryBarriers = &mb;
      vkCmdWaitEvents2(cb, 1, &event, &dep);
    } else {
      VkMemoryBarrier mb{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
      mb.srcAccessMask = VK_ACCESS_HOST_WRITE_BIT;
      mb.dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
      vkCmdWaitEvents(cb, 1, &event, VK_PIPELINE_STAGE_HOST_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 1, &mb, 0, nullptr,
                      0, nullptr);
    }
    Fill(cb, b, value);
    HostReadBarrier(cb);
    EXPECT_EQ(vkEndCommandBuffer(cb), VK_SUCCESS);
    return cb;
  }
  // A command buffer that fills `b` (nothing else).
  VkCommandBuffer FillCommands(const HostBuffer& b, uint32_t value) {
    VkCommandBuffer cb = BeginCommands();
    if (cb == VK_NULL_HANDLE) return cb;
    Fill(cb, b, value);
    HostReadBarrier(cb);
    EXPECT_EQ(vkEndCommandBuffer(cb), VK_SUCCESS);
    return cb;
  }
  VkCommandBuffer CopyCommands(const HostBuffer& src, const HostBuffer& dst) {
    VkCommandBuffer cb = BeginCommands();
    if (cb == VK_NULL_HANDLE) return cb;
    FullBarrier(cb);
    Copy(cb, src, dst);
    HostReadBarrier(cb);
    EXPECT_EQ(vkEndCommandBuffer(cb), VK_SUCCESS);
    return cb;
  }
  // Signals `semaphore` to `value` from the host unless it is there already
  // (used by ScopeExit guards so a failing test never leaves a queue blocked).
  void UnblockTimeline(VkSemaphore semaphore, uint64_t value) {
    uint64_t now = 0;
    if (vkGetSemaphoreCounterValue(device_, semaphore, &now) != VK_SUCCESS || now >= value) return;
    VkSemaphoreSignalInfo si{VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO};
    si.semaphore = semaphore;
    si.value = value;
    vkSignalSemaphore(device_, &si);
  }
  void HostSignal(VkSemaphore semaphore, uint64_t value) {
    VkSemaphoreSignalInfo si{VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO};
    si.semaphore = semaphore;
    si.value = value;
    VK_EXPECT_OK(vkSignalSemaphore(device_, &si));
  }
  // vkQueueSubmit of one command buffer with timeline wait/signal values
  // (a zero semaphore means none).
  void SubmitTimeline(VkQueue queue, VkCommandBuffer cb, VkSemaphore wait, uint64_t wait_value, VkSemaphore signal,
                      uint64_t signal_value, VkFence fence = VK_NULL_HANDLE) {
    VkTimelineSemaphoreSubmitInfo ti{VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO};
    ti.waitSemaphoreValueCount = wait != VK_NULL_HANDLE ? 1 : 0;
    ti.pWaitSemaphoreValues = &wait_value;
    ti.signalSemaphoreValueCount = signal != VK_NULL_HANDLE ? 1 : 0;
    ti.pSignalSemaphoreValues = &signal_value;
    const VkPipelineStageFlags stage = VK_PIPELINE_STAGE_ALL_COMMANDS_BIT;
    VkSubmitInfo si{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    si.pNext = &ti;
    si.waitSemaphoreCount = ti.waitSemaphoreValueCount;
    si.pWaitSemaphores = &wait;
    si.pWaitDstStageMask = &stage;
    si.commandBufferCount = cb != VK_NULL_HANDLE ? 1 : 0;
    si.pCommandBuffers = &cb;
    si.signalSemaphoreCount = ti.signalSemaphoreValueCount;
    si.pSignalSemaphores = &signal;
    VK_ASSERT_OK(vkQueueSubmit(queue, 1, &si, fence));
  }
  uint64_t Counter(VkSemaphore s) {
    uint64_t v = ~0ull;
    EXPECT_EQ(vkGetSemaphoreCounterValue(device_, s, &v), VK_SUCCESS);
    return v;
  }
};

// ---------------------------------------------------------------------------
// Fences

TEST_F(Sync, FenceCreatedSignaledResetAndStatus) {
  VkFence signaled = MakeFence(true);
  VkFence unsignaled = MakeFence(false);
  VK_EXPECT_RESULT(VK_SUCCESS, vkGetFenceStatus(device_, signaled));
  VK_EXPECT_RESULT(VK_NOT_READY, vkGetFenceStatus(device_, unsignaled));
  VK_EXPECT_RESULT(VK_SUCCESS, vkWaitForFences(device_, 1, &signaled, VK_TRUE, 0));
  VK_EXPECT_RESULT(VK_TIMEOUT, vkWaitForFences(device_, 1, &unsignaled, VK_TRUE, 0));

  VK_EXPECT_OK(vkResetFences(device_, 1, &signaled));
  VK_EXPECT_RESULT(VK_NOT_READY, vkGetFenceStatus(device_, signaled));
  VK_EXPECT_RESULT(VK_TIMEOUT, vkWaitForFences(device_, 1, &signaled, VK_TRUE, 0));
  // Resetting an unsignaled fence is allowed and changes nothing.
  VK_EXPECT_OK(vkResetFences(device_, 1, &signaled));
  VK_EXPECT_RESULT(VK_NOT_READY, vkGetFenceStatus(device_, signaled));

  // Both fences signaled by one empty submission each; reset both at once.
  const VkFence both[] = {signaled, unsignaled};
  VK_ASSERT_OK(vkQueueSubmit(queue_, 0, nullptr, both[0]));
  VK_ASSERT_OK(vkQueueSubmit(queue_, 0, nullptr, both[1]));
  VK_EXPECT_OK(vkWaitForFences(device_, 2, both, VK_TRUE, kWaitNs));
  VK_EXPECT_RESULT(VK_SUCCESS, vkGetFenceStatus(device_, both[0]));
  VK_EXPECT_RESULT(VK_SUCCESS, vkGetFenceStatus(device_, both[1]));
  VK_EXPECT_OK(vkResetFences(device_, 2, both));
  VK_EXPECT_RESULT(VK_NOT_READY, vkGetFenceStatus(device_, both[0]));
  VK_EXPECT_RESULT(VK_NOT_READY, vkGetFenceStatus(device_, both[1]));
}

TEST_F(Sync, FenceWaitTimeoutZeroOnUnsignaledFenceReturnsTimeoutAtOnce) {
  VkFence fence = MakeFence();
  const uint64_t t0 = MonotonicNs();
  VK_EXPECT_RESULT(VK_TIMEOUT, vkWaitForFences(device_, 1, &fence, VK_TRUE, 0));
  VK_EXPECT_RESULT(VK_TIMEOUT, vkWaitForFences(device_, 1, &fence, VK_FALSE, 0));
  EXPECT_LT(MonotonicNs() - t0, 100 * kMs) << "a zero timeout must not block";
}

TEST_F(Sync, FenceWaitSmallTimeoutReturnsTimeoutAfterRoughlyThatTime) {
  VkFence fences[] = {MakeFence(), MakeFence()};
  for (VkBool32 wait_all : {VK_TRUE, VK_FALSE}) {
    const uint64_t timeout = 60 * kMs;
    const uint64_t t0 = MonotonicNs();
    VK_EXPECT_RESULT(VK_TIMEOUT, vkWaitForFences(device_, 2, fences, wait_all, timeout));
    const uint64_t elapsed = MonotonicNs() - t0;
    // The spec lets the accuracy differ; a wait that returns far earlier or
    // much later than asked is wrong.
    EXPECT_GE(elapsed, 50 * kMs) << "waitAll " << wait_all;
    EXPECT_LT(elapsed, 2000 * kMs) << "waitAll " << wait_all;
  }
}

TEST_F(Sync, FenceWaitReturnsOnlyAfterLargeCopyCompleted) {
  constexpr VkDeviceSize kSize = 64ull << 20;
  HostBuffer src = MakeHostBuffer(kSize);
  HostBuffer dst = MakeHostBuffer(kSize);
  ASSERT_NE(src.data, nullptr);
  ASSERT_NE(dst.data, nullptr);
  FillPattern(src.bytes(), 42);
  std::memset(dst.data, 0, kSize);

  VkCommandBuffer cb = BeginCommands();
  Copy(cb, src, dst);
  HostReadBarrier(cb);
  VK_ASSERT_OK(vkEndCommandBuffer(cb));
  VkFence fence = MakeFence();
  ASSERT_NO_FATAL_FAILURE(Submit(cb, fence));
  VK_ASSERT_OK(vkWaitForFences(device_, 1, &fence, VK_TRUE, kWaitNs));
  // Right after the wait returns, all 64 MiB are there: check the last bytes
  // first (written last by a front-to-back copy), then everything.
  EXPECT_EQ(std::memcmp(dst.data + kSize - 4096, src.data + kSize - 4096, 4096), 0);
  EXPECT_EQ(FirstDifference(src.bytes(), dst.bytes()), SIZE_MAX);
  VK_EXPECT_RESULT(VK_SUCCESS, vkGetFenceStatus(device_, fence));
}

TEST_F(Sync, FenceWaitBlocksUntilBlockedSubmissionRuns) {
  HostBuffer b = MakeHostBuffer(4096);
  ASSERT_NE(b.data, nullptr);
  std::memset(b.data, 0, 4096);
  VkEvent event = MakeEvent();
  ScopeExit unblock([&] { vkSetEvent(device_, event); });
  VkCommandBuffer cb = WaitHostEventThenFill(event, b, 0x600DF00D, false);
  VkFence fence = MakeFence();
  ASSERT_NO_FATAL_FAILURE(Submit(cb, fence));

  std::atomic<uint64_t> set_at{0};
  std::thread setter([&] {
    SleepMs(150);
    set_at = MonotonicNs();
    vkSetEvent(device_, event);
  });
  const VkResult r = vkWaitForFences(device_, 1, &fence, VK_TRUE, kWaitNs);
  const uint64_t returned_at = MonotonicNs();
  setter.join();
  VK_EXPECT_RESULT(VK_SUCCESS, r);
  EXPECT_GE(returned_at, set_at.load()) << "the fence wait returned before the work could run";
  EXPECT_TRUE(AllWords(b, 0x600DF00D));
}

// No queue family binds sparse memory, so vkQueueBindSparse carries only
// semaphores and a fence: they keep their place in the queue's order. (The
// call is invalid usage on such a queue; the driver still must not fail it.)
TEST_F(Sync, BindSparseWaitsAndSignalsInQueueOrder) {
  expected_validation_ids_.push_back("VUID-vkQueueBindSparse-queuetype");
  HostBuffer b = MakeHostBuffer(256);
  ASSERT_NE(b.data, nullptr);
  std::memset(b.data, 0, 256);
  VkEvent event = MakeEvent();
  ScopeExit unblock([&] { vkSetEvent(device_, event); });
  VkCommandBuffer cb = WaitHostEventThenFill(event, b, 0x5EA5E, false);
  ASSERT_NO_FATAL_FAILURE(Submit(cb, VK_NULL_HANDLE, queue_));
  VkSemaphore timeline = MakeTimelineSemaphore(0);
  const uint64_t signal_value = 3;
  VkTimelineSemaphoreSubmitInfo ti{VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO};
  ti.signalSemaphoreValueCount = 1;
  ti.pSignalSemaphoreValues = &signal_value;
  VkBindSparseInfo bind{VK_STRUCTURE_TYPE_BIND_SPARSE_INFO};
  bind.pNext = &ti;
  bind.signalSemaphoreCount = 1;
  bind.pSignalSemaphores = &timeline;
  VkFence fence = MakeFence();
  VK_ASSERT_OK(vkQueueBindSparse(queue_, 1, &bind, fence));
  SleepMs(30);
  // The bind must not run before the work ahead of it.
  VK_EXPECT_RESULT(VK_NOT_READY, vkGetFenceStatus(device_, fence));
  EXPECT_EQ(Counter(timeline), 0u);
  VK_ASSERT_OK(vkSetEvent(device_, event));
  VK_EXPECT_RESULT(VK_SUCCESS, vkWaitForFences(device_, 1, &fence, VK_TRUE, kWaitNs));
  EXPECT_EQ(Counter(timeline), 3u);
  EXPECT_TRUE(AllWords(b, 0x5EA5E));
}

TEST_F(Sync, FenceWaitAnyAndAll) {
  HostBuffer b = MakeHostBuffer(256);
  ASSERT_NE(b.data, nullptr);
  VkEvent event = MakeEvent();
  ScopeExit unblock([&] { vkSetEvent(device_, event); });
  VkFence done = MakeFence();
  VkFence blocked = MakeFence();
  VkCommandBuffer cb = WaitHostEventThenFill(event, b, 1, false);
  // `done` goes to the second queue (free), `blocked` to the first (waits on the event).
  ASSERT_NO_FATAL_FAILURE(Submit(cb, blocked, queue_));
  VK_ASSERT_OK(vkQueueSubmit(SecondQueue(), 0, nullptr, done));
  const VkFence fences[] = {blocked, done};
  if (SecondQueue() != queue_) {
    // Any: `done` alone satisfies the wait.
    VK_EXPECT_RESULT(VK_SUCCESS, vkWaitForFences(device_, 2, fences, VK_FALSE, kWaitNs));
    VK_EXPECT_RESULT(VK_SUCCESS, vkGetFenceStatus(device_, done));
  }
  // All: `blocked` cannot signal before the event is set.
  VK_EXPECT_RESULT(VK_TIMEOUT, vkWaitForFences(device_, 2, fences, VK_TRUE, 30 * kMs));
  VK_EXPECT_RESULT(VK_NOT_READY, vkGetFenceStatus(device_, blocked));
  VK_EXPECT_OK(vkSetEvent(device_, event));
  VK_EXPECT_RESULT(VK_SUCCESS, vkWaitForFences(device_, 2, fences, VK_TRUE, kWaitNs));
  EXPECT_TRUE(AllWords(b, 1));
}

TEST_F(Sync, FenceReuseAcrossManySubmissions) {
  HostBuffer b = MakeHostBuffer(64);
  ASSERT_NE(b.data, nullptr);
  VkFence fence = MakeFence();
  for (uint32_t i = 0; i < 200; ++i) {
    VkCommandBuffer cb = FillCommands(b, i * 0x01000193u + 7);
    ASSERT_NO_FATAL_FAILURE(Submit(cb, fence));
    VK_ASSERT_OK(vkWaitForFences(device_, 1, &fence, VK_TRUE, kWaitNs));
    ASSERT_TRUE(AllWords(b, i * 0x01000193u + 7)) << "submission " << i;
    VK_ASSERT_OK(vkResetFences(device_, 1, &fence));
    vkFreeCommandBuffers(device_, pool_, 1, &cb);
  }
}

TEST_F(Sync, SubmitWithZeroSubmitsSignalsFence) {
  VkFence fence = MakeFence();
  VK_ASSERT_OK(vkQueueSubmit(queue_, 0, nullptr, fence));
  VK_EXPECT_RESULT(VK_SUCCESS, vkWaitForFences(device_, 1, &fence, VK_TRUE, kWaitNs));
  VkFence fence2 = MakeFence();
  VK_ASSERT_OK(vkQueueSubmit2(queue_, 0, nullptr, fence2));
  VK_EXPECT_RESULT(VK_SUCCESS, vkWaitForFences(device_, 1, &fence2, VK_TRUE, kWaitNs));
}

TEST_F(Sync, SubmitWithZeroSubmitsSignalsFenceOnlyAfterEarlierWork) {
  // "If submitCount is zero but fence is not VK_NULL_HANDLE, the fence will
  // still be submitted to the queue and will become signaled when all work
  // previously submitted to the queue has completed."
  HostBuffer b = MakeHostBuffer(1024);
  ASSERT_NE(b.data, nullptr);
  std::memset(b.data, 0, 1024);
  VkSemaphore timeline = MakeTimelineSemaphore(0);
  ScopeExit unblock([&] { UnblockTimeline(timeline, 1); });
  VkCommandBuffer cb = FillCommands(b, 0xAB12CD34);
  ASSERT_NO_FATAL_FAILURE(SubmitTimeline(queue_, cb, timeline, 1, VK_NULL_HANDLE, 0));
  VkFence fence = MakeFence();
  VK_ASSERT_OK(vkQueueSubmit(queue_, 0, nullptr, fence));
  SleepMs(50);
  VK_EXPECT_RESULT(VK_NOT_READY, vkGetFenceStatus(device_, fence));
  EXPECT_TRUE(AllWords(b, 0)) << "the submission ran before its wait was satisfied";
  HostSignal(timeline, 1);
  VK_EXPECT_RESULT(VK_SUCCESS, vkWaitForFences(device_, 1, &fence, VK_TRUE, kWaitNs));
  EXPECT_TRUE(AllWords(b, 0xAB12CD34));
}

// ---------------------------------------------------------------------------
// Binary semaphores

TEST_F(Sync, BinarySemaphoreOrdersSubmissionsOnTwoQueues) {
  if (queue2_ == VK_NULL_HANDLE) GTEST_SKIP() << "needs two queues";
  HostBuffer x = MakeHostBuffer(1 << 16);
  HostBuffer y = MakeHostBuffer(1 << 16);
  ASSERT_NE(x.data, nullptr);
  ASSERT_NE(y.data, nullptr);
  std::memset(x.data, 0, x.size);
  std::memset(y.data, 0, y.size);
  VkEvent event = MakeEvent();
  VkSemaphore semaphore = MakeBinarySemaphore();
  ScopeExit unblock([&] { vkSetEvent(device_, event); });

  // Queue A: wait for the host, then fill x; signal the semaphore.
  VkCommandBuffer fill = WaitHostEventThenFill(event, x, 0x5EAF00D5, false);
  VkSubmitInfo a{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  a.commandBufferCount = 1;
  a.pCommandBuffers = &fill;
  a.signalSemaphoreCount = 1;
  a.pSignalSemaphores = &semaphore;
  VK_ASSERT_OK(vkQueueSubmit(queue_, 1, &a, VK_NULL_HANDLE));

  // Queue B: wait for the semaphore, then copy x to y. Without the wait the
  // copy would read zeros.
  VkCommandBuffer copy = CopyCommands(x, y);
  const VkPipelineStageFlags stage = VK_PIPELINE_STAGE_TRANSFER_BIT;
  VkSubmitInfo b{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  b.waitSemaphoreCount = 1;
  b.pWaitSemaphores = &semaphore;
  b.pWaitDstStageMask = &stage;
  b.commandBufferCount = 1;
  b.pCommandBuffers = &copy;
  VkFence fence = MakeFence();
  VK_ASSERT_OK(vkQueueSubmit(SecondQueue(), 1, &b, fence));

  SleepMs(50);
  VK_EXPECT_RESULT(VK_NOT_READY, vkGetFenceStatus(device_, fence));
  EXPECT_TRUE(AllWords(y, 0));
  VK_ASSERT_OK(vkSetEvent(device_, event));
  VK_ASSERT_OK(vkWaitForFences(device_, 1, &fence, VK_TRUE, kWaitNs));
  EXPECT_TRUE(AllWords(y, 0x5EAF00D5));
}

TEST_F(Sync, SubmitWaitsForEverySemaphore) {
  // Queue 1 fills x (after event e1) and signals s1; queue 2 fills y (after
  // event e2) and signals s2; a later queue-1 submission waits for both and
  // copies halves of x and y into z.
  if (queue2_ == VK_NULL_HANDLE) GTEST_SKIP() << "needs two queues";
  HostBuffer x = MakeHostBuffer(8192), y = MakeHostBuffer(8192), z = MakeHostBuffer(8192);
  ASSERT_NE(z.data, nullptr);
  std::memset(x.data, 0, 8192);
  std::memset(y.data, 0, 8192);
  std::memset(z.data, 0, 8192);
  VkEvent e1 = MakeEvent(), e2 = MakeEvent();
  VkSemaphore s[2] = {MakeBinarySemaphore(), MakeBinarySemaphore()};
  ScopeExit unblock([&] {
    vkSetEvent(device_, e1);
    vkSetEvent(device_, e2);
  });
  VkCommandBuffer fill_x = WaitHostEventThenFill(e1, x, 0xAAAA5555, false);
  VkCommandBuffer fill_y = WaitHostEventThenFill(e2, y, 0x5555AAAA, true);
  VkSubmitInfo sx{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  sx.commandBufferCount = 1;
  sx.pCommandBuffers = &fill_x;
  sx.signalSemaphoreCount = 1;
  sx.pSignalSemaphores = &s[0];
  VK_ASSERT_OK(vkQueueSubmit(queue_, 1, &sx, VK_NULL_HANDLE));
  VkSubmitInfo sy = sx;
  sy.pCommandBuffers = &fill_y;
  sy.pSignalSemaphores = &s[1];
  VK_ASSERT_OK(vkQueueSubmit(queue2_, 1, &sy, VK_NULL_HANDLE));

  VkCommandBuffer merge = BeginCommands();
  FullBarrier(merge);
  const VkBufferCopy lo{0, 0, 4096}, hi{4096, 4096, 4096};
  vkCmdCopyBuffer(merge, x.buffer, z.buffer, 1, &lo);
  vkCmdCopyBuffer(merge, y.buffer, z.buffer, 1, &hi);
  HostReadBarrier(merge);
  VK_ASSERT_OK(vkEndCommandBuffer(merge));
  const VkPipelineStageFlags stages[2] = {VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT};
  VkSubmitInfo sm{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  sm.waitSemaphoreCount = 2;
  sm.pWaitSemaphores = s;
  sm.pWaitDstStageMask = stages;
  sm.commandBufferCount = 1;
  sm.pCommandBuffers = &merge;
  VkFence fence = MakeFence();
  VK_ASSERT_OK(vkQueueSubmit(queue_, 1, &sm, fence));

  // x is done, y is not: the merge must keep waiting.
  VK_ASSERT_OK(vkSetEvent(device_, e1));
  SleepMs(50);
  VK_EXPECT_RESULT(VK_NOT_READY, vkGetFenceStatus(device_, fence));
  EXPECT_TRUE(AllWords(z, 0)) << "the submission ran with one of its two semaphores unsignaled";
  VK_ASSERT_OK(vkSetEvent(device_, e2));
  VK_ASSERT_OK(vkWaitForFences(device_, 1, &fence, VK_TRUE, kWaitNs));
  for (size_t w = 0; w < 2048; ++w) ASSERT_EQ(z.as<uint32_t>()[w], w < 1024 ? 0xAAAA5555u : 0x5555AAAAu) << w;
}

TEST_F(Sync, WaitForManyFencesFromBothQueues) {
  constexpr uint32_t kFences = 16;
  HostBuffer b = MakeHostBuffer(4 * kFences);
  ASSERT_NE(b.data, nullptr);
  std::memset(b.data, 0, b.size);
  VkEvent e = MakeEvent();
  ScopeExit unblock([&] { vkSetEvent(device_, e); });
  std::vector<VkFence> fences;
  for (uint32_t i = 0; i < kFences; ++i) {
    VkCommandBuffer cb = BeginCommands();
    vkCmdWaitEvents(cb, 1, &e, VK_PIPELINE_STAGE_HOST_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, nullptr, 0, nullptr,
                    0, nullptr);
    vkCmdFillBuffer(cb, b.buffer, 4 * i, 4, 100 + i);
    HostReadBarrier(cb);
    VK_ASSERT_OK(vkEndCommandBuffer(cb));
    fences.push_back(MakeFence());
    ASSERT_NO_FATAL_FAILURE(Submit(cb, fences.back(), i % 2 ? SecondQueue() : queue_));
  }
  VK_EXPECT_RESULT(VK_TIMEOUT, vkWaitForFences(device_, kFences, fences.data(), VK_FALSE, 20 * kMs));
  VK_ASSERT_OK(vkSetEvent(device_, e));
  VK_ASSERT_OK(vkWaitForFences(device_, kFences, fences.data(), VK_TRUE, kWaitNs));
  for (uint32_t i = 0; i < kFences; ++i) EXPECT_EQ(b.as<uint32_t>()[i], 100 + i);
}

TEST_F(Sync, BinarySemaphoreBetweenSubmitsOfOneCall) {
  HostBuffer x = MakeHostBuffer(4096);
  HostBuffer y = MakeHostBuffer(4096);
  ASSERT_NE(y.data, nullptr);
  std::memset(x.data, 0, x.size);
  std::memset(y.data, 0, y.size);
  VkSemaphore semaphore = MakeBinarySemaphore();
  VkCommandBuffer fill = FillCommands(x, 0x01234567);
  VkCommandBuffer copy = CopyCommands(x, y);
  const VkPipelineStageFlags stage = VK_PIPELINE_STAGE_TRANSFER_BIT;
  VkSubmitInfo submits[2] = {{VK_STRUCTURE_TYPE_SUBMIT_INFO}, {VK_STRUCTURE_TYPE_SUBMIT_INFO}};
  submits[0].commandBufferCount = 1;
  submits[0].pCommandBuffers = &fill;
  submits[0].signalSemaphoreCount = 1;
  submits[0].pSignalSemaphores = &semaphore;
  submits[1].waitSemaphoreCount = 1;
  submits[1].pWaitSemaphores = &semaphore;
  submits[1].pWaitDstStageMask = &stage;
  submits[1].commandBufferCount = 1;
  submits[1].pCommandBuffers = &copy;
  VkFence fence = MakeFence();
  VK_ASSERT_OK(vkQueueSubmit(queue_, 2, submits, fence));
  VK_ASSERT_OK(vkWaitForFences(device_, 1, &fence, VK_TRUE, kWaitNs));
  EXPECT_TRUE(AllWords(y, 0x01234567));
}

TEST_F(Sync, BinarySemaphorePingPongBetweenQueues) {
  // 100 round trips: each side waits for the other's signal and adds one
  // step to a copy chain, so the final buffer holds the last fill only if
  // every step ran in order.
  HostBuffer a = MakeHostBuffer(256);
  HostBuffer b = MakeHostBuffer(256);
  ASSERT_NE(b.data, nullptr);
  std::memset(a.data, 0, a.size);
  std::memset(b.data, 0, b.size);
  VkSemaphore to_b = MakeBinarySemaphore();
  VkSemaphore to_a = MakeBinarySemaphore();
  const VkPipelineStageFlags stage = VK_PIPELINE_STAGE_ALL_COMMANDS_BIT;
  constexpr uint32_t kRounds = 100;
  std::vector<VkCommandBuffer> cbs;
  for (uint32_t i = 0; i < kRounds; ++i) {
    // On queue A: fill a with i+1 (after B copied the previous value).
    VkCommandBuffer fa = BeginCommands();
    FullBarrier(fa);
    Fill(fa, a, i + 1);
    VK_ASSERT_OK(vkEndCommandBuffer(fa));
    VkSubmitInfo sa{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    sa.waitSemaphoreCount = i > 0 ? 1 : 0;
    sa.pWaitSemaphores = &to_a;
    sa.pWaitDstStageMask = &stage;
    sa.commandBufferCount = 1;
    sa.pCommandBuffers = &fa;
    sa.signalSemaphoreCount = 1;
    sa.pSignalSemaphores = &to_b;
    VK_ASSERT_OK(vkQueueSubmit(queue_, 1, &sa, VK_NULL_HANDLE));
    // On queue B: copy a to b, then hand back to queue A.
    VkCommandBuffer cb = CopyCommands(a, b);
    VkSubmitInfo sb{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    sb.waitSemaphoreCount = 1;
    sb.pWaitSemaphores = &to_b;
    sb.pWaitDstStageMask = &stage;
    sb.commandBufferCount = 1;
    sb.pCommandBuffers = &cb;
    sb.signalSemaphoreCount = i + 1 < kRounds ? 1 : 0;
    sb.pSignalSemaphores = &to_a;
    VK_ASSERT_OK(vkQueueSubmit(SecondQueue(), 1, &sb, VK_NULL_HANDLE));
  }
  VK_ASSERT_OK(vkDeviceWaitIdle(device_));
  EXPECT_TRUE(AllWords(b, kRounds));
}

// ---------------------------------------------------------------------------
// Timeline semaphores

TEST_F(Sync, TimelineHostSignalWaitAndCounter) {
  VkSemaphore s = MakeTimelineSemaphore(5);
  EXPECT_EQ(Counter(s), 5u);
  HostSignal(s, 7);
  EXPECT_EQ(Counter(s), 7u);

  uint64_t value = 7;
  VkSemaphoreWaitInfo wi{VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO};
  wi.semaphoreCount = 1;
  wi.pSemaphores = &s;
  wi.pValues = &value;
  VK_EXPECT_RESULT(VK_SUCCESS, vkWaitSemaphores(device_, &wi, 0));
  value = 6;  // already passed
  VK_EXPECT_RESULT(VK_SUCCESS, vkWaitSemaphores(device_, &wi, 0));
  value = 8;
  VK_EXPECT_RESULT(VK_TIMEOUT, vkWaitSemaphores(device_, &wi, 0));
  const uint64_t t0 = MonotonicNs();
  VK_EXPECT_RESULT(VK_TIMEOUT, vkWaitSemaphores(device_, &wi, 40 * kMs));
  const uint64_t elapsed = MonotonicNs() - t0;
  EXPECT_GE(elapsed, 30 * kMs);
  EXPECT_LT(elapsed, 2000 * kMs);

  // A host thread signals while the host waits without timeout.
  std::atomic<uint64_t> signaled_at{0};
  std::thread signaler([&] {
    SleepMs(80);
    signaled_at = MonotonicNs();
    VkSemaphoreSignalInfo si{VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO};
    si.semaphore = s;
    si.value = 10;
    vkSignalSemaphore(device_, &si);
  });
  const VkResult r = vkWaitSemaphores(device_, &wi, kWaitNs);
  const uint64_t returned_at = MonotonicNs();
  signaler.join();
  VK_EXPECT_RESULT(VK_SUCCESS, r);
  EXPECT_GE(returned_at, signaled_at.load());
  EXPECT_EQ(Counter(s), 10u);
}

TEST_F(Sync, TimelineWaitAnyAndAll) {
  VkSemaphore s[2] = {MakeTimelineSemaphore(0), MakeTimelineSemaphore(0)};
  uint64_t values[2] = {1, 1};
  VkSemaphoreWaitInfo wi{VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO};
  wi.semaphoreCount = 2;
  wi.pSemaphores = s;
  wi.pValues = values;
  VK_EXPECT_RESULT(VK_TIMEOUT, vkWaitSemaphores(device_, &wi, 0));
  HostSignal(s[1], 3);
  VK_EXPECT_RESULT(VK_TIMEOUT, vkWaitSemaphores(device_, &wi, 10 * kMs));  // all
  wi.flags = VK_SEMAPHORE_WAIT_ANY_BIT;
  VK_EXPECT_RESULT(VK_SUCCESS, vkWaitSemaphores(device_, &wi, 0));
  values[1] = 4;
  VK_EXPECT_RESULT(VK_TIMEOUT, vkWaitSemaphores(device_, &wi, 0));
  HostSignal(s[0], 1);
  VK_EXPECT_RESULT(VK_SUCCESS, vkWaitSemaphores(device_, &wi, 0));
  wi.flags = 0;
  VK_EXPECT_RESULT(VK_TIMEOUT, vkWaitSemaphores(device_, &wi, 0));
}

TEST_F(Sync, TimelineSubmitWaitsForLaterHostSignal) {
  HostBuffer b = MakeHostBuffer(1 << 16);
  ASSERT_NE(b.data, nullptr);
  std::memset(b.data, 0, b.size);
  VkSemaphore s = MakeTimelineSemaphore(2);
  ScopeExit unblock([&] { UnblockTimeline(s, 3); });
  VkCommandBuffer cb = FillCommands(b, 0xC0FFEE11);
  VkFence fence = MakeFence();
  // Wait for 3, signal 4 on the same semaphore.
  ASSERT_NO_FATAL_FAILURE(SubmitTimeline(queue_, cb, s, 3, s, 4, fence));
  SleepMs(60);
  EXPECT_TRUE(AllWords(b, 0)) << "the submission ran before the semaphore reached its wait value";
  VK_EXPECT_RESULT(VK_NOT_READY, vkGetFenceStatus(device_, fence));
  EXPECT_EQ(Counter(s), 2u);
  HostSignal(s, 3);
  VK_ASSERT_OK(vkWaitForFences(device_, 1, &fence, VK_TRUE, kWaitNs));
  EXPECT_TRUE(AllWords(b, 0xC0FFEE11));
  EXPECT_EQ(Counter(s), 4u);
}

TEST_F(Sync, TimelineChainsTwoQueues) {
  // Queue 2 waits for value 2 and copies x to y; queue 1 waits for the host
  // (value 1), fills x and signals 2. The waiting submission is submitted
  // first (allowed for timelines). Repeated with rising values.
  if (queue2_ == VK_NULL_HANDLE) GTEST_SKIP() << "needs two queues (on one, the waiting copy would block the fill)";
  HostBuffer x = MakeHostBuffer(1 << 16);
  HostBuffer y = MakeHostBuffer(1 << 16);
  ASSERT_NE(y.data, nullptr);
  std::memset(x.data, 0, x.size);
  std::memset(y.data, 0, y.size);
  VkSemaphore s = MakeTimelineSemaphore(0);
  constexpr uint64_t kRounds = 20;
  ScopeExit unblock([&] { UnblockTimeline(s, 3 * kRounds); });
  for (uint64_t round = 0; round < kRounds; ++round) {
    const uint64_t base = 3 * round;
    const uint32_t value = uint32_t(Mix64(round));
    VkCommandBuffer copy = CopyCommands(x, y);
    VkCommandBuffer fill = BeginCommands();
    FullBarrier(fill);
    Fill(fill, x, value);
    VK_ASSERT_OK(vkEndCommandBuffer(fill));
    ASSERT_NO_FATAL_FAILURE(SubmitTimeline(SecondQueue(), copy, s, base + 2, s, base + 3));
    ASSERT_NO_FATAL_FAILURE(SubmitTimeline(queue_, fill, s, base + 1, s, base + 2));
    if (round == 0) {
      SleepMs(40);
      EXPECT_EQ(Counter(s), 0u);
      EXPECT_TRUE(AllWords(y, 0)) << "the copy ran before its wait value";
    }
    HostSignal(s, base + 1);
    uint64_t target = base + 3;
    VkSemaphoreWaitInfo wi{VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO};
    wi.semaphoreCount = 1;
    wi.pSemaphores = &s;
    wi.pValues = &target;
    VK_ASSERT_OK(vkWaitSemaphores(device_, &wi, kWaitNs));
    EXPECT_EQ(Counter(s), base + 3);
    ASSERT_TRUE(AllWords(y, value)) << "round " << round;
  }
}

// ---------------------------------------------------------------------------
// Events

TEST_F(Sync, EventHostSetResetStatus) {
  VkEvent e = MakeEvent();
  VK_EXPECT_RESULT(VK_EVENT_RESET, vkGetEventStatus(device_, e));
  VK_EXPECT_OK(vkSetEvent(device_, e));
  VK_EXPECT_RESULT(VK_EVENT_SET, vkGetEventStatus(device_, e));
  VK_EXPECT_OK(vkSetEvent(device_, e));
  VK_EXPECT_RESULT(VK_EVENT_SET, vkGetEventStatus(device_, e));
  VK_EXPECT_OK(vkResetEvent(device_, e));
  VK_EXPECT_RESULT(VK_EVENT_RESET, vkGetEventStatus(device_, e));
}

TEST_F(Sync, CmdSetAndResetEvent) {
  VkEvent e = MakeEvent();
  VkCommandBuffer cb = BeginCommands();
  vkCmdSetEvent(cb, e, VK_PIPELINE_STAGE_TRANSFER_BIT);
  ASSERT_NO_FATAL_FAILURE(EndSubmitWait(cb));
  VK_EXPECT_RESULT(VK_EVENT_SET, vkGetEventStatus(device_, e));
  cb = BeginCommands();
  vkCmdResetEvent(cb, e, VK_PIPELINE_STAGE_TRANSFER_BIT);
  ASSERT_NO_FATAL_FAILURE(EndSubmitWait(cb));
  VK_EXPECT_RESULT(VK_EVENT_RESET, vkGetEventStatus(device_, e));
}

TEST_F(Sync, CmdSetAndResetEvent2) {
  VkEvent e = MakeEvent();
  VkMemoryBarrier2 mb{VK_STRUCTURE_TYPE_MEMORY_BARRIER_2};
  mb.srcStageMask = VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT;
  mb.srcAccessMask = VK_ACCESS_2_TRANSFER_WRITE_BIT;
  mb.dstStageMask = VK_PIPELINE_STAGE_2_HOST_BIT;
  mb.dstAccessMask = VK_ACCESS_2_HOST_READ_BIT;
  VkDependencyInfo dep{VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
  dep.memoryBarrierCount = 1;
  dep.pMemoryBarriers = &mb;
  VkCommandBuffer cb = BeginCommands();
  vkCmdSetEvent2(cb, e, &dep);
  ASSERT_NO_FATAL_FAILURE(EndSubmitWait(cb));
  VK_EXPECT_RESULT(VK_EVENT_SET, vkGetEventStatus(device_, e));
  cb = BeginCommands();
  vkCmdResetEvent2(cb, e, VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT);
  ASSERT_NO_FATAL_FAILURE(EndSubmitWait(cb));
  VK_EXPECT_RESULT(VK_EVENT_RESET, vkGetEventStatus(device_, e));
}

class SyncEventWait : public Sync, public ::testing::WithParamInterface<bool> {};

TEST_P(SyncEventWait, CmdWaitEventsWaitsForLaterHostSet) {
  const bool sync2 = GetParam();
  HostBuffer b = MakeHostBuffer(1 << 16);
  ASSERT_NE(b.data, nullptr);
  std::memset(b.data, 0, b.size);
  VkEvent e = MakeEvent();
  ScopeExit unblock([&] { vkSetEvent(device_, e); });
  VkCommandBuffer cb = WaitHostEventThenFill(e, b, 0xE7E7E7E1, sync2);
  VkFence fence = MakeFence();
  ASSERT_NO_FATAL_FAILURE(Submit(cb, fence));
  SleepMs(60);
  EXPECT_TRUE(AllWords(b, 0)) << "commands after the event wait ran before the event was set";
  VK_EXPECT_RESULT(VK_NOT_READY, vkGetFenceStatus(device_, fence));
  VK_ASSERT_OK(vkSetEvent(device_, e));
  VK_ASSERT_OK(vkWaitForFences(device_, 1, &fence, VK_TRUE, kWaitNs));
  EXPECT_TRUE(AllWords(b, 0xE7E7E7E1));
}

TEST_P(SyncEventWait, DeviceSetEventOrdersWorkInLaterSubmission) {
  // Submission 1: fill x, set the event. Submission 2 (same queue): wait for
  // the event, copy x to y. Submission 1 is itself held back by a timeline
  // wait, so submission 2 must not copy before the host releases it.
  const bool sync2 = GetParam();
  HostBuffer x = MakeHostBuffer(1 << 16);
  HostBuffer y = MakeHostBuffer(1 << 16);
  ASSERT_NE(y.data, nullptr);
  std::memset(x.data, 0, x.size);
  std::memset(y.data, 0, y.size);
  VkEvent e = MakeEvent();
  VkSemaphore gate = MakeTimelineSemaphore(0);
  ScopeExit unblock([&] { UnblockTimeline(gate, 1); });

  VkMemoryBarrier2 mb2{VK_STRUCTURE_TYPE_MEMORY_BARRIER_2};
  mb2.srcStageMask = VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT;
  mb2.srcAccessMask = VK_ACCESS_2_TRANSFER_WRITE_BIT;
  mb2.dstStageMask = VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT;
  mb2.dstAccessMask = VK_ACCESS_2_TRANSFER_READ_BIT;
  VkDependencyInfo dep{VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
  dep.memoryBarrierCount = 1;
  dep.pMemoryBarriers = &mb2;

  VkCommandBuffer first = BeginCommands();
  Fill(first, x, 0x7777AAAA);
  if (sync2)
    vkCmdSetEvent2(first, e, &dep);
  else
    vkCmdSetEvent(first, e, VK_PIPELINE_STAGE_TRANSFER_BIT);
  VK_ASSERT_OK(vkEndCommandBuffer(first));

  VkCommandBuffer second = BeginCommands();
  if (sync2) {
    vkCmdWaitEvents2(second, 1, &e, &dep);
  } else {
    VkMemoryBarrier mb{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    mb.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    mb.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
    vkCmdWaitEvents(second, 1, &e, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 1, &mb, 0,
                    nullptr, 0, nullptr);
  }
  Copy(second, x, y);
  HostReadBarrier(second);
  VK_ASSERT_OK(vkEndCommandBuffer(second));

  ASSERT_NO_FATAL_FAILURE(SubmitTimeline(queue_, first, gate, 1, VK_NULL_HANDLE, 0));
  VkFence fence = MakeFence();
  ASSERT_NO_FATAL_FAILURE(Submit(second, fence));
  SleepMs(40);
  EXPECT_TRUE(AllWords(y, 0));
  VK_EXPECT_RESULT(VK_EVENT_RESET, vkGetEventStatus(device_, e));
  HostSignal(gate, 1);
  VK_ASSERT_OK(vkWaitForFences(device_, 1, &fence, VK_TRUE, kWaitNs));
  EXPECT_TRUE(AllWords(y, 0x7777AAAA));
  VK_EXPECT_RESULT(VK_EVENT_SET, vkGetEventStatus(device_, e));
}

INSTANTIATE_TEST_SUITE_P(Sync, SyncEventWait, ::testing::Values(false, true),
                         [](const ::testing::TestParamInfo<bool>& info) {
                           return info.param ? std::string("Sync2") : std::string("Sync1");
                         });

// ---------------------------------------------------------------------------
// Idle waits

TEST_F(Sync, QueueWaitIdleWaitsForBlockedWork) {
  HostBuffer b = MakeHostBuffer(1 << 16);
  ASSERT_NE(b.data, nullptr);
  std::memset(b.data, 0, b.size);
  VkSemaphore s = MakeTimelineSemaphore(0);
  ScopeExit unblock([&] { UnblockTimeline(s, 1); });
  VkCommandBuffer cb = FillCommands(b, 0x1D1E1D1E);
  ASSERT_NO_FATAL_FAILURE(SubmitTimeline(queue_, cb, s, 1, VK_NULL_HANDLE, 0));
  std::atomic<uint64_t> signaled_at{0};
  std::thread signaler([&] {
    SleepMs(100);
    signaled_at = MonotonicNs();
    UnblockTimeline(s, 1);
  });
  const VkResult r = vkQueueWaitIdle(queue_);
  const uint64_t returned_at = MonotonicNs();
  signaler.join();
  VK_EXPECT_RESULT(VK_SUCCESS, r);
  EXPECT_GE(returned_at, signaled_at.load());
  EXPECT_TRUE(AllWords(b, 0x1D1E1D1E));
}

TEST_F(Sync, DeviceWaitIdleWaitsForEveryQueue) {
  HostBuffer b1 = MakeHostBuffer(1 << 16);
  HostBuffer b2 = MakeHostBuffer(1 << 16);
  ASSERT_NE(b2.data, nullptr);
  std::memset(b1.data, 0, b1.size);
  std::memset(b2.data, 0, b2.size);
  VkSemaphore s = MakeTimelineSemaphore(0);
  ScopeExit unblock([&] { UnblockTimeline(s, 2); });
  // Queue 1 waits for the host; queue 2 waits for queue 1.
  ASSERT_NO_FATAL_FAILURE(SubmitTimeline(queue_, FillCommands(b1, 0x11111111), s, 1, s, 2));
  ASSERT_NO_FATAL_FAILURE(SubmitTimeline(SecondQueue(), FillCommands(b2, 0x22222222), s, 2, VK_NULL_HANDLE, 0));
  std::atomic<uint64_t> signaled_at{0};
  std::thread signaler([&] {
    SleepMs(100);
    signaled_at = MonotonicNs();
    UnblockTimeline(s, 1);
  });
  const VkResult r = vkDeviceWaitIdle(device_);
  const uint64_t returned_at = MonotonicNs();
  signaler.join();
  VK_EXPECT_RESULT(VK_SUCCESS, r);
  EXPECT_GE(returned_at, signaled_at.load());
  EXPECT_TRUE(AllWords(b1, 0x11111111));
  EXPECT_TRUE(AllWords(b2, 0x22222222));
}

// ---------------------------------------------------------------------------
// vkQueueSubmit2

TEST_F(Sync, QueueSubmit2WithTimelineAndBinarySemaphores) {
  HostBuffer x = MakeHostBuffer(1 << 14);
  HostBuffer y = MakeHostBuffer(1 << 14);
  ASSERT_NE(y.data, nullptr);
  std::memset(x.data, 0, x.size);
  std::memset(y.data, 0, y.size);
  VkSemaphore timeline = MakeTimelineSemaphore(10);
  VkSemaphore binary = MakeBinarySemaphore();
  ScopeExit unblock([&] { UnblockTimeline(timeline, 11); });

  VkCommandBufferSubmitInfo fill{VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO};
  fill.commandBuffer = FillCommands(x, 0x2B2B2B2B);
  VkCommandBufferSubmitInfo copy{VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO};
  copy.commandBuffer = CopyCommands(x, y);

  VkSemaphoreSubmitInfo wait_timeline{VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO};
  wait_timeline.semaphore = timeline;
  wait_timeline.value = 11;
  wait_timeline.stageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
  VkSemaphoreSubmitInfo signals[2] = {{VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO},
                                      {VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO}};
  signals[0].semaphore = binary;
  signals[0].stageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
  signals[1].semaphore = timeline;
  signals[1].value = 12;
  signals[1].stageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
  VkSubmitInfo2 first{VK_STRUCTURE_TYPE_SUBMIT_INFO_2};
  first.waitSemaphoreInfoCount = 1;
  first.pWaitSemaphoreInfos = &wait_timeline;
  first.commandBufferInfoCount = 1;
  first.pCommandBufferInfos = &fill;
  first.signalSemaphoreInfoCount = 2;
  first.pSignalSemaphoreInfos = signals;
  VK_ASSERT_OK(vkQueueSubmit2(queue_, 1, &first, VK_NULL_HANDLE));

  VkSemaphoreSubmitInfo wait_binary{VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO};
  wait_binary.semaphore = binary;
  wait_binary.stageMask = VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT;
  VkSubmitInfo2 second{VK_STRUCTURE_TYPE_SUBMIT_INFO_2};
  second.waitSemaphoreInfoCount = 1;
  second.pWaitSemaphoreInfos = &wait_binary;
  second.commandBufferInfoCount = 1;
  second.pCommandBufferInfos = &copy;
  VkFence fence = MakeFence();
  VK_ASSERT_OK(vkQueueSubmit2(SecondQueue(), 1, &second, fence));

  SleepMs(40);
  EXPECT_EQ(Counter(timeline), 10u);
  EXPECT_TRUE(AllWords(y, 0));
  VK_EXPECT_RESULT(VK_NOT_READY, vkGetFenceStatus(device_, fence));
  HostSignal(timeline, 11);
  VK_ASSERT_OK(vkWaitForFences(device_, 1, &fence, VK_TRUE, kWaitNs));
  EXPECT_TRUE(AllWords(y, 0x2B2B2B2B));
  EXPECT_EQ(Counter(timeline), 12u);
}

// ---------------------------------------------------------------------------
// Several host threads (the ThreadSanitizer step runs these too)

TEST_F(Sync, TwoThreadsSubmitToTwoQueuesConcurrently) {
  if (queue2_ == VK_NULL_HANDLE) GTEST_SKIP() << "the queue family has a single queue";
  constexpr uint32_t kSubmits = 150;
  std::atomic<uint32_t> failures{0};
  HostBuffer buffers[2] = {MakeHostBuffer(4096), MakeHostBuffer(4096)};
  VkCommandPool pools[2] = {MakeCommandPool(0), MakeCommandPool(0)};
  VkFence fences[2] = {MakeFence(), MakeFence()};
  ASSERT_NE(buffers[1].data, nullptr);
  auto worker = [&](uint32_t t) {
    VkQueue queue = queues_[t];
    for (uint32_t i = 0; i < kSubmits; ++i) {
      VkCommandBuffer cb = AllocateCommandBuffer(pools[t]);
      VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
      bi.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
      vkBeginCommandBuffer(cb, &bi);
      const uint32_t value = (t << 24) | i;
      vkCmdFillBuffer(cb, buffers[t].buffer, 0, VK_WHOLE_SIZE, value);
      HostReadBarrier(cb);
      vkEndCommandBuffer(cb);
      VkSubmitInfo si{VK_STRUCTURE_TYPE_SUBMIT_INFO};
      si.commandBufferCount = 1;
      si.pCommandBuffers = &cb;
      if (vkQueueSubmit(queue, 1, &si, fences[t]) != VK_SUCCESS ||
          vkWaitForFences(device_, 1, &fences[t], VK_TRUE, kWaitNs) != VK_SUCCESS) {
        ++failures;
        return;
      }
      const uint32_t* w = buffers[t].as<uint32_t>();
      for (size_t k = 0; k < 1024; ++k)
        if (w[k] != value) {
          ++failures;
          break;
        }
      vkResetFences(device_, 1, &fences[t]);
      vkFreeCommandBuffers(device_, pools[t], 1, &cb);
    }
  };
  std::thread t0(worker, 0);
  std::thread t1(worker, 1);
  t0.join();
  t1.join();
  EXPECT_EQ(failures.load(), 0u);
}

TEST_F(Sync, SeveralThreadsWaitOnOneFenceAndOneTimeline) {
  // Waiting is not externally synchronized: four threads wait on the same
  // fence and the same timeline value while the queue is held back.
  HostBuffer b = MakeHostBuffer(1 << 16);
  ASSERT_NE(b.data, nullptr);
  std::memset(b.data, 0, b.size);
  VkSemaphore gate = MakeTimelineSemaphore(0);
  VkSemaphore done = MakeTimelineSemaphore(0);
  ScopeExit unblock([&] { UnblockTimeline(gate, 1); });
  VkFence fence = MakeFence();
  ASSERT_NO_FATAL_FAILURE(SubmitTimeline(queue_, FillCommands(b, 0x600D600D), gate, 1, done, 5, fence));
  std::atomic<uint32_t> ok{0};
  std::atomic<uint64_t> signaled_at{0};
  std::vector<std::thread> waiters;
  for (int t = 0; t < 4; ++t) {
    waiters.emplace_back([&, t] {
      VkResult r;
      if (t % 2 == 0) {
        r = vkWaitForFences(device_, 1, &fence, VK_TRUE, kWaitNs);
      } else {
        const uint64_t value = 5;
        VkSemaphoreWaitInfo wi{VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO};
        wi.semaphoreCount = 1;
        wi.pSemaphores = &done;
        wi.pValues = &value;
        r = vkWaitSemaphores(device_, &wi, kWaitNs);
      }
      // Returned after the host released the queue, and the fill is visible.
      if (r == VK_SUCCESS && MonotonicNs() >= signaled_at.load() && signaled_at.load() != 0 &&
          b.as<uint32_t>()[b.size / 4 - 1] == 0x600D600D)
        ++ok;
    });
  }
  SleepMs(50);
  signaled_at = MonotonicNs();
  HostSignal(gate, 1);
  for (std::thread& t : waiters) t.join();
  EXPECT_EQ(ok.load(), 4u);
  EXPECT_TRUE(AllWords(b, 0x600D600D));
}

class SyncFourQueues : public Sync {
 protected:
  SyncFourQueues() { device_options_.queue_count = 4; }
};

TEST_F(SyncFourQueues, FourThreadsOnFourQueuesChainedByOneTimeline) {
  // Round r uses timeline values 5r+1 .. 5r+5. The host seeds buffer 0 and
  // signals 5r+1; thread t submits step t on queue t: wait for 5r+t+1, copy
  // buffer t to buffer t+1, signal 5r+t+2. After the round (5r+5) buffer 4
  // holds the seed.
  if (queues_.size() < 4) GTEST_SKIP() << "the queue family has fewer than four queues";
  constexpr uint32_t kRounds = 25;
  std::vector<HostBuffer> b;
  for (int i = 0; i < 5; ++i) b.push_back(MakeHostBuffer(4096));
  ASSERT_NE(b[4].data, nullptr);
  VkSemaphore s = MakeTimelineSemaphore(0);
  ScopeExit unblock([&] { UnblockTimeline(s, 5 * kRounds + 5); });
  std::vector<VkCommandPool> pools;
  for (int t = 0; t < 4; ++t) pools.push_back(MakeCommandPool(VK_COMMAND_POOL_CREATE_TRANSIENT_BIT));
  std::atomic<uint32_t> errors{0};
  std::vector<std::thread> threads;
  for (uint32_t t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (uint32_t r = 0; r < kRounds; ++r) {
        VkCommandBuffer cb = AllocateCommandBuffer(pools[t]);
        VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
        bi.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
        vkBeginCommandBuffer(cb, &bi);
        FullBarrier(cb);
        const VkBufferCopy all{0, 0, 4096};
        vkCmdCopyBuffer(cb, b[t].buffer, b[t + 1].buffer, 1, &all);
        HostReadBarrier(cb);
        vkEndCommandBuffer(cb);
        const uint64_t wait = 5 * r + t + 1, signal = 5 * r + t + 2;
        VkTimelineSemaphoreSubmitInfo ti{VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO};
        ti.waitSemaphoreValueCount = 1;
        ti.pWaitSemaphoreValues = &wait;
        ti.signalSemaphoreValueCount = 1;
        ti.pSignalSemaphoreValues = &signal;
        const VkPipelineStageFlags stage = VK_PIPELINE_STAGE_ALL_COMMANDS_BIT;
        VkSubmitInfo si{VK_STRUCTURE_TYPE_SUBMIT_INFO};
        si.pNext = &ti;
        si.waitSemaphoreCount = 1;
        si.pWaitSemaphores = &s;
        si.pWaitDstStageMask = &stage;
        si.commandBufferCount = 1;
        si.pCommandBuffers = &cb;
        si.signalSemaphoreCount = 1;
        si.pSignalSemaphores = &s;
        if (vkQueueSubmit(queues_[t], 1, &si, VK_NULL_HANDLE) != VK_SUCCESS) ++errors;
      }
    });
  }
  for (uint32_t r = 0; r < kRounds; ++r) {
    // Step 3 of the previous round is done: buffer 0 is free again.
    uint64_t ready = 5 * r;
    VkSemaphoreWaitInfo wi{VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO};
    wi.semaphoreCount = 1;
    wi.pSemaphores = &s;
    wi.pValues = &ready;
    if (r > 0) ASSERT_EQ(vkWaitSemaphores(device_, &wi, kWaitNs), VK_SUCCESS);
    if (r > 0) ASSERT_TRUE(AllWords(b[4], 0xC0DE0000u + r - 1)) << "round " << r - 1;
    const uint32_t seed = 0xC0DE0000u + r;
    for (size_t w = 0; w < 1024; ++w) b[0].as<uint32_t>()[w] = seed;
    HostSignal(s, 5 * r + 1);
  }
  for (std::thread& th : threads) th.join();
  uint64_t last = 5 * kRounds;
  VkSemaphoreWaitInfo wi{VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO};
  wi.semaphoreCount = 1;
  wi.pSemaphores = &s;
  wi.pValues = &last;
  ASSERT_EQ(vkWaitSemaphores(device_, &wi, kWaitNs), VK_SUCCESS);
  EXPECT_EQ(errors.load(), 0u);
  EXPECT_TRUE(AllWords(b[4], 0xC0DE0000u + kRounds - 1));
}

TEST_F(Sync, HostPollsFenceWhileQueueSignalsIt) {
  HostBuffer b = MakeHostBuffer(1 << 20);
  ASSERT_NE(b.data, nullptr);
  VkFence fence = MakeFence();
  for (uint32_t i = 0; i < 50; ++i) {
    VkCommandBuffer cb = FillCommands(b, i);
    ASSERT_NO_FATAL_FAILURE(Submit(cb, fence));
    const uint64_t deadline = MonotonicNs() + kWaitNs;
    VkResult r;
    while ((r = vkGetFenceStatus(device_, fence)) == VK_NOT_READY && MonotonicNs() < deadline) {
    }
    ASSERT_EQ(r, VK_SUCCESS) << R{r};
    // The fence is signaled only once the fill is complete.
    ASSERT_TRUE(AllWords(b, i)) << "submission " << i;
    VK_ASSERT_OK(vkResetFences(device_, 1, &fence));
    vkFreeCommandBuffers(device_, pool_, 1, &cb);
  }
}

}  // namespace
}  // namespace duet_test
