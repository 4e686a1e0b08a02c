// VK_KHR_present_id + VK_KHR_present_wait on headless surfaces: a wait
// returns once the backend has the frame (its PNG dump is written), times
// out for an id nobody presented, and MAILBOX replacements count as done.
#include "wsi_fixture.h"

namespace duet_test {
namespace {

constexpr Rgba kRed{255, 0, 0, 255};
constexpr Rgba kGreen{0, 255, 0, 255};

class WsiPresentWait : public WsiTest {
 protected:
  WsiPresentWait() {
    device_options_.extensions.push_back(VK_KHR_PRESENT_ID_EXTENSION_NAME);
    device_options_.extensions.push_back(VK_KHR_PRESENT_WAIT_EXTENSION_NAME);
    device_options_.extension_features.push_back(reinterpret_cast<VkBaseOutStructure*>(&present_id_));
    device_options_.extension_features.push_back(reinterpret_cast<VkBaseOutStructure*>(&present_wait_));
  }

  void SetUp() override {
    WsiTest::SetUp();
    if (HasFatalFailure()) return;
    wait_ = reinterpret_cast<PFN_vkWaitForPresentKHR>(vkGetDeviceProcAddr(device_, "vkWaitForPresentKHR"));
    ASSERT_NE(wait_, nullptr);
  }

  // Acquire, render `color`, present with `id`.
  void PresentWithId(VkSwapchainKHR swapchain, const SwapchainOptions& options, Rgba color, uint64_t id) {
    uint32_t index = 0;
    ASSERT_EQ(AcquireWithFence(swapchain, &index), VK_SUCCESS);
    VkPresentIdKHR ids{VK_STRUCTURE_TYPE_PRESENT_ID_KHR, nullptr, 1, &id};
    ASSERT_EQ(RenderAndPresent(swapchain, index, options, color, {}, &ids), VK_SUCCESS);
  }

  VkPhysicalDevicePresentIdFeaturesKHR present_id_{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PRESENT_ID_FEATURES_KHR, nullptr,
                                                   VK_TRUE};
  VkPhysicalDevicePresentWaitFeaturesKHR present_wait_{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PRESENT_WAIT_FEATURES_KHR,
                                                       nullptr, VK_TRUE};
  PFN_vkWaitForPresentKHR wait_ = nullptr;
};

TEST_F(WsiPresentWait, FeaturesAreReported) {
  VkPhysicalDevicePresentWaitFeaturesKHR wait{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PRESENT_WAIT_FEATURES_KHR};
  VkPhysicalDevicePresentIdFeaturesKHR id{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PRESENT_ID_FEATURES_KHR, &wait};
  VkPhysicalDeviceFeatures2 f2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &id};
  vkGetPhysicalDeviceFeatures2(phys_, &f2);
  EXPECT_EQ(id.presentId, VK_TRUE);
  EXPECT_EQ(wait.presentWait, VK_TRUE);
  EXPECT_TRUE(HasExtension(DeviceExtensions(phys_), VK_KHR_PRESENT_WAIT_EXTENSION_NAME));
}

TEST_F(WsiPresentWait, WaitReturnsOnceTheFrameIsOut) {
  TempDir dumps;
  ScopedEnv dump_env("DUET_DUMP_FRAMES", dumps.path());
  ScopedEnv refresh("DUET_REFRESH_HZ", "20");  // FIFO: one frame per 50 ms
  VkSurfaceKHR surface = MakeHeadlessSurface();
  SwapchainOptions options;
  VkSwapchainKHR swapchain = MakeSwapchain(surface, options);
  ASSERT_NE(swapchain, VK_NULL_HANDLE);
  for (uint64_t id = 1; id <= 3; ++id) ASSERT_NO_FATAL_FAILURE(PresentWithId(swapchain, options, kRed, id));
  // Nothing presented id 4: a short wait times out.
  EXPECT_EQ(wait_(device_, swapchain, 4, 20'000'000), VK_TIMEOUT);
  ASSERT_EQ(wait_(device_, swapchain, 3, kWaitNs), VK_SUCCESS);
  // The third frame's dump exists as soon as the wait returns, not later.
  EXPECT_EQ(dumps.Files().size(), 3u);
  EXPECT_EQ(wait_(device_, swapchain, 2, 0), VK_SUCCESS);  // earlier ids are done too
  EXPECT_EQ(wait_(device_, swapchain, 5, 0), VK_TIMEOUT);
}

TEST_F(WsiPresentWait, ReplacedMailboxFramesCountAsDone) {
  ScopedEnv refresh("DUET_REFRESH_HZ", "5");  // slow: later frames replace waiting ones
  VkSurfaceKHR surface = MakeHeadlessSurface();
  SwapchainOptions options;
  options.mode = VK_PRESENT_MODE_MAILBOX_KHR;
  options.min_images = 4;
  VkSwapchainKHR swapchain = MakeSwapchain(surface, options);
  ASSERT_NE(swapchain, VK_NULL_HANDLE);
  for (uint64_t id = 1; id <= 3; ++id)
    ASSERT_NO_FATAL_FAILURE(PresentWithId(swapchain, options, id % 2 ? kRed : kGreen, id));
  EXPECT_EQ(wait_(device_, swapchain, 3, kWaitNs), VK_SUCCESS);
  EXPECT_EQ(wait_(device_, swapchain, 1, 0), VK_SUCCESS);
}

TEST_F(WsiPresentWait, PresentsWithoutAnIdAreNotWaitedFor) {
  VkSurfaceKHR surface = MakeHeadlessSurface();
  SwapchainOptions options;
  VkSwapchainKHR swapchain = MakeSwapchain(surface, options);
  ASSERT_NE(swapchain, VK_NULL_HANDLE);
  ASSERT_NO_FATAL_FAILURE(PresentFrame(swapchain, options, kRed));
  VK_ASSERT_OK(vkQueueWaitIdle(queue_));
  EXPECT_EQ(wait_(device_, swapchain, 1, 10'000'000), VK_TIMEOUT);
}

}  // namespace
}  // namespace duet_test
