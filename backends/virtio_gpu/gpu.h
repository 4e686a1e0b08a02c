// One virtio-gpu device as the outputs share it: its channel behind a lock,
// and which resource each scanout shows. A resource that is on screen when
// its output lets it go stays until another replaces it, so destroying or
// recreating a swapchain leaves its last frame up instead of a black screen.
#pragma once

#include <array>
#include <memory>
#include <mutex>
#include <set>

#include "backends/virtio_gpu/channel.h"
#include "backends/virtio_gpu/protocol.h"

namespace duet::virtio_gpu {

class VirtioGpu {
 public:
  explicit VirtioGpu(std::unique_ptr<Channel> channel) : channel_(std::move(channel)) {}
  ~VirtioGpu();
  VirtioGpu(const VirtioGpu&) = delete;
  VirtioGpu& operator=(const VirtioGpu&) = delete;

  // Runs `f(Channel&)` with the device to itself.
  template <typename F>
  auto With(F&& f) {
    std::lock_guard lock(mutex_);
    return f(*channel_);
  }

  // SET_SCANOUT; a released resource it replaces is unreferenced.
  bool Show(uint32_t scanout, uint32_t resource, const Rect& rect);
  // The owner is done with the resource: unreferenced now, or once no
  // scanout shows it any more.
  void Release(uint32_t resource);
  uint32_t OnScreen(uint32_t scanout) const;

 private:
  mutable std::mutex mutex_;
  std::unique_ptr<Channel> channel_;
  std::array<uint32_t, kMaxScanouts> on_screen_{};
  std::set<uint32_t> released_;  // on screen, owner gone
};

}  // namespace duet::virtio_gpu
