// What changed between two frames, as a few rectangles. The frame is cut
// into horizontal bands of kBandRows rows; inside a band, changed pixels
// become one rectangle per cluster of nearby columns, so two small changes
// far apart stay two small rectangles instead of one that spans both.
// Rectangles of consecutive bands with the same columns join, so a frame
// that changed everywhere is one rectangle.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "backends/framebuffer/framebuffer.h"
#include "backends/framebuffer/pixels.h"

namespace duet::wsi {

using framebuffer::Rect;

inline constexpr uint32_t kBandRows = 16;
// Changed runs in a row closer than this many pixels count as one: a
// rectangle per isolated pixel would cost more in protocol than in pixels.
inline constexpr uint32_t kJoinGapPixels = 32;

struct DamageResult {
  std::vector<Rect> rects;  // non-overlapping
  uint64_t pixels = 0;      // their total area
  uint32_t bands = 0;       // bands with any change
};

// Compares `frame` with `previous` (same size, 4-byte pixels), copies every
// changed pixel into `previous` so it equals `frame` afterwards, and returns
// where they differed.
DamageResult DiffAndUpdate(const std::byte* frame, size_t frame_stride, std::byte* previous, size_t previous_stride,
                           uint32_t width, uint32_t height);

// Copies one rectangle from `frame` to `previous` elsewhere (the Intel
// GPU's blitter); false leaves it to the CPU.
using RectCopier = std::function<bool(const Rect&)>;

// The damage an application declared (VK_KHR_incremental_present): the
// rectangles clipped to the frame and copied into `previous` without
// comparing anything.
DamageResult CopyDeclared(std::span<const Rect> declared, const std::byte* frame, size_t frame_stride,
                          std::byte* previous, size_t previous_stride, uint32_t width, uint32_t height,
                          const RectCopier& copier = {});

// The whole frame copied: the first present of a swapchain.
DamageResult CopyAll(const std::byte* frame, size_t frame_stride, std::byte* previous, size_t previous_stride,
                     uint32_t width, uint32_t height, const RectCopier& copier = {});

}  // namespace duet::wsi
