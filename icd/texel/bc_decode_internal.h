// Pieces shared by the BC decoders (bc_decode.cpp, bc_decode_bc6h.cpp,
// bc_decode_bc7.cpp): reading bit fields of a 128-bit little-endian block,
// the BPTC partition and anchor tables that BC6H and BC7 share, and the
// per-family entry points. Not part of the driver's interface: use
// texel/bc_decode.h.
#pragma once

#include <cstddef>
#include <cstdint>

#include "texel/texel_codec.h"

namespace duet::texel::bc_detail {

// A 128-bit block as two little-endian 64-bit halves: bit n of the block is
// bit n % 64 of half n / 64, whatever the host's byte order.
struct Block128 {
  uint64_t low;
  uint64_t high;
};

inline uint64_t LoadLittleEndian64(const std::byte* bytes) {
  uint64_t value = 0;
  for (int i = 7; i >= 0; --i) value = value << 8 | std::to_integer<uint64_t>(bytes[i]);
  return value;
}

inline Block128 LoadBlock128(const std::byte* block) {
  return {LoadLittleEndian64(block), LoadLittleEndian64(block + 8)};
}

// `count` (0..32) bits starting at bit `offset` (offset + count <= 128).
inline uint32_t ExtractBits(const Block128& block, unsigned offset, unsigned count) {
  uint64_t window;
  if (offset >= 64) {
    window = block.high >> (offset - 64);
  } else if (offset == 0) {
    window = block.low;
  } else {
    window = block.low >> offset | block.high << (64 - offset);
  }
  return static_cast<uint32_t>(window & ((uint64_t{1} << count) - 1));
}

// Reads consecutive fields from the least significant bit up, the order in
// which both BPTC formats lay out their fields.
class BitCursor {
 public:
  explicit BitCursor(const Block128& block) : block_(block) {}
  uint32_t Take(unsigned count) {
    const uint32_t value = ExtractBits(block_, position_, count);
    position_ += count;
    return value;
  }
  unsigned position() const { return position_; }

 private:
  const Block128& block_;
  unsigned position_ = 0;
};

// BPTC partition patterns (Data Format Specification, "Partition table for
// 2-subset BPTC" and "... 3-subset BPTC"): the subset of each texel of the
// 4x4 block, row by row as the spec prints them (texel (x, y) is character
// y * 5 + x). BC6H uses the first 32 two-subset patterns.
inline constexpr const char* kTwoSubsetPartitions[64] = {
    "0011 0011 0011 0011", "0001 0001 0001 0001", "0111 0111 0111 0111", "0001 0011 0011 0111",  // 0-3
    "0000 0001 0001 0011", "0011 0111 0111 1111", "0001 0011 0111 1111", "0000 0001 0011 0111",  // 4-7
    "0000 0000 0001 0011", "0011 0111 1111 1111", "0000 0001 0111 1111", "0000 0000 0001 0111",  // 8-11
    "0001 0111 1111 1111", "0000 0000 1111 1111", "0000 1111 1111 1111", "0000 0000 0000 1111",  // 12-15
    "0000 1000 1110 1111", "0111 0001 0000 0000", "0000 0000 1000 1110", "0111 0011 0001 0000",  // 16-19
    "0011 0001 0000 0000", "0000 1000 1100 1110", "0000 0000 1000 1100", "0111 0011 0011 0001",  // 20-23
    "0011 0001 0001 0000", "0000 1000 1000 1100", "0110 0110 0110 0110", "0011 0110 0110 1100",  // 24-27
    "0001 0111 1110 1000", "0000 1111 1111 0000", "0111 0001 1000 1110", "0011 1001 1001 1100",  // 28-31
    "0101 0101 0101 0101", "0000 1111 0000 1111", "0101 1010 0101 1010", "0011 0011 1100 1100",  // 32-35
    "0011 1100 0011 1100", "0101 0101 1010 1010", "0110 1001 0110 1001", "0101 1010 1010 0101",  // 36-39
    "0111 0011 1100 1110", "0001 0011 1100 1000", "0011 0010 0100 1100", "0011 1011 1101 1100",  // 40-43
    "0110 1001 1001 0110", "0011 1100 1100 0011", "0110 0110 1001 1001", "0000 0110 0110 0000",  // 44-47
    "0100 1110 0100 0000", "0010 0111 0010 0000", "0000 0010 0111 0010", "0000 0100 1110 0100",  // 48-51
    "0110 1100 1001 0011", "0011 0110 1100 1001", "0110 0011 1001 1100", "0011 1001 1100 0110",  // 52-55
    "0110 1100 1100 1001", "0110 0011 0011 1001", "0111 1110 1000 0001", "0001 1000 1110 0111",  // 56-59
    "0000 1111 0011 0011", "0011 0011 1111 0000", "0010 0010 1110 1110", "0100 0100 0111 0111",  // 60-63
};

inline constexpr const char* kThreeSubsetPartitions[64] = {
    "0011 0011 0221 2222", "0001 0011 2211 2221", "0000 2001 2211 2211", "0222 0022 0011 0111",  // 0-3
    "0000 0000 1122 1122", "0011 0011 0022 0022", "0022 0022 1111 1111", "0011 0011 2211 2211",  // 4-7
    "0000 0000 1111 2222", "0000 1111 1111 2222", "0000 1111 2222 2222", "0012 0012 0012 0012",  // 8-11
    "0112 0112 0112 0112", "0122 0122 0122 0122", "0011 0112 1122 1222", "0011 2001 2200 2220",  // 12-15
    "0001 0011 0112 1122", "0111 0011 2001 2200", "0000 1122 1122 1122", "0022 0022 0022 1111",  // 16-19
    "0111 0111 0222 0222", "0001 0001 2221 2221", "0000 0011 0122 0122", "0000 1100 2210 2210",  // 20-23
    "0122 0122 0011 0000", "0012 0012 1122 2222", "0110 1221 1221 0110", "0000 0110 1221 1221",  // 24-27
    "0022 1102 1102 0022", "0110 0110 2002 2222", "0011 0122 0122 0011", "0000 2000 2211 2221",  // 28-31
    "0000 0002 1122 1222", "0222 0022 0012 0011", "0011 0012 0022 0222", "0120 0120 0120 0120",  // 32-35
    "0000 1111 2222 0000", "0120 1201 2012 0120", "0120 2012 1201 0120", "0011 2200 1122 0011",  // 36-39
    "0011 1122 2200 0011", "0101 0101 2222 2222", "0000 0000 2121 2121", "0022 1122 0022 1122",  // 40-43
    "0022 0011 0022 0011", "0220 1221 0220 1221", "0101 2222 2222 0101", "0000 2121 2121 2121",  // 44-47
    "0101 0101 0101 2222", "0222 0111 0222 0111", "0002 1112 0002 1112", "0000 2112 2112 2112",  // 48-51
    "0222 0111 0111 0222", "0002 1112 1112 0002", "0110 0110 0110 2222", "0000 0000 2112 2112",  // 52-55
    "0110 0110 2222 2222", "0022 0011 0011 0022", "0022 1122 1122 0022", "0000 0000 0000 2112",  // 56-59
    "0002 0001 0002 0001", "0222 1222 0222 1222", "0101 2222 2222 2222", "0111 2011 2201 2220",  // 60-63
};

// The anchor index (texel y * 4 + x whose index omits its top bit) of subset
// 1 of the two-subset patterns, and of subsets 1 and 2 of the three-subset
// patterns; subset 0's anchor is always texel 0. Entry 35 of the two-subset
// table is 8, as in the current Data Format Specification and
// ARB_texture_compression_bptc (an older edition showed texel (2,0) there).
inline constexpr uint8_t kTwoSubsetAnchor[64] = {
    15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15,  //
    15, 2,  8,  2,  2,  8,  8,  15, 2,  8,  2,  2,  8,  8,  2,  2,   //
    15, 15, 6,  8,  2,  8,  15, 15, 2,  8,  2,  2,  2,  15, 15, 6,   //
    6,  2,  6,  8,  15, 15, 2,  2,  15, 15, 15, 15, 15, 2,  2,  15,  //
};
inline constexpr uint8_t kThreeSubsetAnchorOfSubset1[64] = {
    3,  3,  15, 15, 8,  3,  15, 15, 8,  8,  6,  6,  6,  5,  3,  3,   //
    3,  3,  8,  15, 3,  3,  6,  10, 5,  8,  8,  6,  8,  5,  15, 15,  //
    8,  15, 3,  5,  6,  10, 8,  15, 15, 3,  15, 5,  15, 15, 15, 15,  //
    3,  15, 5,  5,  5,  8,  5,  10, 5,  10, 8,  13, 15, 12, 3,  3,   //
};
inline constexpr uint8_t kThreeSubsetAnchorOfSubset2[64] = {
    15, 8,  8,  3,  15, 15, 3,  8,  15, 15, 15, 15, 15, 15, 15, 8,   //
    15, 8,  15, 3,  15, 8,  15, 8,  3,  15, 6,  10, 15, 15, 10, 8,   //
    15, 3,  15, 10, 10, 8,  9,  10, 6,  15, 8,  15, 3,  6,  6,  8,   //
    15, 3,  15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 3,  15, 15, 8,   //
};

// The subset (0..subset_count-1) of texel `texel` (y * 4 + x) in partition
// pattern `partition`; subset_count is 1, 2 or 3.
inline unsigned SubsetOfTexel(unsigned subset_count, unsigned partition, unsigned texel) {
  if (subset_count == 1) return 0;
  const char* pattern = subset_count == 2 ? kTwoSubsetPartitions[partition] : kThreeSubsetPartitions[partition];
  return static_cast<unsigned>(pattern[texel / 4 * 5 + texel % 4] - '0');
}

// The anchor texels of a partition pattern, in increasing texel order
// (subset 0's anchor, texel 0, first). Unused entries are 16.
struct Anchors {
  uint8_t texel[3];
};

inline Anchors AnchorsOf(unsigned subset_count, unsigned partition) {
  if (subset_count == 1) return {{0, 16, 16}};
  if (subset_count == 2) return {{0, kTwoSubsetAnchor[partition], 16}};
  uint8_t a = kThreeSubsetAnchorOfSubset1[partition];
  uint8_t b = kThreeSubsetAnchorOfSubset2[partition];
  if (a > b) {
    const uint8_t t = a;
    a = b;
    b = t;
  }
  return {{0, a, b}};
}

// Where texel `texel`'s index starts, relative to the first index bit, and
// how many bits it has: every index has `index_bits` bits except an anchor's,
// which omits its (zero) top bit, so each anchor before the texel moves it
// down by one.
struct IndexField {
  unsigned offset;
  unsigned bits;
};

inline IndexField IndexFieldOf(const Anchors& anchors, unsigned index_bits, unsigned texel) {
  unsigned anchors_before = 0;
  bool is_anchor = false;
  for (uint8_t anchor : anchors.texel) {
    if (anchor < texel) ++anchors_before;
    if (anchor == texel) is_anchor = true;
  }
  return {index_bits * texel - anchors_before, index_bits - (is_anchor ? 1u : 0u)};
}

// BPTC interpolation weights (64ths) for 2-, 3- and 4-bit indices.
inline constexpr uint8_t kWeights2[4] = {0, 21, 43, 64};
inline constexpr uint8_t kWeights3[8] = {0, 9, 18, 27, 37, 46, 55, 64};
inline constexpr uint8_t kWeights4[16] = {0, 4, 9, 13, 17, 21, 26, 30, 34, 38, 43, 47, 51, 55, 60, 64};

inline unsigned WeightOf(unsigned index_bits, unsigned index) {
  switch (index_bits) {
    case 2: return kWeights2[index];
    case 3: return kWeights3[index];
    default: return kWeights4[index];
  }
}

// ((64 - w) * e0 + w * e1 + 32) >> 6, the spec's formula; signed endpoints
// (BC6H SFLOAT) shift arithmetically, as the two's complement arithmetic it
// describes does.
inline int32_t Interpolate(int32_t e0, int32_t e1, unsigned weight) {
  const auto w = static_cast<int32_t>(weight);
  return ((64 - w) * e0 + w * e1 + 32) >> 6;
}

// Decode the texels of rows [first_row, first_row + row_count) of one block
// into out[y * 4 + x]; other entries are left untouched.
void DecodeBc6hRows(const std::byte* block, bool is_signed, unsigned first_row, unsigned row_count,
                    TexelValue out[16]);
void DecodeBc7Rows(const std::byte* block, bool srgb, unsigned first_row, unsigned row_count, TexelValue out[16]);

}  // namespace duet::texel::bc_detail
