// vkCmdBlitImage: scaled, possibly mirrored, format-converting copies with
// nearest or linear filtering, sampled as the spec defines (texel centres,
// clamp-to-edge addressing) and converted through the texel codecs. A
// block-compressed (BC) source is decoded (texel/bc_decode) and filtered like
// any float format; the destination is never compressed (no encoder).
#pragma once

#include <vulkan/vulkan_core.h>

namespace duet {

struct Image;

namespace raster {

void BlitImage(const Image& src, Image& dst, const VkImageBlit2& region, VkFilter filter);

}  // namespace raster
}  // namespace duet
