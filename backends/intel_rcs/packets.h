// The command-streamer packets the backend builds, dword by dword as the
// PRMs lay them out for Gen9, Gen11 and Gen12.0 (the fields used here have
// the same places on all three; Gen12's MOCS fields stay 0). Addresses are
// GPU virtual addresses in the per-process GTT (soft-pinned objects), so
// every "use global GTT" bit is 0. Rectangles are [x1, x2) x [y1, y2).
//
// The header layouts:
//   MI          bits 31:29 = 0, opcode 28:23, length (dwords - 2) in the low
//   bits 2D (BCS)    bits 31:29 = 2, opcode 28:22, length 7:0 PIPE_CONTROL
//   3/3/2/0 in 31:16, length 7:0
#pragma once

#include <cstdint>
#include <vector>

#include "backends/intel_rcs/generation.h"
#include "backends/intel_rcs/tiling.h"

namespace duet::intel_rcs {

using Dwords = std::vector<uint32_t>;

namespace packet {
inline constexpr uint32_t kClientMi = 0, kClient2d = 2, kClient3d = 3;
// MI opcodes (bits 28:23).
inline constexpr uint32_t kMiNoop = 0x00, kMiBatchBufferEnd = 0x0A, kMiStoreDataImm = 0x20, kMiFlushDw = 0x26,
                          kMiCopyMemMem = 0x2E;
// 2D opcodes (bits 28:22).
inline constexpr uint32_t kXyFastCopyBlt = 0x42, kXyColorBlt = 0x50, kXySrcCopyBlt = 0x53;
inline constexpr uint32_t kPipeControlHeader = 0x7A000000;  // 3D client, subtype 3, opcode 2, sub-opcode 0

// Total dwords of each packet as built here.
inline constexpr uint32_t kStoreDwordImmDwords = 4, kFlushDwDwords = 4, kPipeControlDwords = 6, kCopyMemMemDwords = 5,
                          kColorBltDwords = 7, kSrcCopyBltDwords = 10, kFastCopyBltDwords = 10;

inline constexpr uint32_t kPostSyncWriteImmediate = 1;  // post-sync operation field value
inline constexpr uint32_t kRopPatternCopy = 0xF0, kRopSourceCopy = 0xCC;

// Bits of the legacy blits' header and dword 1.
inline constexpr uint32_t kWriteAlpha = 1u << 21, kWriteRgb = 1u << 20, kSrcTiled = 1u << 15, kDstTiled = 1u << 11;

// Colour depth field of the legacy blits (dword 1 bits 25:24) and of
// XY_FAST_COPY_BLT (bits 26:24), by bytes per pixel; ~0u: not encodable.
uint32_t LegacyDepthCode(uint32_t bytes_per_pixel);
uint32_t FastCopyDepthCode(uint32_t bytes_per_pixel);
// XY_FAST_COPY_BLT tiling field (dword 0 bits 21:20 and 14:13).
uint32_t FastCopyTilingCode(Tiling tiling);
}  // namespace packet

// A surface as a blit sees it: pixel (0, 0) at `address`, `pitch` bytes
// from one row to the next (a tiled surface's pitch is encoded in dwords).
struct BlitSurface {
  uint64_t address = 0;
  uint32_t pitch = 0;
  Tiling tiling = Tiling::kLinear;
};

struct BlitRect {
  uint16_t x1 = 0, y1 = 0, x2 = 0, y2 = 0;
};

// The source corner of a copy of a rectangle of the destination's size.
struct BlitOrigin {
  uint16_t x = 0, y = 0;
};

void EncodeMiNoop(Dwords& out);
void EncodeMiBatchBufferEnd(Dwords& out);
// Stores `value` at the dword-aligned `address`.
void EncodeMiStoreDwordImm(Dwords& out, Generation gen, uint64_t address, uint32_t value);
// Blitter flush whose post-sync operation writes `value` at the
// qword-aligned `address` (bit 5 clear) once the blits before it are done.
void EncodeMiFlushDw(Dwords& out, Generation gen, uint64_t address, uint32_t value);
// Render-engine CS stall whose post-sync operation writes the qword
// `value` at the qword-aligned `address`.
void EncodePipeControl(Dwords& out, Generation gen, uint64_t address, uint64_t value);
// Copies the dword at `src` to `dst`.
void EncodeMiCopyMemMem(Dwords& out, Generation gen, uint64_t dst, uint64_t src);
// Fills `rect` of `dst` with the low 1, 2 or 4 bytes of `color`.
void EncodeXyColorBlt(Dwords& out, Generation gen, const BlitSurface& dst, const BlitRect& rect,
                      uint32_t bytes_per_pixel, uint32_t color);
// Copies `rect` of `dst` from `src` at `from`, pixels of 1, 2 or 4 bytes.
void EncodeXySrcCopyBlt(Dwords& out, Generation gen, const BlitSurface& dst, const BlitRect& rect,
                        const BlitSurface& src, BlitOrigin from, uint32_t bytes_per_pixel);
// The same with pixels of 1, 2, 4, 8 or 16 bytes (linear or Y-tiled).
void EncodeXyFastCopyBlt(Dwords& out, Generation gen, const BlitSurface& dst, const BlitRect& rect,
                         const BlitSurface& src, BlitOrigin from, uint32_t bytes_per_pixel);

}  // namespace duet::intel_rcs
