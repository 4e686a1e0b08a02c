// Many threads at once with presents in flight: one thread presents to a
// headless swapchain while others record from pools of their own and
// submit to the second queue, and another creates and destroys objects.
// scripts/test.sh runs this under ThreadSanitizer too.
#include <atomic>
#include <cstring>
#include <mutex>
#include <thread>
#include <vector>

#include "wsi_fixture.h"

namespace duet_test {
namespace {

class WsiStress : public WsiTest {};

TEST_F(WsiStress, PresentsWhileOtherThreadsCreateRecordAndSubmit) {
  if (queues_.size() < 2) GTEST_SKIP() << "needs two queues: the presenting thread owns the first";
  constexpr int kFrames = 40, kWorkers = 2, kRounds = 30;
  constexpr VkDeviceSize kSize = 4096;
  VkSurfaceKHR surface = MakeHeadlessSurface();
  SwapchainOptions options;
  options.mode = VK_PRESENT_MODE_MAILBOX_KHR;
  options.extent = {32, 32};
  VkSwapchainKHR swapchain = MakeSwapchain(surface, options);
  ASSERT_NE(swapchain, VK_NULL_HANDLE);
  std::vector<HostBuffer> targets;
  for (int w = 0; w < kWorkers; ++w) targets.push_back(MakeHostBuffer(kSize));

  std::mutex second_queue;  // vkQueueSubmit is externally synchronized per queue
  std::atomic<int> worker_failures{0}, creator_failures{0};

  auto worker = [&](int w) {
    VkCommandPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    pool_info.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
    pool_info.queueFamilyIndex = queue_family_;
    VkCommandPool pool = VK_NULL_HANDLE;
    if (vkCreateCommandPool(device_, &pool_info, nullptr, &pool) != VK_SUCCESS) {
      ++worker_failures;
      return;
    }
    VkCommandBufferAllocateInfo allocate{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, nullptr, pool,
                                         VK_COMMAND_BUFFER_LEVEL_PRIMARY, 1};
    VkCommandBuffer cb = VK_NULL_HANDLE;
    VkFence fence = VK_NULL_HANDLE;
    const VkFenceCreateInfo fence_info{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    if (vkAllocateCommandBuffers(device_, &allocate, &cb) != VK_SUCCESS ||
        vkCreateFence(device_, &fence_info, nullptr, &fence) != VK_SUCCESS) {
      ++worker_failures;
    } else {
      for (int round = 0; round < kRounds; ++round) {
        const uint32_t value = static_cast<uint32_t>(w * 1000 + round);
        const VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
        vkBeginCommandBuffer(cb, &begin);
        vkCmdFillBuffer(cb, targets[w].buffer, 0, kSize, value);
        HostReadBarrier(cb);
        if (vkEndCommandBuffer(cb) != VK_SUCCESS) ++worker_failures;
        const VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO, nullptr, 0, nullptr, nullptr, 1, &cb};
        {
          std::lock_guard lock(second_queue);
          if (vkQueueSubmit(queues_[1], 1, &submit, fence) != VK_SUCCESS) ++worker_failures;
        }
        if (vkWaitForFences(device_, 1, &fence, VK_TRUE, kWaitNs) != VK_SUCCESS) ++worker_failures;
        vkResetFences(device_, 1, &fence);
        const auto* words = reinterpret_cast<const uint32_t*>(targets[w].data);
        if (words[0] != value || words[kSize / 4 - 1] != value) ++worker_failures;
      }
    }
    vkDestroyFence(device_, fence, nullptr);
    vkDestroyCommandPool(device_, pool, nullptr);  // frees cb
  };

  auto creator = [&] {
    for (int round = 0; round < 100; ++round) {
      VkBufferCreateInfo buffer_info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
      buffer_info.size = 256;
      buffer_info.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
      VkBuffer buffer = VK_NULL_HANDLE;
      const VkImageCreateInfo image_info = ImageInfo(VK_IMAGE_TYPE_2D, VK_FORMAT_R8G8B8A8_UNORM, {8, 8, 1});
      VkImage image = VK_NULL_HANDLE;
      const VkSamplerCreateInfo sampler_info{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
      VkSampler sampler = VK_NULL_HANDLE;
      if (vkCreateBuffer(device_, &buffer_info, nullptr, &buffer) != VK_SUCCESS) ++creator_failures;
      if (vkCreateImage(device_, &image_info, nullptr, &image) != VK_SUCCESS) ++creator_failures;
      if (vkCreateSampler(device_, &sampler_info, nullptr, &sampler) != VK_SUCCESS) ++creator_failures;
      vkDestroySampler(device_, sampler, nullptr);
      vkDestroyImage(device_, image, nullptr);
      vkDestroyBuffer(device_, buffer, nullptr);
    }
  };

  std::vector<std::thread> threads;
  for (int w = 0; w < kWorkers; ++w) threads.emplace_back(worker, w);
  threads.emplace_back(creator);
  // This thread presents (it owns queue_ and the fixture's helpers).
  for (int frame = 0; frame < kFrames && !HasFatalFailure(); ++frame)
    PresentFrame(swapchain, options, Rgba{uint8_t(frame * 5), 0, 0, 255});
  for (std::thread& t : threads) t.join();
  VK_ASSERT_OK(vkDeviceWaitIdle(device_));
  EXPECT_EQ(worker_failures.load(), 0);
  EXPECT_EQ(creator_failures.load(), 0);
}

}  // namespace
}  // namespace duet_test
