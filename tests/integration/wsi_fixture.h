// Helpers for the WSI tests (wsi_*_test.cpp): a QueueTest whose instance
// and device enable the surface and swapchain extensions, swapchain
// creation, "render" by transfer commands (clear / one-pixel copies) and
// present, PNG decoding for DUET_DUMP_FRAMES files, and running one test in
// a child process to read the DUET_STATS line it prints at exit.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "vk_fixture.h"

namespace duet_test {

struct Rgba {
  uint8_t r, g, b, a;
  bool operator==(const Rgba&) const = default;
};
std::ostream& operator<<(std::ostream& os, const Rgba& c);

// An 8-bit RGBA image decoded from a PNG file.
struct DecodedPng {
  uint32_t width = 0, height = 0;
  std::vector<uint8_t> rgba;
  Rgba At(uint32_t x, uint32_t y) const;
};
// False (with a gtest failure) when the file is missing or not a PNG.
bool ReadPng(const std::string& path, DecodedPng* out);

// A fresh empty directory under TMPDIR, removed with its files at destruction.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }
  std::vector<std::string> Files() const;  // sorted full paths

 private:
  std::string path_;
};

// Sets an environment variable for one scope (the driver reads DUET_* when
// swapchains are created), restoring the old value after.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const std::string& value);
  ~ScopedEnv();
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  std::string name_;
  bool had_old_;
  std::string old_;
};

// Child processes: a test calls RunThisTestInChild(env) to re-run itself
// (same gtest filter) in a new process with DUET_WSI_CHILD=1 and `env`; in
// the child, InWsiChild() is true and the test does the work instead.
bool InWsiChild();
struct ChildResult {
  int exit_code = -1;
  std::string output;  // stdout and stderr
};
ChildResult RunThisTestInChild(const std::vector<std::string>& env);
// The numbers of the "duet stats: present ..." line of `output` by name
// (frames, clean, partial, full, dirty_pixels, rects, bands, dropped); empty
// when there is none.
std::map<std::string, uint64_t> ParsePresentStats(const std::string& output);

class WsiTest : public QueueTest {
 protected:
  WsiTest();
  void SetUp() override;

  VkSurfaceKHR MakeHeadlessSurface();  // destroyed at TearDown, after the device

  struct SwapchainOptions {
    VkExtent2D extent{64, 48};
    VkFormat format = VK_FORMAT_B8G8R8A8_UNORM;
    VkPresentModeKHR mode = VK_PRESENT_MODE_FIFO_KHR;
    uint32_t min_images = 3;
    VkSwapchainKHR old_swapchain = VK_NULL_HANDLE;
    VkSwapchainCreateFlagsKHR flags = 0;
    const void* next = nullptr;  // VkSwapchainCreateInfoKHR::pNext
  };
  // ASSERTs on failure; destroyed at TearDown unless DestroySwapchain()ed.
  VkSwapchainKHR MakeSwapchain(VkSurfaceKHR surface, const SwapchainOptions& options);
  VkResult TryMakeSwapchain(VkSurfaceKHR surface, const SwapchainOptions& options, VkSwapchainKHR* out);
  void DestroySwapchain(VkSwapchainKHR swapchain);
  std::vector<VkImage> SwapchainImages(VkSwapchainKHR swapchain);

  // Acquires with a fence and waits for it; returns the acquire result.
  VkResult AcquireWithFence(VkSwapchainKHR swapchain, uint32_t* index, uint64_t timeout = kWaitNs);

  // A pixel to write after the clear.
  struct Dot {
    uint32_t x, y;
    Rgba color;
  };
  // Records into a new command buffer: the image to TRANSFER_DST, a clear
  // of the whole image to `color` (given as 8-bit values, written through
  // the UNORM/SRGB format of the swapchain as float/255), each dot copied
  // from a host buffer, then the image to PRESENT_SRC; submits it signalling
  // `signal` (may be null).
  void Render(VkImage image, VkFormat format, Rgba color, const std::vector<Dot>& dots,
              VkSemaphore signal);
  // Render() then vkQueuePresentKHR waiting on a semaphore; `next` (may be
  // null) is VkPresentInfoKHR::pNext, e.g. VkPresentRegionsKHR. Returns the
  // present result.
  VkResult RenderAndPresent(VkSwapchainKHR swapchain, uint32_t index, const SwapchainOptions& options, Rgba color,
                            const std::vector<Dot>& dots = {}, const void* next = nullptr);
  // Acquire (fence) + RenderAndPresent; ASSERTs the acquire succeeded.
  void PresentFrame(VkSwapchainKHR swapchain, const SwapchainOptions& options, Rgba color,
                    const std::vector<Dot>& dots = {});

  PFN_vkCreateHeadlessSurfaceEXT create_headless_surface_ = nullptr;

 private:
  std::vector<HostBuffer> dot_buffers_;
  std::vector<VkSwapchainKHR> live_swapchains_;
  std::map<VkSwapchainKHR, std::vector<VkImage>> swapchain_images_;
};

}  // namespace duet_test
