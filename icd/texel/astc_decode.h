// Decoding of the ASTC LDR formats (textureCompressionASTC_LDR: the 28
// VK_FORMAT_ASTC_{4x4..12x12}_{UNORM,SRGB}_BLOCK formats) as the Khronos
// Data Format Specification defines them. Every block is 16 bytes and covers
// 4x4 to 12x12 texels; a texel decodes to a TexelValue in R, G, B, A order
// (f[]):
//   UNORM  the 16-bit interpolation result C in the default decode mode
//          (decode_float16): 1.0 when C is 0xFFFF, otherwise C / 65536
//          truncated to FP16 precision, as a float
//   SRGB   the top 8 bits of C; R, G, B decoded to linear (texel/srgb.h),
//          alpha as code / 255
// Blocks the LDR profile cannot decode (reserved block modes, weight grids
// or colour data that do not fit, HDR void extents) read as the error colour
// (1, 0, 1, 1), and so do the texels of a partition with an HDR endpoint mode.
//
// Why not libastcenc (in Debian)? Its decoder needs a context per block size
// that costs 4 MB (4x4) to 120 MB (12x12) and 7-30 ms to build, serves one
// thread at a time, and decodes whole blocks; the sampler wants one texel of
// a block from any thread. The tests use libastcenc as the oracle instead:
// random blocks of every block size decode to the same bits here and there.
#pragma once

#include <vulkan/vulkan_core.h>

#include <cstddef>
#include <cstdint>

#include "texel/texel_codec.h"

namespace duet::texel {

bool IsAstcFormat(VkFormat format);

// Texels [0, width) of line `line_in_block` of a row of consecutive blocks
// (ceil(width / block width) blocks from block_row). Writes nothing for a
// format that is not ASTC LDR.
void DecodeAstcRow(VkFormat format, const std::byte* block_row, uint32_t line_in_block, uint32_t width,
                   TexelValue* out);

// Texel (x, y) of one block (x < block width, y < block height).
TexelValue DecodeAstcTexel(VkFormat format, const std::byte* block, uint32_t x, uint32_t y);

}  // namespace duet::texel
