// A Channel that speaks the virtio-gpu control-queue protocol itself:
// every call becomes the specification's command bytes (protocol.h), sent
// through a ControlQueue, and the response bytes are decoded. Resource
// pages are ordinary host memory the channel allocates, attached by
// address. The tests put a device model behind the queue; a transport to a
// real virtqueue (vfio, a unikernel) would be another ControlQueue.
#pragma once

#include <cstdlib>
#include <map>
#include <memory>

#include "backends/virtio_gpu/channel.h"
#include "backends/virtio_gpu/protocol.h"

namespace duet::virtio_gpu {

class ControlQueue {
 public:
  virtual ~ControlQueue() = default;
  // Sends one command; the device's response.
  virtual std::vector<std::byte> Submit(std::span<const std::byte> command) = 0;
  // Returns once the device completed the fenced command `fence_id` (and so
  // every command before it); false when it never will.
  virtual bool WaitFence(uint64_t fence_id) = 0;
};

class QueueChannel final : public Channel {
 public:
  explicit QueueChannel(ControlQueue* queue) : queue_(queue) {}
  ~QueueChannel() override;

  const char* name() const override { return "virtio-gpu control queue"; }
  bool GetDisplayInfo(std::vector<ScanoutInfo>* scanouts) override;
  bool ScanoutEnabled(uint32_t scanout) override;
  bool GetEdid(uint32_t scanout, std::vector<uint8_t>* edid) override;
  uint32_t CreateResource(uint32_t width, uint32_t height, Backing* backing) override;
  void UnrefResource(uint32_t resource) override;
  bool SetScanout(uint32_t scanout, uint32_t resource, const Rect& rect) override;
  bool TransferToHost2D(uint32_t resource, const Rect& box, uint64_t offset) override;
  bool Flush(uint32_t resource, const Rect& rect, uint64_t* fence) override;
  bool WaitFence(uint64_t fence) override;

 private:
  struct FreePages {
    void operator()(std::byte* p) const { std::free(p); }
  };
  // Sends `command`; its response when that is of type `expected`.
  std::optional<Response> Send(const Command& command, uint32_t expected = VIRTIO_GPU_RESP_OK_NODATA);

  ControlQueue* queue_;
  uint32_t next_resource_ = 1;
  uint64_t next_fence_ = 1;
  std::map<uint32_t, std::unique_ptr<std::byte, FreePages>> pages_;
};

}  // namespace duet::virtio_gpu
