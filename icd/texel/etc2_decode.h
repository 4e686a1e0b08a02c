// Decoding of the ETC2 and EAC block formats (textureCompressionETC2) as
// the Khronos Data Format Specification defines them: 4x4 texel blocks of
// 8 bytes (ETC2 RGB8 and RGB8A1, EAC R11) or 16 bytes (ETC2 RGBA8: an EAC
// alpha block, then an ETC2 colour block; EAC RG11: R, then G). A block
// decodes to 16 TexelValues in R, G, B, A order (f[]):
//   UNORM  8-bit results as c / 255; R11/RG11 11-bit results as v / 2047
//   SNORM  R11/RG11 signed 11-bit results (-1023..1023) as v / 1023
//   SRGB   R, G, B decoded to linear (texel/srgb.h), alpha linear
// Channels a format lacks read G = B = 0 and A = 1. The integer arithmetic
// is the specification's, so the results are exact.
#pragma once

#include <vulkan/vulkan_core.h>

#include <cstddef>

#include "texel/texel_codec.h"

namespace duet::texel {

bool IsEtc2Format(VkFormat format);

// Decodes one 4x4 block into 16 texels, row-major (texel (x, y) at
// out[y * 4 + x]). False, writing nothing, for a format that is not ETC2/EAC.
bool DecodeEtc2Block(VkFormat format, const std::byte* block, TexelValue out[16]);

}  // namespace duet::texel
