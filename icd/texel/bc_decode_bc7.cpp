// BC7 (BPTC UNORM/SRGB), as the Data Format Specification's "BC7" section
// describes it: the mode is the position of the lowest set bit of the first
// byte; fields follow in increasing bit order (partition, rotation, index
// selection, colour, alpha, per-endpoint p-bits, shared p-bits, primary
// indices, secondary indices), each endpoint channel is widened to 8 bits by
// appending its p-bit and replicating its top bits, and texels interpolate
// between their subset's endpoints with 6-bit weights. Everything is integer
// arithmetic, so the 8-bit results are exact.
#include <bit>

#include "texel/bc_decode_internal.h"
#include "texel/fixed_point.h"
#include "texel/srgb.h"

namespace duet::texel::bc_detail {
namespace {

// One row of the spec's "Mode-dependent BPTC parameters" table.
struct Bc7Mode {
  uint8_t subset_count;          // NS
  uint8_t partition_bits;        // PB
  uint8_t rotation_bits;         // RB
  uint8_t index_selection_bits;  // ISB
  uint8_t color_bits;            // CB, per channel and endpoint
  uint8_t alpha_bits;            // AB, per endpoint; 0: alpha is 255
  bool endpoint_pbits;           // EPB: a p-bit per endpoint
  bool shared_pbits;             // SPB: a p-bit per subset
  uint8_t index_bits;            // IB
  uint8_t secondary_index_bits;  // IB2; 0: no secondary indices
};

constexpr Bc7Mode kBc7Modes[8] = {
    {3, 4, 0, 0, 4, 0, true, false, 3, 0},   // 0
    {2, 6, 0, 0, 6, 0, false, true, 3, 0},   // 1
    {3, 6, 0, 0, 5, 0, false, false, 2, 0},  // 2
    {2, 6, 0, 0, 7, 0, true, false, 2, 0},   // 3
    {1, 0, 2, 1, 5, 6, false, false, 2, 3},  // 4
    {1, 0, 2, 0, 7, 8, false, false, 2, 2},  // 5
    {1, 0, 0, 0, 7, 7, true, false, 4, 0},   // 6
    {2, 6, 0, 0, 5, 5, true, false, 2, 0},   // 7
};

// Every mode fills the 128 bits exactly: a check on the table's transcription.
constexpr bool ModeFillsBlock(unsigned mode_number) {
  const Bc7Mode& m = kBc7Modes[mode_number];
  const unsigned endpoints = 2u * m.subset_count;
  unsigned bits = mode_number + 1 + m.partition_bits + m.rotation_bits + m.index_selection_bits;
  bits += endpoints * (3u * m.color_bits + m.alpha_bits);
  bits += m.endpoint_pbits ? endpoints : 0;
  bits += m.shared_pbits ? m.subset_count : 0;
  bits += 16u * m.index_bits - m.subset_count;
  if (m.secondary_index_bits != 0) bits += 16u * m.secondary_index_bits - 1;
  return bits == 128;
}
static_assert(ModeFillsBlock(0) && ModeFillsBlock(1) && ModeFillsBlock(2) && ModeFillsBlock(3) &&
              ModeFillsBlock(4) && ModeFillsBlock(5) && ModeFillsBlock(6) && ModeFillsBlock(7));

// A `bits`-bit value (5..8) widened to 8 bits: "the top bits of the value are
// replicated into any remaining bits in the byte".
constexpr uint32_t WidenTo8(uint32_t value, unsigned bits) {
  return bits >= 8 ? value : value << (8 - bits) | value >> (2 * bits - 8);
}

}  // namespace

void DecodeBc7Rows(const std::byte* block_bytes, bool srgb, unsigned first_row, unsigned row_count,
                   TexelValue out[16]) {
  const Block128 block = LoadBlock128(block_bytes);
  const unsigned first_texel = first_row * 4;
  const unsigned end_texel = (first_row + row_count) * 4;

  const auto mode_byte = static_cast<uint8_t>(block.low & 0xFF);
  if (mode_byte == 0) {
    // Reserved: "hardware decoders ... should return 0 for all channels".
    for (unsigned t = first_texel; t < end_texel; ++t) out[t] = TexelValue{.f = {0.0f, 0.0f, 0.0f, 0.0f}};
    return;
  }
  const auto mode_number = static_cast<unsigned>(std::countr_zero(mode_byte));
  const Bc7Mode& mode = kBc7Modes[mode_number];

  BitCursor cursor(block);
  cursor.Take(mode_number + 1);
  const unsigned partition = cursor.Take(mode.partition_bits);
  const unsigned rotation = cursor.Take(mode.rotation_bits);
  const unsigned index_selection = cursor.Take(mode.index_selection_bits);

  // Endpoint e of subset s is endpoint 2 * s + e; channels are stored
  // channel by channel, each listing every endpoint in that order.
  const unsigned endpoint_count = 2u * mode.subset_count;
  uint32_t endpoints[6][4];
  for (unsigned channel = 0; channel < 3; ++channel) {
    for (unsigned e = 0; e < endpoint_count; ++e) endpoints[e][channel] = cursor.Take(mode.color_bits);
  }
  for (unsigned e = 0; e < endpoint_count; ++e) endpoints[e][3] = cursor.Take(mode.alpha_bits);

  uint32_t pbits[6] = {};
  if (mode.endpoint_pbits) {
    for (unsigned e = 0; e < endpoint_count; ++e) pbits[e] = cursor.Take(1);
  } else if (mode.shared_pbits) {
    for (unsigned s = 0; s < mode.subset_count; ++s) pbits[2 * s] = pbits[2 * s + 1] = cursor.Take(1);
  }
  const bool has_pbits = mode.endpoint_pbits || mode.shared_pbits;
  for (unsigned e = 0; e < endpoint_count; ++e) {
    for (unsigned channel = 0; channel < 4; ++channel) {
      unsigned bits = channel < 3 ? mode.color_bits : mode.alpha_bits;
      if (bits == 0) {
        endpoints[e][channel] = 255;  // no alpha in this mode
        continue;
      }
      uint32_t value = endpoints[e][channel];
      if (has_pbits) {
        value = value << 1 | pbits[e];
        ++bits;
      }
      endpoints[e][channel] = WidenTo8(value, bits);
    }
  }

  const unsigned primary_start = cursor.position();
  const unsigned secondary_start = primary_start + 16u * mode.index_bits - mode.subset_count;
  const Anchors anchors = AnchorsOf(mode.subset_count, partition);
  const Anchors secondary_anchors = AnchorsOf(1, 0);
  const SrgbTables* srgb_tables = srgb ? &GetSrgbTables() : nullptr;

  for (unsigned texel = first_texel; texel < end_texel; ++texel) {
    const unsigned subset = SubsetOfTexel(mode.subset_count, partition, texel);
    const IndexField primary_field = IndexFieldOf(anchors, mode.index_bits, texel);
    const uint32_t primary = ExtractBits(block, primary_start + primary_field.offset, primary_field.bits);
    unsigned color_weight = WeightOf(mode.index_bits, primary);
    unsigned alpha_weight = color_weight;
    if (mode.secondary_index_bits != 0) {
      const IndexField secondary_field = IndexFieldOf(secondary_anchors, mode.secondary_index_bits, texel);
      const uint32_t secondary = ExtractBits(block, secondary_start + secondary_field.offset, secondary_field.bits);
      const unsigned secondary_weight = WeightOf(mode.secondary_index_bits, secondary);
      // The index selection bit sends the secondary indices to colour
      // instead of alpha.
      if (index_selection != 0) {
        color_weight = secondary_weight;
      } else {
        alpha_weight = secondary_weight;
      }
    }
    const uint32_t* e0 = endpoints[2 * subset];
    const uint32_t* e1 = endpoints[2 * subset + 1];
    uint32_t rgba[4];
    for (unsigned channel = 0; channel < 4; ++channel) {
      const unsigned weight = channel < 3 ? color_weight : alpha_weight;
      rgba[channel] = static_cast<uint32_t>(
          Interpolate(static_cast<int32_t>(e0[channel]), static_cast<int32_t>(e1[channel]), weight));
    }
    if (rotation != 0) {
      // 1, 2, 3: swap alpha with red, green, blue.
      const uint32_t swapped = rgba[rotation - 1];
      rgba[rotation - 1] = rgba[3];
      rgba[3] = swapped;
    }
    TexelValue& value = out[texel];
    for (unsigned channel = 0; channel < 3; ++channel) {
      value.f[channel] = srgb_tables ? DecodeSrgb8(*srgb_tables, rgba[channel]) : UnormToFloat(rgba[channel], 8);
    }
    value.f[3] = UnormToFloat(rgba[3], 8);
  }
}

}  // namespace duet::texel::bc_detail
