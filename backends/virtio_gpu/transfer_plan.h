// From damage to transfers: the rectangles a resource needs to catch up
// with the frame, as few non-overlapping rectangles as the union allows,
// and the TRANSFER_TO_HOST_2D box of each (QEMU's 2D transfer reads the
// box's rows from `offset` on with the guest stride, which must be the
// resource's width * 4).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "backends/framebuffer/framebuffer.h"

namespace duet::virtio_gpu {

using framebuffer::Extent;
using framebuffer::Rect;

// Non-overlapping rectangles covering exactly the union of `rects` clipped
// to `extent`: cut into horizontal bands at every top and bottom edge,
// column runs merged inside a band, consecutive bands with the same runs
// joined into one rectangle.
std::vector<Rect> MergeRects(std::span<const Rect> rects, Extent extent);

// Fewer transfers for little more data: each rectangle of `rects` (as
// MergeRects returns them: disjoint, top to bottom) joins the one above it
// when it starts where that one ends, their bounds cover at most
// `max_waste` more pixels than the two do, and the bounds overlap no other
// rectangle. A changed disc then travels as a few boxes, not one per band.
std::vector<Rect> CoalesceRects(std::span<const Rect> rects, double max_waste = 0.25);

// The smallest rectangle holding all of them (empty when there are none).
Rect Bounds(std::span<const Rect> rects);

struct TransferBox {
  Rect box;
  uint64_t offset = 0;  // byte offset of the box's first pixel in the guest pages
};

inline TransferBox BoxFor(const Rect& rect, uint64_t stride) {
  return {rect, uint64_t{rect.y} * stride + uint64_t{rect.x} * 4};
}

}  // namespace duet::virtio_gpu
