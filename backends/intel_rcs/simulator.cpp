#include "backends/intel_rcs/simulator.h"

#include <algorithm>
#include <cstring>
#include <optional>

#include "backends/intel_rcs/blit_rules.h"
#include "backends/intel_rcs/packets.h"
#include "backends/intel_rcs/tiling.h"

namespace duet::intel_rcs {
namespace {

using Status = ExecutionResult::Status;

uint64_t Address(uint32_t low, uint32_t high) { return uint64_t{high & 0xFFFF} << 32 | low; }

// Where a rule-named field sits in a blit packet (dword offset), for messages.
uint32_t FieldDword(BlitKind kind, const std::string& field) {
  const bool src = field.rfind("Source", 0) == 0;
  if (field.find("Tiled") != std::string::npos || field.find("Tiling") != std::string::npos) return 0;
  if (field.find("Color Depth") != std::string::npos) return 1;
  if (field.find("Pitch") != std::string::npos) return src ? 7 : 1;
  if (field.find("Base Address") != std::string::npos) return src ? 8 : 4;
  if (field.find("X2") != std::string::npos || field.find("Y2") != std::string::npos) return 3;
  if (kind != BlitKind::kColor && src) return 6;
  return 2;
}

// One run of one batch: the decoder's position, the memory, what was done.
class Run {
 public:
  Run(Generation gen, std::span<const uint32_t> batch, std::span<const SimulatedObject> objects, Engine engine)
      : gen_(gen), batch_(batch), objects_(objects), engine_(engine) {}

  ExecutionResult Go(uint32_t hang_at_packet) {
    while (result_.status == Status::kCompleted) {
      if (at_ >= batch_.size()) return Fault(at_, "the batch ends without MI_BATCH_BUFFER_END");
      if (result_.packets == hang_at_packet) {
        result_.status = Status::kHung;
        break;
      }
      const uint32_t header = batch_[at_];
      const uint32_t client = header >> 29;
      bool ended = false;
      if (client == packet::kClientMi) {
        ended = Mi(header);
      } else if (client == packet::kClient2d) {
        Blit(header);
      } else if ((header & 0xFFFF0000u) == packet::kPipeControlHeader) {
        PipeControl(header);
      } else {
        Fault(at_, "unknown packet header 0x" + Hex(header));
      }
      if (result_.status != Status::kCompleted) break;
      ++result_.packets;
      if (ended) return result_;
    }
    return result_;
  }

 private:
  static std::string Hex(uint64_t v) {
    char text[24];
    std::snprintf(text, sizeof(text), "%llx", static_cast<unsigned long long>(v));
    return text;
  }

  ExecutionResult& Fault(size_t dword, const std::string& message) {
    if (result_.status == Status::kCompleted) {
      result_.status = Status::kFaulted;
      result_.error = "dword " + std::to_string(dword) + ": " + message;
    }
    return result_;
  }
  void FieldFault(uint32_t offset, const char* packet, const std::string& field, const std::string& why) {
    Fault(start_ + offset, std::string(packet) + " (at dword " + std::to_string(start_) + ") " + field + ": " + why);
  }

  // The packet's dwords, or nothing (and a fault) when its length is not
  // `expected`.
  const uint32_t* Take(const char* name, uint32_t length_field, uint32_t expected) {
    start_ = at_;
    if (length_field + 2 != expected) {
      FieldFault(0, name, "DWord Length", std::to_string(length_field) + ", expected " + std::to_string(expected - 2));
      return nullptr;
    }
    if (at_ + expected > batch_.size()) {
      Fault(at_, std::string(name) + " runs past the end of the batch");
      return nullptr;
    }
    const uint32_t* p = batch_.data() + at_;
    at_ += expected;
    return p;
  }

  // The host bytes of [address, address + size) when objects hold them
  // all: one, or several that continue each other both in GPU addresses
  // and in host memory (the windows of one allocation).
  std::byte* Reach(uint64_t address, uint64_t size) const {
    for (const SimulatedObject& o : objects_) {
      if (address < o.address || address - o.address >= o.size) continue;
      uint64_t end = o.address + o.size;
      const std::byte* host_end = o.host + o.size;
      while (end - address < size) {
        const SimulatedObject* next = nullptr;
        for (const SimulatedObject& n : objects_)
          if (n.address == end && n.host == host_end) next = &n;
        if (next == nullptr) return nullptr;
        end += next->size;
        host_end += next->size;
      }
      return o.host + (address - o.address);
    }
    return nullptr;
  }
  std::byte* ReachField(uint32_t offset, const char* packet, const char* field, uint64_t address, uint64_t size) {
    std::byte* p = Reach(address, size);
    if (p == nullptr)
      FieldFault(
          offset, packet, field,
          "bytes 0x" + Hex(address) + "..0x" + Hex(address + size) + " lie outside every object of the submission");
    return p;
  }

  bool Mi(uint32_t header) {
    const uint32_t opcode = (header >> 23) & 0x3F;
    switch (opcode) {
      case packet::kMiNoop:
        ++at_;
        return false;
      case packet::kMiBatchBufferEnd:
        ++at_;
        return true;
      case packet::kMiStoreDataImm:
        StoreDataImm(header);
        return false;
      case packet::kMiFlushDw:
        FlushDw(header);
        return false;
      case packet::kMiCopyMemMem:
        CopyMemMem(header);
        return false;
      default:
        Fault(at_, "unknown MI opcode 0x" + Hex(opcode));
        return false;
    }
  }

  void StoreDataImm(uint32_t header) {
    const bool qword = (header & (1u << 21)) != 0;
    const uint32_t* p = Take("MI_STORE_DATA_IMM", header & 0x3FF, qword ? 5 : 4);
    if (p == nullptr) return;
    if ((header & (1u << 22)) != 0)
      return FieldFault(0, "MI_STORE_DATA_IMM", "Use Global GTT", "set in an unprivileged batch");
    const uint64_t address = Address(p[1], p[2]);
    if (address % (qword ? 8 : 4) != 0)
      return FieldFault(1, "MI_STORE_DATA_IMM", "Address", "not aligned to the data size");
    Write(1, "MI_STORE_DATA_IMM", "Address", address, p + 3, qword ? 8 : 4);
  }

  void FlushDw(uint32_t header) {
    const uint32_t* p = Take("MI_FLUSH_DW", header & 0x3F, 4);
    if (p == nullptr) return;
    if (engine_ == Engine::kRender) return FieldFault(0, "MI_FLUSH_DW", "header", "not a render-engine command");
    const uint32_t post_sync = (header >> 14) & 3;
    if (post_sync == 0) return;
    if (post_sync != packet::kPostSyncWriteImmediate)
      return FieldFault(0, "MI_FLUSH_DW", "Post-Sync Operation", std::to_string(post_sync) + " is not handled");
    if ((p[1] & 4) != 0)
      return FieldFault(1, "MI_FLUSH_DW", "Destination Address Type", "GGTT in an unprivileged batch");
    const uint64_t address = Address(p[1], p[2]);
    if (address % 8 != 0 || (address & 32) != 0)
      return FieldFault(1, "MI_FLUSH_DW", "Address", "qword aligned with bit 5 clear");
    Write(1, "MI_FLUSH_DW", "Address", address, p + 3, 4);
  }

  void PipeControl(uint32_t header) {
    const uint32_t* p = Take("PIPE_CONTROL", header & 0xFF, 6);
    if (p == nullptr) return;
    if (engine_ != Engine::kRender) return FieldFault(0, "PIPE_CONTROL", "header", "runs on the render engine only");
    const uint32_t post_sync = (p[1] >> 14) & 3;
    if (post_sync == 0) return;
    if (post_sync != packet::kPostSyncWriteImmediate)
      return FieldFault(1, "PIPE_CONTROL", "Post Sync Operation", std::to_string(post_sync) + " is not handled");
    if ((p[1] & (1u << 24)) != 0)
      return FieldFault(1, "PIPE_CONTROL", "Destination Address Type", "GGTT in an unprivileged batch");
    const uint64_t address = Address(p[2], p[3]);
    if (address % 8 != 0) return FieldFault(2, "PIPE_CONTROL", "Address", "a qword write needs 8-byte alignment");
    Write(2, "PIPE_CONTROL", "Address", address, p + 4, 8);
  }

  void CopyMemMem(uint32_t header) {
    const uint32_t* p = Take("MI_COPY_MEM_MEM", header & 0xFF, 5);
    if (p == nullptr) return;
    if ((header & (3u << 21)) != 0)
      return FieldFault(0, "MI_COPY_MEM_MEM", "Use Global GTT", "set in an unprivileged batch");
    const uint64_t dst = Address(p[1], p[2]), src = Address(p[3], p[4]);
    if (dst % 4 != 0) return FieldFault(1, "MI_COPY_MEM_MEM", "Destination Memory Address", "not dword aligned");
    if (src % 4 != 0) return FieldFault(3, "MI_COPY_MEM_MEM", "Source Memory Address", "not dword aligned");
    const std::byte* from = ReachField(3, "MI_COPY_MEM_MEM", "Source Memory Address", src, 4);
    if (from == nullptr) return;
    uint32_t value;
    std::memcpy(&value, from, 4);
    Write(1, "MI_COPY_MEM_MEM", "Destination Memory Address", dst, &value, 4);
  }

  void Write(uint32_t offset, const char* packet, const char* field, uint64_t address, const void* data, size_t size) {
    std::byte* to = ReachField(offset, packet, field, address, size);
    if (to == nullptr) return;
    std::memcpy(to, data, size);
    result_.bytes_written += size;
  }

  // --- blits ---------------------------------------------------------------

  struct Surface {
    BlitSurface blit;
    std::byte* host = nullptr;  // at blit.address
  };

  // The bytes a rectangle of a surface covers, reached as one object's.
  bool ReachSurface(BlitKind kind, bool source, Surface* s, uint32_t x1, uint32_t y1, uint32_t x2, uint32_t y2,
                    uint32_t bpp) {
    uint64_t first, end;
    if (s->blit.tiling == Tiling::kLinear) {
      first = uint64_t{y1} * s->blit.pitch + uint64_t{x1} * bpp;
      end = uint64_t{y2 - 1} * s->blit.pitch + uint64_t{x2} * bpp;
    } else {
      if (uint64_t{x2} * bpp > s->blit.pitch) {
        const char* field = source ? "Source X1" : "Destination X2";
        FieldFault(FieldDword(kind, field), BlitName(kind), field, "a tiled surface's rows end at its pitch");
        return false;
      }
      const uint32_t rows = ShapeOf(s->blit.tiling).rows;
      first = uint64_t{y1 / rows} * rows * s->blit.pitch;
      end = uint64_t{(y2 + rows - 1) / rows} * rows * s->blit.pitch;
    }
    const char* field = source ? "Source Base Address" : "Destination Base Address";
    std::byte* p = ReachField(FieldDword(kind, field), BlitName(kind), field, s->blit.address + first, end - first);
    if (p == nullptr) return false;
    s->host = p - first;
    return true;
  }

  std::byte* At(const Surface& s, uint64_t x_bytes, uint64_t y) const {
    return s.host + SurfaceOffset(s.blit.tiling, s.blit.pitch, x_bytes, y);
  }

  bool Checked(BlitKind kind, const std::optional<RuleBreak>& broken) {
    if (!broken) return true;
    FieldFault(FieldDword(kind, broken->field), BlitName(kind), broken->field, broken->rule);
    return false;
  }

  void Blit(uint32_t header) {
    const uint32_t opcode = (header >> 22) & 0x7F;
    BlitKind kind;
    uint32_t dwords;
    switch (opcode) {
      case packet::kXyColorBlt:
        kind = BlitKind::kColor, dwords = packet::kColorBltDwords;
        break;
      case packet::kXySrcCopyBlt:
        kind = BlitKind::kSrcCopy, dwords = packet::kSrcCopyBltDwords;
        break;
      case packet::kXyFastCopyBlt:
        kind = BlitKind::kFastCopy, dwords = packet::kFastCopyBltDwords;
        break;
      default:
        Fault(at_, "unknown 2D opcode 0x" + Hex(opcode));
        return;
    }
    const uint32_t* p = Take(BlitName(kind), header & 0xFF, dwords);
    if (p == nullptr) return;
    if (engine_ != Engine::kBlitter) return FieldFault(0, BlitName(kind), "header", "runs on the blitter engine only");

    uint32_t bpp = 0;
    Surface dst, src;
    if (kind == BlitKind::kFastCopy) {
      const uint32_t depth = (p[1] >> 24) & 7;
      for (uint32_t b : {1u, 2u, 4u, 8u, 16u})
        if (packet::FastCopyDepthCode(b) == depth) bpp = b;
      if (bpp == 0) return FieldFault(1, BlitName(kind), "Color Depth", std::to_string(depth) + " is not defined");
      if ((p[1] >> 30) != 0) return FieldFault(1, BlitName(kind), "Tile Y Type", "Yf is not used");
      auto tiling = [&](uint32_t code, const char* field, Tiling* out) {
        for (Tiling t : {Tiling::kLinear, Tiling::kX, Tiling::kY})
          if (packet::FastCopyTilingCode(t) == code) {
            *out = t;
            return true;
          }
        FieldFault(0, BlitName(kind), field, std::to_string(code) + " (Ys/Tile64) is not used");
        return false;
      };
      if (!tiling((header >> 13) & 3, "Destination Tiling", &dst.blit.tiling) ||
          !tiling((header >> 20) & 3, "Source Tiling", &src.blit.tiling))
        return;
    } else {
      const uint32_t depth = (p[1] >> 24) & 3;
      bpp = depth == 0 ? 1 : depth == 3 ? 4 : 2;
      const uint32_t rop = (p[1] >> 16) & 0xFF;
      const uint32_t want_rop = kind == BlitKind::kColor ? packet::kRopPatternCopy : packet::kRopSourceCopy;
      if (rop != want_rop) return FieldFault(1, BlitName(kind), "Raster Operation", "0x" + Hex(rop) + " is not a copy");
      const uint32_t writes = header & (packet::kWriteAlpha | packet::kWriteRgb);
      if (bpp == 4 && writes != (packet::kWriteAlpha | packet::kWriteRgb))
        return FieldFault(0, BlitName(kind), "32bpp Byte Mask", "a 32-bit blit here writes all four bytes");
      dst.blit.tiling = (header & packet::kDstTiled) != 0 ? Tiling::kX : Tiling::kLinear;
      src.blit.tiling = (header & packet::kSrcTiled) != 0 ? Tiling::kX : Tiling::kLinear;
    }
    auto pitch = [](uint32_t field, Tiling t) {
      return t == Tiling::kLinear ? (field & 0xFFFF) : (field & 0xFFFF) * 4;
    };
    dst.blit.pitch = pitch(p[1], dst.blit.tiling);
    dst.blit.address = Address(p[4], p[5]);
    const BlitRect rect{static_cast<uint16_t>(p[2]), static_cast<uint16_t>(p[2] >> 16), static_cast<uint16_t>(p[3]),
                        static_cast<uint16_t>(p[3] >> 16)};
    BlitOrigin from;
    if (kind != BlitKind::kColor) {
      from = {static_cast<uint16_t>(p[6]), static_cast<uint16_t>(p[6] >> 16)};
      src.blit.pitch = pitch(p[7], src.blit.tiling);
      src.blit.address = Address(p[8], p[9]);
    }
    if (!Checked(kind, CheckPixelSize(kind, bpp)) || !Checked(kind, CheckRect(gen_, kind, rect, from)) ||
        !Checked(kind, CheckSurface(gen_, kind, "Destination", dst.blit, bpp, rect.x1)) ||
        (kind != BlitKind::kColor && !Checked(kind, CheckSurface(gen_, kind, "Source", src.blit, bpp, from.x))))
      return;
    const uint32_t width = rect.x2 - rect.x1, height = rect.y2 - rect.y1;
    if (!ReachSurface(kind, false, &dst, rect.x1, rect.y1, rect.x2, rect.y2, bpp)) return;
    if (kind != BlitKind::kColor &&
        !ReachSurface(kind, true, &src, from.x, from.y, from.x + width, from.y + height, bpp))
      return;
    if (kind != BlitKind::kColor && Overlap(dst, rect, src, from, bpp))
      return FieldFault(8, BlitName(kind), "Source Base Address", "source and destination overlap");

    const size_t row_bytes = size_t{width} * bpp;
    if (kind == BlitKind::kColor) {
      const uint32_t color = p[6];
      std::byte pixel[4];
      std::memcpy(pixel, &color, 4);
      for (uint32_t y = rect.y1; y < rect.y2; ++y)
        for (size_t x = 0; x < row_bytes; ++x) *At(dst, size_t{rect.x1} * bpp + x, y) = pixel[x % bpp];
    } else {
      for (uint32_t y = 0; y < height; ++y) {
        if (dst.blit.tiling == Tiling::kLinear && src.blit.tiling == Tiling::kLinear) {
          std::memcpy(At(dst, size_t{rect.x1} * bpp, rect.y1 + y), At(src, size_t{from.x} * bpp, from.y + y),
                      row_bytes);
          continue;
        }
        for (size_t x = 0; x < row_bytes; ++x)
          *At(dst, size_t{rect.x1} * bpp + x, rect.y1 + y) = *At(src, size_t{from.x} * bpp + x, from.y + y);
      }
    }
    result_.bytes_written += uint64_t{row_bytes} * height;
  }

  // Whether the two rectangles share a byte. Linear rows are checked one
  // by one (side-by-side rectangles of one image interleave without
  // meeting); tiled surfaces by whole rows of tiles.
  bool Overlap(const Surface& dst, const BlitRect& rect, const Surface& src, BlitOrigin from, uint32_t bpp) const {
    const uint32_t w = rect.x2 - rect.x1, h = rect.y2 - rect.y1;
    const int64_t row_bytes = int64_t{w} * bpp;
    if (dst.blit.tiling == Tiling::kLinear && src.blit.tiling == Tiling::kLinear) {
      const int64_t d0 = reinterpret_cast<intptr_t>(At(dst, size_t{rect.x1} * bpp, rect.y1));
      const int64_t s0 = reinterpret_cast<intptr_t>(At(src, size_t{from.x} * bpp, from.y));
      const int64_t dp = dst.blit.pitch, sp = src.blit.pitch;
      for (int64_t i = 0; i < h; ++i) {
        const int64_t a = d0 + i * dp - s0;  // this destination row, from the source's first byte
        int64_t j = std::max<int64_t>(0, (a - row_bytes) / sp);
        for (; j < h && j * sp < a + row_bytes; ++j)
          if (j * sp + row_bytes > a) return true;
      }
      return false;
    }
    // Tiled: whole rows of tiles; linear: first to last byte.
    auto span = [&](const Surface& s, uint32_t x, uint32_t y) {
      if (s.blit.tiling == Tiling::kLinear)
        return std::pair{At(s, size_t{x} * bpp, y), At(s, size_t{x} * bpp + size_t(row_bytes), y + h - 1)};
      const uint32_t rows = ShapeOf(s.blit.tiling).rows;
      return std::pair{s.host + uint64_t{y / rows} * rows * s.blit.pitch,
                       s.host + uint64_t{(y + h + rows - 1) / rows} * rows * s.blit.pitch};
    };
    const auto [d0, d1] = span(dst, rect.x1, rect.y1);
    const auto [s0, s1] = span(src, from.x, from.y);
    return d0 < s1 && s0 < d1;
  }

  Generation gen_;
  std::span<const uint32_t> batch_;
  std::span<const SimulatedObject> objects_;
  Engine engine_;
  size_t at_ = 0;     // the next packet
  size_t start_ = 0;  // the packet being executed
  ExecutionResult result_;
};

}  // namespace

ExecutionResult CommandStreamerSimulator::Execute(std::span<const uint32_t> batch,
                                                  std::span<const SimulatedObject> objects, Engine engine,
                                                  uint32_t hang_at_packet) const {
  return Run(gen_, batch, objects, engine).Go(hang_at_packet);
}

}  // namespace duet::intel_rcs
