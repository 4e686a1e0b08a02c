#include "backends/intel_rcs/blit_plan.h"

#include <algorithm>

#include "backends/intel_rcs/blit_rules.h"

namespace duet::intel_rcs {
namespace {

constexpr uint32_t kMaxRows = 32767;  // Y2 is a signed 16-bit field
constexpr uint64_t kBaseAlignment = 64;

// A linear surface whose base is `address` rounded down to 64 bytes, and
// the column of `address` in it.
BlitSurface Linear(uint64_t address, uint32_t pitch) {
  return {address & ~(kBaseAlignment - 1), pitch, Tiling::kLinear};
}
uint32_t Column(uint64_t address, uint32_t bpp) { return static_cast<uint32_t>(address % kBaseAlignment) / bpp; }

// One rectangle copy, fast where allowed, else legacy; nothing emitted on
// false.
bool EmitCopy(Generation gen, uint64_t dst, uint32_t dst_pitch, uint64_t src, uint32_t src_pitch, uint32_t row_bytes,
              uint32_t rows, Dwords* out) {
  for (BlitKind kind : {BlitKind::kFastCopy, BlitKind::kSrcCopy}) {
    for (uint32_t bpp : {16u, 8u, 4u, 2u, 1u}) {
      if (row_bytes % bpp != 0 || dst % bpp != 0 || src % bpp != 0 || CheckPixelSize(kind, bpp)) continue;
      const BlitSurface d = Linear(dst, dst_pitch), s = Linear(src, src_pitch);
      const uint32_t x1 = Column(dst, bpp), width = row_bytes / bpp;
      if (uint64_t{x1} + width > kMaxRows) continue;
      const BlitRect rect{static_cast<uint16_t>(x1), 0, static_cast<uint16_t>(x1 + width), static_cast<uint16_t>(rows)};
      const BlitOrigin from{static_cast<uint16_t>(Column(src, bpp)), 0};
      if (!BlitAllowed(gen, kind, d, rect, &s, from, bpp)) continue;
      (kind == BlitKind::kFastCopy ? EncodeXyFastCopyBlt : EncodeXySrcCopyBlt)(*out, gen, d, rect, s, from, bpp);
      return true;
    }
  }
  return false;
}

bool EmitFill(Generation gen, uint64_t address, uint32_t pitch, uint32_t row_bytes, uint32_t rows, uint32_t bpp,
              uint32_t pattern, Dwords* out) {
  const BlitSurface d = Linear(address, pitch);
  const uint32_t x1 = Column(address, bpp), width = row_bytes / bpp;
  if (uint64_t{x1} + width > kMaxRows) return false;
  const BlitRect rect{static_cast<uint16_t>(x1), 0, static_cast<uint16_t>(x1 + width), static_cast<uint16_t>(rows)};
  if (!BlitAllowed(gen, BlitKind::kColor, d, rect, nullptr, {}, bpp)) return false;
  EncodeXyColorBlt(*out, gen, d, rect, bpp, pattern);
  return true;
}

// Calls emit(offset, row_bytes, rows) for the blocks of whole rows of a
// span, then for its short last row; stops at the first false.
template <typename Emit>
bool ForEachSpanBlock(uint64_t bytes, Emit emit) {
  const uint64_t full_rows = bytes / kSpanRowBytes;
  for (uint64_t row = 0; row < full_rows; row += kMaxRows) {
    const uint32_t rows = static_cast<uint32_t>(std::min<uint64_t>(kMaxRows, full_rows - row));
    if (!emit(row * kSpanRowBytes, kSpanRowBytes, rows)) return false;
  }
  const uint32_t rest = static_cast<uint32_t>(bytes % kSpanRowBytes);
  return rest == 0 || emit(full_rows * kSpanRowBytes, rest, 1);
}

}  // namespace

bool PlanFill(Generation gen, uint64_t address, uint64_t bytes, uint32_t pattern_bytes, uint32_t pattern, Dwords* out) {
  if (pattern_bytes != 1 && pattern_bytes != 2 && pattern_bytes != 4) return false;
  if (bytes == 0 || address % pattern_bytes != 0 || bytes % pattern_bytes != 0) return false;
  const size_t start = out->size();
  const bool ok = ForEachSpanBlock(bytes, [&](uint64_t offset, uint32_t row_bytes, uint32_t rows) {
    return EmitFill(gen, address + offset, kSpanRowBytes, row_bytes, rows, pattern_bytes, pattern, out);
  });
  if (!ok) out->resize(start);
  return ok;
}

bool PlanCopy(Generation gen, uint64_t dst, uint64_t src, uint64_t bytes, Dwords* out) {
  if (bytes == 0) return false;
  const size_t start = out->size();
  const bool ok = ForEachSpanBlock(bytes, [&](uint64_t offset, uint32_t row_bytes, uint32_t rows) {
    return EmitCopy(gen, dst + offset, kSpanRowBytes, src + offset, kSpanRowBytes, row_bytes, rows, out);
  });
  if (!ok) out->resize(start);
  return ok;
}

bool PlanCopyRect(Generation gen, const RectCopy& c, Dwords* out) {
  if (c.row_bytes == 0 || c.rows == 0) return false;
  const size_t start = out->size();
  for (uint32_t row = 0; row < c.rows; row += kMaxRows) {
    const uint32_t rows = std::min(kMaxRows, c.rows - row);
    if (!EmitCopy(gen, c.dst + uint64_t{row} * c.dst_pitch, c.dst_pitch, c.src + uint64_t{row} * c.src_pitch,
                  c.src_pitch, c.row_bytes, rows, out)) {
      out->resize(start);
      return false;
    }
  }
  return true;
}

}  // namespace duet::intel_rcs
