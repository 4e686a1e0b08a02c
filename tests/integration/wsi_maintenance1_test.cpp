// VK_EXT_surface_maintenance1 + VK_EXT_swapchain_maintenance1 through the
// loader on headless surfaces: the feature, per-present-mode surface
// queries, present fences, per-present mode changes and
// vkReleaseSwapchainImagesEXT.
#include <algorithm>
#include <cstring>
#include <iterator>

#include "wsi_fixture.h"

namespace duet_test {
namespace {

constexpr Rgba kRed{255, 0, 0, 255};
constexpr Rgba kGreen{0, 255, 0, 255};
constexpr Rgba kBlue{0, 0, 255, 255};
constexpr VkPresentModeKHR kModes[] = {VK_PRESENT_MODE_FIFO_KHR, VK_PRESENT_MODE_MAILBOX_KHR,
                                       VK_PRESENT_MODE_IMMEDIATE_KHR, VK_PRESENT_MODE_FIFO_RELAXED_KHR};

class WsiMaintenance1 : public WsiTest {
 protected:
  WsiMaintenance1() {
    instance_extensions_.push_back(VK_EXT_SURFACE_MAINTENANCE_1_EXTENSION_NAME);
    device_options_.extensions.push_back(VK_EXT_SWAPCHAIN_MAINTENANCE_1_EXTENSION_NAME);
    device_options_.extension_features.push_back(reinterpret_cast<VkBaseOutStructure*>(&enable_));
  }

  void SetUp() override {
    WsiTest::SetUp();
    if (HasFatalFailure()) return;
    release_images_ = reinterpret_cast<PFN_vkReleaseSwapchainImagesEXT>(
        vkGetDeviceProcAddr(device_, "vkReleaseSwapchainImagesEXT"));
    ASSERT_NE(release_images_, nullptr);
  }

  VkResult Release(VkSwapchainKHR swapchain, std::vector<uint32_t> indices) {
    VkReleaseSwapchainImagesInfoEXT info{VK_STRUCTURE_TYPE_RELEASE_SWAPCHAIN_IMAGES_INFO_EXT};
    info.swapchain = swapchain;
    info.imageIndexCount = static_cast<uint32_t>(indices.size());
    info.pImageIndices = indices.data();
    return release_images_(device_, &info);
  }

  VkPhysicalDeviceSwapchainMaintenance1FeaturesEXT enable_{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SWAPCHAIN_MAINTENANCE_1_FEATURES_EXT, nullptr, VK_TRUE};
  PFN_vkReleaseSwapchainImagesEXT release_images_ = nullptr;
};

TEST_F(WsiMaintenance1, ExtensionsAndFeatureAreReported) {
  EXPECT_TRUE(HasExtension(InstanceExtensions(), VK_EXT_SURFACE_MAINTENANCE_1_EXTENSION_NAME));
  EXPECT_TRUE(HasExtension(DeviceExtensions(phys_), VK_EXT_SWAPCHAIN_MAINTENANCE_1_EXTENSION_NAME));

  VkPhysicalDeviceSwapchainMaintenance1FeaturesEXT sm1{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SWAPCHAIN_MAINTENANCE_1_FEATURES_EXT};
  VkPhysicalDeviceFeatures2 f2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &sm1};
  vkGetPhysicalDeviceFeatures2(phys_, &f2);
  EXPECT_EQ(sm1.swapchainMaintenance1, VK_TRUE);
  // The fixture's device was created with the feature enabled (SetUp
  // asserts that vkCreateDevice succeeded).
  EXPECT_NE(device_, VK_NULL_HANDLE);
}

TEST_F(WsiMaintenance1, SurfaceCapabilitiesPerPresentMode) {
  VkSurfaceKHR surface = MakeHeadlessSurface();
  ASSERT_NE(surface, VK_NULL_HANDLE);
  auto get_caps2 = InstanceProc<PFN_vkGetPhysicalDeviceSurfaceCapabilities2KHR>(
      "vkGetPhysicalDeviceSurfaceCapabilities2KHR");
  ASSERT_NE(get_caps2, nullptr);
  VkSurfaceCapabilitiesKHR plain{};
  VK_ASSERT_OK(vkGetPhysicalDeviceSurfaceCapabilitiesKHR(phys_, surface, &plain));
  // Asked first, as applications do: the modes queried below must be
  // among these (and the validation layer checks that they were reported).
  uint32_t mode_count = 0;
  VK_ASSERT_OK(vkGetPhysicalDeviceSurfacePresentModesKHR(phys_, surface, &mode_count, nullptr));
  std::vector<VkPresentModeKHR> surface_modes(mode_count);
  VK_ASSERT_OK(vkGetPhysicalDeviceSurfacePresentModesKHR(phys_, surface, &mode_count, surface_modes.data()));
  ASSERT_EQ(mode_count, std::size(kModes));

  for (VkPresentModeKHR mode : kModes) {
    SCOPED_TRACE(testing::Message() << "present mode " << mode);
    VkSurfacePresentModeEXT present_mode{VK_STRUCTURE_TYPE_SURFACE_PRESENT_MODE_EXT, nullptr, mode};
    VkPhysicalDeviceSurfaceInfo2KHR info{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SURFACE_INFO_2_KHR, &present_mode,
                                         surface};
    VkSurfacePresentScalingCapabilitiesEXT scaling{VK_STRUCTURE_TYPE_SURFACE_PRESENT_SCALING_CAPABILITIES_EXT};
    scaling.supportedPresentScaling = 0xFF;  // must be overwritten
    VkSurfacePresentModeCompatibilityEXT compatible{VK_STRUCTURE_TYPE_SURFACE_PRESENT_MODE_COMPATIBILITY_EXT,
                                                    &scaling};
    VkSurfaceCapabilities2KHR caps{VK_STRUCTURE_TYPE_SURFACE_CAPABILITIES_2_KHR, &compatible};

    // Count first, then the list.
    VK_ASSERT_OK(get_caps2(phys_, &info, &caps));
    EXPECT_EQ(std::memcmp(&caps.surfaceCapabilities, &plain, sizeof plain), 0);
    ASSERT_EQ(compatible.presentModeCount, std::size(kModes));
    std::vector<VkPresentModeKHR> modes(compatible.presentModeCount, VK_PRESENT_MODE_MAX_ENUM_KHR);
    compatible.pPresentModes = modes.data();
    VK_ASSERT_OK(get_caps2(phys_, &info, &caps));
    ASSERT_EQ(compatible.presentModeCount, std::size(kModes));
    for (VkPresentModeKHR other : kModes)
      EXPECT_NE(std::find(modes.begin(), modes.end(), other), modes.end()) << "compatible mode " << other;

    // A one-element array still holds the queried mode.
    VkPresentModeKHR one = VK_PRESENT_MODE_MAX_ENUM_KHR;
    compatible.presentModeCount = 1;
    compatible.pPresentModes = &one;
    VK_ASSERT_OK(get_caps2(phys_, &info, &caps));
    EXPECT_EQ(compatible.presentModeCount, 1u);
    EXPECT_EQ(one, mode);

    // No scaling: the scaled extents are the surface's own.
    EXPECT_EQ(scaling.supportedPresentScaling, 0u);
    EXPECT_EQ(scaling.supportedPresentGravityX, 0u);
    EXPECT_EQ(scaling.supportedPresentGravityY, 0u);
    EXPECT_EQ(scaling.minScaledImageExtent.width, plain.minImageExtent.width);
    EXPECT_EQ(scaling.maxScaledImageExtent.height, plain.maxImageExtent.height);
  }
}

TEST_F(WsiMaintenance1, PresentFenceIsSignalledAfterPresent) {
  VkSurfaceKHR surface = MakeHeadlessSurface();
  SwapchainOptions options;
  VkSwapchainKHR swapchain = MakeSwapchain(surface, options);
  ASSERT_NE(swapchain, VK_NULL_HANDLE);
  VkFence fence = MakeFence();
  for (Rgba color : {kRed, kGreen, kBlue, kRed, kGreen}) {
    uint32_t index = UINT32_MAX;
    ASSERT_EQ(AcquireWithFence(swapchain, &index), VK_SUCCESS);
    VkSwapchainPresentFenceInfoEXT fence_info{VK_STRUCTURE_TYPE_SWAPCHAIN_PRESENT_FENCE_INFO_EXT, nullptr, 1, &fence};
    ASSERT_EQ(RenderAndPresent(swapchain, index, options, color, {}, &fence_info), VK_SUCCESS);
    ASSERT_EQ(vkWaitForFences(device_, 1, &fence, VK_TRUE, kWaitNs), VK_SUCCESS);
    VK_ASSERT_OK(vkResetFences(device_, 1, &fence));
  }
  // Each present's resources are free once its fence is signalled: the
  // swapchain can go at once.
  DestroySwapchain(swapchain);
}

TEST_F(WsiMaintenance1, ReleasedImagesCanBeAcquiredAgain) {
  VkSurfaceKHR surface = MakeHeadlessSurface();
  SwapchainOptions options;
  options.flags = VK_SWAPCHAIN_CREATE_DEFERRED_MEMORY_ALLOCATION_BIT_EXT;
  VkSwapchainKHR swapchain = MakeSwapchain(surface, options);
  ASSERT_NE(swapchain, VK_NULL_HANDLE);
  const uint32_t count = static_cast<uint32_t>(SwapchainImages(swapchain).size());

  // Take every image (timeout 0: no wait for images that cannot come back).
  std::vector<uint32_t> acquired;
  for (uint32_t i = 0; i < count; ++i) {
    uint32_t index = UINT32_MAX;
    ASSERT_EQ(AcquireWithFence(swapchain, &index, 0), VK_SUCCESS);
    acquired.push_back(index);
  }
  uint32_t none = UINT32_MAX;
  EXPECT_EQ(AcquireWithFence(swapchain, &none, 0), VK_NOT_READY);

  // Give back one: it is the only one to acquire.
  const uint32_t given_back = acquired[1];
  VK_ASSERT_OK(Release(swapchain, {given_back}));
  uint32_t again = UINT32_MAX;
  ASSERT_EQ(AcquireWithFence(swapchain, &again, 0), VK_SUCCESS);
  EXPECT_EQ(again, given_back);

  // Give back all but one, present that one, and acquire them all again.
  std::vector<uint32_t> rest(acquired.begin() + 1, acquired.end());
  VK_ASSERT_OK(Release(swapchain, rest));
  VkFence fence = MakeFence();
  VkSwapchainPresentFenceInfoEXT fence_info{VK_STRUCTURE_TYPE_SWAPCHAIN_PRESENT_FENCE_INFO_EXT, nullptr, 1, &fence};
  ASSERT_EQ(RenderAndPresent(swapchain, acquired[0], options, kGreen, {}, &fence_info), VK_SUCCESS);
  ASSERT_EQ(vkWaitForFences(device_, 1, &fence, VK_TRUE, kWaitNs), VK_SUCCESS);
  std::vector<uint32_t> all;
  for (uint32_t i = 0; i < count; ++i) {
    uint32_t index = UINT32_MAX;
    ASSERT_EQ(AcquireWithFence(swapchain, &index, 0), VK_SUCCESS);
    all.push_back(index);
  }
  std::sort(all.begin(), all.end());
  EXPECT_EQ(std::unique(all.begin(), all.end()), all.end());
  VK_ASSERT_OK(vkQueueWaitIdle(queue_));  // the rendering of acquired[0] is over too
  VK_ASSERT_OK(Release(swapchain, all));
}

TEST_F(WsiMaintenance1, PresentModeChangesPerPresent) {
  TempDir dumps;
  ScopedEnv dump_env("DUET_DUMP_FRAMES", dumps.path());
  VkSurfaceKHR surface = MakeHeadlessSurface();
  VkSwapchainPresentModesCreateInfoEXT modes{VK_STRUCTURE_TYPE_SWAPCHAIN_PRESENT_MODES_CREATE_INFO_EXT, nullptr,
                                            3, kModes};
  VkSwapchainPresentScalingCreateInfoEXT scaling{VK_STRUCTURE_TYPE_SWAPCHAIN_PRESENT_SCALING_CREATE_INFO_EXT,
                                                 &modes};  // no scaling: accepted
  SwapchainOptions options;
  options.mode = VK_PRESENT_MODE_FIFO_KHR;
  options.next = &scaling;
  VkSwapchainKHR swapchain = MakeSwapchain(surface, options);
  ASSERT_NE(swapchain, VK_NULL_HANDLE);

  constexpr Rgba kColors[] = {kRed, kGreen, kBlue};
  // Every change between two of the modes, both ways.
  constexpr VkPresentModeKHR kSequence[] = {VK_PRESENT_MODE_FIFO_KHR,      VK_PRESENT_MODE_MAILBOX_KHR,
                                            VK_PRESENT_MODE_IMMEDIATE_KHR, VK_PRESENT_MODE_FIFO_KHR,
                                            VK_PRESENT_MODE_IMMEDIATE_KHR, VK_PRESENT_MODE_MAILBOX_KHR,
                                            VK_PRESENT_MODE_FIFO_KHR};
  constexpr uint32_t kFrames = std::size(kSequence);
  std::vector<VkFence> fences;
  for (uint32_t frame = 0; frame < kFrames; ++frame) {
    const VkPresentModeKHR mode = kSequence[frame];
    uint32_t index = UINT32_MAX;
    ASSERT_EQ(AcquireWithFence(swapchain, &index), VK_SUCCESS) << "frame " << frame;
    fences.push_back(MakeFence());
    VkSwapchainPresentFenceInfoEXT fence_info{VK_STRUCTURE_TYPE_SWAPCHAIN_PRESENT_FENCE_INFO_EXT, nullptr, 1,
                                              &fences.back()};
    VkSwapchainPresentModeInfoEXT mode_info{VK_STRUCTURE_TYPE_SWAPCHAIN_PRESENT_MODE_INFO_EXT, &fence_info, 1,
                                            &mode};
    ASSERT_EQ(RenderAndPresent(swapchain, index, options, kColors[frame % 3], {}, &mode_info), VK_SUCCESS)
        << "frame " << frame << ", mode " << mode;
  }
  // Every present is done with its image (shown, or replaced in MAILBOX).
  ASSERT_EQ(vkWaitForFences(device_, uint32_t(fences.size()), fences.data(), VK_TRUE, kWaitNs), VK_SUCCESS);
  DestroySwapchain(swapchain);

  // The last frame is the one the surface shows last.
  const std::vector<std::string> files = dumps.Files();
  ASSERT_FALSE(files.empty());
  DecodedPng png;
  ASSERT_TRUE(ReadPng(files.back(), &png));
  EXPECT_EQ(png.At(0, 0), kColors[(kFrames - 1) % 3]);
}

}  // namespace
}  // namespace duet_test
