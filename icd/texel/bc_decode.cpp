// The BC format dispatch, the S3TC formats (BC1, BC2, BC3) and the RGTC
// formats (BC4, BC5), following the Data Format Specification's "S3TC
// Compressed Texture Image Formats" and "RGTC Compressed Texture Image
// Formats". BPTC lives in bc_decode_bc6h.cpp and bc_decode_bc7.cpp.
#include "texel/bc_decode.h"

#include <algorithm>
#include <cstdint>

#include "texel/bc_decode_internal.h"
#include "texel/fixed_point.h"
#include "texel/srgb.h"

namespace duet::texel {
namespace {

enum class BcFamily : uint8_t { kBc1, kBc2, kBc3, kBc4, kBc5, kBc6h, kBc7 };

struct BcFormat {
  BcFamily family;
  uint8_t block_bytes;
  bool srgb;         // R, G, B are sRGB-encoded
  bool is_signed;    // BC4/BC5 SNORM, BC6H SFLOAT
  bool bc1_alpha;    // BC1_RGBA: the punch-through texel is transparent
};

bool DescribeBcFormat(VkFormat format, BcFormat* description) {
  using F = BcFamily;
  switch (format) {
    case VK_FORMAT_BC1_RGB_UNORM_BLOCK: *description = {F::kBc1, 8, false, false, false}; return true;
    case VK_FORMAT_BC1_RGB_SRGB_BLOCK: *description = {F::kBc1, 8, true, false, false}; return true;
    case VK_FORMAT_BC1_RGBA_UNORM_BLOCK: *description = {F::kBc1, 8, false, false, true}; return true;
    case VK_FORMAT_BC1_RGBA_SRGB_BLOCK: *description = {F::kBc1, 8, true, false, true}; return true;
    case VK_FORMAT_BC2_UNORM_BLOCK: *description = {F::kBc2, 16, false, false, false}; return true;
    case VK_FORMAT_BC2_SRGB_BLOCK: *description = {F::kBc2, 16, true, false, false}; return true;
    case VK_FORMAT_BC3_UNORM_BLOCK: *description = {F::kBc3, 16, false, false, false}; return true;
    case VK_FORMAT_BC3_SRGB_BLOCK: *description = {F::kBc3, 16, true, false, false}; return true;
    case VK_FORMAT_BC4_UNORM_BLOCK: *description = {F::kBc4, 8, false, false, false}; return true;
    case VK_FORMAT_BC4_SNORM_BLOCK: *description = {F::kBc4, 8, false, true, false}; return true;
    case VK_FORMAT_BC5_UNORM_BLOCK: *description = {F::kBc5, 16, false, false, false}; return true;
    case VK_FORMAT_BC5_SNORM_BLOCK: *description = {F::kBc5, 16, false, true, false}; return true;
    case VK_FORMAT_BC6H_UFLOAT_BLOCK: *description = {F::kBc6h, 16, false, false, false}; return true;
    case VK_FORMAT_BC6H_SFLOAT_BLOCK: *description = {F::kBc6h, 16, false, true, false}; return true;
    case VK_FORMAT_BC7_UNORM_BLOCK: *description = {F::kBc7, 16, false, false, false}; return true;
    case VK_FORMAT_BC7_SRGB_BLOCK: *description = {F::kBc7, 16, true, false, false}; return true;
    default: return false;
  }
}

// numerator / denominator rounded to float: the double quotient is correctly
// rounded and then rounded once more, so the result is the nearest float to
// the exact rational except in astronomically rare double-rounding ties.
float RatioToFloat(int32_t numerator, int32_t denominator) {
  return static_cast<float>(static_cast<double>(numerator) / static_cast<double>(denominator));
}

uint32_t LoadLittleEndian16(const std::byte* bytes) {
  return std::to_integer<uint32_t>(bytes[0]) | std::to_integer<uint32_t>(bytes[1]) << 8;
}

uint32_t LoadLittleEndian32(const std::byte* bytes) {
  return LoadLittleEndian16(bytes) | LoadLittleEndian16(bytes + 2) << 16;
}

// The 48 index bits of a BC3 alpha / BC4 / BC5 channel block (bytes 2..7).
uint64_t LoadIndexBits48(const std::byte* bytes) {
  uint64_t bits = 0;
  for (int i = 5; i >= 0; --i) bits = bits << 8 | std::to_integer<uint64_t>(bytes[2 + i]);
  return bits;
}

// The 64-bit colour block of BC1, BC2 and BC3: writes R, G, B and A of the
// requested texels. `four_colors_always` is BC2/BC3's rule ("treated as
// though color0 > color1"); otherwise color0 <= color1 selects the
// three-colour mode whose code 3 is black, transparent for BC1_RGBA and
// opaque for BC1_RGB.
void DecodeColorBlock(const std::byte* block, bool four_colors_always, bool transparent_black, bool srgb,
                      unsigned first_texel, unsigned end_texel, TexelValue out[16]) {
  const uint32_t color0 = LoadLittleEndian16(block);
  const uint32_t color1 = LoadLittleEndian16(block + 2);
  const uint32_t codes = LoadLittleEndian32(block + 4);
  const bool four_colors = four_colors_always || color0 > color1;

  // R in bits 15..11, G in 10..5, B in 4..0.
  constexpr unsigned kShift[3] = {11, 5, 0};
  constexpr unsigned kBits[3] = {5, 6, 5};
  float palette[4][4];
  for (unsigned channel = 0; channel < 3; ++channel) {
    const unsigned bits = kBits[channel];
    const auto c0 = static_cast<int32_t>((color0 >> kShift[channel]) & BitMask(bits));
    const auto c1 = static_cast<int32_t>((color1 >> kShift[channel]) & BitMask(bits));
    const auto max = static_cast<int32_t>(BitMask(bits));
    palette[0][channel] = UnormToFloat(static_cast<uint32_t>(c0), bits);
    palette[1][channel] = UnormToFloat(static_cast<uint32_t>(c1), bits);
    if (four_colors) {
      palette[2][channel] = RatioToFloat(2 * c0 + c1, 3 * max);  // (2 * RGB0 + RGB1) / 3
      palette[3][channel] = RatioToFloat(c0 + 2 * c1, 3 * max);  // (RGB0 + 2 * RGB1) / 3
    } else {
      palette[2][channel] = RatioToFloat(c0 + c1, 2 * max);  // (RGB0 + RGB1) / 2
      palette[3][channel] = 0.0f;                            // BLACK
    }
  }
  for (auto& entry : palette) entry[3] = 1.0f;
  if (!four_colors && transparent_black) palette[3][3] = 0.0f;
  if (srgb) {
    for (auto& entry : palette) {
      for (unsigned channel = 0; channel < 3; ++channel) entry[channel] = SrgbToLinear(entry[channel]);
    }
  }

  for (unsigned texel = first_texel; texel < end_texel; ++texel) {
    const float* color = palette[(codes >> (2 * texel)) & 3];
    for (unsigned channel = 0; channel < 4; ++channel) out[texel].f[channel] = color[channel];
  }
}

// An 8-byte block of one interpolated channel: BC3's alpha, BC4's red, each
// of BC5's red and green. Writes channel `channel` of the requested texels.
// Unsigned endpoints are c / 255; signed ones c / 127 with -128 read as
// -127 (-1.0). Six-value blocks (value0 <= value1, compared as stored) end
// with the format's minimum and maximum (0 or -1, and 1).
void DecodeChannelBlock(const std::byte* block, bool is_signed, unsigned channel, unsigned first_texel,
                        unsigned end_texel, TexelValue out[16]) {
  const auto byte0 = std::to_integer<uint32_t>(block[0]);
  const auto byte1 = std::to_integer<uint32_t>(block[1]);
  const uint64_t codes = LoadIndexBits48(block);

  int32_t v0, v1, max;  // the stored values and the code that means 1.0
  float palette[8];
  if (is_signed) {
    v0 = SignExtend(byte0, 8);
    v1 = SignExtend(byte1, 8);
    max = 127;
    palette[0] = SnormToFloat(v0, 8);
    palette[1] = SnormToFloat(v1, 8);
  } else {
    v0 = static_cast<int32_t>(byte0);
    v1 = static_cast<int32_t>(byte1);
    max = 255;
    palette[0] = UnormToFloat(byte0, 8);
    palette[1] = UnormToFloat(byte1, 8);
  }
  const bool eight_values = v0 > v1;
  // The interpolation uses the endpoints' real values, so -128 counts as -127.
  const int32_t e0 = std::max(v0, -127);
  const int32_t e1 = std::max(v1, -127);
  if (eight_values) {
    for (int32_t code = 2; code < 8; ++code) palette[code] = RatioToFloat((8 - code) * e0 + (code - 1) * e1, 7 * max);
  } else {
    for (int32_t code = 2; code < 6; ++code) palette[code] = RatioToFloat((6 - code) * e0 + (code - 1) * e1, 5 * max);
    palette[6] = is_signed ? -1.0f : 0.0f;
    palette[7] = 1.0f;
  }

  for (unsigned texel = first_texel; texel < end_texel; ++texel) {
    out[texel].f[channel] = palette[(codes >> (3 * texel)) & 7];
  }
}

void FillMissing(unsigned first_channel, unsigned first_texel, unsigned end_texel, TexelValue out[16]) {
  constexpr float kMissing[4] = {0.0f, 0.0f, 0.0f, 1.0f};
  for (unsigned texel = first_texel; texel < end_texel; ++texel) {
    for (unsigned channel = first_channel; channel < 4; ++channel) out[texel].f[channel] = kMissing[channel];
  }
}

// Rows [first_row, first_row + row_count) of one block into out[y * 4 + x].
void DecodeRows(const BcFormat& format, const std::byte* block, unsigned first_row, unsigned row_count,
                TexelValue out[16]) {
  const unsigned first_texel = first_row * 4;
  const unsigned end_texel = (first_row + row_count) * 4;
  switch (format.family) {
    case BcFamily::kBc1:
      DecodeColorBlock(block, false, format.bc1_alpha, format.srgb, first_texel, end_texel, out);
      return;
    case BcFamily::kBc2: {
      DecodeColorBlock(block + 8, true, false, format.srgb, first_texel, end_texel, out);
      // Explicit alpha: 4 bits per texel, texel 0 in the lowest bits.
      const uint64_t alpha_bits = bc_detail::LoadLittleEndian64(block);
      for (unsigned texel = first_texel; texel < end_texel; ++texel) {
        out[texel].f[3] = UnormToFloat(static_cast<uint32_t>((alpha_bits >> (4 * texel)) & 0xF), 4);
      }
      return;
    }
    case BcFamily::kBc3:
      DecodeColorBlock(block + 8, true, false, format.srgb, first_texel, end_texel, out);
      DecodeChannelBlock(block, false, 3, first_texel, end_texel, out);
      return;
    case BcFamily::kBc4:
      DecodeChannelBlock(block, format.is_signed, 0, first_texel, end_texel, out);
      FillMissing(1, first_texel, end_texel, out);
      return;
    case BcFamily::kBc5:
      DecodeChannelBlock(block, format.is_signed, 0, first_texel, end_texel, out);
      DecodeChannelBlock(block + 8, format.is_signed, 1, first_texel, end_texel, out);
      FillMissing(2, first_texel, end_texel, out);
      return;
    case BcFamily::kBc6h:
      bc_detail::DecodeBc6hRows(block, format.is_signed, first_row, row_count, out);
      return;
    case BcFamily::kBc7:
      bc_detail::DecodeBc7Rows(block, format.srgb, first_row, row_count, out);
      return;
  }
}

}  // namespace

bool IsBcFormat(VkFormat format) {
  BcFormat description;
  return DescribeBcFormat(format, &description);
}

bool DecodeBcBlock(VkFormat format, const std::byte* block, TexelValue out[16]) {
  BcFormat description;
  if (!DescribeBcFormat(format, &description)) return false;
  DecodeRows(description, block, 0, 4, out);
  return true;
}

void DecodeBcRow(VkFormat format, const std::byte* block_row, uint32_t line_in_block, uint32_t width,
                 TexelValue* out) {
  BcFormat description;
  if (!DescribeBcFormat(format, &description) || line_in_block >= 4) return;
  TexelValue block_texels[16];
  for (uint32_t x = 0; x < width; x += 4) {
    DecodeRows(description, block_row + static_cast<size_t>(x / 4) * description.block_bytes, line_in_block, 1,
               block_texels);
    const uint32_t count = std::min<uint32_t>(4, width - x);
    std::copy_n(block_texels + line_in_block * 4, count, out + x);
  }
}

}  // namespace duet::texel
