// Frames on a virtio-gpu scanout: a Target per display mode and an Output
// per swapchain, which owns two resources and flips between them, so the
// scanout never shows a resource while its transfers are half done.
//
// A present brings the resource not on screen up to date with the frame:
// it copies into the guest pages, and transfers to the host, only the
// rectangles that changed since that resource last held a frame (the
// damage of the frames since, merged), then shows it (SET_SCANOUT: a page
// flip) and flushes this frame's damage with a fence. The host reads the
// guest pages whenever it gets to the transfers (QEMU: later, in its main
// loop), so the present waits for that fence before it returns: pages are
// never rewritten under a pending transfer, and a returned present is on
// the host. A frame identical to the one on screen sends nothing. The
// first frame goes to both resources, so the second one already transfers
// only what changed.
#pragma once

#include <array>
#include <deque>
#include <memory>
#include <vector>

#include "backends/framebuffer/framebuffer.h"
#include "backends/virtio_gpu/gpu.h"

namespace duet::virtio_gpu {

class ScanoutOutput final : public framebuffer::Output {
 public:
  ScanoutOutput(std::shared_ptr<VirtioGpu> gpu, uint32_t scanout, framebuffer::Extent extent);
  ~ScanoutOutput() override;

  // Creates the resources; false (logged) when the device cannot.
  bool Start();
  framebuffer::Status Present(const framebuffer::Frame& frame, std::span<const Rect> damage) override;

 private:
  struct Buffer {
    uint32_t resource = 0;
    Backing backing;
    uint64_t holds = 0;  // number of the frame the host copy holds; 0: none yet
  };
  static constexpr size_t kBuffers = 2;

  // What `buffer` lacks of frame `frame_`.
  std::vector<Rect> Missing(const Buffer& buffer) const;
  bool Update(Buffer& buffer, const framebuffer::Frame& frame, std::span<const Rect> rects);

  std::shared_ptr<VirtioGpu> gpu_;
  uint32_t scanout_;
  framebuffer::Extent extent_;
  std::array<Buffer, kBuffers> buffers_{};
  int shown_ = -1;      // buffers_ index on screen
  uint64_t frame_ = 0;  // frames sent (clean ones are not)
  std::deque<std::vector<Rect>> history_;  // damage of the last frames sent, newest last
};

class ScanoutTarget final : public framebuffer::Target {
 public:
  ScanoutTarget(std::shared_ptr<VirtioGpu> gpu, uint32_t scanout, Mode mode)
      : gpu_(std::move(gpu)), scanout_(scanout), mode_(mode) {}
  framebuffer::Status CurrentExtent(std::optional<framebuffer::Extent>* extent) override;
  uint64_t RefreshInterval() const override;
  std::unique_ptr<framebuffer::Output> CreateOutput(framebuffer::Extent extent, framebuffer::PixelFormat) override;

 private:
  std::shared_ptr<VirtioGpu> gpu_;
  uint32_t scanout_;
  Mode mode_;
};

}  // namespace duet::virtio_gpu
