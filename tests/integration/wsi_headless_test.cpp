// VK_EXT_headless_surface + VK_KHR_swapchain through the loader: surface
// queries, acquire/present, PNG dumps (DUET_DUMP_FRAMES), present modes,
// swapchain recreation and incremental-present damage.
#include <algorithm>
#include <chrono>
#include <cstring>
#include <thread>

#include "wsi_fixture.h"

namespace duet_test {
namespace {

constexpr Rgba kRed{255, 0, 0, 255};
constexpr Rgba kGreen{0, 255, 0, 255};
constexpr Rgba kBlue{0, 0, 255, 255};
constexpr Rgba kSlate{51, 102, 153, 255};

using WsiHeadless = WsiTest;

TEST_F(WsiHeadless, ExtensionsAreAdvertised) {
  const std::vector<VkExtensionProperties> instance = InstanceExtensions();
  for (const char* name : {VK_KHR_SURFACE_EXTENSION_NAME, VK_EXT_HEADLESS_SURFACE_EXTENSION_NAME,
                           VK_KHR_GET_SURFACE_CAPABILITIES_2_EXTENSION_NAME})
    EXPECT_TRUE(HasExtension(instance, name)) << name;
  const std::vector<VkExtensionProperties> device = DeviceExtensions(phys_);
  for (const char* name : {VK_KHR_SWAPCHAIN_EXTENSION_NAME, VK_KHR_INCREMENTAL_PRESENT_EXTENSION_NAME})
    EXPECT_TRUE(HasExtension(device, name)) << name;
}

// VK_KHR_surface_protected_capabilities: asked through
// vkGetPhysicalDeviceSurfaceCapabilities2KHR, no surface takes protected
// swapchains (the device has no protected memory).
class WsiProtectedCapabilities : public WsiTest {
 protected:
  WsiProtectedCapabilities() { instance_extensions_.push_back(VK_KHR_SURFACE_PROTECTED_CAPABILITIES_EXTENSION_NAME); }
};

TEST_F(WsiProtectedCapabilities, NoSurfaceSupportsProtectedSwapchains) {
  auto get_caps2 = InstanceProc<PFN_vkGetPhysicalDeviceSurfaceCapabilities2KHR>(
      "vkGetPhysicalDeviceSurfaceCapabilities2KHR");
  ASSERT_NE(get_caps2, nullptr);
  VkPhysicalDeviceSurfaceInfo2KHR info{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SURFACE_INFO_2_KHR};
  info.surface = MakeHeadlessSurface();
  VkSurfaceProtectedCapabilitiesKHR protection{VK_STRUCTURE_TYPE_SURFACE_PROTECTED_CAPABILITIES_KHR};
  protection.supportsProtected = VK_TRUE;
  VkSurfaceCapabilities2KHR caps2{VK_STRUCTURE_TYPE_SURFACE_CAPABILITIES_2_KHR, &protection};
  VK_ASSERT_OK(get_caps2(phys_, &info, &caps2));
  EXPECT_EQ(protection.supportsProtected, VK_FALSE);
}

// VK_KHR_swapchain_mutable_format: an sRGB swapchain whose images take
// UNORM views; a clear to 0.5 through one stores 128 (the sRGB view would
// store 188).
class WsiMutableFormat : public WsiTest {
 protected:
  WsiMutableFormat() {
    device_options_.extensions.push_back(VK_KHR_SWAPCHAIN_MUTABLE_FORMAT_EXTENSION_NAME);
    device_options_.render_pass_features = true;  // dynamic rendering
  }
};

TEST_F(WsiMutableFormat, SwapchainImagesTakeViewsOfListedFormats) {
  const VkFormat formats[2] = {VK_FORMAT_B8G8R8A8_SRGB, VK_FORMAT_B8G8R8A8_UNORM};
  VkImageFormatListCreateInfo list{VK_STRUCTURE_TYPE_IMAGE_FORMAT_LIST_CREATE_INFO, nullptr, 2, formats};
  SwapchainOptions options;
  options.format = VK_FORMAT_B8G8R8A8_SRGB;
  options.flags = VK_SWAPCHAIN_CREATE_MUTABLE_FORMAT_BIT_KHR;
  options.next = &list;
  const VkSwapchainKHR swapchain = MakeSwapchain(MakeHeadlessSurface(), options);
  const std::vector<VkImage> images = SwapchainImages(swapchain);
  ASSERT_FALSE(images.empty());
  uint32_t index = 0;
  ASSERT_EQ(AcquireWithFence(swapchain, &index), VK_SUCCESS);
  VkImageViewCreateInfo vci{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
  vci.image = images[index];
  vci.viewType = VK_IMAGE_VIEW_TYPE_2D;
  vci.format = VK_FORMAT_B8G8R8A8_UNORM;
  vci.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
  VkImageView view = VK_NULL_HANDLE;
  ASSERT_EQ(vkCreateImageView(device_, &vci, nullptr, &view), VK_SUCCESS);
  Defer([this, view] { vkDestroyImageView(device_, view, nullptr); });

  VkCommandBuffer cb = BeginCommands();
  VkImageMemoryBarrier to_attachment{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
  to_attachment.dstAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
  to_attachment.oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
  to_attachment.newLayout = VK_IMAGE_LAYOUT_GENERAL;
  to_attachment.srcQueueFamilyIndex = to_attachment.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  to_attachment.image = images[index];
  to_attachment.subresourceRange = vci.subresourceRange;
  vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT, 0, 0,
                       nullptr, 0, nullptr, 1, &to_attachment);
  VkRenderingAttachmentInfo color{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
  color.imageView = view;
  color.imageLayout = VK_IMAGE_LAYOUT_GENERAL;
  color.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
  color.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
  color.clearValue.color = {{0.5f, 0.5f, 0.5f, 1.0f}};
  VkRenderingInfo rendering{VK_STRUCTURE_TYPE_RENDERING_INFO};
  rendering.renderArea = {{0, 0}, options.extent};
  rendering.layerCount = 1;
  rendering.colorAttachmentCount = 1;
  rendering.pColorAttachments = &color;
  vkCmdBeginRendering(cb, &rendering);
  vkCmdEndRendering(cb);
  EndSubmitWait(cb);
  const std::vector<uint8_t> bytes =
      ReadImage(images[index], {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1}, {0, 0, 0}, {1, 1, 1}, 4);
  ASSERT_EQ(bytes.size(), 4u);
  EXPECT_EQ(bytes[0], 128);  // 0.5 as UNORM, not sRGB-encoded
  EXPECT_EQ(bytes[3], 255);
}

TEST_F(WsiHeadless, SurfaceQueries) {
  VkSurfaceKHR surface = MakeHeadlessSurface();
  ASSERT_NE(surface, VK_NULL_HANDLE);

  VkBool32 supported = VK_FALSE;
  VK_ASSERT_OK(vkGetPhysicalDeviceSurfaceSupportKHR(phys_, queue_family_, surface, &supported));
  EXPECT_EQ(supported, VK_TRUE);

  VkSurfaceCapabilitiesKHR caps{};
  VK_ASSERT_OK(vkGetPhysicalDeviceSurfaceCapabilitiesKHR(phys_, surface, &caps));
  // Headless: the swapchain decides the size.
  EXPECT_EQ(caps.currentExtent.width, UINT32_MAX);
  EXPECT_EQ(caps.currentExtent.height, UINT32_MAX);
  EXPECT_GE(caps.minImageCount, 1u);
  EXPECT_TRUE(caps.maxImageCount == 0 || caps.maxImageCount >= caps.minImageCount);
  EXPECT_GE(caps.maxImageExtent.width, 4096u);
  EXPECT_EQ(caps.maxImageArrayLayers, 1u);
  const VkImageUsageFlags wanted = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT |
                                   VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_SAMPLED_BIT;
  EXPECT_EQ(caps.supportedUsageFlags & wanted, wanted);
  EXPECT_NE(caps.supportedTransforms & VK_SURFACE_TRANSFORM_IDENTITY_BIT_KHR, 0u);
  EXPECT_NE(caps.supportedCompositeAlpha & VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR, 0u);

  // The *2 variant reports the same.
  auto get_caps2 = InstanceProc<PFN_vkGetPhysicalDeviceSurfaceCapabilities2KHR>(
      "vkGetPhysicalDeviceSurfaceCapabilities2KHR");
  ASSERT_NE(get_caps2, nullptr);
  VkPhysicalDeviceSurfaceInfo2KHR info{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SURFACE_INFO_2_KHR};
  info.surface = surface;
  VkSurfaceCapabilities2KHR caps2{VK_STRUCTURE_TYPE_SURFACE_CAPABILITIES_2_KHR};
  VK_ASSERT_OK(get_caps2(phys_, &info, &caps2));
  EXPECT_EQ(std::memcmp(&caps2.surfaceCapabilities, &caps, sizeof caps), 0);

  uint32_t count = 0;
  VK_ASSERT_OK(vkGetPhysicalDeviceSurfaceFormatsKHR(phys_, surface, &count, nullptr));
  ASSERT_GE(count, 2u);
  std::vector<VkSurfaceFormatKHR> formats(count);
  VK_ASSERT_OK(vkGetPhysicalDeviceSurfaceFormatsKHR(phys_, surface, &count, formats.data()));
  auto has_format = [&](VkFormat f) {
    return std::any_of(formats.begin(), formats.end(), [&](const VkSurfaceFormatKHR& s) {
      return s.format == f && s.colorSpace == VK_COLOR_SPACE_SRGB_NONLINEAR_KHR;
    });
  };
  EXPECT_TRUE(has_format(VK_FORMAT_B8G8R8A8_UNORM));
  EXPECT_TRUE(has_format(VK_FORMAT_B8G8R8A8_SRGB));
  EXPECT_TRUE(has_format(VK_FORMAT_R8G8B8A8_UNORM));
  uint32_t short_count = 1;
  VkSurfaceFormatKHR one{};
  EXPECT_EQ(vkGetPhysicalDeviceSurfaceFormatsKHR(phys_, surface, &short_count, &one), VK_INCOMPLETE);
  EXPECT_EQ(one.format, formats[0].format);

  auto get_formats2 =
      InstanceProc<PFN_vkGetPhysicalDeviceSurfaceFormats2KHR>("vkGetPhysicalDeviceSurfaceFormats2KHR");
  ASSERT_NE(get_formats2, nullptr);
  uint32_t count2 = 0;
  VK_ASSERT_OK(get_formats2(phys_, &info, &count2, nullptr));
  ASSERT_EQ(count2, count);
  std::vector<VkSurfaceFormat2KHR> formats2(count2, {VK_STRUCTURE_TYPE_SURFACE_FORMAT_2_KHR});
  VK_ASSERT_OK(get_formats2(phys_, &info, &count2, formats2.data()));
  for (uint32_t i = 0; i < count; ++i) {
    EXPECT_EQ(formats2[i].surfaceFormat.format, formats[i].format);
    EXPECT_EQ(formats2[i].surfaceFormat.colorSpace, formats[i].colorSpace);
  }

  VK_ASSERT_OK(vkGetPhysicalDeviceSurfacePresentModesKHR(phys_, surface, &count, nullptr));
  std::vector<VkPresentModeKHR> modes(count);
  VK_ASSERT_OK(vkGetPhysicalDeviceSurfacePresentModesKHR(phys_, surface, &count, modes.data()));
  for (VkPresentModeKHR m : {VK_PRESENT_MODE_FIFO_KHR, VK_PRESENT_MODE_MAILBOX_KHR, VK_PRESENT_MODE_IMMEDIATE_KHR})
    EXPECT_NE(std::find(modes.begin(), modes.end(), m), modes.end()) << "present mode " << m;
}

TEST_F(WsiHeadless, SwapchainImagesAreUsable) {
  VkSurfaceKHR surface = MakeHeadlessSurface();
  SwapchainOptions options;
  options.min_images = 3;
  VkSwapchainKHR swapchain = MakeSwapchain(surface, options);
  ASSERT_NE(swapchain, VK_NULL_HANDLE);
  const std::vector<VkImage> images = SwapchainImages(swapchain);
  ASSERT_GE(images.size(), 3u);
  // Every image is distinct.
  std::vector<VkImage> sorted = images;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(std::unique(sorted.begin(), sorted.end()), sorted.end());
  uint32_t count = 1;
  VkImage first = VK_NULL_HANDLE;
  EXPECT_EQ(vkGetSwapchainImagesKHR(device_, swapchain, &count, &first), VK_INCOMPLETE);
  EXPECT_EQ(first, images[0]);
}

// The cleared colour reaches the PNG written for the presented frame, in
// either byte order.
class WsiHeadlessFormat : public WsiTest, public ::testing::WithParamInterface<VkFormat> {};

TEST_P(WsiHeadlessFormat, PresentedClearIsDumpedAsPng) {
  TempDir dumps;
  ScopedEnv dump_env("DUET_DUMP_FRAMES", dumps.path());
  VkSurfaceKHR surface = MakeHeadlessSurface();
  SwapchainOptions options;
  options.format = GetParam();
  options.extent = {37, 21};  // odd sizes: rows are not a multiple of anything
  VkSwapchainKHR swapchain = MakeSwapchain(surface, options);
  ASSERT_NE(swapchain, VK_NULL_HANDLE);
  ASSERT_NO_FATAL_FAILURE(PresentFrame(swapchain, options, kSlate, {{36, 20, kRed}}));
  VK_ASSERT_OK(vkQueueWaitIdle(queue_));
  DestroySwapchain(swapchain);  // shows what is still queued

  const std::vector<std::string> files = dumps.Files();
  ASSERT_EQ(files.size(), 1u);
  DecodedPng png;
  ASSERT_TRUE(ReadPng(files[0], &png));
  ASSERT_EQ(png.width, 37u);
  ASSERT_EQ(png.height, 21u);
  EXPECT_EQ(png.At(0, 0), kSlate);
  EXPECT_EQ(png.At(20, 10), kSlate);
  EXPECT_EQ(png.At(36, 20), kRed);
}

INSTANTIATE_TEST_SUITE_P(Formats, WsiHeadlessFormat,
                         ::testing::Values(VK_FORMAT_B8G8R8A8_UNORM, VK_FORMAT_R8G8B8A8_UNORM));

TEST_F(WsiHeadless, AcquireWithTimeoutZeroWhenAllAcquiredIsNotReady) {
  VkSurfaceKHR surface = MakeHeadlessSurface();
  SwapchainOptions options;
  options.min_images = 2;
  VkSwapchainKHR swapchain = MakeSwapchain(surface, options);
  ASSERT_NE(swapchain, VK_NULL_HANDLE);
  const size_t count = SwapchainImages(swapchain).size();
  std::vector<uint32_t> acquired;
  for (size_t i = 0; i < count; ++i) {
    uint32_t index = UINT32_MAX;
    VkSemaphore semaphore = MakeBinarySemaphore();
    VK_ASSERT_OK(vkAcquireNextImageKHR(device_, swapchain, 0, semaphore, VK_NULL_HANDLE, &index));
    EXPECT_EQ(std::count(acquired.begin(), acquired.end(), index), 0) << "image " << index << " handed out twice";
    acquired.push_back(index);
    // Consume the semaphore so it can be destroyed safely.
    VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    const VkPipelineStageFlags stage = VK_PIPELINE_STAGE_ALL_COMMANDS_BIT;
    submit.waitSemaphoreCount = 1;
    submit.pWaitSemaphores = &semaphore;
    submit.pWaitDstStageMask = &stage;
    VkFence fence = MakeFence();
    VK_ASSERT_OK(vkQueueSubmit(queue_, 1, &submit, fence));
    WaitFence(fence);
  }
  uint32_t index = UINT32_MAX;
  EXPECT_EQ(vkAcquireNextImageKHR(device_, swapchain, 0, VK_NULL_HANDLE, MakeFence(), &index), VK_NOT_READY);
  EXPECT_EQ(vkAcquireNextImageKHR(device_, swapchain, 1000000, VK_NULL_HANDLE, MakeFence(), &index), VK_TIMEOUT);

  // Presenting one gives it back once the presentation engine has shown it.
  EXPECT_EQ(RenderAndPresent(swapchain, acquired[0], options, kBlue), VK_SUCCESS);
  EXPECT_EQ(AcquireWithFence(swapchain, &index), VK_SUCCESS);
  EXPECT_EQ(index, acquired[0]);
}

TEST_F(WsiHeadless, AcquireBlocksUntilAPresentFreesAnImage) {
  // A 10 Hz "display": with FIFO, one frame is shown every 100 ms.
  ScopedEnv refresh("DUET_REFRESH_HZ", "10");
  VkSurfaceKHR surface = MakeHeadlessSurface();
  SwapchainOptions options;
  options.min_images = 2;
  VkSwapchainKHR swapchain = MakeSwapchain(surface, options);
  ASSERT_NE(swapchain, VK_NULL_HANDLE);
  uint32_t a = 0, b = 0, c = 0;
  ASSERT_EQ(AcquireWithFence(swapchain, &a), VK_SUCCESS);
  ASSERT_EQ(AcquireWithFence(swapchain, &b), VK_SUCCESS);
  ASSERT_EQ(RenderAndPresent(swapchain, a, options, kRed), VK_SUCCESS);
  ASSERT_EQ(RenderAndPresent(swapchain, b, options, kGreen), VK_SUCCESS);
  const uint64_t start = MonotonicNs();
  ASSERT_EQ(AcquireWithFence(swapchain, &c), VK_SUCCESS);
  EXPECT_TRUE(c == a || c == b);
  // The first frame goes out at once; a second acquire must wait for a refresh.
  ASSERT_EQ(RenderAndPresent(swapchain, c, options, kBlue), VK_SUCCESS);
  uint32_t d = 0;
  ASSERT_EQ(AcquireWithFence(swapchain, &d), VK_SUCCESS);
  // (100 ms less generous room for the test thread being descheduled.)
  EXPECT_GE(MonotonicNs() - start, 50'000'000ull);
}

// Presents `frames` frames of distinct colours as fast as the application
// can; returns how many the presentation engine wrote and how long it took.
struct ModeRun {
  size_t shown = 0;
  uint64_t elapsed_ns = 0;
  DecodedPng last;
};

class WsiPresentModes : public WsiTest {
 protected:
  ModeRun Run(VkPresentModeKHR mode, uint32_t frames, const char* refresh_hz) {
    ModeRun run;
    TempDir dumps;
    ScopedEnv dump_env("DUET_DUMP_FRAMES", dumps.path());
    ScopedEnv refresh("DUET_REFRESH_HZ", refresh_hz);
    VkSurfaceKHR surface = MakeHeadlessSurface();
    SwapchainOptions options;
    options.mode = mode;
    options.extent = {16, 16};
    options.min_images = 3;
    VkSwapchainKHR swapchain = MakeSwapchain(surface, options);
    EXPECT_NE(swapchain, VK_NULL_HANDLE);
    if (swapchain == VK_NULL_HANDLE) return run;
    const uint64_t start = MonotonicNs();
    for (uint32_t i = 0; i < frames; ++i) {
      PresentFrame(swapchain, options, Rgba{uint8_t(i * 7), uint8_t(255 - i), 0, 255});
      if (HasFatalFailure()) return run;
    }
    run.elapsed_ns = MonotonicNs() - start;
    EXPECT_EQ(vkQueueWaitIdle(queue_), VK_SUCCESS);
    DestroySwapchain(swapchain);
    const std::vector<std::string> files = dumps.Files();
    run.shown = files.size();
    if (!files.empty()) ReadPng(files.back(), &run.last);
    return run;
  }
};

TEST_F(WsiPresentModes, FifoShowsEveryFrameOnePerRefresh) {
  const ModeRun run = Run(VK_PRESENT_MODE_FIFO_KHR, 8, "20");
  EXPECT_EQ(run.shown, 8u);
  // 3 images: the application runs at most 3 frames ahead of a 50 ms refresh.
  EXPECT_GE(run.elapsed_ns, (8 - 3 - 1) * 50'000'000ull);
  ASSERT_EQ(run.last.width, 16u);
  EXPECT_EQ(run.last.At(0, 0), (Rgba{49, 248, 0, 255}));
}

TEST_F(WsiPresentModes, MailboxReplacesWaitingFramesAndNeverBlocks) {
  // 10 Hz: far slower than the application, so most frames are replaced.
  const ModeRun run = Run(VK_PRESENT_MODE_MAILBOX_KHR, 20, "10");
  EXPECT_GE(run.shown, 1u);
  EXPECT_LT(run.shown, 20u);
  ASSERT_EQ(run.last.width, 16u);
  EXPECT_EQ(run.last.At(0, 0), (Rgba{133, 236, 0, 255}));  // the newest frame is the one shown last
}

TEST_F(WsiPresentModes, FifoRelaxedShowsEveryFrameAndLateOnesAtOnce) {
  // 2 Hz, frames 300 ms apart: each is late for the refresh after the last
  // one shown, so relaxed FIFO shows it at once where FIFO would wait for
  // the next beat (up to 500 ms).
  TempDir dumps;
  ScopedEnv dump_env("DUET_DUMP_FRAMES", dumps.path());
  ScopedEnv refresh("DUET_REFRESH_HZ", "2");
  VkSurfaceKHR surface = MakeHeadlessSurface();
  SwapchainOptions options;
  options.mode = VK_PRESENT_MODE_FIFO_RELAXED_KHR;
  options.extent = {16, 16};
  VkSwapchainKHR swapchain = MakeSwapchain(surface, options);
  ASSERT_NE(swapchain, VK_NULL_HANDLE);
  ASSERT_NO_FATAL_FAILURE(PresentFrame(swapchain, options, Rgba{1, 2, 3, 255}));
  VK_ASSERT_OK(vkQueueWaitIdle(queue_));
  std::this_thread::sleep_for(std::chrono::milliseconds(600));  // past the next refresh
  const uint64_t start = MonotonicNs();
  ASSERT_NO_FATAL_FAILURE(PresentFrame(swapchain, options, Rgba{4, 5, 6, 255}));
  while (dumps.Files().size() < 2 && MonotonicNs() - start < 2'000'000'000ull)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  ASSERT_EQ(dumps.Files().size(), 2u);
  EXPECT_LT(MonotonicNs() - start, 250'000'000ull);  // not held to the 500 ms beat
}

TEST_F(WsiPresentModes, ImmediateShowsEveryFrameWithoutWaiting) {
  const ModeRun run = Run(VK_PRESENT_MODE_IMMEDIATE_KHR, 20, "10");
  EXPECT_EQ(run.shown, 20u);
  // Unpaced: 20 frames at 10 Hz would take 2 s.
  EXPECT_LT(run.elapsed_ns, 1'500'000'000ull);
  ASSERT_EQ(run.last.width, 16u);
  EXPECT_EQ(run.last.At(0, 0), (Rgba{133, 236, 0, 255}));
}

TEST_F(WsiHeadless, RecreateWithOldSwapchain) {
  TempDir dumps;
  ScopedEnv dump_env("DUET_DUMP_FRAMES", dumps.path());
  VkSurfaceKHR surface = MakeHeadlessSurface();
  SwapchainOptions first;
  first.extent = {32, 32};
  VkSwapchainKHR old_swapchain = MakeSwapchain(surface, first);
  ASSERT_NE(old_swapchain, VK_NULL_HANDLE);
  ASSERT_NO_FATAL_FAILURE(PresentFrame(old_swapchain, first, kRed));
  uint32_t held = UINT32_MAX;
  ASSERT_EQ(AcquireWithFence(old_swapchain, &held), VK_SUCCESS);

  SwapchainOptions second;
  second.extent = {48, 24};
  second.old_swapchain = old_swapchain;
  VkSwapchainKHR swapchain = MakeSwapchain(surface, second);
  ASSERT_NE(swapchain, VK_NULL_HANDLE);

  // The retired swapchain hands out no more images (acquiring from it is
  // invalid usage, so not under the validation layer) but may present the
  // one it gave.
  uint32_t index = UINT32_MAX;
  if (!validation_layer_)
    EXPECT_EQ(vkAcquireNextImageKHR(device_, old_swapchain, 0, VK_NULL_HANDLE, MakeFence(), &index),
              VK_ERROR_OUT_OF_DATE_KHR);
  EXPECT_EQ(RenderAndPresent(old_swapchain, held, first, kGreen), VK_SUCCESS);
  VK_ASSERT_OK(vkQueueWaitIdle(queue_));
  DestroySwapchain(old_swapchain);

  ASSERT_NO_FATAL_FAILURE(PresentFrame(swapchain, second, kBlue));
  VK_ASSERT_OK(vkQueueWaitIdle(queue_));
  DestroySwapchain(swapchain);

  const std::vector<std::string> files = dumps.Files();
  ASSERT_EQ(files.size(), 3u);
  DecodedPng png;
  ASSERT_TRUE(ReadPng(files[1], &png));
  EXPECT_EQ(png.width, 32u);
  EXPECT_EQ(png.At(5, 5), kGreen);
  ASSERT_TRUE(ReadPng(files[2], &png));
  EXPECT_EQ(png.width, 48u);
  EXPECT_EQ(png.height, 24u);
  EXPECT_EQ(png.At(47, 23), kBlue);
}

// One vkQueuePresentKHR for two swapchains: each gets its image and result.
TEST_F(WsiHeadless, OnePresentForTwoSwapchains) {
  TempDir dumps;
  ScopedEnv dump_env("DUET_DUMP_FRAMES", dumps.path());
  SwapchainOptions small;
  small.extent = {8, 8};
  SwapchainOptions wide;
  wide.extent = {24, 4};
  VkSwapchainKHR swapchains[] = {MakeSwapchain(MakeHeadlessSurface(), small),
                                 MakeSwapchain(MakeHeadlessSurface(), wide)};
  ASSERT_NE(swapchains[0], VK_NULL_HANDLE);
  ASSERT_NE(swapchains[1], VK_NULL_HANDLE);
  uint32_t indices[2] = {};
  ASSERT_EQ(AcquireWithFence(swapchains[0], &indices[0]), VK_SUCCESS);
  ASSERT_EQ(AcquireWithFence(swapchains[1], &indices[1]), VK_SUCCESS);
  VkSemaphore rendered[] = {MakeBinarySemaphore(), MakeBinarySemaphore()};
  ASSERT_NO_FATAL_FAILURE(Render(SwapchainImages(swapchains[0])[indices[0]], small.format, kRed, {}, rendered[0]));
  ASSERT_NO_FATAL_FAILURE(Render(SwapchainImages(swapchains[1])[indices[1]], wide.format, kBlue, {}, rendered[1]));
  VkResult results[2] = {VK_ERROR_UNKNOWN, VK_ERROR_UNKNOWN};
  VkPresentInfoKHR present{VK_STRUCTURE_TYPE_PRESENT_INFO_KHR};
  present.waitSemaphoreCount = 2;
  present.pWaitSemaphores = rendered;
  present.swapchainCount = 2;
  present.pSwapchains = swapchains;
  present.pImageIndices = indices;
  present.pResults = results;
  VK_ASSERT_OK(vkQueuePresentKHR(queue_, &present));
  EXPECT_EQ(results[0], VK_SUCCESS);
  EXPECT_EQ(results[1], VK_SUCCESS);
  VK_ASSERT_OK(vkQueueWaitIdle(queue_));
  DestroySwapchain(swapchains[0]);
  DestroySwapchain(swapchains[1]);

  const std::vector<std::string> files = dumps.Files();
  ASSERT_EQ(files.size(), 2u);
  bool saw_red = false, saw_blue = false;
  for (const std::string& f : files) {
    DecodedPng png;
    ASSERT_TRUE(ReadPng(f, &png));
    saw_red |= png.width == 8 && png.At(7, 7) == kRed;
    saw_blue |= png.width == 24 && png.At(23, 3) == kBlue;
  }
  EXPECT_TRUE(saw_red);
  EXPECT_TRUE(saw_blue);
}

TEST_F(WsiHeadless, InvalidSwapchainParametersFail) {
  if (validation_layer_) GTEST_SKIP() << "deliberately invalid usage, which the validation layer reports";
  VkSurfaceKHR surface = MakeHeadlessSurface();
  SwapchainOptions options;
  options.format = VK_FORMAT_R32_SFLOAT;
  VkSwapchainKHR swapchain = VK_NULL_HANDLE;
  EXPECT_NE(TryMakeSwapchain(surface, options, &swapchain), VK_SUCCESS);
}

// VK_KHR_incremental_present: the declared rectangles are the damage, so
// only they reach the screen even where the image changed elsewhere.
TEST_F(WsiHeadless, IncrementalPresentRegionsAreTheDamage) {
  TempDir dumps;
  ScopedEnv dump_env("DUET_DUMP_FRAMES", dumps.path());
  VkSurfaceKHR surface = MakeHeadlessSurface();
  SwapchainOptions options;
  options.extent = {40, 30};
  VkSwapchainKHR swapchain = MakeSwapchain(surface, options);
  ASSERT_NE(swapchain, VK_NULL_HANDLE);
  ASSERT_NO_FATAL_FAILURE(PresentFrame(swapchain, options, kRed));

  uint32_t index = UINT32_MAX;
  ASSERT_EQ(AcquireWithFence(swapchain, &index), VK_SUCCESS);
  const VkRectLayerKHR rect{{4, 6}, {8, 5}, 0};
  const VkPresentRegionKHR region{1, &rect};
  VkPresentRegionsKHR regions{VK_STRUCTURE_TYPE_PRESENT_REGIONS_KHR};
  regions.swapchainCount = 1;
  regions.pRegions = &region;
  ASSERT_EQ(RenderAndPresent(swapchain, index, options, kGreen, {}, &regions), VK_SUCCESS);
  VK_ASSERT_OK(vkQueueWaitIdle(queue_));
  DestroySwapchain(swapchain);

  const std::vector<std::string> files = dumps.Files();
  ASSERT_EQ(files.size(), 2u);
  DecodedPng png;
  ASSERT_TRUE(ReadPng(files[1], &png));
  EXPECT_EQ(png.At(4, 6), kGreen);
  EXPECT_EQ(png.At(11, 10), kGreen);
  EXPECT_EQ(png.At(3, 6), kRed);
  EXPECT_EQ(png.At(12, 10), kRed);
  EXPECT_EQ(png.At(4, 11), kRed);
  EXPECT_EQ(png.At(30, 20), kRed);
}

}  // namespace
}  // namespace duet_test
