// The seam between the WSI (icd/wsi/) and the places pixels can go. A
// backend knows nothing of Vulkan: it is given finished pixels and the
// rectangles that changed since it was last given a frame, and shows them
// (in a window, a file, a DRM dumb buffer).
//
// Two levels, matching the lifetimes the WSI needs:
//   Target  one per surface: answers "how large is the window now" and
//           makes Outputs;
//   Output  one per swapchain: owns whatever the transfer needs (shared
//           memory, a GC, a dumb buffer) and presents frames.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>

namespace duet::framebuffer {

// Byte order of a 4-byte pixel in memory.
enum class PixelFormat : uint8_t {
  kBgra8888,  // B, G, R, A: what X11, Wayland and DRM call (A|X)RGB8888 on little-endian
  kRgba8888,  // R, G, B, A
};

struct Extent {
  uint32_t width = 0;
  uint32_t height = 0;
  bool operator==(const Extent&) const = default;
};

struct Rect {
  uint32_t x = 0, y = 0, width = 0, height = 0;
  uint64_t Area() const { return uint64_t{width} * height; }
  bool operator==(const Rect&) const = default;
};

// Read-only pixels, valid for the duration of one Present call.
struct Frame {
  const std::byte* pixels = nullptr;
  uint32_t width = 0;
  uint32_t height = 0;
  size_t stride = 0;  // bytes from one row to the next
  PixelFormat format = PixelFormat::kBgra8888;
};

enum class Status : uint8_t {
  kOk,
  kLost,    // the window or display went away: the surface is unusable
  kFailed,  // this present failed (logged); later ones may work
  kOutOfDate,  // the display refused this swapchain's frames (a mode set failed): recreate it
};

class Output {
 public:
  virtual ~Output() = default;
  // Shows the frame. `damage` holds the rectangles (inside the frame, not
  // overlapping) that differ from the previous frame given to this output;
  // the first frame comes with one rectangle covering it all. An empty
  // `damage` is a frame identical to the previous one.
  virtual Status Present(const Frame& frame, std::span<const Rect> damage) = 0;
};

class Target {
 public:
  virtual ~Target() = default;
  // The size of the window or display mode now; nullopt when the target has
  // no size of its own and takes the swapchain's (headless, Wayland).
  // kLost when the window no longer exists.
  virtual Status CurrentExtent(std::optional<Extent>* extent) = 0;
  // Nanoseconds between two refreshes of the display; 0 when there is no
  // refresh to wait for and frames may go out as soon as they are ready.
  virtual uint64_t RefreshInterval() const = 0;
  // An output for frames of this size and format; nullptr (logged) when the
  // target cannot show them.
  virtual std::unique_ptr<Output> CreateOutput(Extent extent, PixelFormat format) = 0;
};

// Refresh interval for windows and files, which have no vertical blank of
// their own: DUET_REFRESH_HZ=<n> (0 = none), else `default_hz`.
uint64_t RefreshIntervalFromEnvironment(uint32_t default_hz);

}  // namespace duet::framebuffer
