// ASTC LDR decoding: a block's 128 bits are parsed once into an AstcBlock
// (block mode, partitions, LDR endpoints, unquantized weight grid), then each
// texel is its partition's endpoints blended by its infilled weight. Section
// names below are the Khronos Data Format Specification's ("ASTC").
#include "texel/astc_decode.h"

#include <algorithm>
#include <cstring>

#include "texel/format_info.h"
#include "texel/srgb.h"

namespace duet::texel {
namespace {

__extension__ typedef unsigned __int128 Bits128;  // a block; GCC and Clang both have it

constexpr uint32_t kMaxGridWeights = 64;
// Infill reads the grid's right and lower neighbours with weight 0 at the
// last column and row: pad so those reads stay inside the array.
constexpr uint32_t kGridPadding = 16;

struct AstcFormat {
  uint32_t block_width = 0, block_height = 0;
  bool srgb = false;
};

// The 2D ASTC LDR formats, from the format table (3D ASTC has no decoder).
bool LookupFormat(VkFormat format, AstcFormat* out) {
  const FormatInfo* info = GetFormatInfo(format);
  if (info == nullptr || info->compression != Compression::kASTC_LDR || info->block_depth != 1) return false;
  out->block_width = info->block_width;
  out->block_height = info->block_height;
  out->srgb = info->components[0].type == NumericType::kSrgb;
  return true;
}

uint32_t Field(Bits128 bits, uint32_t position, uint32_t count) {
  return uint32_t(bits >> position) & ((1u << count) - 1);
}

uint64_t ReverseBits64(uint64_t v) {
  v = ((v >> 1) & 0x5555555555555555ull) | ((v & 0x5555555555555555ull) << 1);
  v = ((v >> 2) & 0x3333333333333333ull) | ((v & 0x3333333333333333ull) << 2);
  v = ((v >> 4) & 0x0F0F0F0F0F0F0F0Full) | ((v & 0x0F0F0F0F0F0F0F0Full) << 4);
  return __builtin_bswap64(v);
}

Bits128 ReverseBits128(Bits128 v) {
  return (Bits128(ReverseBits64(uint64_t(v))) << 64) | ReverseBits64(uint64_t(v >> 64));
}

// "Integer Sequence Encoding": values of range `levels` stored as `bits`
// low bits each plus, per group of five (trits) or three (quints), a packed
// high part.
struct IseRange {
  uint16_t levels;
  uint8_t trits, quints, bits;
};

constexpr IseRange kIseRanges[] = {
    {2, 0, 0, 1},   {3, 1, 0, 0},   {4, 0, 0, 2},   {5, 0, 1, 0},   {6, 1, 0, 1},   {8, 0, 0, 3},   {10, 0, 1, 1},
    {12, 1, 0, 2},  {16, 0, 0, 4},  {20, 0, 1, 2},  {24, 1, 0, 3},  {32, 0, 0, 5},  {40, 0, 1, 3},  {48, 1, 0, 4},
    {64, 0, 0, 6},  {80, 0, 1, 4},  {96, 1, 0, 5},  {128, 0, 0, 7}, {160, 0, 1, 5}, {192, 1, 0, 6}, {256, 0, 0, 8},
};
constexpr uint32_t kFirstColorRange = 4;  // colour endpoints need at least 6 levels

uint32_t IseBitCount(const IseRange& range, uint32_t count) {
  uint32_t bits = count * range.bits;
  if (range.trits != 0) bits += (8 * count + 4) / 5;
  if (range.quints != 0) bits += (7 * count + 2) / 3;
  return bits;
}

// Reads forward from `position`; bits at or past `end` read as zero, as the
// last, partial group of a sequence requires.
class BitReader {
 public:
  BitReader(Bits128 bits, uint32_t position, uint32_t end) : bits_(bits), position_(position), end_(end) {}

  uint32_t Read(uint32_t count) {
    uint32_t value = 0;
    if (position_ < end_ && count != 0) {
      value = Field(bits_, position_, count);
      const uint32_t available = end_ - position_;
      if (available < count) value &= (1u << available) - 1;
    }
    position_ += count;
    return value;
  }

 private:
  Bits128 bits_;
  uint32_t position_, end_;
};

uint32_t Bit(uint32_t v, uint32_t i) { return (v >> i) & 1; }

// Five trits from the 8 bits T of a group.
void DecodeTrits(uint32_t t, uint32_t out[5]) {
  uint32_t c;
  if (((t >> 2) & 7) == 7) {
    c = ((t >> 5) << 2) | (t & 3);
    out[4] = 2, out[3] = 2;
  } else {
    c = t & 0x1F;
    if (((t >> 5) & 3) == 3) {
      out[4] = 2, out[3] = Bit(t, 7);
    } else {
      out[4] = Bit(t, 7), out[3] = (t >> 5) & 3;
    }
  }
  if ((c & 3) == 3) {
    out[2] = 2, out[1] = Bit(c, 4);
    out[0] = (Bit(c, 3) << 1) | (Bit(c, 2) & ~Bit(c, 3) & 1);
  } else if (((c >> 2) & 3) == 3) {
    out[2] = 2, out[1] = 2, out[0] = c & 3;
  } else {
    out[2] = Bit(c, 4), out[1] = (c >> 2) & 3;
    out[0] = (Bit(c, 1) << 1) | (Bit(c, 0) & ~Bit(c, 1) & 1);
  }
}

// Three quints from the 7 bits Q of a group.
void DecodeQuints(uint32_t q, uint32_t out[3]) {
  if (((q >> 1) & 3) == 3 && ((q >> 5) & 3) == 0) {
    const uint32_t q0 = Bit(q, 0);
    out[2] = (q0 << 2) | ((Bit(q, 4) & ~q0 & 1) << 1) | (Bit(q, 3) & ~q0 & 1);
    out[1] = 4, out[0] = 4;
    return;
  }
  uint32_t c;
  if (((q >> 1) & 3) == 3) {
    out[2] = 4;
    c = (((q >> 3) & 3) << 3) | ((~(q >> 5) & 3) << 1) | Bit(q, 0);
  } else {
    out[2] = (q >> 5) & 3;
    c = q & 0x1F;
  }
  if ((c & 7) == 5) {
    out[1] = 4, out[0] = (c >> 3) & 3;
  } else {
    out[1] = (c >> 3) & 3, out[0] = c & 7;
  }
}

// Groups of kSize values: each value's low `bits` bits, each followed by
// `high_bits[k]` bits of the group's packed high part, which `unpack` turns
// into one trit or quint per value.
template <size_t kSize>
void DecodeGroups(BitReader& reader, uint32_t bits, const uint8_t (&high_bits)[kSize],
                  void (*unpack)(uint32_t, uint32_t*), uint32_t count, uint32_t* out) {
  for (uint32_t i = 0; i < count; i += kSize) {
    uint32_t low[kSize], high[kSize];
    uint32_t packed = 0, shift = 0;
    for (size_t k = 0; k < kSize; ++k) {
      low[k] = reader.Read(bits);
      packed |= reader.Read(high_bits[k]) << shift;
      shift += high_bits[k];
    }
    unpack(packed, high);
    for (uint32_t k = 0; k < kSize && i + k < count; ++k) out[i + k] = (high[k] << bits) | low[k];
  }
}

// Decodes `count` values (each high part << bits | low bits).
void DecodeIse(BitReader& reader, const IseRange& range, uint32_t count, uint32_t* out) {
  static constexpr uint8_t kTritBits[5] = {2, 2, 1, 2, 1};
  static constexpr uint8_t kQuintBits[3] = {3, 2, 2};
  if (range.trits != 0) {
    DecodeGroups(reader, range.bits, kTritBits, DecodeTrits, count, out);
  } else if (range.quints != 0) {
    DecodeGroups(reader, range.bits, kQuintBits, DecodeQuints, count, out);
  } else {
    for (uint32_t i = 0; i < count; ++i) out[i] = reader.Read(range.bits);
  }
}

// `value` of `bits` bits repeated to fill `to` bits, most significant first.
uint32_t Replicate(uint32_t value, uint32_t bits, uint32_t to) {
  uint32_t result = 0;
  int32_t shift = int32_t(to) - int32_t(bits);
  for (; shift > -int32_t(bits); shift -= int32_t(bits)) {
    result |= shift >= 0 ? value << shift : value >> -shift;
  }
  return result & ((1u << to) - 1);
}

// "Color Endpoint Unquantization": to 0..255.
uint32_t UnquantizeColor(const IseRange& range, uint32_t value) {
  const uint32_t b = range.bits;
  if (range.trits == 0 && range.quints == 0) return Replicate(value, b, 8);
  const uint32_t m = value & ((1u << b) - 1), d = value >> b;
  const uint32_t a = (m & 1) != 0 ? 0x1FF : 0;
  const uint32_t x = m >> 1;  // the bits above the lowest, spread into B
  uint32_t bb = 0, c = 0;
  if (range.trits != 0) {
    switch (b) {
      case 1: c = 204; break;
      case 2: bb = x * 0x116, c = 93; break;
      case 3: bb = x * 0x85, c = 44; break;
      case 4: bb = x * 0x41, c = 22; break;
      case 5: bb = (x << 5) | (x >> 2), c = 11; break;
      default: bb = (x << 4) | (x >> 4), c = 5; break;
    }
  } else {
    switch (b) {
      case 1: c = 113; break;
      case 2: bb = x * 0x10C, c = 54; break;
      case 3: bb = (x << 7) | (x << 1) | (x >> 1), c = 26; break;
      case 4: bb = (x << 6) | (x >> 1), c = 13; break;
      default: bb = (x << 5) | (x >> 3), c = 6; break;
    }
  }
  const uint32_t t = ((d * c + bb) ^ a) & 0x1FF;
  return (a & 0x80) | (t >> 2);
}

// "Weight Unquantization": to 0..64.
uint32_t UnquantizeWeight(const IseRange& range, uint32_t value) {
  const uint32_t b = range.bits;
  uint32_t t;
  if (range.trits == 0 && range.quints == 0) {
    t = Replicate(value, b, 6);
  } else if (b == 0) {
    return value * (range.trits != 0 ? 32 : 16);
  } else {
    const uint32_t m = value & ((1u << b) - 1), d = value >> b;
    const uint32_t a = (m & 1) != 0 ? 0x7F : 0;
    const uint32_t x = m >> 1;
    uint32_t bb = 0, c;
    if (range.trits != 0) {
      c = b == 1 ? 50 : b == 2 ? 23 : 11;
      bb = b == 2 ? x * 0x45 : b == 3 ? x * 0x21 : 0;
    } else {
      c = b == 1 ? 28 : 13;
      bb = b == 2 ? x * 0x42 : 0;
    }
    t = (a & 0x20) | ((((d * c + bb) ^ a) & 0x7F) >> 2);
  }
  return t > 32 ? t + 1 : t;
}

struct AstcBlock {
  bool error = false;
  bool void_extent = false;
  uint16_t constant[4] = {};  // void extent: the block's UNORM16 colour
  uint32_t grid_width = 0, grid_height = 0;
  bool dual_plane = false;
  uint32_t plane2_component = 4;  // none
  uint32_t partition_count = 1;
  uint32_t partition_seed = 0;
  bool hdr_partition[4] = {};
  uint8_t endpoints[4][2][4] = {};  // [partition][end][component], 8-bit
  uint8_t weights[2][kMaxGridWeights + kGridPadding] = {};
};

// bit_transfer_signed(a, b) of "LDR Endpoint Decoding".
void BitTransferSigned(int32_t& a, int32_t& b) {
  b >>= 1;
  b |= a & 0x80;
  a >>= 1;
  a &= 0x3F;
  if ((a & 0x20) != 0) a -= 0x40;
}

void BlueContract(int32_t c[4]) {
  c[0] = (c[0] + c[2]) >> 1;
  c[1] = (c[1] + c[2]) >> 1;
}

// The endpoints of LDR mode `mode` from its values v[]; false for HDR modes.
bool DecodeLdrEndpoints(uint32_t mode, const uint32_t* values, uint8_t out[2][4]) {
  int32_t v[8];
  for (int i = 0; i < 8; ++i) v[i] = int32_t(values[i]);
  int32_t e0[4], e1[4];
  auto set = [](int32_t* e, int32_t r, int32_t g, int32_t b, int32_t a) { e[0] = r, e[1] = g, e[2] = b, e[3] = a; };
  switch (mode) {
    case 0: set(e0, v[0], v[0], v[0], 0xFF), set(e1, v[1], v[1], v[1], 0xFF); break;
    case 1: {
      const int32_t l0 = (v[0] >> 2) | (v[1] & 0xC0);
      const int32_t l1 = std::min(l0 + (v[1] & 0x3F), 0xFF);
      set(e0, l0, l0, l0, 0xFF), set(e1, l1, l1, l1, 0xFF);
      break;
    }
    case 4: set(e0, v[0], v[0], v[0], v[2]), set(e1, v[1], v[1], v[1], v[3]); break;
    case 5:
      BitTransferSigned(v[1], v[0]);
      BitTransferSigned(v[3], v[2]);
      set(e0, v[0], v[0], v[0], v[2]);
      set(e1, v[0] + v[1], v[0] + v[1], v[0] + v[1], v[2] + v[3]);
      break;
    case 6:
      set(e0, (v[0] * v[3]) >> 8, (v[1] * v[3]) >> 8, (v[2] * v[3]) >> 8, 0xFF);
      set(e1, v[0], v[1], v[2], 0xFF);
      break;
    case 8:
    case 12: {
      const int32_t a0 = mode == 12 ? v[6] : 0xFF, a1 = mode == 12 ? v[7] : 0xFF;
      if (v[1] + v[3] + v[5] >= v[0] + v[2] + v[4]) {
        set(e0, v[0], v[2], v[4], a0), set(e1, v[1], v[3], v[5], a1);
      } else {
        set(e0, v[1], v[3], v[5], a1), set(e1, v[0], v[2], v[4], a0);
        BlueContract(e0), BlueContract(e1);
      }
      break;
    }
    case 9:
    case 13: {
      BitTransferSigned(v[1], v[0]);
      BitTransferSigned(v[3], v[2]);
      BitTransferSigned(v[5], v[4]);
      if (mode == 13) BitTransferSigned(v[7], v[6]);
      const int32_t a0 = mode == 13 ? v[6] : 0xFF, a1 = mode == 13 ? v[6] + v[7] : 0xFF;
      if (v[1] + v[3] + v[5] >= 0) {
        set(e0, v[0], v[2], v[4], a0), set(e1, v[0] + v[1], v[2] + v[3], v[4] + v[5], a1);
      } else {
        set(e0, v[0] + v[1], v[2] + v[3], v[4] + v[5], a1), set(e1, v[0], v[2], v[4], a0);
        BlueContract(e0), BlueContract(e1);
      }
      break;
    }
    case 10:
      set(e0, (v[0] * v[3]) >> 8, (v[1] * v[3]) >> 8, (v[2] * v[3]) >> 8, v[4]);
      set(e1, v[0], v[1], v[2], v[5]);
      break;
    default: return false;  // 2, 3, 7, 11, 14, 15: HDR
  }
  for (int c = 0; c < 4; ++c) {
    out[0][c] = uint8_t(std::clamp(e0[c], 0, 255));
    out[1][c] = uint8_t(std::clamp(e1[c], 0, 255));
  }
  return true;
}

// "Void-Extent Blocks".
void ParseVoidExtent(Bits128 bits, AstcBlock* block) {
  block->void_extent = true;
  const bool hdr = Field(bits, 9, 1) != 0;
  const uint32_t min_s = Field(bits, 12, 13), max_s = Field(bits, 25, 13);
  const uint32_t min_t = Field(bits, 38, 13), max_t = Field(bits, 51, 13);
  const bool no_extent = min_s == 0x1FFF && max_s == 0x1FFF && min_t == 0x1FFF && max_t == 0x1FFF;
  if (hdr || Field(bits, 10, 2) != 3 || (!no_extent && (min_s >= max_s || min_t >= max_t))) {
    block->error = true;
    return;
  }
  for (uint32_t c = 0; c < 4; ++c) block->constant[c] = uint16_t(Field(bits, 64 + 16 * c, 16));
}

// "Block Mode": the weight grid, its range, and dual-plane. False for a
// reserved mode.
bool ParseBlockMode(uint32_t mode, AstcBlock* block, const IseRange** weight_range) {
  uint32_t r, width, height;
  bool high_precision = Bit(mode, 9) != 0;
  block->dual_plane = Bit(mode, 10) != 0;
  const uint32_t a = (mode >> 5) & 3;
  if ((mode & 3) != 0) {
    r = Bit(mode, 4) | ((mode & 3) << 1);
    const uint32_t b = (mode >> 7) & 3;
    switch ((mode >> 2) & 3) {
      case 0: width = b + 4, height = a + 2; break;
      case 1: width = b + 8, height = a + 2; break;
      case 2: width = a + 2, height = b + 8; break;
      default:
        if (Bit(mode, 8) != 0) width = Bit(mode, 7) + 2, height = a + 2;
        else width = a + 2, height = Bit(mode, 7) + 6;
        break;
    }
  } else {
    if ((mode & 0xF) == 0) return false;
    r = Bit(mode, 4) | (((mode >> 2) & 3) << 1);
    switch ((mode >> 7) & 3) {
      case 0: width = 12, height = a + 2; break;
      case 1: width = a + 2, height = 12; break;
      case 2:
        width = a + 6, height = ((mode >> 9) & 3) + 6;
        high_precision = false, block->dual_plane = false;
        break;
      default:
        if (a > 1) return false;
        width = a == 0 ? 6 : 10, height = a == 0 ? 10 : 6;
        break;
    }
  }
  block->grid_width = width;
  block->grid_height = height;
  *weight_range = &kIseRanges[(r - 2) + (high_precision ? 6 : 0)];
  return true;
}

AstcBlock ParseBlock(Bits128 bits, const AstcFormat& format) {
  AstcBlock block;
  const uint32_t mode = Field(bits, 0, 11);
  if ((mode & 0x1FF) == 0x1FC) {
    ParseVoidExtent(bits, &block);
    return block;
  }
  const IseRange* weight_range = nullptr;
  block.error = true;  // until it has parsed
  if (!ParseBlockMode(mode, &block, &weight_range)) return block;
  const uint32_t planes = block.dual_plane ? 2 : 1;
  const uint32_t grid_count = block.grid_width * block.grid_height;
  const uint32_t weight_count = grid_count * planes;
  const uint32_t weight_bits = IseBitCount(*weight_range, weight_count);
  block.partition_count = Field(bits, 11, 2) + 1;
  if (weight_count > kMaxGridWeights || weight_bits < 24 || weight_bits > 96 ||
      block.grid_width > format.block_width || block.grid_height > format.block_height ||
      (block.partition_count == 4 && block.dual_plane)) {
    return block;
  }

  // "Color Endpoint Mode": one 4-bit mode, or a class and per-partition
  // offsets whose upper bits sit just below the weights.
  uint32_t modes[4];
  uint32_t color_start = 17;
  uint32_t below_weights = 128 - weight_bits;
  if (block.partition_count == 1) {
    modes[0] = Field(bits, 13, 4);
  } else {
    color_start = 29;
    block.partition_seed = Field(bits, 13, 10);
    uint32_t encoded = Field(bits, 23, 6);
    if ((encoded & 3) == 0) {
      for (uint32_t p = 0; p < block.partition_count; ++p) modes[p] = encoded >> 2;
    } else {
      const uint32_t extra_bits = 3 * block.partition_count - 4;
      below_weights -= extra_bits;
      encoded |= Field(bits, below_weights, extra_bits) << 6;
      const uint32_t base_class = (encoded & 3) - 1;
      for (uint32_t p = 0; p < block.partition_count; ++p) {
        const uint32_t class_offset = Bit(encoded, 2 + p);
        const uint32_t within = (encoded >> (2 + block.partition_count + 2 * p)) & 3;
        modes[p] = ((base_class + class_offset) << 2) | within;
      }
    }
  }
  if (block.dual_plane) {
    below_weights -= 2;
    block.plane2_component = Field(bits, below_weights, 2);
  }
  uint32_t value_count = 0;
  for (uint32_t p = 0; p < block.partition_count; ++p) value_count += 2 * ((modes[p] >> 2) + 1);
  if (value_count > 18 || below_weights < color_start) return block;
  const uint32_t color_bits = below_weights - color_start;
  // The largest range whose encoding of all the values fits.
  const IseRange* color_range = nullptr;
  for (uint32_t i = std::size(kIseRanges); i-- > 0;) {
    if (IseBitCount(kIseRanges[i], value_count) <= color_bits) {
      color_range = &kIseRanges[i];
      if (i < kFirstColorRange) color_range = nullptr;
      break;
    }
  }
  if (color_range == nullptr) return block;

  uint32_t values[18 + 8] = {};  // +8: a mode reads its values in blocks of 8
  BitReader color_reader(bits, color_start, color_start + IseBitCount(*color_range, value_count));
  DecodeIse(color_reader, *color_range, value_count, values);
  for (uint32_t i = 0; i < value_count; ++i) values[i] = UnquantizeColor(*color_range, values[i]);
  uint32_t first = 0;
  for (uint32_t p = 0; p < block.partition_count; ++p) {
    block.hdr_partition[p] = !DecodeLdrEndpoints(modes[p], values + first, block.endpoints[p]);
    first += 2 * ((modes[p] >> 2) + 1);
  }

  // "Weight Decoding": stored from the top of the block down, bit-reversed;
  // planes interleave.
  uint32_t raw[kMaxGridWeights];
  BitReader weight_reader(ReverseBits128(bits), 0, weight_bits);
  DecodeIse(weight_reader, *weight_range, weight_count, raw);
  for (uint32_t i = 0; i < weight_count; ++i) {
    block.weights[i % planes][i / planes] = uint8_t(UnquantizeWeight(*weight_range, raw[i]));
  }
  block.error = false;
  return block;
}

// "Partition Pattern Generation".
uint32_t SelectPartition(uint32_t seed, uint32_t x, uint32_t y, uint32_t partition_count, bool small_block) {
  if (small_block) x <<= 1, y <<= 1;
  seed += (partition_count - 1) * 1024;
  uint32_t rnum = seed;
  rnum ^= rnum >> 15;
  rnum *= 0xEEDE0891u;
  rnum ^= rnum >> 5;
  rnum += rnum << 16;
  rnum ^= rnum >> 7;
  rnum ^= rnum >> 3;
  rnum ^= rnum << 6;
  rnum ^= rnum >> 17;
  uint32_t s[12];
  static constexpr uint8_t kShifts[12] = {0, 4, 8, 12, 16, 20, 24, 28, 18, 22, 26, 30};
  for (int i = 0; i < 12; ++i) s[i] = (rnum >> kShifts[i]) & 0xF;
  s[11] = ((rnum >> 30) | (rnum << 2)) & 0xF;
  for (uint32_t& v : s) v *= v;
  uint32_t sh1, sh2;
  if ((seed & 1) != 0) {
    sh1 = (seed & 2) != 0 ? 4 : 5;
    sh2 = partition_count == 3 ? 6 : 5;
  } else {
    sh1 = partition_count == 3 ? 6 : 5;
    sh2 = (seed & 2) != 0 ? 4 : 5;
  }
  const uint32_t sh3 = (seed & 0x10) != 0 ? sh1 : sh2;
  for (int i = 0; i < 8; ++i) s[i] >>= (i & 1) != 0 ? sh2 : sh1;
  for (int i = 8; i < 12; ++i) s[i] >>= sh3;
  // z is 0 for 2D blocks, so seeds 9-12 (s[8..11]) drop out.
  const uint32_t a = (s[0] * x + s[1] * y + (rnum >> 14)) & 0x3F;
  const uint32_t b = (s[2] * x + s[3] * y + (rnum >> 10)) & 0x3F;
  const uint32_t c = partition_count >= 3 ? (s[4] * x + s[5] * y + (rnum >> 6)) & 0x3F : 0;
  const uint32_t d = partition_count >= 4 ? (s[6] * x + s[7] * y + (rnum >> 2)) & 0x3F : 0;
  if (a >= b && a >= c && a >= d) return 0;
  if (b >= c && b >= d) return 1;
  return c >= d ? 2 : 3;
}

// The UNORM16 value as decode_float16 returns it: truncated to FP16's 11
// significant bits (values below 2^-14 are FP16 subnormals, exact).
float Unorm16ToFloat(uint32_t c) {
  if (c == 0xFFFF) return 1.0f;
  const int32_t msb = 31 - __builtin_clz(c | 1);
  const int32_t drop = std::max(msb - 10, 0);
  return float((c >> drop) << drop) * (1.0f / 65536.0f);
}

TexelValue ToTexel(const uint32_t c[4], bool srgb) {
  TexelValue out;
  if (srgb) {
    const SrgbTables& tables = GetSrgbTables();
    for (int i = 0; i < 3; ++i) out.f[i] = DecodeSrgb8(tables, c[i] >> 8);
    out.f[3] = float(c[3] >> 8) / 255.0f;
  } else {
    for (int i = 0; i < 4; ++i) out.f[i] = Unorm16ToFloat(c[i]);
  }
  return out;
}

TexelValue ErrorTexel() {
  TexelValue out;
  out.f[0] = 1.0f, out.f[1] = 0.0f, out.f[2] = 1.0f, out.f[3] = 1.0f;
  return out;
}

// "Weight Infill": the grid bilinearly resampled at texel (x, y).
uint32_t InfillWeight(const AstcBlock& block, const uint8_t* grid, uint32_t x, uint32_t y, uint32_t ds, uint32_t dt) {
  const uint32_t gs = (ds * x * (block.grid_width - 1) + 32) >> 6;
  const uint32_t gt = (dt * y * (block.grid_height - 1) + 32) >> 6;
  const uint32_t js = gs >> 4, fs = gs & 0xF;
  const uint32_t jt = gt >> 4, ft = gt & 0xF;
  const uint32_t v0 = js + jt * block.grid_width;
  const uint32_t w11 = (fs * ft + 8) >> 4;
  const uint32_t w10 = ft - w11, w01 = fs - w11, w00 = 16 - fs - ft + w11;
  const uint32_t p00 = grid[v0], p01 = grid[v0 + 1];
  const uint32_t p10 = grid[v0 + block.grid_width], p11 = grid[v0 + block.grid_width + 1];
  return (p00 * w00 + p01 * w01 + p10 * w10 + p11 * w11 + 8) >> 4;
}

TexelValue BlockTexel(const AstcBlock& block, const AstcFormat& format, uint32_t x, uint32_t y) {
  if (block.error) return ErrorTexel();
  uint32_t c[4];
  if (block.void_extent) {
    for (int i = 0; i < 4; ++i) c[i] = block.constant[i];
    return ToTexel(c, format.srgb);
  }
  const bool small_block = format.block_width * format.block_height < 31;
  const uint32_t p = block.partition_count > 1
                         ? SelectPartition(block.partition_seed, x, y, block.partition_count, small_block)
                         : 0;
  if (block.hdr_partition[p]) return ErrorTexel();
  const uint32_t ds = (1024 + format.block_width / 2) / (format.block_width - 1);
  const uint32_t dt = (1024 + format.block_height / 2) / (format.block_height - 1);
  uint32_t w[2];
  w[0] = InfillWeight(block, block.weights[0], x, y, ds, dt);
  w[1] = block.dual_plane ? InfillWeight(block, block.weights[1], x, y, ds, dt) : w[0];
  for (uint32_t i = 0; i < 4; ++i) {
    const uint32_t e0 = block.endpoints[p][0][i], e1 = block.endpoints[p][1][i];
    // "LDR Mode": 8-bit endpoints widen to 16 bits; sRGB ones by 0x80.
    const uint32_t c0 = (e0 << 8) | (format.srgb ? 0x80 : e0);
    const uint32_t c1 = (e1 << 8) | (format.srgb ? 0x80 : e1);
    const uint32_t weight = i == block.plane2_component ? w[1] : w[0];
    c[i] = (c0 * (64 - weight) + c1 * weight + 32) >> 6;
  }
  return ToTexel(c, format.srgb);
}

Bits128 LoadBits(const std::byte* block) {
  Bits128 bits;
  std::memcpy(&bits, block, sizeof(bits));
  return bits;
}

// Neighbouring texel reads usually fall in one block: keep each thread's
// last parsed block.
const AstcBlock& ParseCached(Bits128 bits, VkFormat vk_format, const AstcFormat& format) {
  struct Entry {
    Bits128 bits = 0;
    VkFormat format = VK_FORMAT_UNDEFINED;
    AstcBlock block;
  };
  thread_local Entry last;
  if (last.format != vk_format || last.bits != bits) {
    last.block = ParseBlock(bits, format);
    last.bits = bits;
    last.format = vk_format;
  }
  return last.block;
}

}  // namespace

bool IsAstcFormat(VkFormat format) {
  AstcFormat unused;
  return LookupFormat(format, &unused);
}

void DecodeAstcRow(VkFormat vk_format, const std::byte* block_row, uint32_t line_in_block, uint32_t width,
                   TexelValue* out) {
  AstcFormat format;
  if (!LookupFormat(vk_format, &format) || line_in_block >= format.block_height) return;
  for (uint32_t x = 0; x < width; x += format.block_width) {
    const AstcBlock& block = ParseCached(LoadBits(block_row + size_t(x / format.block_width) * 16), vk_format, format);
    const uint32_t count = std::min(format.block_width, width - x);
    for (uint32_t i = 0; i < count; ++i) out[x + i] = BlockTexel(block, format, i, line_in_block);
  }
}

TexelValue DecodeAstcTexel(VkFormat vk_format, const std::byte* block, uint32_t x, uint32_t y) {
  AstcFormat format;
  if (!LookupFormat(vk_format, &format) || x >= format.block_width || y >= format.block_height) return TexelValue{};
  return BlockTexel(ParseCached(LoadBits(block), vk_format, format), format, x, y);
}

}  // namespace duet::texel
