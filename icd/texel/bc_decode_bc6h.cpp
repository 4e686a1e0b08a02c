// BC6H (BPTC UFLOAT/SFLOAT), as the Data Format Specification's "BC6H"
// section describes it: a 2- or 5-bit mode, endpoint bits scattered as the
// mode's block description lists them, optional delta ("transformed")
// endpoints relative to E0, unquantization to 16 bits, BC7's interpolation,
// and a final scaling whose 16-bit result is read as a half float. All of it
// is integer arithmetic, so results are bit-exact.
#include "texel/bc_decode_internal.h"
#include "texel/fixed_point.h"
#include "texel/float_formats.h"

namespace duet::texel::bc_detail {
namespace {

// The variables of the block descriptions: endpoint channels R0..B3 (endpoint
// e, channel c is e * 3 + c) and the partition number.
enum Variable : uint8_t { R0, G0, B0, R1, G1, B1, R2, G2, B2, R3, G3, B3, PB, kVariableCount };

// v^{a..b} of the spec's "Block descriptions for BC6H block modes": the next
// |a - b| + 1 block bits, lowest first, go to bits b, b+-1, ..., a of v
// (upwards when a >= b, downwards when a < b, the reversed fields of modes
// 11 and 15).
struct Field {
  Variable variable;
  uint8_t a;
  uint8_t b;
};

struct Bc6hMode {
  uint8_t mode_number;      // the value of the 2 or 5 mode bits
  bool transformed;         // E1..E3 are deltas from E0
  bool two_subsets;         // has 5 partition bits
  uint8_t endpoint_bits;    // EPB
  uint8_t delta_bits[3];    // R, G, B bits of E1..E3 when transformed
  const Field* fields;      // after the mode bits
  uint8_t field_count;
};

// The block descriptions, transcribed field by field (mode bits omitted).
constexpr Field kMode0[] = {{G2, 4, 4}, {B2, 4, 4}, {B3, 4, 4}, {R0, 9, 0}, {G0, 9, 0}, {B0, 9, 0}, {R1, 4, 0},
                            {G3, 4, 4}, {G2, 3, 0}, {G1, 4, 0}, {B3, 0, 0}, {G3, 3, 0}, {B1, 4, 0}, {B3, 1, 1},
                            {B2, 3, 0}, {R2, 4, 0}, {B3, 2, 2}, {R3, 4, 0}, {B3, 3, 3}, {PB, 4, 0}};
constexpr Field kMode1[] = {{G2, 5, 5}, {G3, 4, 4}, {G3, 5, 5}, {R0, 6, 0}, {B3, 0, 0}, {B3, 1, 1}, {B2, 4, 4},
                            {G0, 6, 0}, {B2, 5, 5}, {B3, 2, 2}, {G2, 4, 4}, {B0, 6, 0}, {B3, 3, 3}, {B3, 5, 5},
                            {B3, 4, 4}, {R1, 5, 0}, {G2, 3, 0}, {G1, 5, 0}, {G3, 3, 0}, {B1, 5, 0}, {B2, 3, 0},
                            {R2, 5, 0}, {R3, 5, 0}, {PB, 4, 0}};
constexpr Field kMode2[] = {{R0, 9, 0}, {G0, 9, 0},   {B0, 9, 0}, {R1, 4, 0}, {R0, 10, 10}, {G2, 3, 0}, {G1, 3, 0},
                            {G0, 10, 10}, {B3, 0, 0}, {G3, 3, 0}, {B1, 3, 0}, {B0, 10, 10}, {B3, 1, 1}, {B2, 3, 0},
                            {R2, 4, 0}, {B3, 2, 2},   {R3, 4, 0}, {B3, 3, 3}, {PB, 4, 0}};
constexpr Field kMode6[] = {{R0, 9, 0}, {G0, 9, 0}, {B0, 9, 0}, {R1, 3, 0}, {R0, 10, 10}, {G3, 4, 4}, {G2, 3, 0},
                            {G1, 4, 0}, {G0, 10, 10}, {G3, 3, 0}, {B1, 3, 0}, {B0, 10, 10}, {B3, 1, 1},
                            {B2, 3, 0}, {R2, 3, 0}, {B3, 0, 0}, {B3, 2, 2}, {R3, 3, 0}, {G2, 4, 4}, {B3, 3, 3},
                            {PB, 4, 0}};
constexpr Field kMode10[] = {{R0, 9, 0}, {G0, 9, 0}, {B0, 9, 0}, {R1, 3, 0}, {R0, 10, 10}, {B2, 4, 4}, {G2, 3, 0},
                             {G1, 3, 0}, {G0, 10, 10}, {B3, 0, 0}, {G3, 3, 0}, {B1, 4, 0}, {B0, 10, 10},
                             {B2, 3, 0}, {R2, 3, 0}, {B3, 1, 1}, {B3, 2, 2}, {R3, 3, 0}, {B3, 4, 4}, {B3, 3, 3},
                             {PB, 4, 0}};
constexpr Field kMode14[] = {{R0, 8, 0}, {B2, 4, 4}, {G0, 8, 0}, {G2, 4, 4}, {B0, 8, 0}, {B3, 4, 4}, {R1, 4, 0},
                             {G3, 4, 4}, {G2, 3, 0}, {G1, 4, 0}, {B3, 0, 0}, {G3, 3, 0}, {B1, 4, 0}, {B3, 1, 1},
                             {B2, 3, 0}, {R2, 4, 0}, {B3, 2, 2}, {R3, 4, 0}, {B3, 3, 3}, {PB, 4, 0}};
constexpr Field kMode18[] = {{R0, 7, 0}, {G3, 4, 4}, {B2, 4, 4}, {G0, 7, 0}, {B3, 2, 2}, {G2, 4, 4}, {B0, 7, 0},
                             {B3, 3, 3}, {B3, 4, 4}, {R1, 5, 0}, {G2, 3, 0}, {G1, 4, 0}, {B3, 0, 0}, {G3, 3, 0},
                             {B1, 4, 0}, {B3, 1, 1}, {B2, 3, 0}, {R2, 5, 0}, {R3, 5, 0}, {PB, 4, 0}};
constexpr Field kMode22[] = {{R0, 7, 0}, {B3, 0, 0}, {B2, 4, 4}, {G0, 7, 0}, {G2, 5, 5}, {G2, 4, 4}, {B0, 7, 0},
                             {G3, 5, 5}, {B3, 4, 4}, {R1, 4, 0}, {G3, 4, 4}, {G2, 3, 0}, {G1, 5, 0}, {G3, 3, 0},
                             {B1, 4, 0}, {B3, 1, 1}, {B2, 3, 0}, {R2, 4, 0}, {B3, 2, 2}, {R3, 4, 0}, {B3, 3, 3},
                             {PB, 4, 0}};
constexpr Field kMode26[] = {{R0, 7, 0}, {B3, 1, 1}, {B2, 4, 4}, {G0, 7, 0}, {B2, 5, 5}, {G2, 4, 4}, {B0, 7, 0},
                             {B3, 5, 5}, {B3, 4, 4}, {R1, 4, 0}, {G3, 4, 4}, {G2, 3, 0}, {G1, 4, 0}, {B3, 0, 0},
                             {G3, 3, 0}, {B1, 5, 0}, {B2, 3, 0}, {R2, 4, 0}, {B3, 2, 2}, {R3, 4, 0}, {B3, 3, 3},
                             {PB, 4, 0}};
constexpr Field kMode30[] = {{R0, 5, 0}, {G3, 4, 4}, {B3, 0, 0}, {B3, 1, 1}, {B2, 4, 4}, {G0, 5, 0}, {G2, 5, 5},
                             {B2, 5, 5}, {B3, 2, 2}, {G2, 4, 4}, {B0, 5, 0}, {G3, 5, 5}, {B3, 3, 3}, {B3, 5, 5},
                             {B3, 4, 4}, {R1, 5, 0}, {G2, 3, 0}, {G1, 5, 0}, {G3, 3, 0}, {B1, 5, 0}, {B2, 3, 0},
                             {R2, 5, 0}, {R3, 5, 0}, {PB, 4, 0}};
constexpr Field kMode3[] = {{R0, 9, 0}, {G0, 9, 0}, {B0, 9, 0}, {R1, 9, 0}, {G1, 9, 0}, {B1, 9, 0}};
constexpr Field kMode7[] = {{R0, 9, 0}, {G0, 9, 0}, {B0, 9, 0},   {R1, 8, 0}, {R0, 10, 10},
                            {G1, 8, 0}, {G0, 10, 10}, {B1, 8, 0}, {B0, 10, 10}};
constexpr Field kMode11[] = {{R0, 9, 0}, {G0, 9, 0}, {B0, 9, 0},   {R1, 7, 0}, {R0, 10, 11},
                             {G1, 7, 0}, {G0, 10, 11}, {B1, 7, 0}, {B0, 10, 11}};
constexpr Field kMode15[] = {{R0, 9, 0}, {G0, 9, 0}, {B0, 9, 0},   {R1, 3, 0}, {R0, 10, 15},
                             {G1, 3, 0}, {G0, 10, 15}, {B1, 3, 0}, {B0, 10, 15}};

template <size_t N>
constexpr Bc6hMode MakeMode(uint8_t number, bool transformed, bool two_subsets, uint8_t endpoint_bits,
                            uint8_t delta_r, uint8_t delta_g, uint8_t delta_b, const Field (&fields)[N]) {
  return {number, transformed, two_subsets, endpoint_bits, {delta_r, delta_g, delta_b}, fields,
          static_cast<uint8_t>(N)};
}

// The spec's "Endpoint and partition parameters for BPTC block modes".
constexpr Bc6hMode kBc6hModes[] = {
    MakeMode(0, true, true, 10, 5, 5, 5, kMode0),    MakeMode(1, true, true, 7, 6, 6, 6, kMode1),
    MakeMode(2, true, true, 11, 5, 4, 4, kMode2),    MakeMode(6, true, true, 11, 4, 5, 4, kMode6),
    MakeMode(10, true, true, 11, 4, 4, 5, kMode10),  MakeMode(14, true, true, 9, 5, 5, 5, kMode14),
    MakeMode(18, true, true, 8, 6, 5, 5, kMode18),   MakeMode(22, true, true, 8, 5, 6, 5, kMode22),
    MakeMode(26, true, true, 8, 5, 5, 6, kMode26),   MakeMode(30, false, true, 6, 0, 0, 0, kMode30),
    MakeMode(3, false, false, 10, 0, 0, 0, kMode3),  MakeMode(7, true, false, 11, 9, 9, 9, kMode7),
    MakeMode(11, true, false, 12, 8, 8, 8, kMode11), MakeMode(15, true, false, 16, 4, 4, 4, kMode15),
};

// Checks on the transcription: the fields end where the indices begin (bit
// 82 with two subsets, 65 with one), and every variable receives exactly the
// bits the mode gives it (EPB for E0, the delta or endpoint width for the
// others, 5 for the partition), each bit once.
constexpr bool LayoutIsConsistent(const Bc6hMode& mode) {
  unsigned position = mode.mode_number < 2 ? 2 : 5;
  uint32_t received[kVariableCount] = {};
  for (unsigned i = 0; i < mode.field_count; ++i) {
    const Field& field = mode.fields[i];
    const unsigned low = field.a < field.b ? field.a : field.b;
    const unsigned high = field.a < field.b ? field.b : field.a;
    for (unsigned bit = low; bit <= high; ++bit) {
      if (received[field.variable] & (1u << bit)) return false;
      received[field.variable] |= 1u << bit;
    }
    position += high - low + 1;
  }
  if (position != (mode.two_subsets ? 82u : 65u)) return false;
  const unsigned endpoint_count = mode.two_subsets ? 4 : 2;
  for (unsigned v = 0; v < kVariableCount; ++v) {
    unsigned expected_bits = 0;
    if (v == PB) {
      expected_bits = mode.two_subsets ? 5 : 0;
    } else if (v / 3 < endpoint_count) {
      expected_bits = v < 3 || !mode.transformed ? mode.endpoint_bits : mode.delta_bits[v % 3];
    }
    const uint32_t expected_mask = expected_bits >= 32 ? ~0u : (1u << expected_bits) - 1;
    if (received[v] != expected_mask) return false;
  }
  return true;
}

constexpr bool AllLayoutsConsistent() {
  for (const Bc6hMode& mode : kBc6hModes) {
    if (!LayoutIsConsistent(mode)) return false;
  }
  return true;
}
static_assert(AllLayoutsConsistent());

const Bc6hMode* FindMode(unsigned mode_number) {
  for (const Bc6hMode& mode : kBc6hModes) {
    if (mode.mode_number == mode_number) return &mode;
  }
  return nullptr;  // 19, 23, 27, 31: reserved
}

// The spec's unquantization pseudocode, unsigned and signed.
int32_t UnquantizeUnsigned(int32_t x, unsigned endpoint_bits) {
  if (endpoint_bits >= 15) return x;
  if (x == 0) return 0;
  if (x == static_cast<int32_t>(BitMask(endpoint_bits))) return 0xFFFF;
  return ((x << 15) + 0x4000) >> (endpoint_bits - 1);
}

int32_t UnquantizeSigned(int32_t x, unsigned endpoint_bits) {
  if (endpoint_bits >= 16) return x;
  const bool negative = x < 0;
  if (negative) x = -x;
  int32_t unquantized;
  if (x == 0) {
    unquantized = 0;
  } else if (x >= static_cast<int32_t>(BitMask(endpoint_bits - 1))) {
    unquantized = 0x7FFF;
  } else {
    unquantized = ((x << 15) + 0x4000) >> (endpoint_bits - 1);
  }
  return negative ? -unquantized : unquantized;
}

// The final scaling into half-float bits: unsigned by 31/64 (0xFFFF becomes
// 0x7BFF, 65504.0), signed by 31/32 on the magnitude with the sign restored.
uint16_t FinalUnquantize(int32_t interpolated, bool is_signed) {
  if (!is_signed) return static_cast<uint16_t>((interpolated * 31) >> 6);
  if (interpolated < 0) return static_cast<uint16_t>((((-interpolated) * 31) >> 5) | 0x8000);
  return static_cast<uint16_t>((interpolated * 31) >> 5);
}

}  // namespace

void DecodeBc6hRows(const std::byte* block_bytes, bool is_signed, unsigned first_row, unsigned row_count,
                    TexelValue out[16]) {
  const Block128 block = LoadBlock128(block_bytes);
  const unsigned first_texel = first_row * 4;
  const unsigned end_texel = (first_row + row_count) * 4;

  // "If the low two bits are less than two, that is the mode number,
  // otherwise the low five bits is the mode number."
  const auto low_two = static_cast<unsigned>(block.low & 3);
  const unsigned mode_number = low_two < 2 ? low_two : static_cast<unsigned>(block.low & 31);
  const Bc6hMode* mode = FindMode(mode_number);
  if (mode == nullptr) {
    for (unsigned t = first_texel; t < end_texel; ++t) out[t] = TexelValue{.f = {0.0f, 0.0f, 0.0f, 1.0f}};
    return;
  }

  BitCursor cursor(block);
  cursor.Take(mode_number < 2 ? 2 : 5);
  uint32_t variables[kVariableCount] = {};
  for (unsigned i = 0; i < mode->field_count; ++i) {
    const Field& field = mode->fields[i];
    if (field.a >= field.b) {
      for (unsigned bit = field.b; bit <= field.a; ++bit) variables[field.variable] |= cursor.Take(1) << bit;
    } else {
      for (unsigned bit = field.b + 1u; bit-- > field.a;) variables[field.variable] |= cursor.Take(1) << bit;
    }
  }

  // Endpoints: E0 is sign-extended for the signed format; the others are
  // sign-extended when the format is signed or they are deltas; deltas are
  // added to E0 and wrapped to EPB bits (then sign-extended again for the
  // signed format). Then each is unquantized to 16 bits.
  const unsigned subset_count = mode->two_subsets ? 2 : 1;
  const unsigned endpoint_count = 2 * subset_count;
  const unsigned endpoint_bits = mode->endpoint_bits;
  int32_t endpoints[4][3];
  for (unsigned channel = 0; channel < 3; ++channel) {
    const uint32_t e0_bits = variables[channel];
    const int32_t e0 = is_signed ? SignExtend(e0_bits, endpoint_bits) : static_cast<int32_t>(e0_bits);
    for (unsigned e = 0; e < endpoint_count; ++e) {
      int32_t value = e0;
      if (e != 0) {
        const uint32_t raw = variables[e * 3 + channel];
        if (mode->transformed) {
          const int32_t delta = SignExtend(raw, mode->delta_bits[channel]);
          const uint32_t wrapped = static_cast<uint32_t>(e0 + delta) & BitMask(endpoint_bits);
          value = is_signed ? SignExtend(wrapped, endpoint_bits) : static_cast<int32_t>(wrapped);
        } else {
          value = is_signed ? SignExtend(raw, endpoint_bits) : static_cast<int32_t>(raw);
        }
      }
      endpoints[e][channel] =
          is_signed ? UnquantizeSigned(value, endpoint_bits) : UnquantizeUnsigned(value, endpoint_bits);
    }
  }

  const unsigned partition = variables[PB];
  const unsigned index_bits = mode->two_subsets ? 3 : 4;
  const unsigned index_start = mode->two_subsets ? 82 : 65;
  const Anchors anchors = AnchorsOf(subset_count, partition);
  for (unsigned texel = first_texel; texel < end_texel; ++texel) {
    const unsigned subset = SubsetOfTexel(subset_count, partition, texel);
    const IndexField field = IndexFieldOf(anchors, index_bits, texel);
    const unsigned weight = WeightOf(index_bits, ExtractBits(block, index_start + field.offset, field.bits));
    TexelValue& value = out[texel];
    for (unsigned channel = 0; channel < 3; ++channel) {
      const int32_t interpolated =
          Interpolate(endpoints[2 * subset][channel], endpoints[2 * subset + 1][channel], weight);
      value.f[channel] = HalfToFloat(FinalUnquantize(interpolated, is_signed));
    }
    value.f[3] = 1.0f;
  }
}

}  // namespace duet::texel::bc_detail
