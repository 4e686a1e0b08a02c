// Where a byte of a tiled surface lives (ignoring the bit-6 address swizzle
// the display engine of old parts wanted). A tile is 4 KiB:
// - X: 512 bytes wide, 8 rows, row by row;
// - Y (legacy): 128 bytes wide, 32 rows, stored as eight columns of
//   16-byte OWords, each column top to bottom.
// Tiles follow each other row by row; a row of tiles spans the pitch.
#pragma once

#include <cstdint>

namespace duet::intel_rcs {

enum class Tiling : uint8_t { kLinear, kX, kY };

struct TileShape {
  uint32_t width_bytes, rows;
};

inline constexpr TileShape ShapeOf(Tiling tiling) {
  return tiling == Tiling::kX ? TileShape{512, 8} : tiling == Tiling::kY ? TileShape{128, 32} : TileShape{1, 1};
}

inline constexpr uint64_t kTileBytes = 4096;

// Offset of byte `x_bytes` of row `y` from the surface's start; `pitch` in
// bytes (a multiple of the tile width for tiled surfaces).
inline uint64_t SurfaceOffset(Tiling tiling, uint64_t pitch, uint64_t x_bytes, uint64_t y) {
  switch (tiling) {
    case Tiling::kLinear:
      return y * pitch + x_bytes;
    case Tiling::kX: {
      const uint64_t tile = (y / 8) * (pitch / 512) + x_bytes / 512;
      return tile * kTileBytes + (y % 8) * 512 + x_bytes % 512;
    }
    case Tiling::kY: {
      const uint64_t tile = (y / 32) * (pitch / 128) + x_bytes / 128;
      return tile * kTileBytes + ((x_bytes % 128) / 16) * 512 + (y % 32) * 16 + x_bytes % 16;
    }
  }
  return 0;
}

const char* TilingName(Tiling tiling);

}  // namespace duet::intel_rcs
