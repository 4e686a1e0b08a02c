// The narrow seam between the presentation logic and a virtio-gpu device:
// the 2D command set (GET_DISPLAY_INFO, GET_EDID, RESOURCE_CREATE_2D +
// RESOURCE_ATTACH_BACKING, SET_SCANOUT, TRANSFER_TO_HOST_2D,
// RESOURCE_FLUSH, RESOURCE_UNREF) and fences, one call each. Two
// implementations: linux_channel (the virtio_gpu DRM driver's uAPI plus
// KMS) and queue_channel (the specification's byte layouts over a control
// queue; the tests put a device model behind it).
// Not thread-safe: VirtioGpu serializes the calls.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "backends/framebuffer/framebuffer.h"

namespace duet::virtio_gpu {

using framebuffer::Rect;

struct Mode {
  uint32_t width = 0, height = 0;
  uint32_t refresh_millihertz = 0;
  bool preferred = false;
  bool operator==(const Mode&) const = default;
};

struct ScanoutInfo {
  bool enabled = false;
  Rect rect;                // the size the host asks for
  std::vector<Mode> modes;  // modes the channel knows beyond the rect (Linux: the kernel's list)
};

// The guest pages of a resource: B8G8R8X8 rows of width * 4 bytes.
struct Backing {
  std::byte* pixels = nullptr;
  size_t stride = 0;
};

class Channel {
 public:
  virtual ~Channel() = default;
  virtual const char* name() const = 0;

  // One entry per scanout the device has, enabled or not.
  virtual bool GetDisplayInfo(std::vector<ScanoutInfo>* scanouts) = 0;
  // Whether the scanout is still enabled (hot-unplug check before a present).
  virtual bool ScanoutEnabled(uint32_t scanout) = 0;
  // The scanout's EDID; false when the device offers none.
  virtual bool GetEdid(uint32_t scanout, std::vector<uint8_t>* edid) = 0;
  // A B8G8R8X8 resource with guest pages attached; its id (never 0), or 0 on failure.
  virtual uint32_t CreateResource(uint32_t width, uint32_t height, Backing* backing) = 0;
  // Detaches and frees the pages and the resource.
  virtual void UnrefResource(uint32_t resource) = 0;
  // Shows `rect` of the resource on the scanout (a page flip when only the
  // resource changes); false when the device refused it (the old one stays).
  virtual bool SetScanout(uint32_t scanout, uint32_t resource, const Rect& rect) = 0;
  // The host copies `box` from the guest pages, starting `offset` bytes in.
  // Unfenced: the host may read the pages later, until a fence completes.
  virtual bool TransferToHost2D(uint32_t resource, const Rect& box, uint64_t offset) = 0;
  // Tells the host `rect` of the resource changed. With `fence`, the
  // command carries a fence whose id is stored there: it completes once the
  // host has done this and every command before it.
  virtual bool Flush(uint32_t resource, const Rect& rect, uint64_t* fence) = 0;
  virtual bool WaitFence(uint64_t fence) = 0;
};

}  // namespace duet::virtio_gpu
