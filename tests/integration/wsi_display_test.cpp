// VK_KHR_display on DRM/KMS dumb buffers. Enumeration always runs (no
// displays is a valid answer); presenting needs a DRM card with a connected
// output, and is skipped with the reason where there is none.
#include <glob.h>

#include "wsi_fixture.h"

namespace duet_test {
namespace {

bool HaveDrmCard() {
  glob_t found{};
  const bool any = glob("/dev/dri/card*", 0, nullptr, &found) == 0 && found.gl_pathc > 0;
  globfree(&found);
  return any;
}

class WsiDisplay : public WsiTest {
 protected:
  WsiDisplay() { instance_extensions_.push_back(VK_KHR_DISPLAY_EXTENSION_NAME); }

  std::vector<VkDisplayPropertiesKHR> Displays() {
    uint32_t count = 0;
    EXPECT_EQ(vkGetPhysicalDeviceDisplayPropertiesKHR(phys_, &count, nullptr), VK_SUCCESS);
    std::vector<VkDisplayPropertiesKHR> displays(count);
    EXPECT_EQ(vkGetPhysicalDeviceDisplayPropertiesKHR(phys_, &count, displays.data()), VK_SUCCESS);
    displays.resize(count);
    return displays;
  }
};

TEST_F(WsiDisplay, EnumerationIsConsistent) {
  const std::vector<VkDisplayPropertiesKHR> displays = Displays();
  uint32_t planes = 0;
  VK_ASSERT_OK(vkGetPhysicalDeviceDisplayPlanePropertiesKHR(phys_, &planes, nullptr));
  EXPECT_EQ(planes, displays.size());
  if (!HaveDrmCard()) EXPECT_TRUE(displays.empty());
  for (uint32_t plane = 0; plane < planes; ++plane) {
    uint32_t count = 0;
    VK_ASSERT_OK(vkGetDisplayPlaneSupportedDisplaysKHR(phys_, plane, &count, nullptr));
    EXPECT_EQ(count, 1u);
  }
  for (const VkDisplayPropertiesKHR& d : displays) {
    EXPECT_NE(d.displayName, nullptr);
    uint32_t modes = 0;
    VK_ASSERT_OK(vkGetDisplayModePropertiesKHR(phys_, d.display, &modes, nullptr));
    EXPECT_GE(modes, 1u);
  }
}

TEST_F(WsiDisplay, PresentsOnTheFirstDisplay) {
  if (!HaveDrmCard()) GTEST_SKIP() << "no DRM device (/dev/dri/card*): VK_KHR_display has no display to present on";
  const std::vector<VkDisplayPropertiesKHR> displays = Displays();
  if (displays.empty()) GTEST_SKIP() << "the DRM devices have no connected output (or cannot be opened)";

  uint32_t count = 0;
  VK_ASSERT_OK(vkGetDisplayModePropertiesKHR(phys_, displays[0].display, &count, nullptr));
  std::vector<VkDisplayModePropertiesKHR> modes(count);
  VK_ASSERT_OK(vkGetDisplayModePropertiesKHR(phys_, displays[0].display, &count, modes.data()));
  ASSERT_GE(count, 1u);
  const VkDisplayModePropertiesKHR& mode = modes[0];

  VkDisplayPlaneCapabilitiesKHR plane_caps{};
  VK_ASSERT_OK(vkGetDisplayPlaneCapabilitiesKHR(phys_, mode.displayMode, 0, &plane_caps));
  EXPECT_NE(plane_caps.supportedAlpha & VK_DISPLAY_PLANE_ALPHA_OPAQUE_BIT_KHR, 0u);

  VkDisplaySurfaceCreateInfoKHR ci{VK_STRUCTURE_TYPE_DISPLAY_SURFACE_CREATE_INFO_KHR};
  ci.displayMode = mode.displayMode;
  ci.planeIndex = 0;
  ci.transform = VK_SURFACE_TRANSFORM_IDENTITY_BIT_KHR;
  ci.alphaMode = VK_DISPLAY_PLANE_ALPHA_OPAQUE_BIT_KHR;
  ci.imageExtent = mode.parameters.visibleRegion;
  VkSurfaceKHR surface = VK_NULL_HANDLE;
  VK_ASSERT_OK(vkCreateDisplayPlaneSurfaceKHR(instance_, &ci, nullptr, &surface));
  DeferInstance([this, surface] { vkDestroySurfaceKHR(instance_, surface, nullptr); });

  VkSurfaceCapabilitiesKHR caps{};
  VK_ASSERT_OK(vkGetPhysicalDeviceSurfaceCapabilitiesKHR(phys_, surface, &caps));
  EXPECT_EQ(caps.currentExtent.width, mode.parameters.visibleRegion.width);
  EXPECT_EQ(caps.currentExtent.height, mode.parameters.visibleRegion.height);

  SwapchainOptions options;
  options.extent = mode.parameters.visibleRegion;
  VkSwapchainKHR swapchain = VK_NULL_HANDLE;
  const VkResult made = TryMakeSwapchain(surface, options, &swapchain);
  if (made == VK_ERROR_INITIALIZATION_FAILED) GTEST_SKIP() << "cannot set a mode: another process is DRM master";
  ASSERT_EQ(made, VK_SUCCESS) << R{made};
  for (int i = 0; i < 3; ++i) ASSERT_NO_FATAL_FAILURE(PresentFrame(swapchain, options, Rgba{0, 0, 200, 255}));
}

}  // namespace
}  // namespace duet_test
