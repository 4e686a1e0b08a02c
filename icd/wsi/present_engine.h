// The presentation engine of one swapchain: owns the state of each image
// (free, acquired, queued, ready, being shown) and a thread that shows
// ready images through the backend Output, paced by the present mode:
//   FIFO       every presented image is shown, one per display refresh, in
//              order; acquire blocks when the application is a full queue
//              ahead of the display.
//   MAILBOX    one image waits for the next refresh; a newer present
//              replaces it (the replaced image is free again at once).
//   IMMEDIATE  images are shown as soon as they are ready, no pacing.
//   FIFO_RELAXED  FIFO, except that an image ready after the refresh it
//              was due for is shown at once instead of at the next one.
// When the target has no refresh (headless, unless DUET_REFRESH_HZ), FIFO
// and MAILBOX show frames as fast as the backend takes them.
// The mode is chosen per present (VK_EXT_swapchain_maintenance1): an image
// keeps the mode it was presented with, so images queued before a switch
// are still shown the old way; a MAILBOX image replaces only MAILBOX images.
// A present may carry a callback (its present fence) that runs once the
// image is free again: shown and copied out, replaced, or discarded, and
// an id (VK_KHR_present_id) that WaitPresented waits for: reached once the
// backend has shown that present or a later one, or dropped it for one.
//
// Showing an image first brings the swapchain's copy of the last shown
// frame up to date (content diff, or the application's declared damage) and
// frees the image; the backend then transfers only the damage from that
// copy, while the application already renders into the freed image.
#pragma once

#include <vulkan/vulkan_core.h>

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "backends/framebuffer/framebuffer.h"
#include "backends/intel_rcs/transfers.h"

namespace duet::wsi {

struct EngineImage {
  const std::byte* pixels;  // mip 0, layer 0 of the swapchain image
  size_t row_pitch;
  std::optional<intel_rcs::HostPlace> gpu_place;  // of `pixels`, for the Intel GPU's blitter
};

struct EngineConfig {
  VkPresentModeKHR mode = VK_PRESENT_MODE_FIFO_KHR;
  framebuffer::Extent extent;
  framebuffer::PixelFormat format = framebuffer::PixelFormat::kBgra8888;
  uint64_t refresh_interval_ns = 0;
  // The device's Intel GPU blitter, which copies presented images into the
  // frame last shown when it can (null: the CPU does).
  intel_rcs::IntelTransfers* gpu = nullptr;
};

class PresentEngine {
 public:
  PresentEngine(const EngineConfig& config, std::vector<EngineImage> images,
                std::unique_ptr<framebuffer::Output> output);
  ~PresentEngine();  // Stop()
  PresentEngine(const PresentEngine&) = delete;
  PresentEngine& operator=(const PresentEngine&) = delete;

  // A free image, now owned by the application. VK_NOT_READY when none is
  // free and timeout_ns is 0, VK_TIMEOUT when none became free in time,
  // VK_ERROR_SURFACE_LOST_KHR once the backend lost its window.
  VkResult Acquire(uint64_t timeout_ns, uint32_t* index);
  // Gives an acquired image back unshown (an acquire that then failed, or
  // vkReleaseSwapchainImagesEXT). False when `index` is not acquired.
  bool Unacquire(uint32_t index);
  // The application presented `index` (vkQueuePresentKHR, application
  // thread) in present mode `mode`. `declared` is its
  // VK_KHR_incremental_present damage, if any; `released` (may be empty)
  // runs, without the engine's lock, when the image is free again.
  void Queue(uint32_t index, VkPresentModeKHR mode, std::vector<framebuffer::Rect> declared, bool has_declared,
             std::function<void()> released, uint64_t present_id = 0);
  // vkWaitForPresentKHR: VK_SUCCESS once present `id` (or a later one) is
  // done, VK_TIMEOUT, or the lost/out-of-date error that ended presenting.
  VkResult WaitPresented(uint64_t id, uint64_t timeout_ns);
  // The present's waits are done (queue thread): show the image, or with
  // `discard` free it unshown (out-of-date swapchain, lost device).
  void Ready(uint32_t index, bool discard);
  // Waits (up to `timeout`) until no image is queued, ready or being shown.
  void Drain(std::chrono::milliseconds timeout);
  // Shows what is ready, then ends the thread. Later Ready() calls free
  // their image unshown.
  void Stop();

  bool lost() const;
  // The backend refused this swapchain's frames (a mode set failed; the old
  // mode stays): acquires and presents answer VK_ERROR_OUT_OF_DATE_KHR.
  bool out_of_date() const;

 private:
  enum class ImageState : uint8_t { kFree, kAcquired, kQueued, kReady, kPresenting };
  struct Slot {
    EngineImage image;
    ImageState state = ImageState::kFree;
    VkPresentModeKHR mode = VK_PRESENT_MODE_FIFO_KHR;  // of its present
    bool has_declared = false;
    std::vector<framebuffer::Rect> declared;
    std::function<void()> released;  // of its present; run once it is free
    uint64_t present_id = 0;
  };
  using Callbacks = std::vector<std::function<void()>>;

  void Run();
  // The next refresh at or after now (called with mutex_ held); with
  // `relaxed`, now when the last refresh went by without a frame.
  std::chrono::steady_clock::time_point NextRefresh(bool relaxed);
  void Show(uint32_t index, std::vector<framebuffer::Rect> declared, bool has_declared);
  bool InFlight() const;  // any image queued, ready or being shown
  // A presented image is free again (mutex_ held); its `released` callback
  // goes to `run_later`, for the caller to run once it has unlocked.
  void FreePresented(uint32_t index, Callbacks* run_later);
  // A present with this id is done (shown, replaced or discarded); mutex_ held.
  void Reached(uint64_t present_id);

  const EngineConfig config_;  // config_.mode: the swapchain's first mode
  std::unique_ptr<framebuffer::Output> output_;
  // The frame the backend shows now, kept up to date by Show(): whole
  // pages of its own, so the Intel GPU's blitter can wrap them.
  std::byte* shown_ = nullptr;
  size_t shown_length_ = 0;
  bool shown_valid_ = false;

  mutable std::mutex mutex_;
  std::condition_variable changed_;  // image states, ready_, stopping_
  std::vector<Slot> slots_;
  std::deque<uint32_t> ready_;  // in present order
  std::chrono::steady_clock::time_point last_refresh_{};
  bool stopping_ = false;
  bool stopped_ = false;
  bool lost_ = false;
  bool out_of_date_ = false;
  uint64_t presented_id_ = 0;  // the highest present id done
  std::thread thread_;
};

}  // namespace duet::wsi
