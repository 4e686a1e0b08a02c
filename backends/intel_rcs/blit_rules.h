// What a blit packet may describe, per generation: the rules the planner
// keeps when it chooses a packet and the simulator checks when it runs one
// (PRM volume "Blitter Engine", and the workarounds the kernel applies).
// - legacy XY_COLOR_BLT / XY_SRC_COPY_BLT: 1, 2 or 4 bytes per pixel;
//   linear or X-tiled (Y-tiling would need BCS_SWCTRL, not used);
//   linear pitch a multiple of 4 bytes up to 32764, base 64-byte aligned;
// - XY_FAST_COPY_BLT: 1, 2, 4, 8 or 16 bytes per pixel; linear or Y-tiled;
//   linear pitch a multiple of 64 bytes, base 64-byte aligned, each row's
//   first pixel on a 16-byte boundary; Gen11: no rectangles 3, 7 rows
//   high (Wa_1209644611: use XY_SRC_COPY_BLT);
// - tiled surfaces: base 4 KiB aligned, pitch a multiple of the tile width,
//   at most 32767 dwords;
// - rectangles: non-empty, corners below 32768 (signed 16-bit fields).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "backends/intel_rcs/generation.h"
#include "backends/intel_rcs/packets.h"

namespace duet::intel_rcs {

enum class BlitKind : uint8_t { kColor, kSrcCopy, kFastCopy };

const char* BlitName(BlitKind kind);

// A rule a packet breaks: the field (as the PRM names it) and why.
struct RuleBreak {
  std::string field;
  std::string rule;
};

std::optional<RuleBreak> CheckPixelSize(BlitKind kind, uint32_t bytes_per_pixel);
// `role` is "Destination" or "Source"; `x1` the rectangle's left column there.
std::optional<RuleBreak> CheckSurface(Generation gen, BlitKind kind, const char* role, const BlitSurface& surface,
                                      uint32_t bytes_per_pixel, uint32_t x1);
std::optional<RuleBreak> CheckRect(Generation gen, BlitKind kind, const BlitRect& rect, BlitOrigin from);

// All three: what the planner asks before it emits a blit.
bool BlitAllowed(Generation gen, BlitKind kind, const BlitSurface& dst, const BlitRect& rect, const BlitSurface* src,
                 BlitOrigin from, uint32_t bytes_per_pixel);

}  // namespace duet::intel_rcs
