// Copying rectangles of 4-byte pixels between buffers, converting between
// the two byte orders on the way when they differ.
#pragma once

#include <cstddef>

#include "backends/framebuffer/framebuffer.h"

namespace duet::framebuffer {

inline constexpr size_t kBytesPerPixel = 4;

// Copies `rect` of `frame` to the same place in `dst` (a buffer of
// `dst_stride` bytes per row holding pixels in `dst_format`).
void CopyRect(const Frame& frame, const Rect& rect, std::byte* dst, size_t dst_stride, PixelFormat dst_format);

// Copies `rect` of `frame` into a tightly packed buffer (rect.width pixels
// per row, starting at `dst`), for protocols that send one rectangle's rows.
void PackRect(const Frame& frame, const Rect& rect, std::byte* dst, PixelFormat dst_format);

// The part of `rect` inside an area of `extent`; an empty rect when none is.
Rect ClipRect(const Rect& rect, Extent extent);

}  // namespace duet::framebuffer
