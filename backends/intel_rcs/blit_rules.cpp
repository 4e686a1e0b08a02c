#include "backends/intel_rcs/blit_rules.h"

namespace duet::intel_rcs {
namespace {

constexpr uint32_t kMaxCoordinate = 32767;
constexpr uint64_t kLinearBaseAlignment = 64;
constexpr uint32_t kFastCopyRowAlignment = 16;

bool Legacy(BlitKind kind) { return kind != BlitKind::kFastCopy; }

RuleBreak Break(const char* role, const char* field, std::string rule) {
  return {std::string(role) + " " + field, std::move(rule)};
}

}  // namespace

const char* BlitName(BlitKind kind) {
  switch (kind) {
    case BlitKind::kColor:
      return "XY_COLOR_BLT";
    case BlitKind::kSrcCopy:
      return "XY_SRC_COPY_BLT";
    case BlitKind::kFastCopy:
      return "XY_FAST_COPY_BLT";
  }
  return "?";
}

std::optional<RuleBreak> CheckPixelSize(BlitKind kind, uint32_t bytes_per_pixel) {
  const uint32_t code =
      Legacy(kind) ? packet::LegacyDepthCode(bytes_per_pixel) : packet::FastCopyDepthCode(bytes_per_pixel);
  if (code == ~0u)
    return RuleBreak{"Color Depth", std::to_string(bytes_per_pixel) + " bytes per pixel cannot be encoded"};
  return std::nullopt;
}

std::optional<RuleBreak> CheckSurface(Generation, BlitKind kind, const char* role, const BlitSurface& s,
                                      uint32_t bytes_per_pixel, uint32_t x1) {
  if (s.tiling == Tiling::kLinear) {
    const uint32_t multiple = Legacy(kind) ? 4 : 64;
    if (s.pitch == 0 || s.pitch % multiple != 0 || s.pitch > kMaxCoordinate)
      return Break(role, "Pitch",
                   std::to_string(s.pitch) + " bytes: a linear surface's pitch is a multiple of " +
                       std::to_string(multiple) + " from " + std::to_string(multiple) + " to 32767");
    if (s.address % kLinearBaseAlignment != 0)
      return Break(role, "Base Address", "a linear surface starts on a 64-byte boundary");
    if (!Legacy(kind) && (uint64_t{x1} * bytes_per_pixel) % kFastCopyRowAlignment != 0)
      return Break(role, "X1", "a fast copy starts each row on a 16-byte (OWord) boundary");
    return std::nullopt;
  }
  if (Legacy(kind) && s.tiling != Tiling::kX)
    return Break(role, "Tiled", std::string(TilingName(s.tiling)) + "-tiling needs BCS_SWCTRL; only X is used");
  if (!Legacy(kind) && s.tiling != Tiling::kY)
    return Break(role, "Tiling", std::string(TilingName(s.tiling)) + "-tiling is not a fast-copy tiling here");
  const uint32_t tile_width = ShapeOf(s.tiling).width_bytes;
  if (s.pitch == 0 || s.pitch % tile_width != 0 || s.pitch / 4 > kMaxCoordinate)
    return Break(role, "Pitch",
                 std::to_string(s.pitch) + " bytes: a " + TilingName(s.tiling) + "-tiled pitch is a multiple of " +
                     std::to_string(tile_width) + " bytes, at most 32767 dwords");
  if (s.address % kTileBytes != 0) return Break(role, "Base Address", "a tiled surface starts on a 4 KiB boundary");
  return std::nullopt;
}

std::optional<RuleBreak> CheckRect(Generation gen, BlitKind kind, const BlitRect& r, BlitOrigin from) {
  if (r.x1 >= r.x2 || r.y1 >= r.y2) return RuleBreak{"Destination X2/Y2", "the rectangle is empty"};
  if (r.x2 > kMaxCoordinate || r.y2 > kMaxCoordinate)
    return RuleBreak{"Destination X2/Y2", "corners are signed 16-bit values"};
  if (kind != BlitKind::kColor &&
      (uint32_t{from.x} + (r.x2 - r.x1) > kMaxCoordinate || uint32_t{from.y} + (r.y2 - r.y1) > kMaxCoordinate))
    return RuleBreak{"Source X1/Y1", "the source rectangle's corners are signed 16-bit values"};
  const uint32_t height = r.y2 - r.y1;
  if (gen == Generation::kGen11 && kind == BlitKind::kFastCopy && height % 4 == 3 && height <= 8)
    return RuleBreak{"Destination Y2", "Wa_1209644611: no fast copy 3 or 7 rows high on Gen11"};
  return std::nullopt;
}

bool BlitAllowed(Generation gen, BlitKind kind, const BlitSurface& dst, const BlitRect& rect, const BlitSurface* src,
                 BlitOrigin from, uint32_t bytes_per_pixel) {
  return !CheckPixelSize(kind, bytes_per_pixel) && !CheckRect(gen, kind, rect, from) &&
         !CheckSurface(gen, kind, "Destination", dst, bytes_per_pixel, rect.x1) &&
         (src == nullptr || !CheckSurface(gen, kind, "Source", *src, bytes_per_pixel, from.x));
}

}  // namespace duet::intel_rcs
