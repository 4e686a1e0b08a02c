// Plain memory moves as blit packets: a linear span (a buffer, a clear of
// a whole subresource) becomes a 2D surface of 16 KiB rows plus a short
// last row; a rectangle (an image copy) stays one. Each picks the packet
// the generation's rules allow (blit_rules.h): XY_FAST_COPY_BLT where the
// alignments permit it, else the legacy blits; false when no packet can
// express the move and the CPU must do it.
#pragma once

#include <cstdint>

#include "backends/intel_rcs/generation.h"
#include "backends/intel_rcs/packets.h"

namespace duet::intel_rcs {

// Rows of a span: a multiple of 64 (linear pitches), below 32768 (pitch
// fields).
inline constexpr uint32_t kSpanRowBytes = 16384;

// `bytes` at `address` filled with a pattern of 1, 2 or 4 bytes (`pattern`'s
// low bytes).
bool PlanFill(Generation gen, uint64_t address, uint64_t bytes, uint32_t pattern_bytes, uint32_t pattern, Dwords* out);

// `bytes` from `src` to `dst`; the spans do not overlap.
bool PlanCopy(Generation gen, uint64_t dst, uint64_t src, uint64_t bytes, Dwords* out);

// A rectangle of `row_bytes` x `rows` between linear surfaces; `dst` and
// `src` address its first byte.
struct RectCopy {
  uint64_t dst = 0, src = 0;
  uint32_t dst_pitch = 0, src_pitch = 0;
  uint32_t row_bytes = 0, rows = 0;
};
bool PlanCopyRect(Generation gen, const RectCopy& copy, Dwords* out);

}  // namespace duet::intel_rcs
