// Decoding of the block-compressed BC1-BC7 formats (S3TC, RGTC, BPTC) as
// the Khronos Data Format Specification defines them. Each format stores
// 4x4 texel blocks of 8 bytes (BC1, BC4) or 16 bytes (BC2, BC3, BC5, BC6H,
// BC7); a block decodes to 16 TexelValues in R, G, B, A order (f[]):
//   UNORM  floats in [0, 1]
//   SRGB   R, G, B decoded to linear with texel/srgb.h, alpha linear
//   SNORM  (BC4/BC5) floats in [-1, 1]; the code -128 reads as -1.0
//   BC6H   the block's half-float results converted to float exactly
// Channels a format lacks read G = B = 0 and A = 1 (BC1_RGB, BC4, BC5,
// BC6H). There is no encoder: the driver only samples, blits from and copies
// these formats.
//
// Precision. BPTC (BC6H, BC7) is bit-exact: the spec defines integer
// arithmetic throughout and BC7's 8-bit results become c / 255 (or the sRGB
// table's value). S3TC and RGTC interpolate in real arithmetic
// ((2 * RGB0 + RGB1) / 3 on the UNORM values, and so on): the decoders take
// the exact rational value, e.g. (2 * c0 + c1) / (3 * 31) for a 5-bit
// channel, divide in double and round once to float. That is the spec's value
// to within float precision, and closer to it than the 8-bit hardware
// paths the spec tolerates. Endpoints themselves convert exactly as
// texel/fixed_point.h's UnormToFloat/SnormToFloat, so an endpoint texel
// matches what an uncompressed format holding the same code unpacks to.
// The sRGB BC1-BC3 formats decode the interpolated (encoded) value with
// SrgbToLinear; BC7_SRGB uses the 8-bit table.
//
// Reserved encodings decode as the spec says: a BC7 block whose first byte
// is 0 gives (0, 0, 0, 0) everywhere; a BC6H block with a reserved mode
// gives (0, 0, 0, 1).
#pragma once

#include <vulkan/vulkan_core.h>

#include <cstddef>
#include <cstdint>

#include "texel/texel_codec.h"

namespace duet::texel {

// Whether `format` is one of the BC1-BC7 formats this file decodes.
bool IsBcFormat(VkFormat format);

// Decodes one 4x4 block of a BC format into 16 texels, row-major (texel
// (x, y) at out[y * 4 + x]). Returns false, writing nothing, for a format
// that is not BC.
bool DecodeBcBlock(VkFormat format, const std::byte* block, TexelValue out[16]);

// Texel line `line_in_block` (0..3) of a row of consecutive blocks that
// covers `width` texels (ceil(width / 4) blocks starting at block_row):
// writes out[0 .. width-1]. Writes nothing for a format that is not BC.
// Each block is decoded only for the requested line.
void DecodeBcRow(VkFormat format, const std::byte* block_row, uint32_t line_in_block, uint32_t width,
                 TexelValue* out);

}  // namespace duet::texel
