// The block-compressed formats the driver decodes (BC1-BC7: bc_decode.h;
// ETC2 and EAC: etc2_decode.h; ASTC LDR: astc_decode.h) behind one
// interface, for sampling, fetches and blits, which read them as float values.
#pragma once

#include <vulkan/vulkan_core.h>

#include <cstddef>
#include <cstdint>

#include "texel/texel_codec.h"

namespace duet::texel {

bool IsDecodedBlockFormat(VkFormat format);

// Texel line `line_in_block` (0 .. block height - 1) of a row of consecutive
// blocks that covers `width` texels: writes out[0 .. width-1]. Writes
// nothing for a format that is not decoded.
void DecodeBlockRow(VkFormat format, const std::byte* block_row, uint32_t line_in_block, uint32_t width,
                    TexelValue* out);

// Texel (x, y) of one block (x, y inside the format's block). Zero for a
// format that is not decoded.
TexelValue DecodeBlockTexel(VkFormat format, const std::byte* block, uint32_t x, uint32_t y);

}  // namespace duet::texel
