// Command pools and command buffers through the loader: pool flags, reset,
// trim, primary/secondary buffers and vkCmdExecuteCommands, the one-time and
// simultaneous-use flags, re-submission of one tape, deep copies of the
// recorded arguments, long tapes and recording from several threads.
//
// Many tests use a "shift" chain: copy x[0, n-4) to a temporary, then the
// temporary to x[4, n). Each execution moves the data 4 bytes up, so the
// result counts exactly how many times (and that in order) it ran.
#include <atomic>
#include <cstring>
#include <memory>
#include <thread>
#include <vector>

#include "host_alloc_tracker.h"
#include "vk_fixture.h"

namespace duet_test {
namespace {

class CommandBuffers : public QueueTest {
 protected:
  static constexpr VkDeviceSize kShiftSize = 16384 + 4;

  void SetUp() override {
    QueueTest::SetUp();
    if (HasFatalFailure()) return;
    x_ = MakeHostBuffer(kShiftSize);
    tmp_ = MakeHostBuffer(kShiftSize);
    ASSERT_NE(x_.data, nullptr);
    ASSERT_NE(tmp_.data, nullptr);
    original_.resize(kShiftSize);
    FillPattern(original_, 1234);
    std::memcpy(x_.data, original_.data(), kShiftSize);
  }

  // Records one shift of x_ by 4 bytes (barriers included).
  void RecordShift(VkCommandBuffer cb) {
    FullBarrier(cb);
    VkBufferCopy to_tmp{0, 0, kShiftSize - 4};
    vkCmdCopyBuffer(cb, x_.buffer, tmp_.buffer, 1, &to_tmp);
    TransferBarrier(cb);
    VkBufferCopy back{0, 4, kShiftSize - 4};
    vkCmdCopyBuffer(cb, tmp_.buffer, x_.buffer, 1, &back);
    FullBarrier(cb);
  }

  // x_ after `k` shifts of original_.
  ::testing::AssertionResult ShiftedBy(uint32_t k) {
    for (size_t j = 0; j < kShiftSize; ++j) {
      const uint8_t want = j >= 4 * size_t{k} ? original_[j - 4 * size_t{k}] : original_[j % 4];
      if (x_.data[j] != want) {
        return ::testing::AssertionFailure() << "after " << k << " shifts byte " << j << " is " << int(x_.data[j])
                                             << ", expected " << int(want);
      }
    }
    return ::testing::AssertionSuccess();
  }

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

  void Begin(VkCommandBuffer cb, VkCommandBufferUsageFlags flags) {
    VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    bi.flags = flags;
    VK_ASSERT_OK(vkBeginCommandBuffer(cb, &bi));
  }

  void BeginSecondary(VkCommandBuffer cb, VkCommandBufferUsageFlags flags) {
    VkCommandBufferInheritanceInfo inherit{VK_STRUCTURE_TYPE_COMMAND_BUFFER_INHERITANCE_INFO};
    VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    bi.flags = flags;
    bi.pInheritanceInfo = &inherit;
    VK_ASSERT_OK(vkBeginCommandBuffer(cb, &bi));
  }

  // Submits already-ended buffers in one VkSubmitInfo and waits.
  void SubmitWait(std::vector<VkCommandBuffer> cbs, VkQueue queue = VK_NULL_HANDLE) {
    VkFence fence = MakeFence();
    VkSubmitInfo si{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    si.commandBufferCount = uint32_t(cbs.size());
    si.pCommandBuffers = cbs.data();
    VK_ASSERT_OK(vkQueueSubmit(queue != VK_NULL_HANDLE ? queue : queue_, 1, &si, fence));
    VK_ASSERT_OK(vkWaitForFences(device_, 1, &fence, VK_TRUE, kWaitNs));
  }

  HostBuffer x_, tmp_;
  std::vector<uint8_t> original_;
};

// ---------------------------------------------------------------------------
// Pools and life cycle

// Recording takes its memory from the pool's allocation callbacks: when they
// fail at the 1st, 2nd, ... allocation of a recording, vkEndCommandBuffer
// answers VK_ERROR_OUT_OF_HOST_MEMORY and nothing leaks; recorded again
// with memory to spare, the same command buffer runs correctly.
TEST_F(CommandBuffers, RecordingOutOfMemory) {
  HostAllocTracker tracker;
  const VkAllocationCallbacks callbacks = tracker.Callbacks();
  VkCommandPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  pool_info.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
  pool_info.queueFamilyIndex = queue_family_;
  VkCommandPool pool = VK_NULL_HANDLE;
  VK_ASSERT_OK(vkCreateCommandPool(device_, &pool_info, &callbacks, &pool));
  VkCommandBufferAllocateInfo allocate{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, nullptr, pool,
                                       VK_COMMAND_BUFFER_LEVEL_PRIMARY, 1};
  VkCommandBuffer cb = VK_NULL_HANDLE;
  VK_ASSERT_OK(vkAllocateCommandBuffers(device_, &allocate, &cb));

  // 64 updates of 4 KB: a tape of several chunks.
  std::vector<uint8_t> block(4096);
  FillPattern(block, 77);
  auto record = [&] {
    const VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    EXPECT_EQ(vkBeginCommandBuffer(cb, &begin), VK_SUCCESS);
    for (uint32_t i = 0; i < 64; ++i) vkCmdUpdateBuffer(cb, x_.buffer, (i % 4) * 4096, 4096, block.data());
    HostReadBarrier(cb);
    return vkEndCommandBuffer(cb);
  };
  const size_t failed = FailEachAllocationInTurn(tracker, [&] {
    EXPECT_EQ(vkResetCommandBuffer(cb, VK_COMMAND_BUFFER_RESET_RELEASE_RESOURCES_BIT), VK_SUCCESS);
    return record();
  });
  EXPECT_GE(failed, 3u) << "each chunk of the tape should have failed in turn";
  Submit(cb);
  VK_ASSERT_OK(vkQueueWaitIdle(queue_));
  for (size_t i = 0; i < 4; ++i) EXPECT_EQ(std::memcmp(x_.data + i * 4096, block.data(), 4096), 0) << "block " << i;

  vkFreeCommandBuffers(device_, pool, 1, &cb);
  vkDestroyCommandPool(device_, pool, &callbacks);
  std::lock_guard lock(tracker.mu);
  EXPECT_TRUE(tracker.live.empty()) << tracker.live.size() << " allocations never freed";
  EXPECT_EQ(tracker.bad_frees, 0u);
}

TEST_F(CommandBuffers, EmptyCommandBufferExecutes) {
  VkCommandBuffer cb = AllocateCommandBuffer();
  Begin(cb, 0);
  VK_EXPECT_OK(vkEndCommandBuffer(cb));
  ASSERT_NO_FATAL_FAILURE(SubmitWait({cb}));
  EXPECT_TRUE(ShiftedBy(0));
}

TEST_F(CommandBuffers, ResetCommandBufferThenRecordAgain) {
  VkCommandPool pool = MakeCommandPool(VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT);
  HostBuffer b = MakeHostBuffer(1024);
  ASSERT_NE(b.data, nullptr);
  VkCommandBuffer cb = AllocateCommandBuffer(pool);
  Begin(cb, 0);
  vkCmdFillBuffer(cb, b.buffer, 0, VK_WHOLE_SIZE, 0xAAAA0001);
  HostReadBarrier(cb);
  VK_ASSERT_OK(vkEndCommandBuffer(cb));
  ASSERT_NO_FATAL_FAILURE(SubmitWait({cb}));
  EXPECT_TRUE(AllWords(b, 0xAAAA0001));

  // Explicit reset: the old fill must be gone from the tape.
  VK_ASSERT_OK(vkResetCommandBuffer(cb, 0));
  Begin(cb, 0);
  vkCmdFillBuffer(cb, b.buffer, 0, 512, 0xBBBB0002);
  HostReadBarrier(cb);
  VK_ASSERT_OK(vkEndCommandBuffer(cb));
  std::memset(b.data, 0, 1024);
  ASSERT_NO_FATAL_FAILURE(SubmitWait({cb}));
  for (size_t i = 0; i < 256; ++i) {
    ASSERT_EQ(b.as<uint32_t>()[i], i < 128 ? 0xBBBB0002u : 0u) << "word " << i;
  }

  // Release-resources reset, then implicit reset by vkBeginCommandBuffer of
  // an executable buffer.
  VK_ASSERT_OK(vkResetCommandBuffer(cb, VK_COMMAND_BUFFER_RESET_RELEASE_RESOURCES_BIT));
  Begin(cb, 0);
  vkCmdFillBuffer(cb, b.buffer, 0, VK_WHOLE_SIZE, 0xCCCC0003);
  HostReadBarrier(cb);
  VK_ASSERT_OK(vkEndCommandBuffer(cb));
  Begin(cb, 0);  // implicit reset: the 0xCCCC0003 fill is dropped
  vkCmdFillBuffer(cb, b.buffer, 512, VK_WHOLE_SIZE, 0xDDDD0004);
  HostReadBarrier(cb);
  VK_ASSERT_OK(vkEndCommandBuffer(cb));
  std::memset(b.data, 0, 1024);
  ASSERT_NO_FATAL_FAILURE(SubmitWait({cb}));
  for (size_t i = 0; i < 256; ++i) {
    ASSERT_EQ(b.as<uint32_t>()[i], i < 128 ? 0u : 0xDDDD0004u) << "word " << i;
  }
}

TEST_F(CommandBuffers, ResetPoolReturnsEveryBufferToInitial) {
  for (VkCommandPoolResetFlags flags : {VkCommandPoolResetFlags{0},
                                        VkCommandPoolResetFlags{VK_COMMAND_POOL_RESET_RELEASE_RESOURCES_BIT}}) {
    SCOPED_TRACE(flags);
    // No RESET_COMMAND_BUFFER_BIT: buffers are reset only through the pool.
    VkCommandPool pool = MakeCommandPool(0);
    HostBuffer b = MakeHostBuffer(3 * 64);
    ASSERT_NE(b.data, nullptr);
    std::memset(b.data, 0, b.size);
    VkCommandBuffer cbs[3];
    VkCommandBufferAllocateInfo ai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    ai.commandPool = pool;
    ai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    ai.commandBufferCount = 3;
    VK_ASSERT_OK(vkAllocateCommandBuffers(device_, &ai, cbs));
    for (uint32_t round = 0; round < 3; ++round) {
      for (uint32_t i = 0; i < 3; ++i) {
        Begin(cbs[i], VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT);
        vkCmdFillBuffer(cbs[i], b.buffer, 64 * i, 64, round * 16 + i);
        HostReadBarrier(cbs[i]);
        VK_ASSERT_OK(vkEndCommandBuffer(cbs[i]));
      }
      ASSERT_NO_FATAL_FAILURE(SubmitWait({cbs[0], cbs[1], cbs[2]}));
      for (uint32_t w = 0; w < 48; ++w) ASSERT_EQ(b.as<uint32_t>()[w], round * 16 + w / 16) << "round " << round;
      VK_ASSERT_OK(vkResetCommandPool(device_, pool, flags));
    }
    vkFreeCommandBuffers(device_, pool, 3, cbs);
  }
}

TEST_F(CommandBuffers, TrimPoolKeepsItUsable) {
  VkCommandPool pool = MakeCommandPool(VK_COMMAND_POOL_CREATE_TRANSIENT_BIT);
  HostBuffer b = MakeHostBuffer(4096);
  ASSERT_NE(b.data, nullptr);
  for (uint32_t round = 0; round < 4; ++round) {
    std::vector<VkCommandBuffer> cbs(16);
    VkCommandBufferAllocateInfo ai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    ai.commandPool = pool;
    ai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    ai.commandBufferCount = 16;
    VK_ASSERT_OK(vkAllocateCommandBuffers(device_, &ai, cbs.data()));
    for (uint32_t i = 0; i < 16; ++i) {
      Begin(cbs[i], VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT);
      // Lots of records so the tapes grow past any first chunk.
      for (uint32_t k = 0; k < 64; ++k) vkCmdFillBuffer(cbs[i], b.buffer, 256 * i + 4 * k, 4, round * 10000 + i * 64 + k);
      HostReadBarrier(cbs[i]);
      VK_ASSERT_OK(vkEndCommandBuffer(cbs[i]));
    }
    ASSERT_NO_FATAL_FAILURE(SubmitWait(cbs));
    for (uint32_t w = 0; w < 1024; ++w) ASSERT_EQ(b.as<uint32_t>()[w], round * 10000 + w) << "round " << round;
    vkFreeCommandBuffers(device_, pool, 16, cbs.data());
    vkTrimCommandPool(device_, pool, 0);
  }
}

TEST_F(CommandBuffers, AllocateManyInOneCall) {
  constexpr uint32_t kCount = 100;
  HostBuffer b = MakeHostBuffer(4 * kCount);
  ASSERT_NE(b.data, nullptr);
  std::memset(b.data, 0, b.size);
  std::vector<VkCommandBuffer> cbs(kCount, VK_NULL_HANDLE);
  VkCommandBufferAllocateInfo ai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
  ai.commandPool = pool_;
  ai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  ai.commandBufferCount = kCount;
  VK_ASSERT_OK(vkAllocateCommandBuffers(device_, &ai, cbs.data()));
  for (uint32_t i = 0; i < kCount; ++i) {
    ASSERT_NE(cbs[i], VK_NULL_HANDLE);
    for (uint32_t j = 0; j < i; ++j) ASSERT_NE(cbs[i], cbs[j]);
  }
  for (uint32_t i = 0; i < kCount; ++i) {
    Begin(cbs[i], 0);
    vkCmdFillBuffer(cbs[i], b.buffer, 4 * i, 4, 0xF0000000u + i);
    HostReadBarrier(cbs[i]);
    VK_ASSERT_OK(vkEndCommandBuffer(cbs[i]));
  }
  ASSERT_NO_FATAL_FAILURE(SubmitWait(cbs));
  for (uint32_t i = 0; i < kCount; ++i) EXPECT_EQ(b.as<uint32_t>()[i], 0xF0000000u + i);
  vkFreeCommandBuffers(device_, pool_, kCount, cbs.data());
}

TEST_F(CommandBuffers, BuffersOfOneSubmitRunInOrder) {
  // Three buffers in one VkSubmitInfo, then three VkSubmitInfos: the shift
  // chain only works out if they run in submission order.
  std::vector<VkCommandBuffer> cbs;
  for (int i = 0; i < 3; ++i) {
    VkCommandBuffer cb = AllocateCommandBuffer();
    Begin(cb, 0);
    RecordShift(cb);
    HostReadBarrier(cb);
    VK_ASSERT_OK(vkEndCommandBuffer(cb));
    cbs.push_back(cb);
  }
  ASSERT_NO_FATAL_FAILURE(SubmitWait(cbs));
  EXPECT_TRUE(ShiftedBy(3));
  VkSubmitInfo si[3] = {};
  for (int i = 0; i < 3; ++i) {
    si[i].sType = VK_STRUCTURE_TYPE_SUBMIT_INFO;
    si[i].commandBufferCount = 1;
    si[i].pCommandBuffers = &cbs[size_t(i)];
  }
  VkFence fence = MakeFence();
  VK_ASSERT_OK(vkQueueSubmit(queue_, 3, si, fence));
  VK_ASSERT_OK(vkWaitForFences(device_, 1, &fence, VK_TRUE, kWaitNs));
  EXPECT_TRUE(ShiftedBy(6));
}

// ---------------------------------------------------------------------------
// Secondary command buffers

TEST_F(CommandBuffers, ExecuteCommandsRunsSecondariesInOrderWithPrimaryCommands) {
  HostBuffer a = MakeHostBuffer(4096);
  HostBuffer c = MakeHostBuffer(4096);
  ASSERT_NE(c.data, nullptr);
  std::memset(a.data, 0, a.size);
  std::memset(c.data, 0, c.size);
  // Secondary 1 fills a; secondary 2 copies a to c; the primary fills a
  // before, and overwrites it after, the secondaries.
  VkCommandBuffer s1 = AllocateCommandBuffer(pool_, VK_COMMAND_BUFFER_LEVEL_SECONDARY);
  BeginSecondary(s1, 0);
  FullBarrier(s1);
  vkCmdFillBuffer(s1, a.buffer, 0, 2048, 0x5EC00001);
  VK_ASSERT_OK(vkEndCommandBuffer(s1));
  VkCommandBuffer s2 = AllocateCommandBuffer(pool_, VK_COMMAND_BUFFER_LEVEL_SECONDARY);
  BeginSecondary(s2, 0);
  FullBarrier(s2);
  VkBufferCopy all{0, 0, 4096};
  vkCmdCopyBuffer(s2, a.buffer, c.buffer, 1, &all);
  VK_ASSERT_OK(vkEndCommandBuffer(s2));

  VkCommandBuffer primary = AllocateCommandBuffer();
  Begin(primary, VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT);
  vkCmdFillBuffer(primary, a.buffer, 0, VK_WHOLE_SIZE, 0x9919A001);
  const VkCommandBuffer secondaries[] = {s1, s2};
  vkCmdExecuteCommands(primary, 2, secondaries);
  FullBarrier(primary);
  vkCmdFillBuffer(primary, a.buffer, 0, VK_WHOLE_SIZE, 0x9919A002);
  ASSERT_NO_FATAL_FAILURE(EndSubmitWait(primary));

  for (uint32_t w = 0; w < 1024; ++w) ASSERT_EQ(c.as<uint32_t>()[w], w < 512 ? 0x5EC00001u : 0x9919A001u) << w;
  EXPECT_TRUE(AllWords(a, 0x9919A002));
}

TEST_F(CommandBuffers, SecondaryWithSimultaneousUseExecutedSeveralTimes) {
  VkCommandPool other_pool = MakeCommandPool(0);  // secondaries may come from another pool
  VkCommandBuffer shift = AllocateCommandBuffer(other_pool, VK_COMMAND_BUFFER_LEVEL_SECONDARY);
  BeginSecondary(shift, VK_COMMAND_BUFFER_USAGE_SIMULTANEOUS_USE_BIT);
  RecordShift(shift);
  VK_ASSERT_OK(vkEndCommandBuffer(shift));

  VkCommandBuffer primary = AllocateCommandBuffer();
  Begin(primary, 0);
  const VkCommandBuffer three[] = {shift, shift, shift};
  vkCmdExecuteCommands(primary, 3, three);
  vkCmdExecuteCommands(primary, 1, &shift);
  HostReadBarrier(primary);
  VK_ASSERT_OK(vkEndCommandBuffer(primary));
  ASSERT_NO_FATAL_FAILURE(SubmitWait({primary}));
  EXPECT_TRUE(ShiftedBy(4));
  // The primary is re-submitted; the secondary runs four more times.
  ASSERT_NO_FATAL_FAILURE(SubmitWait({primary}));
  EXPECT_TRUE(ShiftedBy(8));
}

TEST_F(CommandBuffers, SecondaryReRecordedIsSeenByNewPrimary) {
  HostBuffer b = MakeHostBuffer(256);
  ASSERT_NE(b.data, nullptr);
  VkCommandBuffer secondary = AllocateCommandBuffer(pool_, VK_COMMAND_BUFFER_LEVEL_SECONDARY);
  for (uint32_t round = 0; round < 3; ++round) {
    BeginSecondary(secondary, VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT);
    vkCmdFillBuffer(secondary, b.buffer, 0, VK_WHOLE_SIZE, 0x100 + round);
    VK_ASSERT_OK(vkEndCommandBuffer(secondary));
    VkCommandBuffer primary = BeginCommands();
    vkCmdExecuteCommands(primary, 1, &secondary);
    ASSERT_NO_FATAL_FAILURE(EndSubmitWait(primary));
    ASSERT_TRUE(AllWords(b, 0x100 + round));
  }
}

// ---------------------------------------------------------------------------
// Usage flags and re-submission

TEST_F(CommandBuffers, OneTimeSubmitThenRecordAgain) {
  HostBuffer b = MakeHostBuffer(256);
  ASSERT_NE(b.data, nullptr);
  VkCommandBuffer cb = AllocateCommandBuffer();
  for (uint32_t round = 0; round < 5; ++round) {
    // After a one-time buffer executes it is invalid; vkBeginCommandBuffer
    // resets it (the pool has RESET_COMMAND_BUFFER_BIT).
    Begin(cb, VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT);
    vkCmdFillBuffer(cb, b.buffer, 0, VK_WHOLE_SIZE, 0x0E0E0000 + round);
    HostReadBarrier(cb);
    VK_ASSERT_OK(vkEndCommandBuffer(cb));
    ASSERT_NO_FATAL_FAILURE(SubmitWait({cb}));
    ASSERT_TRUE(AllWords(b, 0x0E0E0000 + round));
  }
}

TEST_F(CommandBuffers, ResubmitSameBuffer1000TimesGivesSameResult) {
  // fill a -> copy regions a->c -> copy c->d; the host clears d between
  // submissions and checks it after each one.
  HostBuffer a = MakeHostBuffer(16384);
  HostBuffer c = MakeHostBuffer(16384);
  HostBuffer d = MakeHostBuffer(16384);
  ASSERT_NE(d.data, nullptr);
  VkCommandBuffer cb = AllocateCommandBuffer();
  Begin(cb, 0);
  FullBarrier(cb);
  vkCmdFillBuffer(cb, a.buffer, 0, 8192, 0x12345678);
  vkCmdFillBuffer(cb, a.buffer, 8192, VK_WHOLE_SIZE, 0x9ABCDEF0);
  TransferBarrier(cb);
  const VkBufferCopy regions[] = {{0, 8192, 8192}, {8192, 0, 8192}};
  vkCmdCopyBuffer(cb, a.buffer, c.buffer, 2, regions);
  TransferBarrier(cb);
  VkBufferCopy all{0, 0, 16384};
  vkCmdCopyBuffer(cb, c.buffer, d.buffer, 1, &all);
  HostReadBarrier(cb);
  VK_ASSERT_OK(vkEndCommandBuffer(cb));

  std::vector<uint8_t> expected(16384);
  for (size_t w = 0; w < 4096; ++w) {
    const uint32_t v = w < 2048 ? 0x9ABCDEF0 : 0x12345678;
    std::memcpy(expected.data() + 4 * w, &v, 4);
  }
  VkFence fence = MakeFence();
  for (uint32_t i = 0; i < 1000; ++i) {
    std::memset(a.data, 0, a.size);
    std::memset(c.data, 0, c.size);
    std::memset(d.data, 0xEE, d.size);
    ASSERT_NO_FATAL_FAILURE(Submit(cb, fence));
    VK_ASSERT_OK(vkWaitForFences(device_, 1, &fence, VK_TRUE, kWaitNs));
    VK_ASSERT_OK(vkResetFences(device_, 1, &fence));
    ASSERT_EQ(FirstDifference(d.bytes(), expected), SIZE_MAX) << "submission " << i;
  }
}

TEST_F(CommandBuffers, SimultaneousUseBuffer1000SubmissionsInFlight) {
  // Without waiting in between: the shift chain must have run exactly 1000
  // times, in order. One vkQueueSubmit also names the buffer twice.
  VkCommandBuffer cb = AllocateCommandBuffer();
  Begin(cb, VK_COMMAND_BUFFER_USAGE_SIMULTANEOUS_USE_BIT);
  RecordShift(cb);
  HostReadBarrier(cb);
  VK_ASSERT_OK(vkEndCommandBuffer(cb));
  const VkCommandBuffer twice[] = {cb, cb};
  VkSubmitInfo si{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  si.commandBufferCount = 2;
  si.pCommandBuffers = twice;
  VK_ASSERT_OK(vkQueueSubmit(queue_, 1, &si, VK_NULL_HANDLE));
  for (uint32_t i = 2; i < 1000; ++i) ASSERT_NO_FATAL_FAILURE(Submit(cb));
  VK_ASSERT_OK(vkQueueWaitIdle(queue_));
  EXPECT_TRUE(ShiftedBy(1000));
}

// ---------------------------------------------------------------------------
// Recorded arguments are copies

TEST_F(CommandBuffers, RecordedArgumentsAreDeepCopied) {
  HostBuffer src = MakeHostBuffer(8192);
  HostBuffer dst = MakeHostBuffer(8192);
  HostBuffer upd = MakeHostBuffer(8192);
  HostBuffer dst2 = MakeHostBuffer(8192);
  ASSERT_NE(dst2.data, nullptr);
  FillPattern(src.bytes(), 7);
  std::memset(dst.data, 0, dst.size);
  std::memset(upd.data, 0, upd.size);
  std::memset(dst2.data, 0, dst2.size);

  VkCommandBuffer cb = BeginCommands();
  // vkCmdCopyBuffer regions on the heap, overwritten with other valid
  // regions and freed after the call.
  auto regions = std::make_unique<VkBufferCopy[]>(3);
  regions[0] = {0, 4096, 100};
  regions[1] = {1000, 10, 333};
  regions[2] = {5000, 6000, 2000};
  vkCmdCopyBuffer(cb, src.buffer, dst.buffer, 3, regions.get());
  for (int i = 0; i < 3; ++i) regions[size_t(i)] = {0, 0, 4};
  regions.reset();
  // vkCmdCopyBuffer2: the info struct and its regions are both heap memory.
  auto info = std::make_unique<VkCopyBufferInfo2>();
  auto regions2 = std::make_unique<VkBufferCopy2[]>(2);
  regions2[0] = {VK_STRUCTURE_TYPE_BUFFER_COPY_2, nullptr, 64, 128, 256};
  regions2[1] = {VK_STRUCTURE_TYPE_BUFFER_COPY_2, nullptr, 7000, 7100, 1000};
  *info = {VK_STRUCTURE_TYPE_COPY_BUFFER_INFO_2, nullptr, src.buffer, dst2.buffer, 2, regions2.get()};
  vkCmdCopyBuffer2(cb, info.get());
  regions2[0].size = 4;
  regions2[1].size = 4;
  info->regionCount = 1;
  info->dstBuffer = dst.buffer;
  info.reset();
  regions2.reset();
  // vkCmdUpdateBuffer data.
  std::vector<uint8_t> data(4000);
  FillPattern(data, 99);
  const std::vector<uint8_t> data_copy = data;
  vkCmdUpdateBuffer(cb, upd.buffer, 400, data.size(), data.data());
  std::fill(data.begin(), data.end(), uint8_t(0x11));
  data.clear();
  data.shrink_to_fit();
  // Fresh allocations of the same sizes, likely at the freed addresses,
  // holding other valid arguments.
  auto decoy = std::make_unique<VkBufferCopy[]>(3);
  for (int i = 0; i < 3; ++i) decoy[size_t(i)] = {0, 0, 8};
  std::vector<uint8_t> decoy_data(4000, 0x22);
  ASSERT_NO_FATAL_FAILURE(EndSubmitWait(cb));

  std::vector<uint8_t> want(8192, 0);
  std::memcpy(want.data() + 4096, src.data, 100);
  std::memcpy(want.data() + 10, src.data + 1000, 333);
  std::memcpy(want.data() + 6000, src.data + 5000, 2000);
  EXPECT_EQ(FirstDifference(dst.bytes(), want), SIZE_MAX);
  std::vector<uint8_t> want2(8192, 0);
  std::memcpy(want2.data() + 128, src.data + 64, 256);
  std::memcpy(want2.data() + 7100, src.data + 7000, 1000);
  EXPECT_EQ(FirstDifference(dst2.bytes(), want2), SIZE_MAX);
  std::vector<uint8_t> want_upd(8192, 0);
  std::memcpy(want_upd.data() + 400, data_copy.data(), data_copy.size());
  EXPECT_EQ(FirstDifference(upd.bytes(), want_upd), SIZE_MAX);
}

TEST_F(CommandBuffers, RecordedImageRegionsAndSecondaryListAreDeepCopied) {
  HostBuffer src = MakeHostBuffer(64 * 64 * 4);
  HostBuffer out = MakeHostBuffer(64 * 64 * 4);
  ASSERT_NE(out.data, nullptr);
  FillPattern(src.bytes(), 5);
  VkImage image = MakeGeneralImage(ImageInfo(VK_IMAGE_TYPE_2D, VK_FORMAT_R8G8B8A8_UINT, {64, 64, 1}));
  ASSERT_NE(image, VK_NULL_HANDLE);
  std::vector<uint8_t> zeros(64 * 64 * 4, 0);
  ASSERT_NO_FATAL_FAILURE(
      WriteImage(image, {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1}, {0, 0, 0}, {64, 64, 1}, 4, zeros));

  // A secondary that copies the image into `out`.
  VkCommandBuffer readback = AllocateCommandBuffer(pool_, VK_COMMAND_BUFFER_LEVEL_SECONDARY);
  BeginSecondary(readback, 0);
  FullBarrier(readback);
  auto read_region = std::make_unique<VkBufferImageCopy>();
  *read_region = {0, 0, 0, {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1}, {0, 0, 0}, {64, 64, 1}};
  vkCmdCopyImageToBuffer(readback, image, VK_IMAGE_LAYOUT_GENERAL, out.buffer, 1, read_region.get());
  *read_region = {0, 0, 0, {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1}, {0, 0, 0}, {1, 1, 1}};
  read_region.reset();
  VK_ASSERT_OK(vkEndCommandBuffer(readback));
  VkCommandBuffer nothing = AllocateCommandBuffer(pool_, VK_COMMAND_BUFFER_LEVEL_SECONDARY);
  BeginSecondary(nothing, 0);
  VK_ASSERT_OK(vkEndCommandBuffer(nothing));

  VkCommandBuffer cb = BeginCommands();
  auto region = std::make_unique<VkBufferImageCopy[]>(2);
  region[0] = {0, 0, 0, {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1}, {0, 0, 0}, {64, 32, 1}};
  region[1] = {64 * 32 * 4, 0, 0, {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1}, {0, 32, 0}, {64, 32, 1}};
  vkCmdCopyBufferToImage(cb, src.buffer, image, VK_IMAGE_LAYOUT_GENERAL, 2, region.get());
  region[0].imageExtent = {1, 1, 1};
  region[1].imageExtent = {1, 1, 1};
  region.reset();
  auto list = std::make_unique<VkCommandBuffer[]>(1);
  list[0] = readback;
  vkCmdExecuteCommands(cb, 1, list.get());
  list[0] = nothing;  // if the handle array were not copied, nothing would be read back
  list.reset();
  ASSERT_NO_FATAL_FAILURE(EndSubmitWait(cb));
  EXPECT_EQ(FirstDifference(out.bytes(), src.bytes()), SIZE_MAX);
}

// ---------------------------------------------------------------------------
// Long tapes and concurrency

TEST_F(CommandBuffers, LongTapeOfTwentyThousandCommands) {
  constexpr uint32_t kWords = 20000;
  HostBuffer b = MakeHostBuffer(4 * kWords);
  ASSERT_NE(b.data, nullptr);
  std::memset(b.data, 0, b.size);
  VkCommandBuffer cb = AllocateCommandBuffer();
  for (uint32_t round = 0; round < 2; ++round) {
    Begin(cb, 0);
    for (uint32_t i = 0; i < kWords; ++i) {
      if (i % 2 == 0) {
        vkCmdFillBuffer(cb, b.buffer, 4 * i, 4, i * 3 + round);
      } else {
        const uint32_t v = i * 3 + round;
        vkCmdUpdateBuffer(cb, b.buffer, 4 * i, 4, &v);
      }
    }
    HostReadBarrier(cb);
    VK_ASSERT_OK(vkEndCommandBuffer(cb));
    ASSERT_NO_FATAL_FAILURE(SubmitWait({cb}));
    for (uint32_t i = 0; i < kWords; ++i) ASSERT_EQ(b.as<uint32_t>()[i], i * 3 + round) << "word " << i;
    VK_ASSERT_OK(vkResetCommandBuffer(cb, 0));
  }
}

TEST_F(CommandBuffers, RecordOnFourThreadsThenSubmitTogether) {
  constexpr uint32_t kThreads = 4;
  constexpr uint32_t kPerThread = 500;
  HostBuffer b = MakeHostBuffer(4 * kThreads * kPerThread);
  ASSERT_NE(b.data, nullptr);
  std::memset(b.data, 0, b.size);
  std::vector<VkCommandPool> pools;
  std::vector<VkCommandBuffer> cbs;
  for (uint32_t t = 0; t < kThreads; ++t) {
    pools.push_back(MakeCommandPool(0));
    cbs.push_back(AllocateCommandBuffer(pools.back()));
  }
  std::atomic<uint32_t> errors{0};
  std::vector<std::thread> threads;
  for (uint32_t t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
      if (vkBeginCommandBuffer(cbs[t], &bi) != VK_SUCCESS) ++errors;
      for (uint32_t i = 0; i < kPerThread; ++i) {
        const uint32_t word = t * kPerThread + i;
        vkCmdFillBuffer(cbs[t], b.buffer, 4 * word, 4, word ^ 0xA5A5A5A5u);
      }
      HostReadBarrier(cbs[t]);
      if (vkEndCommandBuffer(cbs[t]) != VK_SUCCESS) ++errors;
    });
  }
  for (std::thread& th : threads) th.join();
  ASSERT_EQ(errors.load(), 0u);
  ASSERT_NO_FATAL_FAILURE(SubmitWait(cbs, SecondQueue()));
  for (uint32_t w = 0; w < kThreads * kPerThread; ++w) ASSERT_EQ(b.as<uint32_t>()[w], w ^ 0xA5A5A5A5u) << w;
}

}  // namespace
}  // namespace duet_test
