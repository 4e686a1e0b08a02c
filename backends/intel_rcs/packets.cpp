#include "backends/intel_rcs/packets.h"

namespace duet::intel_rcs {
namespace packet {

namespace {

// The colour depth codes by bytes per pixel: the legacy blits' 16-bit code
// is 565 (1555 would move the same bytes); fast copy leaves 2 undefined.
struct DepthCodes {
  uint32_t bytes, legacy, fast_copy;
};
constexpr DepthCodes kDepthCodes[] = {{1, 0, 0}, {2, 1, 1}, {4, 3, 3}, {8, ~0u, 4}, {16, ~0u, 5}};

}  // namespace

uint32_t LegacyDepthCode(uint32_t bytes_per_pixel) {
  for (const DepthCodes& c : kDepthCodes)
    if (c.bytes == bytes_per_pixel) return c.legacy;
  return ~0u;
}

uint32_t FastCopyDepthCode(uint32_t bytes_per_pixel) {
  for (const DepthCodes& c : kDepthCodes)
    if (c.bytes == bytes_per_pixel) return c.fast_copy;
  return ~0u;
}

uint32_t FastCopyTilingCode(Tiling tiling) {
  switch (tiling) {
    case Tiling::kLinear:
      return 0;
    case Tiling::kX:
      return 1;
    case Tiling::kY:
      return 2;  // legacy Y while dword 1's "Tile Y type" bits are 0
  }
  return 0;
}

}  // namespace packet

namespace {

uint32_t MiHeader(uint32_t opcode, uint32_t dwords) { return opcode << 23 | (dwords - 2); }
uint32_t Blit2dHeader(uint32_t opcode, uint32_t dwords) {
  return packet::kClient2d << 29 | opcode << 22 | (dwords - 2);
}
uint32_t Low(uint64_t address) { return static_cast<uint32_t>(address); }
uint32_t High(uint64_t address) { return static_cast<uint32_t>(address >> 32) & 0xFFFF; }  // 48-bit addresses
uint32_t Corner(uint16_t x, uint16_t y) { return uint32_t{y} << 16 | x; }
// Linear pitches are in bytes, tiled ones in dwords.
uint32_t PitchField(const BlitSurface& s) { return (s.tiling == Tiling::kLinear ? s.pitch : s.pitch / 4) & 0xFFFF; }

}  // namespace

void EncodeMiNoop(Dwords& out) { out.push_back(0); }

void EncodeMiBatchBufferEnd(Dwords& out) { out.push_back(packet::kMiBatchBufferEnd << 23); }

void EncodeMiStoreDwordImm(Dwords& out, Generation, uint64_t address, uint32_t value) {
  out.insert(out.end(), {MiHeader(packet::kMiStoreDataImm, packet::kStoreDwordImmDwords), Low(address) & ~3u,
                         High(address), value});
}

void EncodeMiFlushDw(Dwords& out, Generation, uint64_t address, uint32_t value) {
  out.insert(out.end(), {MiHeader(packet::kMiFlushDw, packet::kFlushDwDwords) | packet::kPostSyncWriteImmediate << 14,
                         Low(address) & ~7u, High(address), value});
}

void EncodePipeControl(Dwords& out, Generation, uint64_t address, uint64_t value) {
  constexpr uint32_t kCsStall = 1u << 20;
  out.insert(out.end(), {packet::kPipeControlHeader | (packet::kPipeControlDwords - 2),
                         kCsStall | packet::kPostSyncWriteImmediate << 14, Low(address) & ~7u, High(address),
                         static_cast<uint32_t>(value), static_cast<uint32_t>(value >> 32)});
}

void EncodeMiCopyMemMem(Dwords& out, Generation, uint64_t dst, uint64_t src) {
  out.insert(out.end(), {MiHeader(packet::kMiCopyMemMem, packet::kCopyMemMemDwords), Low(dst) & ~3u, High(dst),
                         Low(src) & ~3u, High(src)});
}

void EncodeXyColorBlt(Dwords& out, Generation, const BlitSurface& dst, const BlitRect& rect, uint32_t bytes_per_pixel,
                      uint32_t color) {
  uint32_t header = Blit2dHeader(packet::kXyColorBlt, packet::kColorBltDwords);
  if (bytes_per_pixel == 4) header |= packet::kWriteAlpha | packet::kWriteRgb;
  if (dst.tiling != Tiling::kLinear) header |= packet::kDstTiled;
  out.insert(out.end(),
             {header, packet::LegacyDepthCode(bytes_per_pixel) << 24 | packet::kRopPatternCopy << 16 | PitchField(dst),
              Corner(rect.x1, rect.y1), Corner(rect.x2, rect.y2), Low(dst.address), High(dst.address), color});
}

void EncodeXySrcCopyBlt(Dwords& out, Generation, const BlitSurface& dst, const BlitRect& rect, const BlitSurface& src,
                        BlitOrigin from, uint32_t bytes_per_pixel) {
  uint32_t header = Blit2dHeader(packet::kXySrcCopyBlt, packet::kSrcCopyBltDwords);
  if (bytes_per_pixel == 4) header |= packet::kWriteAlpha | packet::kWriteRgb;
  if (src.tiling != Tiling::kLinear) header |= packet::kSrcTiled;
  if (dst.tiling != Tiling::kLinear) header |= packet::kDstTiled;
  out.insert(out.end(),
             {header, packet::LegacyDepthCode(bytes_per_pixel) << 24 | packet::kRopSourceCopy << 16 | PitchField(dst),
              Corner(rect.x1, rect.y1), Corner(rect.x2, rect.y2), Low(dst.address), High(dst.address),
              Corner(from.x, from.y), PitchField(src), Low(src.address), High(src.address)});
}

void EncodeXyFastCopyBlt(Dwords& out, Generation, const BlitSurface& dst, const BlitRect& rect, const BlitSurface& src,
                         BlitOrigin from, uint32_t bytes_per_pixel) {
  const uint32_t header = Blit2dHeader(packet::kXyFastCopyBlt, packet::kFastCopyBltDwords) |
                          packet::FastCopyTilingCode(src.tiling) << 20 | packet::FastCopyTilingCode(dst.tiling) << 13;
  out.insert(out.end(), {header, packet::FastCopyDepthCode(bytes_per_pixel) << 24 | PitchField(dst),
                         Corner(rect.x1, rect.y1), Corner(rect.x2, rect.y2), Low(dst.address), High(dst.address),
                         Corner(from.x, from.y), PitchField(src), Low(src.address), High(src.address)});
}

}  // namespace duet::intel_rcs
