// Process-wide presentation counters. DUET_STATS=1 prints them to stderr
// when the driver is unloaded (or the process exits), one line:
//   duet stats: present frames=N clean=N partial=N full=N dirty_pixels=N rects=N bands=N dropped=N
// frames     presents that reached the display/file (dropped ones are not)
// clean      of those, identical to the previous frame: nothing transferred
// partial    transferred less than the whole frame
// full       transferred the whole frame (first frames, full changes)
// dirty_pixels, rects, bands: what was transferred, summed over frames
// dropped    frames a newer one replaced before they were shown (MAILBOX)
#pragma once

#include <cstdint>

namespace duet::wsi {

struct PresentCounts {
  uint64_t frames = 0, clean = 0, partial = 0, full = 0;
  uint64_t dirty_pixels = 0, rects = 0, bands = 0, dropped = 0;
};

void CountPresent(uint64_t dirty_pixels, uint64_t frame_pixels, uint64_t rects, uint64_t bands);
void CountDropped();
PresentCounts CurrentPresentCounts();

}  // namespace duet::wsi
