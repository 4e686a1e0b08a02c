#include "backends/framebuffer/pixels.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

namespace duet::framebuffer {
namespace {

// B,G,R,A <-> R,G,B,A: the same swap both ways.
void SwapRedBlue(const std::byte* src, std::byte* dst, uint32_t pixels) {
  for (uint32_t i = 0; i < pixels; ++i) {
    uint32_t p;
    std::memcpy(&p, src + i * kBytesPerPixel, sizeof p);
    p = (p & 0xFF00FF00u) | ((p & 0x00FF0000u) >> 16) | ((p & 0x000000FFu) << 16);
    std::memcpy(dst + i * kBytesPerPixel, &p, sizeof p);
  }
}

void CopyRow(const std::byte* src, std::byte* dst, uint32_t pixels, bool swap) {
  if (swap)
    SwapRedBlue(src, dst, pixels);
  else
    std::memcpy(dst, src, size_t{pixels} * kBytesPerPixel);
}

}  // namespace

void CopyRect(const Frame& frame, const Rect& rect, std::byte* dst, size_t dst_stride, PixelFormat dst_format) {
  const bool swap = frame.format != dst_format;
  for (uint32_t row = 0; row < rect.height; ++row) {
    const size_t y = size_t{rect.y} + row;
    const size_t x_bytes = size_t{rect.x} * kBytesPerPixel;
    CopyRow(frame.pixels + y * frame.stride + x_bytes, dst + y * dst_stride + x_bytes, rect.width, swap);
  }
}

void PackRect(const Frame& frame, const Rect& rect, std::byte* dst, PixelFormat dst_format) {
  const bool swap = frame.format != dst_format;
  const size_t row_bytes = size_t{rect.width} * kBytesPerPixel;
  for (uint32_t row = 0; row < rect.height; ++row) {
    const size_t y = size_t{rect.y} + row;
    CopyRow(frame.pixels + y * frame.stride + size_t{rect.x} * kBytesPerPixel, dst + row * row_bytes, rect.width,
            swap);
  }
}

Rect ClipRect(const Rect& rect, Extent extent) {
  if (rect.x >= extent.width || rect.y >= extent.height) return {};
  return {rect.x, rect.y, std::min(rect.width, extent.width - rect.x), std::min(rect.height, extent.height - rect.y)};
}

}  // namespace duet::framebuffer
