#include "texel/block_decode.h"

#include <algorithm>

#include "texel/astc_decode.h"
#include "texel/bc_decode.h"
#include "texel/etc2_decode.h"
#include "texel/format_info.h"

namespace duet::texel {

bool IsDecodedBlockFormat(VkFormat format) {
  return IsBcFormat(format) || IsEtc2Format(format) || IsAstcFormat(format);
}

void DecodeBlockRow(VkFormat format, const std::byte* block_row, uint32_t line_in_block, uint32_t width,
                    TexelValue* out) {
  if (IsBcFormat(format)) {
    DecodeBcRow(format, block_row, line_in_block, width, out);
    return;
  }
  if (IsAstcFormat(format)) {
    DecodeAstcRow(format, block_row, line_in_block, width, out);
    return;
  }
  if (!IsEtc2Format(format)) return;
  const FormatInfo* info = GetFormatInfo(format);
  const uint32_t block_bytes = info != nullptr ? info->block_size : 8;
  TexelValue block[16];
  for (uint32_t x = 0; x < width; x += 4) {
    DecodeEtc2Block(format, block_row + size_t(x / 4) * block_bytes, block);
    std::copy_n(&block[line_in_block * 4], std::min(4u, width - x), out + x);
  }
}

TexelValue DecodeBlockTexel(VkFormat format, const std::byte* block, uint32_t x, uint32_t y) {
  if (IsAstcFormat(format)) return DecodeAstcTexel(format, block, x, y);
  // BC and ETC2 blocks are 4x4: decode the texel's line up to it.
  TexelValue line[4] = {};
  if (x < 4 && y < 4) DecodeBlockRow(format, block, y, x + 1, line);
  return line[std::min(x, 3u)];
}

}  // namespace duet::texel
